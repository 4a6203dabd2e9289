package slots

import (
	"fmt"
	"github.com/labgpu/bot/internal/understand/slots/when"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/understand/slots/conditions"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// The words of alerts and mutes (configs/slots/alerts.yaml).
var (
	reHourAndHalf = words.NewExpr("alerts.hour_and_half")
	reMute        = words.NewExpr("alerts.mute")
	reUnmute      = words.NewExpr("alerts.unmute")
	reMuteWord    = words.NewExpr("alerts.mute_word")
	reAllWords    = words.NewExpr("alerts.all")
	reSubRef      = words.NewExpr("alerts.sub_ref")
	reMinFree     = words.NewExpr("alerts.min_free")
	reFreeFloor   = words.NewExpr("alerts.free_floor")
	reMinEN       = words.NewExpr("alerts.min_free_english")
	reRegion      = words.NewExpr("alerts.region")
	// reChoice picks a reading after an ask-back: "1", "第二个", "后者".
	reChoice = words.NewExpr("alerts.choice")
	// reSwitch is a short message switching card or platform: "用4090",
	// "换成A100", "在恒源云呢", "on autodl instead", "what about a 3090".
	reSwitch = words.NewExpr("alerts.switch")
	// reParamsOnly is what may remain of a message that only changes
	// parameters ("seq 4096", "5万条", "batch 8 呢").
	reParamsOnly = words.NewExpr("alerts.params_only")
	// kwStockWord are words of a stock or price question; paramWords what
	// a parameters-only follow-up may say besides its figures.
	kwStockWord = words.NewWords("alerts.stock_word")
	paramWords  = words.NewWords("alerts.param_words")
	// freeWords make a GPU count the fewest free ("两张空的时候").
	freeWords = words.NewWords("alerts.free")
	// muteMinuteUnits are the mute units that count minutes.
	muteMinuteUnits = words.NewWords("alerts.mute_minutes")
)

// SubscribeSlots fills a subscription's slots (see subscribeSlots).
func (x *Extraction) SubscribeSlots() { subscribeSlots(x.q, x.s, x.rest) }

// UnsubscribeSlots fills a cancellation's slots (see unsubscribeSlots).
func (x *Extraction) UnsubscribeSlots() { unsubscribeSlots(x.q, x.rest) }

// SaysAllSlot notes whether the message names all of something
// (Query.SaysAll).
func (x *Extraction) SaysAllSlot() { x.q.SaysAll = reAllWords.MatchString(x.rest) }

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
	for _, w := range paramWords.List() {
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
		if v, ok := words.ParseNum(m[1]); ok && v > 0 && v <= 7*24 {
			q.MuteMinutes = int(v*60) + 30
			return
		}
	}
	m := reMute.FindStringSubmatch(s)
	if m == nil {
		return
	}
	v, ok := words.ParseNum(m[1])
	if h, has := halfIn(m[1]); has {
		v, ok = h, true
	}
	unit := m[3]
	if !ok || v <= 0 {
		q.problem(ProblemMuteInvalid)
		return
	}
	if muteMinuteUnits.Has(unit) {
		q.MuteMinutes = int(v)
	} else {
		hours, ok := words.Number("alerts.mute_unit_hours", unit)
		if !ok {
			hours = 1
		}
		q.MuteMinutes = int(v * hours * 60)
	}
	if q.MuteMinutes > 7*24*60 {
		q.problem(ProblemMuteCapped)
		q.MuteMinutes = 7 * 24 * 60
	}
	q.MuteMinutes = max(q.MuteMinutes, 1)
}

var (
	// reMuteTomorrow names tomorrow; reUntilWord comes before a mute's
	// end ("到明早", "until 7pm"; "8点前" has none: the time is the end);
	// reMuteMorning is a quiet night ("今晚别推了", "overnight"): until
	// 08:00.
	reMuteTomorrow = words.NewExpr("alerts.mute_tomorrow")
	reUntilWord    = words.NewExpr("alerts.until")
	reMuteMorning  = words.NewExpr("alerts.mute_morning")
	// reMuteWeek is a mute over the rest of the week ("周末别提醒").
	reMuteWeek = words.NewExpr("alerts.mute_week")
)

