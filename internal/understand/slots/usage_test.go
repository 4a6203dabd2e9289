package slots

import (
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// TestUsage: the usage profile of plan questions, as students write them.
func TestUsage(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text                 string
		perWeek, total, days float64
		continuous           bool
		window               string
	}{
		{"我们组每周跑40小时4090，包周还是按量", 40, 0, 0, false, ""},
		{"一个月要跑300小时A100怎么租最省", 0, 300, 30, false, ""},
		{"连续训练5天租什么方式", 0, 0, 5, true, ""},
		{"每天晚上跑6个小时3090，租两周", 42, 0, 14, false, words.WindowEvening},
		// "一周 … 二十小时" is the rate, not a span of one week.
		{"一周大概二十小时 白天用", 20, 0, 0, false, words.WindowDay},
		{"3090 一周跑20小时，租两周", 20, 0, 14, false, ""},
		{"每晚4个小时3090，租一个月", 28, 0, 30, false, words.WindowEvening},
		{"we run a 3090 4 hours every night for a month", 28, 0, 30, false, words.WindowEvening},
		{"4090 6 hours nightly for two weeks", 42, 0, 14, false, words.WindowEvening},
		// Weekdays only, weekends only, clock ranges, "一个半月", a rate
		// with a GPU name inside, a total per month (a new user's test).
		{"I run a 4090 about 6h every weekday evening for a month, pay as you go or monthly?", 30, 0, 30, false, words.WindowEvening},
		{"每个工作日晚上跑6小时4090 一个月", 30, 0, 30, false, words.WindowEvening},
		{"老师让我租A100跑一个月，每天差不多白天8小时，周末不跑，包月值吗", 40, 0, 30, false, words.WindowDay},
		{"3090一周就周末两天跑满，其他时间不用，租一个月，有必要包周吗", 48, 0, 30, true, ""},
		{"一周用A100 80G 100小时 包周还是按量 4个星期", 100, 0, 28, false, ""},
		{"组里3个人轮流用一张A100，基本24小时不停，持续一个半月，包月吗", 0, 0, 45, true, ""},
		{"每晚10点到早上8点挂着跑3090，跑3周，怎么租最省", 70, 0, 21, false, words.WindowEvening},
		{"每天晚上7点到11点用4090 一个月 按量还是包月", 28, 0, 30, false, words.WindowEvening},
		{"每天晚上8点到12点跑3090 跑3周 怎么租", 28, 0, 21, false, words.WindowEvening},
		{"每天上午9点到12点用4090，两周", 21, 0, 14, false, words.WindowDay},
		{"we use an A100 from 8pm to 2am every night for two weeks", 42, 0, 14, false, words.WindowEvening},
		{"how much for a 4090 monthly vs hourly if I use it ~100 hours a month", 0, 100, 30, false, ""},
		// Hours a month over any span (scaled to it), a year's span, and
		// more hours a month than a month has (around the clock).
		{"4090 每月100小时 用两周多少钱", 0, 47, 14, false, ""},
		{"3090 每月200小时 用半年多少钱", 0, 1200, 180, false, ""},
		{"3090 每月200小时，用4个月", 0, 800, 120, false, ""},
		{"3090 每月200小时 用一个月", 0, 200, 30, false, ""},
		{"A100 每月300小时 租一年", 0, 3600, 360, false, ""},
		{"4090 每月99999小时 用100个月", 0, 72000, 3000, true, ""},
		{"4090 每月1000小时 用两周", 0, 336, 14, true, ""},
		{"4090 一个月大概用120小时，租两周要多少钱", 0, 56, 14, false, ""},
		{"2025年的4090 每月100小时", 0, 100, 30, false, ""},
		{"4090 30h/周 跑半个月", 30, 0, 15, false, ""},
		{"3090 竞价实例多少钱一小时", 0, 0, 0, false, ""},
		{"we run a 4090 about 50 hours a week for 3 weeks", 50, 0, 21, false, ""},
		{"A100 80G 包月多少", 0, 0, 0, false, ""},
		{"7B LoRA 要多少钱", 0, 0, 0, false, ""},
		{"we need a 4090 ~60 hours a week for a month", 60, 0, 30, false, ""},
		// Hours a day × 7 (or × the days a week stated) whatever else the
		// sentence says: "跑一周" is the span, not "一周 … 12小时" a week.
		{"两张4090跑一周，每天12小时左右，怎么租最便宜", 84, 0, 7, false, ""},
		{"每天跑8h 4090", 56, 0, 0, false, ""},
		{"每周跑5天，每天8小时，4090", 40, 0, 0, false, ""},
		{"一天跑8小时3090，跑两周", 56, 0, 14, false, ""},
		// A stated span is the span, in words or digits, Chinese or English.
		{"how should we rent an A100 for 100 hours over two weeks", 0, 100, 14, false, ""},
		{"A100 两周内跑完100小时", 0, 100, 14, false, ""},
		{"一个多月内跑完300小时4090", 0, 300, 38, false, ""},
		{"we need 200 hours on a 4090 within the next three weeks", 0, 200, 21, false, ""},
		// A total alone: no span (the answer assumes the hours back to back).
		{"一共跑50小时的4090", 0, 50, 0, false, ""},
		// A deadline is not a span here: the answer resolves it with its clock.
		{"ddl是下周五，从现在开始每天跑10小时4090", 70, 0, 0, false, ""},
		{"连续训练5天不停，租3090", 0, 0, 5, true, ""},
	} {
		q := Extract(cat, c.text, false).Query()
		if q.HoursPerWeek != c.perWeek || q.TotalHours != c.total || q.SpanDays != c.days || q.Continuous != c.continuous || q.Window != c.window {
			t.Errorf("%q: per week %v total %v days %v continuous %v window %q", c.text, q.HoursPerWeek, q.TotalHours, q.SpanDays, q.Continuous, q.Window)
		}
	}
}

