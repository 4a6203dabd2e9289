package answer

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"
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

// IsWeChat reports whether the asker wrote through WeChat.
func (a Asker) IsWeChat() bool { return a.Channel == "wechat" }

// StrongWeChat reports whether a WeChat sender id is one the member
// cannot choose (see WeChatStrongPrefix).
func StrongWeChat(id string) bool {
	return strings.HasPrefix(id, WeChatStrongPrefix) && len(id) > len(WeChatStrongPrefix)
}

// WeakWeChat reports whether the asker writes through WeChat under an id
// anyone can take (a nickname): nobody but an admin can change what they
// register.
func (a Asker) WeakWeChat() bool { return a.IsWeChat() && !StrongWeChat(a.SenderID) }

// OwnsDisk reports whether the asker is the owner recorded as owner. A
// WeChat sender owns nothing by a weak id (a nickname).
func (a Asker) OwnsDisk(owner string) bool {
	return owner != "" && owner == a.SenderID && !a.WeakWeChat()
}

// IsAdmin reports whether the asker may change any entry: a configured
// admin (never through WeChat, whose sender ids members can shape), or a
// WeChat sender with a strong id bound as admin.
func (s *Storage) IsAdmin(ctx context.Context, from Asker) bool {
	switch {
	case from.SenderID == "":
		return false
	case !from.IsWeChat():
		return slices.Contains(s.Admins, from.SenderID)
	case !StrongWeChat(from.SenderID):
		return false
	}
	admins, err := s.WeChatAdmins(ctx)
	if err != nil {
		slog.Warn("storage: reading the WeChat admin bindings failed", "err", err)
		return false
	}
	return slices.ContainsFunc(admins, func(a WeChatAdmin) bool { return a.ID == from.SenderID })
}

// WeChatAdmins reads the bindings (none without a blob store).
func (s *Storage) WeChatAdmins(ctx context.Context) ([]WeChatAdmin, error) {
	if s.Blobs == nil {
		return nil, nil
	}
	b, err := s.Blobs.GetBlob(ctx, WeChatAdminsBlob)
	if err != nil || len(b) == 0 {
		return nil, err
	}
	var ab adminBlob
	if err := json.Unmarshal(b, &ab); err != nil {
		return nil, fmt.Errorf("blob %s: %w", WeChatAdminsBlob, err)
	}
	return ab.Admins, nil
}

// UpdateWeChatAdmins rewrites the bindings with f: in one step of the
// store when it can (BlobUpdater: two admins bound at once on two
// replicas are both kept), else one writer at a time in this process.
// f may run more than once.
func (s *Storage) UpdateWeChatAdmins(ctx context.Context, f func([]WeChatAdmin) []WeChatAdmin) error {
	rewrite := func(old []byte) ([]byte, error) {
		var ab adminBlob
		if len(old) > 0 {
			if err := json.Unmarshal(old, &ab); err != nil {
				return nil, fmt.Errorf("blob %s: %w", WeChatAdminsBlob, err)
			}
		}
		return json.Marshal(adminBlob{Version: 1, Admins: f(ab.Admins)})
	}
	if u, ok := s.Blobs.(BlobUpdater); ok {
		return u.UpdateBlob(ctx, WeChatAdminsBlob, rewrite)
	}
	s.bind.mu.Lock()
	defer s.bind.mu.Unlock()
	old, err := s.Blobs.GetBlob(ctx, WeChatAdminsBlob)
	if err != nil {
		return err
	}
	data, err := rewrite(old)
	if err != nil {
		return err
	}
	return s.Blobs.PutBlob(ctx, WeChatAdminsBlob, data)
}

// bindCode is a code waiting for its member's reply.
type bindCode struct {
	code    string
	expires time.Time
	tries   int
}

// binder keeps the pending codes and when each member asked for one.
type binder struct {
	mu      sync.Mutex
	pending map[string]*bindCode   // strong sender id → code
	issued  map[string][]time.Time // strong sender id → when codes were issued
}

func newBinder() *binder {
	return &binder{pending: map[string]*bindCode{}, issued: map[string][]time.Time{}}
}

// IssueCode makes a one-time code for a sender, valid BindCodeTTL from
// now, replacing an older one; ErrTooManyCodes when the sender asked for
// BindCodesPerHour within the hour.
func (s *Storage) IssueCode(sender string, now time.Time) (string, error) {
	b := s.bind
	b.mu.Lock()
	defer b.mu.Unlock()
	recent := b.issued[sender][:0:0]
	for _, t := range b.issued[sender] {
		if now.Sub(t) < time.Hour {
			recent = append(recent, t)
		}
	}
	if len(recent) >= BindCodesPerHour {
		b.issued[sender] = recent
		return "", ErrTooManyCodes
	}
	code, err := newBindCode()
	if err != nil {
		return "", err
	}
	b.issued[sender] = append(recent, now)
	b.pending[sender] = &bindCode{code: code, expires: now.Add(BindCodeTTL)}
	return code, nil
}

// ErrTooManyCodes: the member asked for BindCodesPerHour codes within
// the hour.
var ErrTooManyCodes = fmt.Errorf("at most %d binding codes an hour", BindCodesPerHour)

// What a typed code is found to be (CheckCode).
const (
	CodeNone    = "none"    // no code is waiting for the sender
	CodeExpired = "expired" // it was older than BindCodeTTL (now void)
	CodeWrong   = "wrong"   // not the code; tries are left
	CodeSpent   = "spent"   // wrong BindCodeTries times (now void)
	CodeOK      = "ok"      // the code (now used up)
)

// CheckCode checks a code the sender typed (digits, full-width ones
// folded) against the one waiting for them, in constant time; a code is
// used once. left is how many tries a wrong code leaves.
func (s *Storage) CheckCode(sender, typed string, now time.Time) (verdict string, left int) {
	b := s.bind
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.pending[sender]
	switch {
	case p == nil:
		return CodeNone, 0
	case !now.Before(p.expires):
		delete(b.pending, sender)
		verdict = CodeExpired
	case subtle.ConstantTimeCompare([]byte(normCode(typed)), []byte(p.code)) != 1:
		p.tries++
		verdict = CodeWrong
		if p.tries >= BindCodeTries {
			delete(b.pending, sender)
			verdict = CodeSpent
		}
	default:
		delete(b.pending, sender) // single use
		verdict = CodeOK
	}
	return verdict, BindCodeTries - p.tries
}

// newBindCode is six random digits.
func newBindCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// Full-width digits (U+FF10–U+FF19), as a Chinese keyboard types them.
const fullWidthZero, fullWidthNine = 0xff10, 0xff19

// normCode keeps the digits of a typed code (full-width digits folded).
func normCode(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			b.WriteRune(c)
		case c >= fullWidthZero && c <= fullWidthNine:
			b.WriteRune('0' + c - fullWidthZero)
		}
	}
	return b.String()
}
