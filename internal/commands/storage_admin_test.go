package commands_test

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/store/embedded"
)

// adminRouter is a storage router on st with "boss" (Feishu-style) as the
// configured admin and codes printed to console.
func adminRouter(t *testing.T, st *embedded.Store, now *time.Time, console *bytes.Buffer) *commands.Router {
	t.Helper()
	cat := testCatalog(t)
	return newRouterWith(t, commands.WithClock(func() time.Time { return *now }),
		commands.WithStorage(commands.StorageOptions{Ledger: st, Blobs: st, Console: console, Admins: []string{"boss", "console"},
			Price: ledger.CatalogStoragePrice(cat, nil)}))
}

// wx is a WeChat message; private chats have the friend's remark (or
// nickname) as ChatID, like the channel sets it.
func wx(r *commands.Router, chatType chat.ChatType, chatID, senderID, name, text string) commands.Result {
	return r.Answer(context.Background(), chat.Message{Channel: "wechat", ChatType: chatType, ChatID: chatID, SenderID: senderID, SenderName: name, Text: text})
}

var reCode = regexp.MustCompile(`code (\d{6})`)

// lastCode is the last code printed on the console.
func lastCode(t *testing.T, console *bytes.Buffer) string {
	t.Helper()
	m := reCode.FindAllStringSubmatch(console.String(), -1)
	if len(m) == 0 {
		t.Fatalf("no code on the console: %q", console.String())
	}
	return m[len(m)-1][1]
}

const (
	aliceID = "remark:alice-lab" // Alice, a friend with the bot's remark
	lab     = "Lab Group"
)

func openStore(t *testing.T, dir string) *embedded.Store {
	t.Helper()
	st, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestWeChatAdminBinding(t *testing.T) {
	dir := t.TempDir()
	st := openStore(t, dir)
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	var console bytes.Buffer
	r := adminRouter(t, st, &now, &console)

	// Bob registers a disk in the group (strong id).
	if res := wx(r, chat.Group, lab, "remark:bob", "Bob", "登记存储 AutoDL 数据盘 80G"); !strings.Contains(res.Text, "#1") {
		t.Fatalf("add: %s", res.Text)
	}
	// Not yet an admin: Alice cannot stop Bob's disk.
	if res := wx(r, chat.Group, lab, aliceID, "Alice", "存储 1 已关机"); !strings.Contains(res.Text, "只有本人或管理员") {
		t.Fatalf("before binding: %s", res.Text)
	}
	// Binding is for private chats, and needs a strong id.
	if res := wx(r, chat.Group, lab, aliceID, "Alice", "绑定管理员"); !strings.Contains(res.Text, "私聊") || console.Len() != 0 {
		t.Errorf("bind in a group: %s", res.Text)
	}
	if res := wx(r, chat.P2P, "Alice", "Alice", "Alice", "绑定管理员"); !strings.Contains(res.Text, "备注名") || console.Len() != 0 {
		t.Errorf("bind by nickname: %s", res.Text)
	}
	// No code asked for yet.
	if res := wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "绑定管理员 123456"); !strings.Contains(res.Text, "没有待确认") {
		t.Errorf("code without asking: %s", res.Text)
	}

	// Ask: the code goes to the console, never to the chat.
	res := wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "绑定管理员")
	code := lastCode(t, &console)
	if !strings.Contains(res.Text, "控制台") || strings.Contains(res.Text, code) {
		t.Fatalf("ask: %s", res.Text)
	}
	// Wrong code, then expired.
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	if res := wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "绑定管理员 "+wrong); !strings.Contains(res.Text, "不对") || !strings.Contains(res.Text, "4 次") {
		t.Errorf("wrong code: %s", res.Text)
	}
	now = now.Add(commands.BindCodeTTL + time.Second)
	if res := wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "绑定管理员 "+code); !strings.Contains(res.Text, "过期") {
		t.Errorf("expired code: %s", res.Text)
	}

	// A new code; another member cannot use it (it is Alice's).
	wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "绑定管理员")
	code = lastCode(t, &console)
	if res := wx(r, chat.P2P, "carol", "remark:carol", "Carol", "绑定管理员 "+code); !strings.Contains(res.Text, "没有待确认") {
		t.Errorf("someone else's code: %s", res.Text)
	}
	// The right code (full-width digits are fine) binds.
	full := strings.Map(func(c rune) rune { return c - '0' + '０' }, code)
	if res := wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "绑定管理员："+full); !strings.Contains(res.Text, "已绑定") {
		t.Fatalf("right code: %s", res.Text)
	}
	// Single use.
	if res := wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "绑定管理员 "+code); !strings.Contains(res.Text, "没有待确认") {
		t.Errorf("code reused: %s", res.Text)
	}
	// Now Alice is an admin, in the group too.
	if res := wx(r, chat.Group, lab, aliceID, "阿丽", "存储 1 已关机"); !strings.Contains(res.Text, "已记为关机") {
		t.Errorf("bound admin: %s", res.Text)
	}

	// Spoofing: Mallory renames herself "Alice" (nickname, even the
	// display name): her id is the weak nickname, which is no admin.
	if res := wx(r, chat.Group, lab, "Alice", "阿丽", "存储 1 开机"); !strings.Contains(res.Text, "只有本人或管理员") {
		t.Errorf("renamed member acts as admin: %s", res.Text)
	}
	// A WeChat nickname equal to a configured admin id is no admin either.
	if res := wx(r, chat.Group, lab, "boss", "boss", "存储 1 开机"); !strings.Contains(res.Text, "只有本人或管理员") {
		t.Errorf("WeChat 'boss' acts as admin: %s", res.Text)
	}
	if res := wx(r, chat.Group, lab, "console", "console", "存储 1 开机"); !strings.Contains(res.Text, "只有本人或管理员") {
		t.Errorf("WeChat 'console' acts as admin: %s", res.Text)
	}
	// Lists: admins only, no ids beyond the names.
	if res := wx(r, chat.P2P, "Alice", "Alice", "Alice", "管理员列表"); !strings.Contains(res.Text, "只有管理员") {
		t.Errorf("list by a non-admin: %s", res.Text)
	}
	if res := wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "管理员列表"); !strings.Contains(res.Text, "Alice") || strings.Contains(res.Text, "remark:") {
		t.Errorf("list: %s", res.Text)
	}

	// The binding survives a restart (the store's blob); codes do not.
	st.Close()
	st = openStore(t, dir)
	t.Cleanup(func() { st.Close() })
	r = adminRouter(t, st, &now, &console)
	if res := wx(r, chat.Group, lab, aliceID, "阿丽", "存储 1 开机"); !strings.Contains(res.Text, "已记为开机") {
		t.Errorf("after restart: %s", res.Text)
	}
	// Feishu/console admins are unaffected, and can unbind.
	if res := r.Answer(context.Background(), chat.Message{Channel: "console", ChatID: "console", SenderID: "console", Text: "解除管理员 Alice"}); !strings.Contains(res.Text, "已解除") {
		t.Errorf("unbind: %s", res.Text)
	}
	if res := wx(r, chat.Group, lab, aliceID, "阿丽", "存储 1 已关机"); !strings.Contains(res.Text, "只有本人或管理员") {
		t.Errorf("after unbind: %s", res.Text)
	}
}

