package commands

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
)

// Who may change whose ledger entries.
//
// Feishu and the console: the sender id is set by the platform (an
// open_id, "console"); storage.admins lists admins by it and the owner of
// an entry is its sender id.
//
// WeChat: the web protocol has no stable user id, and a nickname is set by
// its owner, so rights never follow a nickname. The WeChat channel makes
// the sender id "remark:<备注>" when the sender is a friend of the bot's
// account with a remark name (备注) that the bot's account gave them and no
// other friend has (a member cannot change a remark the bot's account
// sets); any other sender id (a bare nickname) is "weak" and carries no
// rights: such a member can register disks but not change them later,
// and is never an admin. A WeChat admin is bound, not configured: a friend
// with a strong id says "绑定管理员" in a private chat, the bot prints a
// one-time code on its own console (stderr), and the member sends
// "绑定管理员 <code>" back in that private chat. The bindings are kept in
// the store's blob WeChatAdminsBlob.

// WeChatStrongPrefix starts the sender id the WeChat channel gives a
// friend identified by the remark name the bot's account set (it must
// match internal/chat/wechat's RemarkIDPrefix).
const WeChatStrongPrefix = "remark:"

// WeChatAdminsBlob is the store blob holding the WeChat admin bindings.
const WeChatAdminsBlob = "wechat-admin-bindings"

// Binding codes: how long one is valid, how many wrong tries void it, how
// many a member may ask for per hour.
const (
	BindCodeTTL      = 10 * time.Minute
	BindCodeTries    = 5
	BindCodesPerHour = 3
)

// Blobs keeps named blobs (both stores do).
type Blobs interface {
	GetBlob(ctx context.Context, name string) ([]byte, error)
	PutBlob(ctx context.Context, name string, data []byte) error
}

// WeChatAdmin is one bound WeChat admin.
type WeChatAdmin struct {
	// ID is the strong sender id ("remark:<备注>").
	ID string `json:"id"`
	// Name is the member's nickname when they bound (for lists only).
	Name    string    `json:"name"`
	BoundAt time.Time `json:"bound_at"`
}

type adminBlob struct {
	Version int           `json:"version"`
	Admins  []WeChatAdmin `json:"admins"`
}

// bindCode is a code waiting for its member's reply.
type bindCode struct {
	code    string
	expires time.Time
	tries   int
}

// adminBinder keeps the pending codes (in memory: a restart voids them)
// and reads and writes the bindings.
type adminBinder struct {
	mu      sync.Mutex
	pending map[string]*bindCode   // strong sender id → code
	issued  map[string][]time.Time // strong sender id → when codes were issued
}

func newAdminBinder() *adminBinder {
	return &adminBinder{pending: map[string]*bindCode{}, issued: map[string][]time.Time{}}
}

// binder returns the router's binder (WithStorage makes one per router).
func (o *StorageOptions) binder() *adminBinder { return o.bind }

// isWeChat reports whether the message came through WeChat.
func isWeChat(msg chat.Message) bool { return msg.Channel == "wechat" }

// strongWeChat reports whether a WeChat sender id is one the member
// cannot choose (see WeChatStrongPrefix).
func strongWeChat(id string) bool {
	return strings.HasPrefix(id, WeChatStrongPrefix) && len(id) > len(WeChatStrongPrefix)
}

// ownsDisk reports whether the sender of msg is the owner recorded as
// owner. A WeChat sender owns nothing by a weak id (a nickname).
func ownsDisk(owner string, msg chat.Message) bool {
	if owner == "" || owner != msg.SenderID {
		return false
	}
	return !isWeChat(msg) || strongWeChat(msg.SenderID)
}

// isStorageAdmin reports whether the sender of msg may change any entry:
// a configured admin (never through WeChat, whose sender ids members can
// shape), or a WeChat sender with a strong id bound as admin.
func (r *Router) isStorageAdmin(ctx context.Context, msg chat.Message) bool {
	if msg.SenderID == "" {
		return false
	}
	if !isWeChat(msg) {
		for _, a := range r.storage.Admins {
			if a == msg.SenderID {
				return true
			}
		}
		return false
	}
	if !strongWeChat(msg.SenderID) {
		return false
	}
	admins, err := r.storage.weChatAdmins(ctx)
	if err != nil {
		slog.Warn("storage: reading the WeChat admin bindings failed", "err", err)
		return false
	}
	for _, a := range admins {
		if a.ID == msg.SenderID {
			return true
		}
	}
	return false
}

