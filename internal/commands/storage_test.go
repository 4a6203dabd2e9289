package commands_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/render/ledgerview"
	"github.com/labgpu/bot/internal/store/embedded"
)

// storageRouter is a router with the storage commands on a real embedded
// store, a clock the test moves, Asia/Shanghai, and "boss" as admin.
func storageRouter(t *testing.T) (*commands.Router, *embedded.Store, *time.Time) {
	t.Helper()
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat := testCatalog(t)
	loc, _ := time.LoadLocation("Asia/Shanghai")
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, loc) // Monday of 2026-W48
	overrides := map[string]float64{"autodl": 0.01, "matpool": 0.02}
	r := newRouterWith(t, commands.WithClock(func() time.Time { return now }), commands.WithLocation(loc),
		commands.WithStorage(commands.StorageOptions{Ledger: st, Admins: []string{"boss"}, Overrides: overrides,
			Price: ledger.CatalogStoragePrice(cat, overrides)}))
	return r, st, &now
}

func TestStorageCommands(t *testing.T) {
	r, st, now := storageRouter(t)
	res := from(r, "lab1", "alice", "登记存储 AutoDL 数据盘 80G 实验数据")
	// (80 − 50 free) × 0.01 = 0.30 a day, 9.0 per 30 days.
	if res.Intent != commands.IntentStorageAdd || !strings.Contains(whole(res), "#1") || !strings.Contains(whole(res), "0.30 元/天") || !strings.Contains(whole(res), "9.0 元/30天") {
		t.Fatalf("add: %s", res.Text)
	}
	from(r, "lab1", "bob", "记一下：矩池云 200GB 数据集盘")
	from(r, "lab2", "carol", "storage add autodl 500GB")
	if res := from(r, "lab1", "alice", "登记存储 100G"); !strings.Contains(whole(res), "没有登记") || !strings.Contains(whole(res), "平台") {
		t.Errorf("add without platform: %s", res.Text)
	}

	// Lists: the chat's, then mine; lab2's disk never shows in lab1.
	*now = now.Add(24 * time.Hour)
	res = from(r, "lab1", "alice", "存储列表")
	if res.Reply.Table == nil || len(res.Reply.Table.Rows) != 2 || strings.Contains(whole(res), "500 GB") || !strings.Contains(whole(res), "117.0") {
		t.Errorf("list: %s", res.Text) // bob: (200 − 5 free on Matpool) × 0.02 × 30 = 117.0
	}
	if res := from(r, "lab1", "alice", "我的存储"); res.Reply.Table == nil || len(res.Reply.Table.Rows) != 1 || res.Reply.Table.Rows[0][0] != "#1" {
		t.Errorf("mine: %s", res.Text)
	}

	// Only the owner or an admin changes an entry.
	if res := from(r, "lab1", "alice", "存储 2 已关机"); !strings.Contains(whole(res), "只有本人或管理员") {
		t.Errorf("alice stops bob's disk: %s", res.Text)
	}
	if res := from(r, "lab1", "bob", "存储 2 已关机"); !strings.Contains(whole(res), "已记为关机") {
		t.Errorf("bob stops his disk: %s", res.Text)
	}
	if res := from(r, "lab1", "bob", "存储 2 已关机"); !strings.Contains(whole(res), "已经是关机") {
		t.Errorf("stop twice: %s", res.Text)
	}
	if res := from(r, "lab1", "alice", "存储 1 扩容到 150G"); !strings.Contains(whole(res), "150 GB") || !strings.Contains(whole(res), "1.00 元/天") {
		t.Errorf("resize: %s", res.Text)
	}
	if res := from(r, "lab1", "boss", "删除存储 2"); !strings.Contains(whole(res), "已从账本删除") {
		t.Errorf("admin removes: %s", res.Text)
	}
	if res := from(r, "lab1", "alice", "删除存储 9"); !strings.Contains(whole(res), "没有编号 #9") {
		t.Errorf("unknown disk: %s", res.Text)
	}
	if res := from(r, "lab2", "carol", "删除存储 1"); !strings.Contains(whole(res), "已从账本删除") || !strings.Contains(whole(res), "500 GB") {
		t.Errorf("lab2's own #1: %s", res.Text)
	}
	ev, _ := st.StorageEvents(context.Background(), "test/lab1")
	if len(ev) != 5 { // add, add, stop, resize, remove
		t.Errorf("lab1 ledger has %d events: %+v", len(ev), ev)
	}
	if res := from(r, "lab1", "alice", "开启周报"); !strings.Contains(whole(res), "已开启") {
		t.Errorf("digest on: %s", res.Text)
	}
	if chats, _ := st.DigestChats(context.Background()); len(chats) != 1 || chats[0] != "test/lab1" {
		t.Errorf("digest chats %v", chats)
	}
	if res := from(r, "lab1", "alice", "digest off"); !strings.Contains(whole(res), "is off") {
		t.Errorf("digest off: %s", res.Text)
	}
	if chats, _ := st.DigestChats(context.Background()); len(chats) != 0 {
		t.Errorf("digest chats after off %v", chats)
	}
	if ev[1].OwnerName != "bob" || ev[4].Owner != "bob" || ev[4].Action != ledger.ActionRemove {
		t.Errorf("events keep the owner: %+v", ev)
	}
}