func TestBindCodeTriesAndRate(t *testing.T) {
	st := openStore(t, t.TempDir())
	t.Cleanup(func() { st.Close() })
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	var console bytes.Buffer
	r := adminRouter(t, st, &now, &console)
	wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "绑定管理员")
	code := lastCode(t, &console)
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	var res commands.Result
	for i := 0; i < commands.BindCodeTries; i++ {
		res = wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "bind admin "+wrong)
	}
	if !strings.Contains(res.Text, "作废") {
		t.Errorf("after %d wrong codes: %s", commands.BindCodeTries, res.Text)
	}
	if res := wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "bind admin "+code); strings.Contains(res.Text, "已绑定") {
		t.Errorf("the right code works after the tries ran out: %s", res.Text)
	}
	// At most BindCodesPerHour codes an hour.
	for i := 1; i < commands.BindCodesPerHour; i++ {
		wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "绑定管理员")
	}
	if res := wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "绑定管理员"); !strings.Contains(res.Text, "一小时") {
		t.Errorf("code flood: %s", res.Text)
	}
	now = now.Add(time.Hour)
	if res := wx(r, chat.P2P, "alice-lab", aliceID, "Alice", "bind admin"); strings.Contains(res.Text, "一小时") || strings.Contains(res.Text, "an hour") {
		t.Errorf("after an hour: %s", res.Text)
	}
}

// Ledger ownership in WeChat: an entry registered under a nickname (a weak
// id) cannot be changed by whoever has that nickname now; a strong owner
// keeps their rights; Feishu owners are unaffected.
func TestWeChatOwnership(t *testing.T) {
	st := openStore(t, t.TempDir())
	t.Cleanup(func() { st.Close() })
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	var console bytes.Buffer
	r := adminRouter(t, st, &now, &console)
	res := wx(r, chat.Group, lab, "Dave", "Dave", "登记存储 AutoDL 数据盘 80G")
	if !strings.Contains(res.Text, "#1") || !strings.Contains(res.Text, "只有管理员能改") {
		t.Fatalf("weak add: %s", res.Text)
	}
	if res := wx(r, chat.Group, lab, "Dave", "Dave", "存储 1 已关机"); !strings.Contains(res.Text, "昵称") || strings.Contains(res.Text, "已记为关机") {
		t.Errorf("a nickname acts as owner: %s", res.Text)
	}
	wx(r, chat.Group, lab, "remark:erin", "Erin", "登记存储 AutoDL 数据盘 80G")
	if res := wx(r, chat.Group, lab, "remark:erin", "Erin", "存储 2 已关机"); !strings.Contains(res.Text, "已记为关机") {
		t.Errorf("strong owner: %s", res.Text)
	}
	// Erin's nickname taken by someone else: still refused.
	if res := wx(r, chat.Group, lab, "Erin", "Erin", "存储 2 开机"); !strings.Contains(res.Text, "只有本人或管理员") {
		t.Errorf("renamed member acts as owner: %s", res.Text)
	}
	// Feishu: owner and configured admin as before.
	feishu := func(sender, text string) commands.Result {
		return r.Answer(context.Background(), chat.Message{Channel: "feishu", ChatType: chat.Group, ChatID: "oc_1", SenderID: sender, SenderName: sender, Text: text})
	}
	feishu("ou_frank", "登记存储 AutoDL 数据盘 80G")
	if res := feishu("ou_frank", "存储 1 已关机"); !strings.Contains(res.Text, "已记为关机") {
		t.Errorf("feishu owner: %s", res.Text)
	}
	if res := feishu("ou_other", "存储 1 开机"); !strings.Contains(res.Text, "只有本人或管理员") {
		t.Errorf("feishu non-owner: %s", res.Text)
	}
	if res := feishu("boss", "存储 1 开机"); !strings.Contains(res.Text, "已记为开机") {
		t.Errorf("feishu admin: %s", res.Text)
	}
}