// weChatAdmins reads the bindings (none without a blob store).
func (o *StorageOptions) weChatAdmins(ctx context.Context) ([]WeChatAdmin, error) {
	if o.Blobs == nil {
		return nil, nil
	}
	b, err := o.Blobs.GetBlob(ctx, WeChatAdminsBlob)
	if err != nil || len(b) == 0 {
		return nil, err
	}
	var ab adminBlob
	if err := json.Unmarshal(b, &ab); err != nil {
		return nil, fmt.Errorf("blob %s: %w", WeChatAdminsBlob, err)
	}
	return ab.Admins, nil
}

// BlobUpdater rewrites a blob from its bytes in one step of the store
// (both stores: no other write, from any replica, comes between the read
// and the write).
type BlobUpdater interface {
	UpdateBlob(ctx context.Context, name string, f func(old []byte) ([]byte, error)) error
}

// updateWeChatAdmins rewrites the bindings with f: in one step of the
// store when it can (BlobUpdater: two admins bound at once on two
// replicas are both kept), else one writer at a time in this process.
// f may run more than once.
func (o *StorageOptions) updateWeChatAdmins(ctx context.Context, f func([]WeChatAdmin) []WeChatAdmin) error {
	rewrite := func(old []byte) ([]byte, error) {
		var ab adminBlob
		if len(old) > 0 {
			if err := json.Unmarshal(old, &ab); err != nil {
				return nil, fmt.Errorf("blob %s: %w", WeChatAdminsBlob, err)
			}
		}
		return json.Marshal(adminBlob{Version: 1, Admins: f(ab.Admins)})
	}
	if u, ok := o.Blobs.(BlobUpdater); ok {
		return u.UpdateBlob(ctx, WeChatAdminsBlob, rewrite)
	}
	b := o.binder()
	b.mu.Lock()
	defer b.mu.Unlock()
	old, err := o.Blobs.GetBlob(ctx, WeChatAdminsBlob)
	if err != nil {
		return err
	}
	data, err := rewrite(old)
	if err != nil {
		return err
	}
	return o.Blobs.PutBlob(ctx, WeChatAdminsBlob, data)
}

// Admin commands, said to the bot (they ride on the storage_list intent's
// patterns): bind (with or without the code), list, unbind a name.
var (
	reBindAdmin   = regexp.MustCompile(`(?i)^\s*(?:绑定管理员|bind\s+admin)\s*[:：]?\s*(\S*)\s*$`)
	reListAdmins  = regexp.MustCompile(`(?i)^\s*(?:管理员列表|存储管理员|list\s+admins|admins)\s*[?？]?\s*$`)
	reUnbindAdmin = regexp.MustCompile(`(?i)^\s*(?:解除管理员|解绑管理员|取消管理员|unbind\s+admin)(?:[\s:：]\s*(.*?))?\s*$`)
)

// storageAdminAnswer answers the admin commands; false when text is none.
func (r *Router) storageAdminAnswer(ctx context.Context, res *Result) bool {
	text := strings.TrimSpace(res.msg.Text)
	switch {
	case reBindAdmin.MatchString(text):
		r.bindAdmin(ctx, res, reBindAdmin.FindStringSubmatch(text)[1])
	case reListAdmins.MatchString(text):
		r.listAdmins(ctx, res)
	case reUnbindAdmin.MatchString(text):
		r.unbindAdmin(ctx, res, reUnbindAdmin.FindStringSubmatch(text)[1])
	default:
		return false
	}
	return true
}

func (r *Router) adminReply(res *Result, zh, en string, args ...any) {
	res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(res.English, zh, en), args...)}
}