// TestDigestCommand: the week so far and the last full week, by hand.
func TestDigestCommand(t *testing.T) {
	r, _, now := storageRouter(t)
	from(r, "lab1", "alice", "登记存储 AutoDL 80G") // Mon 23 Nov 10:00: 0.30 a day
	*now = now.Add(48 * time.Hour)              // Wed 25 Nov 10:00
	from(r, "lab1", "bob", "登记存储 矩池云 100G")     // (100 − 5 free) × 0.02 = 1.90 a day
	*now = now.Add(24 * time.Hour)              // Thu 26 Nov 10:00
	res := from(r, "lab1", "alice", "本周存储花费")
	// alice 3 days × 0.30 = 0.90; bob 1 day × 1.90.
	if digestOf(res) == nil || !near(digestOf(res).TotalCNY, 2.8) || digestOf(res).Week != "2026-W48" {
		t.Fatalf("digest so far: %+v\n%s", digestOf(res), res.Text)
	}
	if !strings.Contains(whole(res), "合计 2.80 元") || !strings.Contains(whole(res), "bob 1.90（68%）") || !strings.Contains(whole(res), "截至") ||
		!strings.Contains(whole(res), "矩池云 0.02 元/GB·天（免费 5 GB，本实验室配置）") {
		t.Errorf("digest text: %s", res.Text)
	}
	*now = time.Date(2026, 12, 1, 9, 0, 0, 0, now.Location()) // Tuesday of W49
	res = from(r, "lab1", "alice", "上周存储花费")
	// W48 in full: alice Mon 10:00 → Mon 00:00 = 6d14h × 0.30 = 1.975; bob Wed 10:00 → 4d14h × 1.90 = 8.7083.
	want := 0.30*(6+14.0/24) + 1.90*(4+14.0/24)
	if digestOf(res) == nil || digestOf(res).Week != "2026-W48" || !nearRounded(digestOf(res).TotalCNY, want) || digestOf(res).DeltaPct != nil {
		t.Errorf("last week: %+v", digestOf(res))
	}
	if res := from(r, "lab1", "alice", "storage spend this week"); !res.English || !strings.Contains(whole(res), "Storage spend 2026-W49") {
		t.Errorf("English digest: %s", res.Text)
	}
	if res := from(r, "lab1", "alice", "存储周报 2026-W60"); !strings.Contains(whole(res), "做不了周报") {
		t.Errorf("bad week: %s", res.Text)
	}
	// Another chat sees nothing of lab1's.
	if res := from(r, "lab9", "eve", "本周存储花费"); digestOf(res) == nil || digestOf(res).TotalCNY != 0 || strings.Contains(whole(res), "alice") {
		t.Errorf("lab9: %s", res.Text)
	}
}

