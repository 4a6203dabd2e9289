package slots

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/textgate"
)

var (
	// reHourAndHalf is "1个半小时", "两个半钟头".
	reHourAndHalf = textgate.MustCompile(`(\d+|[一二两三四五六七八九十]+)\s*个半\s*(?:小时|钟头)`)
	reMute        = textgate.MustCompile(`(\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)\s*(个)?\s*(小时|钟头|h|hours?|hrs?|分钟|min(?:ute)?s?|m|天|d|days?|晚上?|夜)\b?`)
	reUnmute      = textgate.MustCompile(`取消静音|解除静音|解除免打扰|关闭免打扰|恢复提醒|恢复通知|重新提醒|unmute|un-mute|resume (?:the )?alerts`)
	// reAllWords cancel every subscription ("取消全部订阅", "退订全部").
	reAllWords = textgate.MustCompile(`全部|所有|全都|都|一切|统统|全(?:关|删|取消|退|清|撤|停|不要)|\ball\b|\beverything\b|\bevery\b`)
	reSubRef   = textgate.MustCompile(`(?:^|\s|订阅|提醒|#|第|no\.?)\s*(s-[a-z0-9]+|\d{1,3})\s*(?:个|号|条)?\s*(?:订阅|提醒)?\s*(?:$|[^\d])`)
	reMinFree  = textgate.MustCompile(`(?:至少|不少于|最少|at least|min(?:imum)?)\s*(?:有)?\s*` + numPat + `\s*(?:张|块|个|台|gpus?|cards?)|` + numPat + `\s*(?:张|块|台)\s*(?:以上|及以上|起)`)
	reMinEN    = textgate.MustCompile(`(\d+|two|three|four|eight)\s+(?:[a-z0-9 ]*?)(?:s|gpus|cards)?\s+(?:are|is)\s+free`)
	reRegion   = textgate.MustCompile(`(?:地区|区域|region|机房)\s*[:：=]?\s*([\p{Han}a-z0-9-]+)|(西北|北京|内蒙|佛山|重庆|扬州|华东|华北|华南|西南|宁夏|芜湖|杭州|上海|深圳|广州)[a-z]?区?`)
	// reChoice picks a reading after an ask-back: "1", "第二个", "后者".
	reChoice = textgate.MustCompile(`^\s*(?:(1|一|第一个?|第1个?|前者|前面那个|上面那个|a|第一种)|(2|二|第二个?|第2个?|后者|后面那个|下面那个|b|第二种))\s*(?:吧|呗|个|啊|的|。|!|！)?\s*$`)
	// reSwitch is a short message switching card or platform: "用4090",
	// "换成A100", "在恒源云呢", "on autodl instead", "what about a 3090".
	reSwitch = textgate.MustCompile(`^\s*(?:那|那么|如果)?\s*(?:用|换成|换|改用|改成|在|on|with|use|using|what about|how about|and)\b?.{0,24}$|^.{0,24}(?:呢|instead)\s*[?？]?\s*$`)
	// reParamsOnly is what may remain of a message that only changes
	// parameters ("seq 4096", "5万条", "batch 8 呢").
	reParamsOnly = textgate.MustCompile(`^[\s,，.。、;；:：和与及加再改成换成变成设为设成用呢吧那如果要是呢?？!！the and with to set use make it]*$`)
)

var kwStockWord = []string{"有货", "有吗", "有没有", "还有", "哪家", "哪里", "哪个平台", "哪些平台", "在哪", "便宜", "available", "in stock", "which platform", "where", "any ", "cheapest", "cheap", "stock", "sold out", "售罄", "抢", "库存", "空闲", "free", "租"}

// SubscribeSlots fills a subscription's slots (see subscribeSlots).
func (x *Extraction) SubscribeSlots() { subscribeSlots(x.q, x.s, x.rest) }

// UnsubscribeSlots fills a cancellation's slots (see unsubscribeSlots).
func (x *Extraction) UnsubscribeSlots() { unsubscribeSlots(x.q, x.rest) }

