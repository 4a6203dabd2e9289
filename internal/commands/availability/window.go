package availability

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/history"
)

// Asked is the part of the week a question names ("周末晚上", "工作日上午",
// "明天上午10点", "on weekend evenings"): the answer's first line says how
// available the card is then. The slots extractor reads only a plan's
// day or evening (Query.Window), so the availability answer reads the
// question text itself (askedWindow).
type Asked struct {
	// Days are the days of the week (0 Monday); nil: every day.
	Days []int
	// Hours are the local hours of the day, in order (an evening run may
	// wrap past midnight); nil: the whole day.
	Hours []int
	// Zh and En name the window: "周末晚上（18–24 点）", "weekend evenings (18:00–24:00)".
	Zh, En string
}

// period is a part of the day a word names.
type period struct {
	re         *regexp.Regexp
	start, end int
	zh, en     string
}

var (
	// dayWords: named parts of the week, by precedence.
	dayWords = []struct {
		re     *regexp.Regexp
		days   []int
		zh, en string
	}{
		{regexp.MustCompile(`周末|双休|礼拜六日|周六日|\bweekends?\b`), []int{5, 6}, "周末", "weekends"},
		{regexp.MustCompile(`工作日|周中|平日|周一到周五|\bweekdays?\b`), []int{0, 1, 2, 3, 4}, "工作日", "weekdays"},
	}
	// reDayOfWeek: "周三", "星期天", "礼拜六".
	reDayOfWeek = regexp.MustCompile(`(?:周|星期|礼拜)([一二三四五六日天])`)
	reDayEn     = regexp.MustCompile(`\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b`)
	// reRelDay: today, tomorrow, the day after.
	reRelDay = regexp.MustCompile(`今天|今晚|今早|明天|明晚|明早|后天|\btoday\b|\btonight\b|\btomorrow\b`)
	// periods of the day, by precedence (晚高峰 before 晚上).
	periods = []period{
		{regexp.MustCompile(`晚高峰|evening peak|peak hours?`), 19, 23, "晚高峰", "the evening peak"},
		{regexp.MustCompile(`凌晨|半夜|深夜|后半夜|after midnight|small hours`), 0, 6, "凌晨", "after midnight"},
		{regexp.MustCompile(`早上|早晨|清早|一早|今早|明早|early morning`), 6, 9, "早上", "early mornings"},
		{regexp.MustCompile(`上午|\bmornings?\b`), 8, 12, "上午", "mornings"},
		{regexp.MustCompile(`中午|\bnoon\b|lunch ?time`), 11, 14, "中午", "around noon"},
		{regexp.MustCompile(`下午|\bafternoons?\b`), 13, 18, "下午", "afternoons"},
		{regexp.MustCompile(`傍晚|\bdusk\b`), 17, 19, "傍晚", "early evenings"},
		{regexp.MustCompile(`晚上|夜里|夜间|今晚|明晚|下班后|\bevenings?\b|\btonight\b|at night|\bnights?\b`), 18, 24, "晚上", "evenings"},
		{regexp.MustCompile(`白天|日间|\bdaytime\b|during the day`), 8, 18, "白天", "daytime"},
	}
	// reClock: "10点", "下午3点", "晚上八点半", "10:00", "3pm", with an
	// optional end ("10点到14点", "10-14点").
	reClock = regexp.MustCompile(`(上午|早上|中午|下午|晚上|凌晨)?\s*(\d{1,2}|[一二两三四五六七八九十]{1,3})\s*(?:点|:00|：00|\s*(am|pm)\b)(?:\s*(?:-|–|~|到|至)\s*(\d{1,2})\s*(?:点|:00|(am|pm)\b))?`)
)

var zhDays = []string{"周一", "周二", "周三", "周四", "周五", "周六", "周日"}
var enDays = []string{"Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"}

// askedWindow reads the window of the week a question names; ok is false
// when it names none ("几点有卡" asks for the best hours: no window).
func askedWindow(text string, now time.Time, loc *time.Location) (w Asked, ok bool) {
	s := catalog.Fold(text)
	var dayZh, dayEn string
	for _, d := range dayWords {
		if d.re.MatchString(s) {
			w.Days, dayZh, dayEn = d.days, d.zh, d.en
			break
		}
	}
	if w.Days == nil {
		if m := reDayOfWeek.FindStringSubmatch(s); m != nil {
			d := strings.Index("一二三四五六日天", m[1]) / len("一")
			d = min(d, 6)
			w.Days, dayZh, dayEn = []int{d}, zhDays[d], enDays[d]
		} else if m := reDayEn.FindStringSubmatch(s); m != nil {
			d := map[string]int{"mon": 0, "tues": 1, "wednes": 2, "thurs": 3, "fri": 4, "satur": 5, "sun": 6}[m[1]]
			w.Days, dayZh, dayEn = []int{d}, zhDays[d], enDays[d]
		} else if m := reRelDay.FindString(s); m != "" {
			add, zh, en := 0, "今天", "today"
			switch {
			case strings.HasPrefix(m, "明") || m == "tomorrow":
				add, zh, en = 1, "明天", "tomorrow"
			case m == "后天":
				add, zh, en = 2, "后天", "the day after tomorrow"
			}
			d := history.HourOfWeek(now.In(loc).AddDate(0, 0, add), loc) / 24
			w.Days = []int{d}
			dayZh, dayEn = fmt.Sprintf("%s（%s）", zh, zhDays[d]), fmt.Sprintf("%s (%s)", en, strings.TrimSuffix(enDays[d], "s"))
		}
	}
	var hrZh, hrEn string
	start, end, isClock := clock(s)
	if isClock {
		w.Hours = span(start, end)
		hrZh, hrEn = hoursZh(start, end), hoursEn(start, end)
	} else {
		for _, p := range periods {
			if p.re.MatchString(s) {
				w.Hours = span(p.start, p.end)
				hrZh = fmt.Sprintf("%s（%s）", p.zh, hoursZh(p.start, p.end))
				hrEn = fmt.Sprintf("%s (%s)", p.en, hoursEn(p.start, p.end))
				break
			}
		}
	}
	if w.Days == nil && w.Hours == nil {
		return Asked{}, false
	}
	switch {
	case w.Days == nil && isClock:
		w.Zh, w.En = "每天 "+hrZh, hrEn
	case w.Days == nil:
		w.Zh, w.En = "每天"+hrZh, hrEn
	case w.Hours == nil:
		w.Zh, w.En = dayZh, dayEn
	default:
		w.Zh, w.En = dayZh+hrZh, dayEn+", "+hrEn
	}
	return w, true
}

