package commands_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/alertview"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/embedded"
)

func alertRouter(t *testing.T) (*commands.Router, *embedded.Store) {
	t.Helper()
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := newRouterWith(t, commands.WithAlerts(st, st, stock.DefaultPolicy()))
	return r, st
}

func from(r *commands.Router, chatID, sender, text string) commands.Result {
	return r.Answer(context.Background(), chat.Message{Channel: "test", ChatID: chatID, SenderID: sender, SenderName: sender, Text: text, ChatType: chat.Group})
}

// subscription is the subscription a subscribe answer made or found
// (nil when none).
func subscription(res commands.Result) *stock.Subscription {
	switch p := res.Payload.(type) {
	case alertview.Subscribed:
		return &p.Subscription
	case alertview.Already:
		return &p.Subscription
	}
	return nil
}

// subscriptions is the member's list a subscriptions answer gave.
func subscriptions(res commands.Result) []stock.Subscription {
	p, _ := res.Payload.(alertview.Subscriptions)
	return p.Subscriptions
}

// question is what an answer asks back ("" when it asks nothing).
func question(res commands.Result) string {
	if q, ok := res.Payload.(interface{ Question() string }); ok {
		return q.Question()
	}
	return res.Question
}

func TestSubscribeListUnsubscribe(t *testing.T) {
	r, st := alertRouter(t)
	ctx := context.Background()
	res := from(r, "lab1", "alice", "AutoDL 3090 低于1.5元通知我")
	if res.Intent != commands.IntentSubscribe || subscription(res) == nil {
		t.Fatalf("subscribe: %q %s", res.Intent, res.Text)
	}
	s := subscription(res)
	if s.OwnerID != "alice" || s.ChatID != "lab1" || s.MaxPriceCNY != 1.5 || len(s.Platforms) != 1 || s.Platforms[0] != "autodl" || s.GPUs[0] != "RTX 3090" {
		t.Errorf("subscription %+v", s)
	}
	if !strings.Contains(whole(res), "已订阅") || len(res.Reply.Mentions) != 1 {
		t.Errorf("reply %q mentions %v", res.Text, res.Reply.Mentions)
	}
	// The same conditions again: no duplicate.
	if res := from(r, "lab1", "alice", "AutoDL 3090 低于1.5元通知我"); !strings.Contains(whole(res), "已经订阅过了") {
		t.Errorf("duplicate: %s", res.Text)
	}
	from(r, "lab1", "alice", "4090 有货了提醒我")
	from(r, "lab1", "bob", "4090 有货了提醒我")
	from(r, "lab2", "alice", "A100 有货提醒我")
	all, _ := st.Subscriptions(ctx)
	if len(all) != 4 {
		t.Fatalf("%d subscriptions stored, want 4", len(all))
	}
	// Only alice's, only in lab1.
	res = from(r, "lab1", "alice", "我的订阅")
	if len(subscriptions(res)) != 2 || strings.Contains(whole(res), "A100") {
		t.Fatalf("list: %d %s", len(subscriptions(res)), res.Text)
	}
	// Bob cannot cancel alice's.
	from(r, "lab1", "bob", "取消订阅 3090")
	if all, _ := st.Subscriptions(ctx); len(all) != 4 {
		t.Fatalf("bob cancelled someone else's subscription")
	}
	if res := from(r, "lab1", "alice", "取消订阅 3090"); !strings.Contains(whole(res), "已取消 1") {
		t.Errorf("unsubscribe by GPU: %s", res.Text)
	}
	if res := from(r, "lab1", "alice", "取消订阅 1"); !strings.Contains(whole(res), "已取消 1") {
		t.Errorf("unsubscribe by number: %s", res.Text)
	}
	if res := from(r, "lab2", "alice", "unsubscribe all"); !strings.Contains(whole(res), "Cancelled 1") {
		t.Errorf("unsubscribe all: %s", res.Text)
	}
	if all, _ := st.Subscriptions(ctx); len(all) != 1 || all[0].OwnerID != "bob" {
		t.Fatalf("left: %+v", all)
	}
	if res := from(r, "lab1", "alice", "取消订阅"); question(res) == "" {
		t.Errorf("unsubscribe without a target should ask which: %s", res.Text)
	}
	if res := from(r, "lab1", "alice", "订阅"); question(res) == "" {
		t.Errorf("subscribe without a GPU should ask which: %s", res.Text)
	}
}