// MuteSlots fills a mute's duration or end (see muteMinutes).
func (x *Extraction) MuteSlots() { muteMinutes(x.q, x.s) }

// choiceOf is 1 or 2 for a pick after an ask-back, else 0.
func choiceOf(s string) int {
	m := reChoice.FindStringSubmatch(s)
	switch {
	case m == nil:
		return 0
	case m[1] != "":
		return 1
	}
	return 2
}

// onlyParams reports whether the message holds job parameters and nothing
// else: a follow-up that changes the last estimate.
func onlyParams(x *Extraction) bool {
	q := x.q
	any := q.SeqLen > 0 || q.Batch > 0 || q.Samples > 0 || q.Tokens > 0 || q.TokensPerSample > 0 || q.Epochs > 0 ||
		q.Bits > 0 || q.LoRARank > 0 || q.LoRATargets != "" || q.Optimizer != "" || q.NoGradCkpt || q.NoFlashAttn ||
		q.ZeRO > 0 || q.GPUCount > 0 || q.Method != "" || q.ParamsB > 0 && q.Model == "" ||
		q.Images > 0 || q.Steps > 0 || q.Resolution > 0 || q.DataPercent > 0
	if !any || q.Model != "" || q.ModelText != "" {
		return false
	}
	rest := x.rest
	for _, w := range []string{"qlora", "lora", "全量", "全参", "推理", "inference", "int4", "int8", "fp16", "bf16", "4bit", "8bit", "4-bit", "8-bit", "梯度检查点", "gradient checkpointing", "flash attention", "flash-attn", "flashattention", "不开", "关闭", "不用", "no", "zero"} {
		rest = strings.ReplaceAll(rest, w, " ")
	}
	rest = reBits.ReplaceAllString(rest, " ")
	rest = reZeRO.ReplaceAllString(rest, " ")
	return reParamsOnly.MatchString(rest)
}

// muteMinutes reads how long "静音 2小时" mutes (60 when no duration is
// given, 0 for "取消静音"), capped at 7 days.
func muteMinutes(q *Query, s string) {
	if reUnmute.MatchString(s) {
		q.MuteMinutes = 0
		return
	}
	q.MuteMinutes = 60
	if muteUntil(q, s) {
		return
	}
	if m := reHourAndHalf.FindStringSubmatch(s); m != nil {
		// "1个半小时": an hour and a half.
		if v, ok := ParseNum(m[1]); ok && v > 0 && v <= 7*24 {
			q.MuteMinutes = int(v*60) + 30
			return
		}
	}
	m := reMute.FindStringSubmatch(s)
	if m == nil {
		return
	}
	v, ok := ParseNum(m[1])
	if strings.Contains(m[1], "半") {
		v, ok = 0.5, true
	}
	unit := m[3]
	if !ok || v <= 0 {
		q.problem("静音时长无效，按 1 小时", "invalid mute duration; muting for 1 hour")
		return
	}
	switch {
	case strings.HasPrefix(unit, "分") || strings.HasPrefix(unit, "min") || unit == "m":
		q.MuteMinutes = int(v)
	case unit == "天" || strings.HasPrefix(unit, "d"):
		q.MuteMinutes = int(v * 24 * 60)
	case strings.HasPrefix(unit, "晚") || unit == "夜":
		q.MuteMinutes = int(v * 12 * 60)
	default:
		q.MuteMinutes = int(v * 60)
	}
	if q.MuteMinutes > 7*24*60 {
		q.problem("最长静音 7 天", "muting is capped at 7 days")
		q.MuteMinutes = 7 * 24 * 60
	}
	q.MuteMinutes = max(q.MuteMinutes, 1)
}