func TestStorageOff(t *testing.T) {
	r := newRouter(t)
	res := r.Answer(context.Background(), chat.Message{Channel: "test", ChatID: "x", SenderID: "a", Text: "我的存储"})
	if !strings.Contains(whole(res), "没有开启") {
		t.Errorf("without a ledger: %s", res.Text)
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

// nearRounded compares a figure answers round to 0.0001 CNY.
func nearRounded(a, b float64) bool { d := a - b; return d < 5e-5 && d > -5e-5 }

// A new user's test: a second disk in one message was dropped without a
// word, and stopping a 恒源云 disk never said /hy-tmp is emptied in 24 h.
func TestStorageSecondDiskAndStopWarning(t *testing.T) {
	r, st, _ := storageRouter(t)
	ctx := context.Background()
	if res := from(r, "lab1", "alice", "登记存储 AutoDL 数据盘 2TB 和 恒源云 100G"); !strings.Contains(res.Text, "两个大小") {
		t.Errorf("two sizes: %q", res.Text)
	}
	if ev, _ := st.StorageEvents(ctx, "test/lab1"); len(ev) != 0 {
		t.Fatalf("two sizes registered %d events", len(ev))
	}
	from(r, "lab1", "alice", "帮我记一下 恒源云 盘 500个G 放数据集")
	from(r, "lab1", "alice", "登记存储 autodl 两百g")
	if res := from(r, "lab1", "alice", "删除存储 1 2"); !strings.Contains(res.Text, "两个编号") || !strings.Contains(res.Text, "什么都没改") {
		t.Errorf("two ids: %q", res.Text)
	}
	res := from(r, "lab1", "alice", "存储 1 已关机")
	text := whole(res)
	for _, want := range []string{"#1 已记为关机", "约 24 小时后（11-24 10:00）：/hy-tmp 本地盘上的数据会被清空", "随实例释放", "要保留数据"} {
		if !strings.Contains(text, want) {
			t.Errorf("stop reply lacks %q:\n%s", want, text)
		}
	}
	// AutoDL's 15-day release is said at the stop too, with its date.
	if res := from(r, "lab1", "alice", "存储 2 已关机"); !strings.Contains(whole(res), "（12-08 10:00）随实例释放") {
		t.Errorf("AutoDL stop reply:\n%s", whole(res))
	}
}

// A month that is over is given as its total, not "至今" and a forecast;
// the list is in number order and says when its total leaves disks out.
func TestStorageLastMonthAndList(t *testing.T) {
	r, _, now := storageRouter(t)
	from(r, "lab1", "alice", "登记存储 AutoDL 数据盘 100G")
	for range 9 {
		from(r, "lab1", "alice", "登记存储 AutoDL 数据盘 60G")
	}
	from(r, "lab1", "alice", "登记存储 揽睿星舟 200G")
	res := from(r, "lab1", "alice", "存储列表")
	text := whole(res)
	if i, j := strings.Index(text, "#2 "), strings.Index(text, "#10"); i < 0 || j < 0 || i > j {
		t.Errorf("list not in number order:\n%s", text)
	}
	if !strings.Contains(text, "合计至少") || !strings.Contains(text, "不含未计价的 1 块") {
		t.Errorf("list total hides the unpriced disk:\n%s", text)
	}
	*now = now.AddDate(0, 0, 9) // Wednesday 2 December
	res = from(r, "lab1", "alice", "上个月存储花了多少")
	if !strings.Contains(res.Reply.Title, "2026-11 月存储花费：共 ") || strings.Contains(res.Reply.Title, "至今") {
		t.Errorf("last month: %q", res.Reply.Title)
	}
}

// TestStorageNoteKeptAsWritten: a note keeps the member's case and width
// in the answer, the list and the ledger; the release rules still read
// it ("/HY-TMP" is 恒源云's local disk, wiped 24 h after a stop); a note
// longer than ledger.MaxNoteRunes is refused by its length.
func TestStorageNoteKeptAsWritten(t *testing.T) {
	r, st, _ := storageRouter(t)
	res := from(r, "lab1", "alice", "登记存储 恒源云 200G /HY-TMP ResNet50 Checkpoints")
	if !strings.Contains(res.Reply.Title, "（/HY-TMP ResNet50 Checkpoints）") {
		t.Errorf("add: %s", res.Text)
	}
	if list := from(r, "lab1", "alice", "存储列表"); list.Reply.Table == nil || list.Reply.Table.Rows[0][6] != "/HY-TMP ResNet50 Checkpoints" {
		t.Errorf("list: %s", list.Text)
	}
	if ev, _ := st.StorageEvents(context.Background(), "test/lab1"); len(ev) != 1 || ev[0].Note != "/HY-TMP ResNet50 Checkpoints" {
		t.Errorf("ledger: %+v", ev)
	}
	if stop := whole(from(r, "lab1", "alice", "存储 1 已关机")); !strings.Contains(stop, "/hy-tmp 本地盘上的数据会被清空") {
		t.Errorf("stop of a /HY-TMP disk does not warn:\n%s", stop)
	}
	// A note longer than the cap, and a message too long to read whole
	// (slots.MaxQuestion bytes): both refused, neither cut short.
	for _, long := range []string{strings.Repeat("a", ledger.MaxNoteRunes+1), strings.Repeat("数", 120)} {
		res := from(r, "lab1", "alice", "登记存储 AutoDL 80G "+long)
		if !strings.Contains(res.Reply.Title, "没有登记") || !strings.Contains(res.Reply.Title, "备注") {
			t.Errorf("long note: %s", res.Reply.Title)
		}
	}
	if res := from(r, "lab1", "alice", "登记存储 AutoDL 80G "+strings.Repeat("a", ledger.MaxNoteRunes+1)); !strings.Contains(res.Reply.Title, "备注太长（201 字，最多 200 字）") {
		t.Errorf("long note: %s", res.Reply.Title)
	}
	if ev, _ := st.StorageEvents(context.Background(), "test/lab1"); len(ev) != 2 {
		t.Errorf("the long note was registered: %d events", len(ev))
	}
}

// digestOf is the digest (rounded, as JSON answers carry it) a digest
// answer gave, nil when none.
func digestOf(res commands.Result) *ledger.Digest {
	if p, ok := res.Payload.(ledgerview.DigestAnswer); ok {
		return &p.Rounded
	}
	return nil
}

// TestStorageAnswersJSON: `bot ask --format json` keeps the keys the
// storage answers had: the digest (rounded) and the disks at risk.
func TestStorageAnswersJSON(t *testing.T) {
	r, _, now := storageRouter(t)
	from(r, "lab1", "alice", "登记存储 恒源云 /hy-tmp 200G 数据集")
	from(r, "lab1", "alice", "存储 1 已关机")
	*now = now.Add(2 * time.Hour)
	for _, c := range []struct{ text, key string }{{"本周存储花费", "digest"}, {"哪些盘快被释放了", "risks"}} {
		b, err := json.Marshal(from(r, "lab1", "alice", c.text))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil || m[c.key] == nil || m["text"] == nil {
			t.Errorf("%q: no %q in %s (%v)", c.text, c.key, b, err)
		}
	}
	var d struct {
		Digest struct {
			Week     string  `json:"week"`
			TotalCNY float64 `json:"total_cny"`
		} `json:"digest"`
	}
	b, _ := json.Marshal(from(r, "lab1", "alice", "本周存储花费"))
	if err := json.Unmarshal(b, &d); err != nil || d.Digest.Week == "" {
		t.Errorf("digest JSON %s: %v", b, err)
	}
}