// bindAdmin is "绑定管理员" (code is "") and "绑定管理员 <code>".
func (r *Router) bindAdmin(ctx context.Context, res *Result, code string) {
	msg := res.msg
	switch {
	case !isWeChat(msg):
		r.adminReply(res, "绑定管理员只用于微信；飞书和控制台的管理员在配置 storage.admins 里设置。",
			"Binding an admin is for WeChat only; Feishu and console admins are set in storage.admins.")
		return
	case msg.ChatType != chat.P2P:
		r.adminReply(res, "请在和机器人的私聊里发“绑定管理员”。", "Say “bind admin” in a private chat with the bot.")
		return
	case !strongWeChat(msg.SenderID):
		r.adminReply(res, "还不能绑定：机器人的微信号要先给你设置一个独有的备注名（昵称谁都能改，不能作凭据）。请机器人的管理者在手机上设置后再试。",
			"Not yet: the bot's WeChat account must first give you a remark name of your own (anyone can change a nickname, so it proves nothing). Ask whoever runs the bot's phone, then try again.")
		return
	case r.storage.Blobs == nil:
		r.adminReply(res, "绑定需要数据存储，现在没有开启。", "Binding needs the data store, which is not enabled.")
		return
	}
	if code == "" {
		r.issueBindCode(res)
		return
	}
	b := r.storage.binder()
	b.mu.Lock()
	p := b.pending[msg.SenderID]
	now := r.now()
	var verdict string
	switch {
	case p == nil:
		verdict = "none"
	case !now.Before(p.expires):
		delete(b.pending, msg.SenderID)
		verdict = "expired"
	case subtle.ConstantTimeCompare([]byte(normCode(code)), []byte(p.code)) != 1:
		p.tries++
		verdict = "wrong"
		if p.tries >= BindCodeTries {
			delete(b.pending, msg.SenderID)
			verdict = "spent"
		}
	default:
		delete(b.pending, msg.SenderID) // single use
		verdict = "ok"
	}
	left := 0
	if p != nil {
		left = BindCodeTries - p.tries
	}
	b.mu.Unlock()

	switch verdict {
	case "none":
		r.adminReply(res, "没有待确认的验证码，请先发“绑定管理员”。", "No code is waiting; say “bind admin” first.")
	case "expired":
		r.adminReply(res, "验证码已过期，请重新发“绑定管理员”。", "The code has expired; say “bind admin” again.")
	case "spent":
		r.adminReply(res, "验证码错误次数太多，已作废。请重新发“绑定管理员”。", "Too many wrong codes; it is void. Say “bind admin” again.")
	case "wrong":
		r.adminReply(res, "验证码不对，还可以试 %d 次。", "Wrong code; %d tries left.", left)
	case "ok":
		err := r.storage.updateWeChatAdmins(ctx, func(list []WeChatAdmin) []WeChatAdmin {
			out := list[:0:0]
			for _, a := range list {
				if a.ID != msg.SenderID {
					out = append(out, a)
				}
			}
			return append(out, WeChatAdmin{ID: msg.SenderID, Name: msg.SenderName, BoundAt: now})
		})
		if err != nil {
			res.Reply = storeError(res.English, err).Reply(nil)
			return
		}
		slog.Info("storage: WeChat admin bound", "name", msg.SenderName)
		r.adminReply(res, "已绑定：你现在是存储账本的管理员。机器人给你的备注名改了就要重新绑定。",
			"Bound: you are now a storage ledger admin. If the bot's remark name for you changes, bind again.")
	}
}

// issueBindCode makes a code for the sender and prints it on the console.
func (r *Router) issueBindCode(res *Result) {
	msg := res.msg
	b := r.storage.binder()
	now := r.now()
	b.mu.Lock()
	recent := b.issued[msg.SenderID][:0:0]
	for _, t := range b.issued[msg.SenderID] {
		if now.Sub(t) < time.Hour {
			recent = append(recent, t)
		}
	}
	if len(recent) >= BindCodesPerHour {
		b.issued[msg.SenderID] = recent
		b.mu.Unlock()
		r.adminReply(res, "一小时内只能要 %d 次验证码，请稍后再试。", "At most %d codes an hour; try again later.", BindCodesPerHour)
		return
	}
	code, err := newBindCode()
	if err != nil {
		b.mu.Unlock()
		res.Reply = storeError(res.English, err).Reply(nil)
		return
	}
	b.issued[msg.SenderID] = append(recent, now)
	b.pending[msg.SenderID] = &bindCode{code: code, expires: now.Add(BindCodeTTL)} // replaces an older code
	b.mu.Unlock()

	out := r.storage.Console
	if out == nil {
		out = os.Stderr
	}
	fmt.Fprintf(out, "\n*** WeChat admin binding: %q asks to become a storage admin. One-time code %s (valid %d min, single use). "+
		"Give it only to that person, in person; they reply “绑定管理员 %s” in their private chat with the bot. ***\n\n",
		msg.SenderName, code, int(BindCodeTTL/time.Minute), code)
	slog.Info("storage: WeChat admin binding code issued (printed on the console)", "name", msg.SenderName)
	r.adminReply(res, "验证码已打印在机器人的控制台/日志里（%d 分钟内有效，只能用一次）。向运行机器人的人要到后，在这里回复：绑定管理员 <验证码>",
		"A one-time code is printed on the bot's console/log (valid %d minutes, single use). Get it from whoever runs the bot and reply here: bind admin <code>",
		int(BindCodeTTL/time.Minute))
}