// TestSetupAndNamedPlan: a stated setup time is not the span or the
// hours; a plan is "named" only when the words name it, not a rate.
func TestSetupAndNamedPlan(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text        string
		setup, days float64
		total       float64
		mode        string
		named       bool
	}{
		{"配环境要一天左右，之后跑3天4090，无卡模式能省多少", 24, 3, 0, "daily", false},
		{"装环境大概5小时，然后一共跑100小时a100", 5, 0, 100, "", false},
		{"setup takes half a day, then 2 weeks of training on a 4090", 12, 14, 0, "daily", false},
		{"我们组每周跑40小时4090，包周还是按量", 0, 0, 0, "weekly", true},
		{"每天白天跑8小时4090，租两周", 0, 14, 0, "daily", false},
		{"40 hours a week on a 4090, weekly plan or hourly?", 0, 0, 0, "weekly", true},
		{"一个月300小时 A100 月租划算吗", 0, 30, 300, "monthly", true},
	} {
		q := Extract(cat, c.text, false).Query()
		if q.SetupHours != c.setup || q.SpanDays != c.days || q.TotalHours != c.total || q.BillingMode != c.mode || q.ModeNamed != c.named {
			t.Errorf("%q: setup %v span %v total %v mode %q named %v; want %v %v %v %q %v", c.text,
				q.SetupHours, q.SpanDays, q.TotalHours, q.BillingMode, q.ModeNamed, c.setup, c.days, c.total, c.mode, c.named)
		}
	}
}

// TestDeadline: due dates read from plan questions, resolved against an
// injected now (Wednesday 2 December 2026, 10:00 in Shanghai).
func TestDeadline(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.FixedZone("CST", 8*3600))
	for _, c := range []struct {
		text string
		days float64 // 0: no deadline
	}{
		{"ddl是下周五，从现在开始每天跑10小时4090", 9}, // Fri 11 Dec
		{"下下周一前跑完100小时", 12},            // Mon 14 Dec
		{"这周五前要出结果，每天跑10小时", 2},         // Fri 4 Dec
		{"周五前交，4090每天跑12小时", 2},
		{"deadline是周一，每天8小时a100", 5}, // Mon 7 Dec
		{"月底前要跑完200小时a100", 29},      // Thu 31 Dec
		{"下个月底之前跑完300小时", 60},        // Sun 31 Jan
		{"15号前每天跑6小时4090", 13},
		{"1号前要跑完", 30}, // 1 January: the 1st of this month has passed
		{"截止日期是20号，每天跑8小时", 18},
		{"明天要交，跑10小时4090", 1},
		{"need a 4090 10 hours a day, due next monday", 5},
		{"we need an a100 8 hours a day by friday", 2},
		{"100 hours on a 4090 by the end of the month", 29},
		// No deadline: a weekday without a due word, a week, a rate.
		{"周五有4090吗", 0},
		{"我们组每周跑40小时4090，包周还是按量", 0},
		{"下周有卡吗", 0},
	} {
		q := Extract(cat, c.text, false).Query()
		got := 0.0
		if q.Deadline != nil {
			got = q.Deadline.Days(now)
		}
		if got != c.days {
			t.Errorf("%q: deadline %+v → %v days, want %v", c.text, q.Deadline, got, c.days)
		}
	}
}

// TestClockRangeHours: a plan's clock range reads its hours with
// clockHour (ParseNum, 0–24): an hour past 24 is no clock range.
func TestClockRangeHours(t *testing.T) {
	for _, c := range []struct {
		text   string
		hours  float64
		window string
		ok     bool
	}{
		{"晚上7点到11点", 4, words.WindowEvening, true},
		{"10点到早上8点", 22, words.WindowDay, true},
		{"19:00-23:00", 4, words.WindowEvening, true},
		{"8pm to 2am", 6, words.WindowEvening, true},
		{"9am to 5pm", 8, words.WindowDay, true},
		{"25点到26点", 0, "", false},
		{"7点到30点", 0, "", false},
		{"25pm to 3am", 0, "", false},
	} {
		_, h, w, ok := clockRange(c.text)
		if ok != c.ok || ok && (h != c.hours || w != c.window) {
			t.Errorf("%q: %v h %v %s, want %v h %v %s", c.text, ok, h, w, c.ok, c.hours, c.window)
		}
	}
}