var (
	// reClockPoint is a Chinese clock time: "8点", "十点半", "8点30(分)".
	reClockPoint = textgate.MustCompile(`(\d{1,2}|[零一二两三四五六七八九十]{1,3})\s*点\s*(半|\d{1,2})?`)
	// reClockAMPM is "7pm", "9:30am", "12 am".
	reClockAMPM = textgate.MustCompile(`\b(\d{1,2})(?:[:：](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)`)
	// reClockColon is "19:30"; reClockOClock "9 o'clock".
	reClockColon  = textgate.MustCompile(`\b(\d{1,2})[:：](\d{2})\b`)
	reClockOClock = textgate.MustCompile(`\b(\d{1,2})\s*o'?clock\b`)
	// reMuteTomorrow names tomorrow; reMuteToday today.
	reMuteTomorrow = textgate.MustCompile(`明天|明早|明儿|明晚|tomorrow`)
	// reUntilWord comes before a mute's end: "到明早", "until 7pm",
	// "8点前" has none (the time is the end).
	reUntilWord = textgate.MustCompile(`到|至|until|till|\btil\b`)
	// reMuteMorning is a quiet night: "今晚别推了", "overnight": until 08:00.
	reMuteMorning = textgate.MustCompile(`今晚|今天晚上|tonight|overnight|明早|明天早上|tomorrow morning`)
)

// dayParts are the parts of a day: the word, how a clock hour in it
// reads (pm: add 12 below 12; noon: 1–5 are afternoon), and its default
// hour when no clock time is given.
var dayParts = []struct {
	words       []string
	pm, noon    bool
	defaultHour int
}{
	{words: []string{"凌晨"}, defaultHour: 5},
	{words: []string{"早上", "早晨", "上午", "明早", "morning"}, defaultHour: 8},
	{words: []string{"中午", "noon"}, noon: true, defaultHour: 12},
	{words: []string{"下午", "afternoon"}, pm: true, defaultHour: 14},
	{words: []string{"晚上", "今晚", "明晚", "evening", "night", "tonight"}, pm: true, defaultHour: 20},
}

// muteUntil reads a mute's end as a clock time ("到明早8点", "静音到晚上
// 12点", "mute until 7:30pm", "到中午", "今晚别推了"); it reports whether
// one was given. What follows the last "到/until" is the end; an
// impossible time ("25点") mutes for an hour and says so.
func muteUntil(q *Query, s string) bool {
	target := s
	if loc := reUntilWord.FindAllStringIndex(s, -1); loc != nil {
		target = s[loc[len(loc)-1][1]:]
	}
	h, m, meridiem, found := clockIn(target)
	part := -1
	for i, d := range dayParts {
		if ContainsAny(target, d.words) {
			part = i
		}
	}
	tomorrow := reMuteTomorrow.MatchString(target)
	switch {
	case found && (h > 24 || m > 59):
		q.problem("没看懂静音到几点，按 1 小时", "could not read the time; muting for 1 hour")
		return true
	case found:
		if part >= 0 {
			h = dayHour(h, part)
		}
		switch {
		case strings.HasPrefix(meridiem, "a"):
			h %= 12
		case strings.HasPrefix(meridiem, "p") && h < 12:
			h += 12
		}
	case target != s && (part >= 0 || tomorrow):
		h, m = 8, 0
		if part >= 0 {
			h = dayParts[part].defaultHour
		}
	case reMuteMorning.MatchString(s):
		h, m = 8, 0
	default:
		return false
	}
	q.MuteUntil = fmt.Sprintf("%02d:%02d", h%24, m)
	q.MuteTomorrow = tomorrow
	return true
}

// clockIn finds a clock time in a folded text: its hour and minute as
// written (12-hour or 24-hour) and "am"/"pm" when it says one.
func clockIn(s string) (h, m int, meridiem string, ok bool) {
	num := func(t string) int {
		v, _ := ParseNum(t)
		return int(v)
	}
	if x := reClockPoint.FindStringSubmatch(s); x != nil {
		if _, okN := ParseNum(x[1]); okN {
			h = num(x[1])
			if x[2] == "半" {
				m = 30
			} else if x[2] != "" {
				m = num(x[2])
			}
			return h, m, "", true
		}
	}
	if x := reClockAMPM.FindStringSubmatch(s); x != nil {
		if x[2] != "" {
			m = num(x[2])
		}
		return num(x[1]), m, x[3], true
	}
	if x := reClockColon.FindStringSubmatch(s); x != nil {
		return num(x[1]), num(x[2]), "", true
	}
	if x := reClockOClock.FindStringSubmatch(s); x != nil {
		return num(x[1]), 0, "", true
	}
	return 0, 0, "", false
}

