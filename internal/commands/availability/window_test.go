package availability

import (
	"slices"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/history"
)

func TestAskedWindow(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	now := time.Date(2026, 12, 2, 2, 55, 0, 0, loc) // a Wednesday
	for _, c := range []struct {
		q          string
		days       []int
		start, end int // 0, 0: all day
		zh         string
	}{
		{"周末晚上A100 80G好抢吗", []int{5, 6}, 18, 24, "周末晚上（18–24 点）"},
		{"工作日上午4090好租吗", []int{0, 1, 2, 3, 4}, 8, 12, "工作日上午（8–12 点）"},
		{"4090 周末好抢吗", []int{5, 6}, 0, 0, "周末"},
		{"晚高峰4090有卡吗", nil, 19, 23, "每天晚高峰（19–23 点）"},
		{"明天上午10点想开4090，能抢到吗", []int{3}, 10, 11, "明天（周四）10–11 点"},
		{"恒源云4090晚上8点有卡吗", nil, 20, 21, "每天 20–21 点"},
		{"晚上八点半4090好抢吗", nil, 20, 21, "每天 20–21 点"},
		{"下午3点到6点3090有货吗", nil, 15, 18, "每天 15–18 点"},
		{"周六凌晨A100好租吗", []int{5}, 0, 6, "周六凌晨（0–6 点）"},
		{"is a 4090 free on weekend evenings", []int{5, 6}, 18, 24, ""},
		{"can I get an a100 at 10pm", nil, 22, 23, ""},
		// An evening said before a bare clock range (a new user's test).
		{"白天上课只有晚上能跑，7点到11点，4090，按量会不会抢不到卡", nil, 19, 23, "每天 19–23 点"},
	} {
		w, ok := askedWindow(c.q, now, loc)
		if !ok {
			t.Errorf("%q: no window", c.q)
			continue
		}
		var hours []int
		if c.end > 0 {
			hours = span(c.start, c.end)
		}
		if !slices.Equal(w.Days, c.days) || !slices.Equal(w.Hours, hours) || c.zh != "" && w.Zh != c.zh {
			t.Errorf("%q: days %v hours %v %q; want %v %d–%d %q", c.q, w.Days, w.Hours, w.Zh, c.days, c.start, c.end, c.zh)
		}
	}
	for _, q := range []string{"4090什么时候好抢", "autodl 4090 一般几点有卡", "A100周几好租", "A100 80G 便宜一点的", "4090现在没卡的话一般要等多久", "when is a 4090 usually free", "RTX 4090 多少钱"} {
		if w, ok := askedWindow(q, now, loc); ok {
			t.Errorf("%q: window %+v, want none", q, w)
		}
	}
}

// weekendOnly is a profile in stock all weekend and sold out on weekdays.
func weekendOnly() *history.Profile {
	pf := &history.Profile{GPU: "A100 80GB", Days: 14}
	for d := range 7 {
		for h := range 24 {
			pf.Hours[d][h] = history.Hour{Weight: 12}
			if d >= 5 {
				pf.Hours[d][h].Share = 1
			}
		}
	}
	return pf
}

func TestAskedLineAndWholeDayWindows(t *testing.T) {
	pf := weekendOnly()
	loc := time.UTC
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, loc)
	w, _ := askedWindow("周末晚上A100 80G好抢吗", now, loc)
	if got, want := askedLine(w, pf, false), "A100 80GB 周末晚上（18–24 点）好抢：有货 100%。"; got != want {
		t.Errorf("weekend evening: %q, want %q", got, want)
	}
	w, _ = askedWindow("工作日晚上A100好抢吗", now, loc)
	if got, want := askedLine(w, pf, false), "A100 80GB 工作日晚上（18–24 点）难抢：有货 0%。"; got != want {
		t.Errorf("weekday evening: %q, want %q", got, want)
	}
	best, worst := pf.Windows()
	if got := WindowText(best, false); got != "周末全天（有货 100%）" {
		t.Errorf("best %+v = %q, want the whole weekend", best, got)
	}
	if got := WindowText(worst, false); got != "工作日全天（有货 0%）" {
		t.Errorf("worst %+v = %q, want all weekday", worst, got)
	}
	empty := &history.Profile{GPU: "A100 80GB", Days: 1}
	if got := askedLine(w, empty, false); got != "A100 80GB 工作日晚上（18–24 点）还没有轮询数据，说不准。" {
		t.Errorf("no data: %q", got)
	}
}

func TestZhNumber(t *testing.T) {
	for s, want := range map[string]int{"一": 1, "两": 2, "十": 10, "十二": 12, "二十": 20, "二十三": 23, "二十四": 24} {
		if n, ok := zhNumber(s); !ok || n != want {
			t.Errorf("%s = %d %v, want %d", s, n, ok, want)
		}
	}
	for _, s := range []string{"零", "一二", "十十", "三十", "二十五"} {
		if n, ok := zhNumber(s); ok {
			t.Errorf("%s = %d, want none", s, n)
		}
	}
}