// reEveningBefore: an evening named before a bare clock hour.
var reEveningBefore = regexp.MustCompile(`晚上|每晚|晚高峰|夜里|夜间|\bevenings?\b|\bnights?\b`)

// clock reads a clock hour or range of hours: "上午10点" is 10–11,
// "下午3点到6点" 15–18, "10pm" 22–23.
func clock(s string) (start, end int, ok bool) {
	for _, ix := range reClock.FindAllStringSubmatchIndex(s, -1) {
		if ix[4] > 0 && s[ix[4]-1] >= '0' && s[ix[4]-1] <= '9' {
			continue // the end of a longer number: "4090点"
		}
		m := make([]string, len(ix)/2)
		for i := range m {
			if ix[2*i] >= 0 {
				m[i] = s[ix[2*i]:ix[2*i+1]]
			}
		}
		pre, num := m[1], m[2]
		h, err := strconv.Atoi(num)
		if err != nil {
			// Chinese numerals only after a part of the day: "快一点" is
			// not one o'clock.
			if pre == "" {
				continue
			}
			if h, ok = zhNumber(num); !ok {
				continue
			}
		}
		// "只有晚上能跑，7点到11点": an evening said earlier makes a bare
		// 5–11 o'clock an evening hour.
		pm := pre == "下午" || pre == "晚上" || m[3] == "pm" || pre == "中午" && h < 6 ||
			pre == "" && m[3] == "" && h >= 5 && h < 12 && reEveningBefore.MatchString(s[:ix[0]])
		if h > 24 || m[3] != "" && (h == 0 || h > 12) {
			continue
		}
		if m[3] == "am" && h == 12 {
			h = 0
		}
		if pm && h < 12 {
			h += 12
		}
		start, end = h%24, h%24+1
		if m[4] != "" {
			e, _ := strconv.Atoi(m[4])
			if e > 24 {
				continue
			}
			if (pm || m[5] == "pm") && e < 12 {
				e += 12
			}
			if e != start {
				end = e
			}
		}
		return start, end, true
	}
	return 0, 0, false
}

// zhNumber reads 一 … 二十四.
func zhNumber(s string) (int, bool) {
	n, tens := 0, false
	for _, r := range strings.ReplaceAll(s, "两", "二") {
		d := strings.IndexRune("零一二三四五六七八九", r)
		switch {
		case r == '十' && !tens:
			tens = true
			n = max(n, 1) * 10
		case d >= 0 && (n == 0 || tens && n%10 == 0):
			n += d / len("一")
		default:
			return 0, false
		}
	}
	return n, n > 0 && n <= 24
}

// span lists the hours from start to end (exclusive, wrapping midnight).
func span(start, end int) []int {
	var out []int
	for h := start; h != end%24 || len(out) == 0; h = (h + 1) % 24 {
		out = append(out, h)
		if len(out) == 24 {
			break
		}
	}
	return out
}

func hoursZh(start, end int) string { return fmt.Sprintf("%d–%d 点", start, end) }
func hoursEn(start, end int) string { return fmt.Sprintf("%02d:00–%02d:00", start, end) }

// share is pf's share with stock in the asked window, weighted by the
// slots behind each hour; weight 0 when the window has no data.
func (w Asked) share(pf *history.Profile) (share float64, weight int) {
	days, hours := w.Days, w.Hours
	if days == nil {
		days = []int{0, 1, 2, 3, 4, 5, 6}
	}
	if hours == nil {
		hours = span(0, 24)
	}
	var s float64
	for _, d := range days {
		for _, h := range hours {
			x := pf.Hours[d][h]
			s += x.Share * float64(x.Weight)
			weight += x.Weight
		}
	}
	if weight == 0 {
		return 0, 0
	}
	return s / float64(weight), weight
}

// askedLine answers the question about its window: "A100 80GB 周末晚上
// （18–24 点）好抢：有货 100%。".
func askedLine(w Asked, pf *history.Profile, en bool) string {
	share, weight := w.share(pf)
	if weight == 0 {
		if en {
			return fmt.Sprintf("%s, %s: no polls in that window yet.", pf.GPU, w.En)
		}
		return fmt.Sprintf("%s %s还没有轮询数据，说不准。", pf.GPU, w.Zh)
	}
	zh, enWord := "难抢", "hard to get"
	switch {
	case share >= 0.7:
		zh, enWord = "好抢", "usually free"
	case share >= 0.3:
		zh, enWord = "时有时无", "hit and miss"
	}
	if en {
		return fmt.Sprintf("%s, %s: %s, in stock %.0f%% of the time.", pf.GPU, w.En, enWord, share*100)
	}
	return fmt.Sprintf("%s %s%s：有货 %.0f%%。", pf.GPU, w.Zh, zh, share*100)
}
