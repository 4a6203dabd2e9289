package commands_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/embedded"
)

// TestFollowUpEditsEveryAnswer: a follow-up that brings only new values
// is the last answer again with the named slot replaced and the rest
// kept, for every answer a follow-up may edit, and the answer says first
// what changed.
func TestFollowUpEditsEveryAnswer(t *testing.T) {
	r := newRouter(t, commands.WithHistory(flat(t)))
	cases := []struct {
		first, then, intent, head string
		check                     func(q commands.Query) bool
	}{
		{"哪家有4090", "那A100呢", commands.IntentStock, "换成 A100：", func(q commands.Query) bool { return q.GPU == "A100" }},
		{"AutoDL 4090有货吗", "两张呢", commands.IntentStock, "改成 2 张：", func(q commands.Query) bool {
			return q.GPU == "RTX 4090" && q.Platform == "autodl" && q.GPUCount == 2
		}},
		{"有没有空闲的A100 80G", "40G的呢", commands.IntentStock, "换成 A100 40GB：", func(q commands.Query) bool { return q.GPU == "A100 40GB" }},
		{"4090一小时多少钱", "包月呢", commands.IntentPlan, "改成包月：", func(q commands.Query) bool {
			return q.GPU == "RTX 4090" && q.BillingMode == commands.ModeMonthly
		}},
		{"3090 包月多少", "换成4090", commands.IntentPlan, "换成 RTX 4090：", func(q commands.Query) bool {
			return q.GPU == "RTX 4090" && q.BillingMode == commands.ModeMonthly
		}},
		{"3090包周价格", "换成按量", commands.IntentStock, "", func(q commands.Query) bool { return q.GPU == "RTX 3090" }},
		{"AutoDL和恒源云谁便宜", "那矩池云呢", commands.IntentCompare, "加上 矩池云：", func(q commands.Query) bool { return len(q.Platforms) == 3 }},
		{"7B LoRA 要多少钱", "那14B呢", commands.IntentEstimate, "改成 14B：", func(q commands.Query) bool {
			return q.ParamsB == 14 && q.Method == "lora"
		}},
		{"4090 什么时候好抢", "周末呢", "availability", "改看周末：", func(q commands.Query) bool { return q.GPU == "RTX 4090" && q.When != nil }},
		{"4090 哪家有货", "明早呢", "availability", "", func(q commands.Query) bool { return q.GPU == "RTX 4090" }},
		{"which platform has an L40S", "what about an A6000?", commands.IntentStock, "now RTX A6000: ", func(q commands.Query) bool {
			return q.GPU == "RTX A6000" && q.English
		}},
	}
	for i, c := range cases {
		chatID := "edit-" + string(rune('a'+i))
		say(r, chatID, "alice", c.first)
		res := say(r, chatID, "alice", c.then)
		if res.Intent != c.intent || !c.check(res.Query) || res.Confirm {
			t.Errorf("%q then %q: %s %+v", c.first, c.then, res.Intent, res.Query)
		}
		if !strings.HasPrefix(res.Text, c.head) {
			t.Errorf("%q then %q: answer starts %q, want %q", c.first, c.then, firstTextLine(res.Text), c.head)
		}
	}
}

func firstTextLine(s string) string { l, _, _ := strings.Cut(strings.TrimSpace(s), "\n"); return l }

// TestFramePerMember: another member's follow-up is no follow-up of
// mine, and leaves my frame as it was.
func TestFramePerMember(t *testing.T) {
	r := newRouter(t)
	say(r, "g", "alice", "3090 包月多少")
	if res := say(r, "g", "bob", "换成4090"); res.Intent == commands.IntentPlan || strings.Contains(res.Text, "包月") {
		t.Errorf("bob's 换成4090 edited alice's plan: %s %q", res.Intent, firstTextLine(res.Text))
	}
	if res := say(r, "g", "alice", "换成4090"); res.Intent != commands.IntentPlan || res.GPU != "RTX 4090" || res.BillingMode != commands.ModeMonthly {
		t.Errorf("alice's 换成4090 after bob's: %s %+v", res.Intent, res.Query)
	}
}

// TestFrameExpires: a follow-up after FrameTTL starts afresh.
func TestFrameExpires(t *testing.T) {
	clock := newClock(recordedAt.Add(5 * time.Minute))
	r := newRouter(t, commands.WithClock(clock.now))
	say(r, "g", "alice", "3090 包月多少")
	clock.add(commands.FrameTTL + time.Minute)
	if res := say(r, "g", "alice", "换成4090"); res.Intent == commands.IntentPlan {
		t.Errorf("a follow-up after the frame expired edited it: %s %q", res.Intent, firstTextLine(res.Text))
	}
}