// newBindCode is six random digits.
func newBindCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// normCode keeps the digits of a typed code (full-width digits folded).
func normCode(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			b.WriteRune(c)
		case c >= '０' && c <= '９':
			b.WriteRune('0' + c - '０')
		}
	}
	return b.String()
}

// listAdmins is "管理员列表": the bound WeChat admins (admins only).
func (r *Router) listAdmins(ctx context.Context, res *Result) {
	if !r.isStorageAdmin(ctx, res.msg) {
		r.adminReply(res, "只有管理员能查看管理员列表。", "Only an admin can list the admins.")
		return
	}
	admins, err := r.storage.weChatAdmins(ctx)
	if err != nil {
		res.Reply = storeError(res.English, err).Reply(nil)
		return
	}
	en := res.English
	if len(admins) == 0 {
		r.adminReply(res, "还没有绑定的微信管理员。", "No WeChat admins are bound.")
		return
	}
	rows := make([][]string, 0, len(admins))
	for _, a := range admins {
		rows = append(rows, []string{a.Name, strings.TrimPrefix(a.ID, WeChatStrongPrefix), r.rd.Clock.Date(a.BoundAt)})
	}
	res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "微信管理员（%d）", "WeChat admins (%d)"), len(admins)),
		Table: &chat.Table{Header: strings.Split(answer.Pick(en, "昵称|备注名|绑定日期", "nickname|remark|bound"), "|"), Rows: rows},
		Notes: []string{answer.Pick(en, "解除：解除管理员 <昵称或备注名>", "Remove: unbind admin <nickname or remark>")}}
}

// unbindAdmin is "解除管理员 <name>": an admin removes a binding, by the
// nickname it was bound with or the remark name.
func (r *Router) unbindAdmin(ctx context.Context, res *Result, name string) {
	if !r.isStorageAdmin(ctx, res.msg) {
		r.adminReply(res, "只有管理员能解除绑定。", "Only an admin can remove a binding.")
		return
	}
	if name == "" {
		r.adminReply(res, "请说明解除谁，例如：解除管理员 张三", "Say whom, e.g. unbind admin Alice")
		return
	}
	if r.storage.Blobs == nil {
		r.adminReply(res, "没有绑定的微信管理员。", "No WeChat admins are bound.")
		return
	}
	removed := 0
	err := r.storage.updateWeChatAdmins(ctx, func(list []WeChatAdmin) []WeChatAdmin {
		var hits []int
		for i, a := range list {
			if a.ID == WeChatStrongPrefix+name {
				hits = []int{i} // the remark name is unique: it wins
				break
			}
			if a.Name == name {
				hits = append(hits, i)
			}
		}
		if len(hits) != 1 {
			removed = len(hits)
			return list
		}
		removed = 1
		return append(list[:hits[0]:hits[0]], list[hits[0]+1:]...)
	})
	switch {
	case err != nil:
		res.Reply = storeError(res.English, err).Reply(nil)
	case removed == 0:
		r.adminReply(res, "没有叫“%s”的微信管理员。说“管理员列表”查看。", "No WeChat admin named “%s”. Say “list admins” to see them.", name)
	case removed > 1:
		r.adminReply(res, "有 %d 个管理员叫“%s”，请用备注名。", "%d admins are named “%s”; use the remark name.", removed, name)
	default:
		r.adminReply(res, "已解除“%s”的管理员绑定。", "“%s” is no longer an admin.", name)
	}
}

// weakWeChatNote is the note an add gets when its owner is only a
// nickname: nobody but an admin can change the entry later.
func weakWeChatNote(msg chat.Message, en bool) string {
	if !isWeChat(msg) || strongWeChat(msg.SenderID) {
		return ""
	}
	return answer.Pick(en, "你在机器人的微信里没有独有的备注名（昵称谁都能改），这条以后只有管理员能改；请机器人的管理者给你设置备注。",
		"The bot's WeChat has no remark name of yours (anyone can change a nickname), so only an admin can change this entry; ask whoever runs the bot to set one.")
}