// dayHour turns an hour said with a part of the day into 0–23: "晚上10点"
// → 22, "晚上12点" → 0 (midnight), "中午1点" → 13, "凌晨12点" → 0.
func dayHour(h, part int) int {
	d := dayParts[part]
	switch {
	case d.pm && h == 12:
		return 0
	case d.pm && h < 12:
		return h + 12
	case d.noon && h >= 1 && h <= 5:
		return h + 12
	case d.defaultHour == 5 && h == 12:
		return 0
	}
	return h
}

// MuteEnd is when a mute given as a clock time ends: its next occurrence
// after now in loc (the next day's when tomorrow is said and the time is
// still ahead today).
func MuteEnd(now time.Time, loc *time.Location, clock string, tomorrow bool) time.Time {
	var h, m int
	fmt.Sscanf(clock, "%d:%d", &h, &m)
	local := now.In(loc)
	end := time.Date(local.Year(), local.Month(), local.Day(), h, m, 0, 0, loc)
	if !end.After(local) {
		end = end.AddDate(0, 0, 1)
	}
	// "明早" said after midnight (before 05:00) still means the coming
	// morning.
	if tomorrow && local.Hour() >= 5 && end.YearDay() == local.YearDay() {
		end = end.AddDate(0, 0, 1)
	}
	return end
}

// subscribeSlots reads the fewest free GPUs and the region of a
// subscription; a count there is not a job's GPU count.
func subscribeSlots(q *Query, s, rest string) {
	if m := reMinFree.FindStringSubmatch(rest); m != nil {
		n := m[1] + m[2]
		if v, ok := ParseNum(n); ok && v >= 1 && v <= 64 {
			q.MinFree, q.GPUCount = int(v), 0
		}
	}
	if q.MinFree == 0 {
		if m := reMinEN.FindStringSubmatch(s); m != nil {
			n := map[string]int{"two": 2, "three": 3, "four": 4, "eight": 8}[m[1]]
			if n == 0 {
				n, _ = strconv.Atoi(m[1])
			}
			if n >= 2 && n <= 64 {
				q.MinFree, q.GPUCount = n, 0
			}
		}
	}
	if q.MinFree == 0 && q.GPUCount > 1 && strings.Contains(s, "空") {
		// "4090有两张空的时候通知我"
		q.MinFree, q.GPUCount = q.GPUCount, 0
	}
	if m := reRegion.FindStringSubmatch(rest); m != nil {
		q.Region = m[1] + m[2]
	}
	if q.MaxPriceCNY == 0 && rePriceWord.MatchString(s) {
		q.problem("价格条件没看懂（要在 0 到 1000 元/卡时之间），这个订阅不限价格", "the price limit was not understood (it must be between 0 and 1000 CNY/GPU-h); this subscription has no price limit")
	}
}

// rePriceWord marks a price condition the money rules did not take.
var rePriceWord = textgate.MustCompile(`低于|不超过|小于|以下|under|below|less than`)

// unsubscribeSlots reads "all" or the subscription to cancel.
func unsubscribeSlots(q *Query, rest string) {
	q.All = reAllWords.MatchString(rest) && len(q.GPUs) == 0
	if q.GPU == "" && !q.All {
		if m := reSubRef.FindStringSubmatch(rest); m != nil {
			q.SubRef = m[1]
		} else if q.DiskRef != "" {
			// "把第2个订阅删了" was read as a disk number.
			q.SubRef = q.DiskRef
		}
	}
	q.DiskRef = ""
}