// TestFrameSurvivesRestart: with the store's frames, a follow-up after a
// restart (a new router over the reopened store) continues the answer.
func TestFrameSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	st, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	say(newRouter(t, commands.WithFrames(st)), "g", "alice", "3090 包月多少")
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	res := say(newRouter(t, commands.WithFrames(st)), "g", "alice", "换成4090")
	if res.Intent != commands.IntentPlan || res.GPU != "RTX 4090" || res.BillingMode != commands.ModeMonthly {
		t.Errorf("after a restart: %s %+v", res.Intent, res.Query)
	}
}

// TestReplyContinuesItsAnswer: a reply to the bot's message (Feishu's
// parent_id, after the channel linked the message to the answer)
// continues that answer's frame, whoever replies and after the member's
// frame has expired; a WeChat quote of the answer does too.
func TestReplyContinuesItsAnswer(t *testing.T) {
	clock := newClock(recordedAt.Add(5 * time.Minute))
	r := newRouter(t, commands.WithClock(clock.now))
	ctx := context.Background()
	q := chat.Message{Channel: "feishu", ID: "om_q1", ChatID: "oc_1", SenderID: "alice", Text: "3090 包月多少", ChatType: chat.Group}
	first := r.Answer(ctx, q)
	r.LinkAnswer(ctx, q, []string{"om_bot1"})
	say(r, "oc_1", "alice", "哪家有A100") // alice's own frame moves on
	clock.add(commands.FrameTTL + time.Minute)
	res := r.Answer(ctx, chat.Message{Channel: "feishu", ID: "om_q2", ChatID: "oc_1", SenderID: "bob", Text: "换成4090",
		ParentID: "om_bot1", ChatType: chat.Group})
	if res.Intent != commands.IntentPlan || res.GPU != "RTX 4090" || res.BillingMode != commands.ModeMonthly {
		t.Errorf("a reply to the plan answer: %s %+v", res.Intent, res.Query)
	}
	if first.Intent != commands.IntentPlan {
		t.Fatalf("first answer: %s", first.Intent)
	}
	w := r.Answer(ctx, chat.Message{Channel: "wechat", ChatID: "Lab", SenderID: "alice", Text: "3090 包月多少", ChatType: chat.Group})
	quote := []rune(firstTextLine(w.Text))[:12] // a channel may cut it short
	res = r.Answer(ctx, chat.Message{Channel: "wechat", ChatID: "Lab", SenderID: "carol", Text: "4张", Quote: string(quote), ChatType: chat.Group})
	if res.Intent != commands.IntentPlan || res.GPU != "RTX 3090" || res.GPUCount != 4 {
		t.Errorf("a quote of the plan answer: %s %+v", res.Intent, res.Query)
	}
}

// TestActionAskedFirst: an action the message does not clearly ask for
// (no verb of its own) is asked first and nothing changes; the sender's
// "确认" then does it; another member's "确认", or anything else said
// first, does not.
func TestActionAskedFirst(t *testing.T) {
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// The embedded store reads the wall clock for mutes.
	r := newRouter(t, commands.WithAlerts(st, st, stock.DefaultPolicy()), commands.WithClock(time.Now))
	ctx := context.Background()
	muted := func() bool {
		until, err := st.MutedUntil(ctx, "test/g")
		return err == nil && time.Now().Before(until)
	}
	res := say(r, "g", "alice", "静音一小时吧？")
	if !res.Confirm || res.Intent != commands.IntentMute || muted() || !strings.Contains(res.Text, "确认") {
		t.Fatalf("静音一小时吧？: confirm %v, muted %v, %q", res.Confirm, muted(), res.Text)
	}
	if res := say(r, "g", "bob", "确认"); muted() {
		t.Errorf("bob's 确认 muted alice's asked action: %s %q", res.Intent, firstTextLine(res.Text))
	}
	if res := say(r, "g", "alice", "确认"); res.Confirm || !muted() {
		t.Errorf("alice's 确认: %s confirm %v, muted %v", res.Intent, res.Confirm, muted())
	}
	if err := st.SetMute(ctx, "test/g", time.Time{}); err != nil {
		t.Fatal(err)
	}
	say(r, "g", "alice", "静音一小时吧？")
	say(r, "g", "alice", "哪家有4090")
	if say(r, "g", "alice", "确认"); muted() {
		t.Error("a 确认 after another question did the dropped action")
	}
	if res := say(r, "g", "alice", "静音 30分钟"); res.Confirm || !muted() {
		t.Errorf("an explicit 静音 30分钟: confirm %v, muted %v", res.Confirm, muted())
	}
}

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(t time.Time) *clock { return &clock{t: t} }

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