func TestMute(t *testing.T) {
	r, st := alertRouter(t)
	res := from(r, "lab1", "alice", "静音 2小时")
	if res.Intent != commands.IntentMute || !strings.Contains(whole(res), "静音到") {
		t.Fatalf("%q %s", res.Intent, res.Text)
	}
	// The router's clock is recordedAt+5m; the store may treat a past
	// mute as over, so read the raw end through a mute of known length.
	// Without WithLocation, times are in the default zone (Asia/Shanghai).
	loc := render.DefaultLocation()
	want := recordedAt.Add(5*time.Minute + 2*time.Hour).In(loc)
	if !strings.Contains(whole(res), want.Format("01-02 15:04")) {
		t.Errorf("reply does not say the mute ends %s: %s", want.Format("01-02 15:04"), res.Text)
	}
	// A clock time: until the next 08:00, not one hour.
	res = from(r, "lab1", "alice", "今晚别再推送了，免打扰到明早")
	now := recordedAt.Add(5 * time.Minute).In(loc)
	morning := time.Date(now.Year(), now.Month(), now.Day(), 8, 0, 0, 0, loc)
	if !morning.After(now) || now.Hour() >= 5 {
		morning = morning.AddDate(0, 0, 1) // "明早" is tomorrow's
	}
	if want := morning.Format("01-02 15:04"); res.Intent != commands.IntentMute || !strings.Contains(whole(res), "静音到 "+want) || res.Query.MuteMinutes != int(morning.Sub(recordedAt.Add(5*time.Minute)).Minutes()) {
		t.Errorf("mute until the morning: %q %s (want until %s, %d min)", res.Intent, res.Text, want, res.Query.MuteMinutes)
	}
	from(r, "lab1", "alice", "取消静音")
	if until, _ := st.MutedUntil(context.Background(), "test/lab1"); !until.IsZero() {
		t.Errorf("still muted until %v", until)
	}
}

func TestAlertsOffWithoutStore(t *testing.T) {
	r := newRouter(t)
	if res := from(r, "lab1", "alice", "4090 有货了提醒我"); !strings.Contains(whole(res), "没有开启") {
		t.Errorf("%s", res.Text)
	}
}

// TestSubscribeExcludesPlatform: "不要autodl" is kept with the
// subscription and said back.
func TestSubscribeExcludesPlatform(t *testing.T) {
	r, _ := alertRouter(t)
	res := from(r, "lab1", "alice", "4090有货了提醒我 不要autodl")
	if subscription(res) == nil || len(subscription(res).ExcludePlatforms) != 1 || subscription(res).ExcludePlatforms[0] != "autodl" {
		t.Fatalf("subscription %+v: %s", subscription(res), res.Text)
	}
	if !strings.Contains(res.Text, "不含 AutoDL") {
		t.Errorf("reply does not say AutoDL is ruled out: %s", res.Text)
	}
}

// TestAlertAnswersJSON: `bot ask --format json` keeps the keys the alert
// answers had: the subscription made or found, the member's list, the
// question an ask-back asks.
func TestAlertAnswersJSON(t *testing.T) {
	r, _ := alertRouter(t)
	keys := func(res commands.Result) map[string]json.RawMessage {
		t.Helper()
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		return m
	}
	for _, c := range []struct {
		text, key string
	}{
		{"4090 有货了提醒我", "subscription"},
		{"4090 有货了提醒我", "subscription"}, // already subscribed
		{"我的订阅", "subscriptions"},
		{"订阅", "question"},
		{"取消订阅", "question"},
	} {
		m := keys(from(r, "lab1", "alice", c.text))
		if _, ok := m[c.key]; !ok || m["text"] == nil || m["intent"] == nil {
			t.Errorf("%q: no %q in %v", c.text, c.key, m)
		}
	}
	var q string
	if err := json.Unmarshal(keys(from(r, "lab1", "alice", "订阅"))["question"], &q); err != nil || !strings.Contains(q, "订阅哪张卡") {
		t.Errorf("question %q, %v", q, err)
	}
	if m := keys(from(r, "lab1", "alice", "取消订阅 4090")); m["subscription"] != nil || m["subscriptions"] != nil || m["question"] != nil {
		t.Errorf("a cancellation carries no subscription: %v", m)
	}
}

// TestWeekWordsMuteAskedWhenLong: a mute read from words about the week
// ("mute for the weekend", "周末别提醒") ends on Monday; said early in the
// week that is most of a week, so the bot says its end and asks first;
// said on Friday evening or at the weekend it is done. A weekday named
// ("静音到周一早上") is done whenever it is said.
func TestWeekWordsMuteAskedWhenLong(t *testing.T) {
	sh := time.FixedZone("CST", 8*3600)
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, c := range []struct {
		now     time.Time
		text    string
		confirm bool
	}{
		{time.Date(2026, 12, 8, 10, 0, 0, 0, sh), "mute for the weekend", true}, // Tuesday: until Monday is six days
		{time.Date(2026, 12, 8, 10, 0, 0, 0, sh), "周末别提醒了", true},
		{time.Date(2026, 12, 11, 20, 0, 0, 0, sh), "mute for the weekend", false}, // Friday evening
		{time.Date(2026, 12, 12, 9, 0, 0, 0, sh), "周末别提醒了", false},                // Saturday
		{time.Date(2026, 12, 8, 10, 0, 0, 0, sh), "静音到周一早上", false},               // named: done
	} {
		now := c.now
		r := newRouterWith(t, commands.WithAlerts(st, st, stock.DefaultPolicy()), commands.WithClock(func() time.Time { return now }))
		res := from(r, "week-"+c.now.Weekday().String(), "alice", c.text)
		if res.Intent != commands.IntentMute || res.Confirm != c.confirm {
			t.Errorf("%s %q: intent %s, asked first %v, want %v:\n%s", c.now.Weekday(), c.text, res.Intent, res.Confirm, c.confirm, res.Text)
		}
	}
}
