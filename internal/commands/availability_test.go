package commands_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/render/availabilityview"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/embedded"
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
	if res.Intent != commands.IntentAvailability || availabilityOf(res) == nil {
		t.Fatalf("intent %s, availability %v; want the availability answer", res.Intent, availabilityOf(res))
	}
	if !strings.Contains(res.Reply.Title, "19–23 点（有货 0%）最难抢") || availabilityOf(res).Days < 3 || availabilityOf(res).Days > 4 {
		t.Errorf("title %q, days %d; want the evening window and 3–4 days", res.Reply.Title, availabilityOf(res).Days)
	}
	// The heat map is on the first screen when it fits there, else in 详情.
	chart := res.Reply.Chart
	if chart == nil && res.Reply.Full != nil {
		chart = res.Reply.Full.Chart
	}
	if !strings.Contains(res.Text, "天的数据，每周的规律还不可靠") || chart == nil || chart.Heat == nil {
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

// hourlyImport imports days of hourly CSV rows (minutes=60) ending at the
// router's clock, as `bot history import` does: autodl's 4090 and A100
// 80GB in stock at weekends only, all day.
func hourlyImport(t *testing.T, days int) *history.Recorder {
	t.Helper()
	now := recordedAt.Add(5 * time.Minute)
	loc := time.FixedZone("CST", 8*3600)
	var b strings.Builder
	b.WriteString(strings.Join(history.CSVHeader, ",") + "\n")
	end := now.Truncate(time.Hour)
	for at := end.Add(-time.Duration(days) * 24 * time.Hour); at.Before(end); at = at.Add(time.Hour) {
		in, out := 0, 6
		if wd := at.In(loc).Weekday(); wd == time.Saturday || wd == time.Sunday {
			in, out = 6, 0
		}
		for _, gpu := range []string{"RTX 4090", "A100 80GB"} {
			fmt.Fprintf(&b, "%s,60,autodl,%s,6,%d,%d,,\n", at.In(loc).Format(time.RFC3339), gpu, in, out)
		}
	}
	h := &history.Recorder{Now: func() time.Time { return now }}
	added, _, err := h.Import(context.Background(), strings.NewReader(b.String()))
	if err != nil || added != days*24*2 {
		t.Fatalf("import: %d added, %v", added, err)
	}
	return h
}

// Hourly rows imported for the last weeks count in full, the newest
// included: the 14 days the fine tier covers are read from the hourly
// slots where there are no 10-minute ones.
func TestAvailabilityFromHourlyImport(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	for _, days := range []int{21, 7} {
		r := newRouter(t, commands.WithHistory(hourlyImport(t, days)), commands.WithLocation(loc))
		res := ask(r, "autodl 4090 一般几点有卡")
		if res.Intent != commands.IntentAvailability || availabilityOf(res) == nil {
			t.Fatalf("%d days: intent %s; want availability", days, res.Intent)
		}
		if strings.Contains(res.Text, "还没有") || availabilityOf(res).Days != days || !strings.Contains(res.Text, fmt.Sprintf("依据过去 %d 天", days)) {
			t.Errorf("%d days of hourly rows: days %d, text %q", days, availabilityOf(res).Days, res.Text)
		}
		if want := recordedAt.Truncate(time.Hour); !availabilityOf(res).To.Equal(want) {
			t.Errorf("%d days: to %v, want the newest hour %v", days, availabilityOf(res).To, want)
		}
	}
}

// A question naming a window is answered about it first; equal hours
// merge into the whole day.
func TestAvailabilityAskedWindow(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	r := newRouter(t, commands.WithHistory(hourlyImport(t, 21)), commands.WithLocation(loc))
	res := ask(r, "周末晚上A100 80G好抢吗")
	if res.Intent != commands.IntentAvailability || availabilityOf(res) == nil {
		t.Fatalf("intent %s; want availability", res.Intent)
	}
	// A yes/no question: the verdict first.
	if want := "好抢：A100 80GB 周末晚上（18–24 点）有货 100%。"; res.Reply.Title != want {
		t.Errorf("title %q, want %q", res.Reply.Title, want)
	}
	if len(res.Reply.Lines) == 0 || res.Reply.Lines[0] != "整体看：周末全天（有货 100%）最好抢，工作日全天（有货 0%）最难抢。" {
		t.Errorf("lines %q: want the whole weekend best, all weekday worst", res.Reply.Lines)
	}
	if a := availabilityOf(res).Asked; a == nil || a.Share != 1 || len(a.Days) != 2 || len(a.Hours) != 6 || a.Slots == 0 {
		t.Errorf("asked row %+v", a)
	}
	if res := ask(r, "工作日晚上A100 80G好抢吗"); !strings.HasPrefix(res.Reply.Title, "不好抢：A100 80GB 工作日晚上（18–24 点）有货 0%") {
		t.Errorf("weekday evening: %q", res.Reply.Title)
	}
}

// flat records eight days of A100 80GB polls in stock every time: no
// best or worst hours.
func flat(t *testing.T) *history.Recorder {
	t.Helper()
	now := recordedAt.Add(5 * time.Minute)
	h := &history.Recorder{Now: func() time.Time { return now }}
	for at := now.Add(-8 * 24 * time.Hour); at.Before(now); at = at.Add(history.FineSlot) {
		s := history.Slot{Polls: 1, In: 1, Price: 500}
		if err := h.Add(context.Background(), at, map[history.Key]history.Slot{{Platform: "autodl", GPU: "A100 80GB"}: s}); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// A new user's test: a bare "A100" read as A100 40GB, which had no
// history, while A100 80GB had days of it; and a flat week named the same
// window as best and worst.
func TestAvailabilityFamilyAndFlatWeek(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	r := newRouter(t, commands.WithHistory(flat(t)), commands.WithLocation(loc))
	res := ask(r, "A100一般啥时候有卡啊")
	if res.Intent != commands.IntentAvailability || availabilityOf(res) == nil || availabilityOf(res).GPU != "A100 80GB" {
		t.Fatalf("intent %s, figures %+v; want A100 80GB's history", res.Intent, availabilityOf(res))
	}
	if want := "A100 80GB 各个时段差不多：有货约 100%。"; res.Reply.Title != want {
		t.Errorf("title %q, want %q", res.Reply.Title, want)
	}
	res = ask(r, "周末晚上A100好抢吗")
	if strings.Contains(res.Text, "最难抢") || !strings.Contains(res.Text, "整体看：各个时段差不多") {
		t.Errorf("asked window on a flat week:\n%s", res.Text)
	}
}

// A subscription says what the history knows of this hour: with no
// sold-out spell to time (the card was always in stock), how often it had
// stock, for the variant with history when a family is named.
func TestSubscribeSaysTheHour(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := newRouter(t, commands.WithHistory(flat(t)), commands.WithLocation(loc), commands.WithAlerts(st, st, stock.DefaultPolicy()))
	res := from(r, "lab1", "alice", "A100有货提醒我，大概要等多久")
	if res.Intent != commands.IntentSubscribe {
		t.Fatalf("intent %s", res.Intent)
	}
	if !strings.Contains(res.Text, "过去 8 天这个时段 100% 的时间有货") {
		t.Errorf("subscription reply:\n%s", res.Text)
	}
}

// availabilityOf is the figures of an availability answer (nil for
// another answer, or one that asked which card).
func availabilityOf(res commands.Result) *availabilityview.Figures {
	if p, ok := res.Payload.(availabilityview.Availability); ok {
		return p.Figures
	}
	return nil
}