// muteUntil reads a mute's end as a clock time ("到明早8点", "静音到晚上
// 12点", "mute until 7:30pm", "到中午", "今晚别推了"); it reports whether
// one was given. What follows the last "到/until" is the end; a part of
// the day is the vocabulary's point in time (DayPartAt: "到晚上" 20:00)
// and reads an hour said with it (DayPart.ClockHour); an impossible time
// ("25点") mutes for an hour and says so.
func muteUntil(q *Query, s string) bool {
	target := s
	if loc := reUntilWord.FindAllStringIndex(s, -1); loc != nil {
		target = s[loc[len(loc)-1][1]:]
	}
	h, m, meridiem, found := when.ClockIn(target)
	part, named := words.DayPartAt(target)
	tomorrow := reMuteTomorrow.MatchString(target)
	weekday := 0
	if w, ok := words.WeekdayIn(target); ok {
		weekday = w.ISO
	}
	switch {
	case weekday > 0, reMute.MatchString(s):
		// A weekday named; or a length said ("周末两天别发提醒", "这周出差
		// 静音3天"): the week's words only say why.
	case target != s && reMuteWeek.MatchString(target):
		weekday, q.MuteWeekWords = int(time.Saturday), true // "静音到周末", "until the weekend" (ISO 6)
	case reMuteWeek.MatchString(s):
		weekday, q.MuteWeekWords = int(time.Monday), true // "周末别提醒", "mute for the weekend" (ISO 1)
	}
	q.MuteWeekday = weekday
	switch {
	case found && (h > 24 || m > 59):
		q.problem(ProblemMuteTime)
		return true
	case found:
		if named {
			h = part.ClockHour(h)
		}
		switch {
		case strings.HasPrefix(meridiem, "a"):
			h %= 12
		case strings.HasPrefix(meridiem, "p") && h < 12:
			h += 12
		}
	case weekday > 0 || target != s && (named || tomorrow):
		// "到明天", a weekday without a time ("静音到周一", "周末别提醒"):
		// the morning's point (08:00), or the part of the day named.
		h, m = morningHour(), 0
		if named {
			h = part.At
		}
	case reMuteMorning.MatchString(s):
		h, m = morningHour(), 0
	default:
		return false
	}
	q.MuteUntil = fmt.Sprintf("%02d:%02d", h%24, m)
	q.MuteTomorrow = tomorrow
	return true
}

// morningHour is when a mute that names a day but no time ends: the
// early morning's point in time (08:00).
func morningHour() int {
	d, _ := words.DayPartByID("early_morning")
	return d.At
}

// FreeFloor reads, for a stock question, the fewest free cards it asks
// for ("cheapest one with at least 2 free", "至少3张空闲的") as the cards
// wanted, when it named no count.
func (x *Extraction) FreeFloor() {
	q := x.q
	if q.GPUCount > 0 {
		return
	}
	if m := reFreeFloor.FindStringSubmatch(x.s); m != nil {
		if v, ok := words.ParseNum(m[1]); ok && v >= 2 && v <= 64 {
			q.GPUCount = int(v)
		}
	}
}

// subscribeSlots reads the fewest free GPUs and the region of a
// subscription; a count there is not a job's GPU count.
func subscribeSlots(q *Query, s, rest string) {
	if m := reMinFree.FindStringSubmatch(rest); m != nil {
		n := m[1] + m[2]
		if v, ok := words.ParseNum(n); ok && v >= 1 && v <= 64 {
			q.MinFree, q.GPUCount = int(v), 0
		}
	}
	if q.MinFree == 0 {
		if m := reMinEN.FindStringSubmatch(s); m != nil {
			v, _ := englishNumber(m[1])
			n := int(v)
			if n == 0 {
				n, _ = strconv.Atoi(m[1])
			}
			if n >= 2 && n <= 64 {
				q.MinFree, q.GPUCount = n, 0
			}
		}
	}
	if q.MinFree == 0 && q.GPUCount > 1 && words.ContainsAny(s, freeWords.List()) {
		// "4090有两张空的时候通知我"
		q.MinFree, q.GPUCount = q.GPUCount, 0
	}
	if q.MinFree > 0 && q.PriceTotalCNY > 0 {
		// The cards counted are free ones, not rented together: the
		// ceiling is each card's.
		q.MaxPriceCNY, q.PriceTotalCNY = q.PriceTotalCNY, 0
	}
	if q.MinFree > 0 {
		q.DropCondition(conditions.CondPriceTotal)
		q.DropCondition(conditions.CondPricePerCard)
	}
	// A subscription's region is matched against the platforms' own
	// region names (stock.Index), so it is only a name this pattern reads,
	// never a region of the conditions ("美国"): that condition is then
	// not used, and the reply says so.
	q.Region = ""
	if m := reRegion.FindStringSubmatch(rest); m != nil {
		q.Region = m[1] + m[2]
	}
	if q.MaxPriceCNY == 0 && rePriceWord.MatchString(s) {
		q.problem(ProblemPriceLimit)
	}
}

// rePriceWord marks a price condition the money rules did not take.
var rePriceWord = words.NewExpr("alerts.price_word")

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
