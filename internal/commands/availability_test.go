package commands_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/history"
)

// threeDays records three days of polls before the router's clock: free
// in the mornings, sold out 19:00–23:00 (Asia/Shanghai).
func threeDays(t *testing.T) *history.Recorder {
	t.Helper()
	now := recordedAt.Add(5 * time.Minute)
	loc := time.FixedZone("CST", 8*3600)
	h := &history.Recorder{Now: func() time.Time { return now }}
	for at := now.Add(-72 * time.Hour); at.Before(now); at = at.Add(history.FineSlot) {
		s := history.Slot{Polls: 1, In: 1, Price: 198}
		if hr := at.In(loc).Hour(); hr >= 19 && hr < 23 {
			s = history.Slot{Polls: 1, Out: 1}
		}
		if err := h.Add(context.Background(), at, map[history.Key]history.Slot{{Platform: "autodl", GPU: "RTX 4090"}: s}); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func TestAvailabilityAnswer(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	r := newRouter(t, commands.WithHistory(threeDays(t)), commands.WithLocation(loc))
	res := ask(r, "4090 什么时候好抢")
	if res.Intent != commands.IntentAvailability || res.Availability == nil {
		t.Fatalf("intent %s, availability %v; want the availability answer", res.Intent, res.Availability)
	}
	if !strings.Contains(res.Reply.Title, "19–23 点（有货 0%）最难抢") || res.Availability.Days < 3 || res.Availability.Days > 4 {
		t.Errorf("title %q, days %d; want the evening window and 3–4 days", res.Reply.Title, res.Availability.Days)
	}
	if !strings.Contains(res.Text, "天的数据，每周的规律还不可靠") || res.Reply.Chart == nil || res.Reply.Chart.Heat == nil {
		t.Errorf("text %q: want the thin-history caveat and a heat map", res.Text)
	}
	if n := strings.Count(res.Text, "\n"); n > 14 {
		t.Errorf("short form has %d lines", n)
	}
	r = newRouter(t, commands.WithHistory(threeDays(t)), commands.WithLocation(loc))
	en := ask(r, "when is a 4090 usually free")
	if en.Intent != commands.IntentAvailability || !strings.Contains(en.Text, "hardest every day 19:00–23:00") {
		t.Errorf("English answer (%s): %q", en.Intent, en.Text)
	}
}

func TestAvailabilityWithoutHistory(t *testing.T) {
	r := newRouter(t)
	res := ask(r, "A100 80G 一般几点有卡")
	if res.Intent != commands.IntentAvailability {
		t.Fatalf("intent %s, want availability", res.Intent)
	}
	if !strings.Contains(res.Text, "还没有") || !strings.Contains(res.Text, "传闻") || !strings.Contains(res.Text, "19:00–23:00") || strings.Contains(res.Text, "无货") {
		t.Errorf("no-history answer: %q; want it to say so and cite the labelled anecdote", res.Text)
	}
}
