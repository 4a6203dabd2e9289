package understand

import (
	"time"

	"github.com/labgpu/bot/internal/understand/slots"
	"github.com/labgpu/bot/internal/understand/slots/claim"
	"github.com/labgpu/bot/internal/understand/slots/conditions"
	"github.com/labgpu/bot/internal/understand/slots/language"
	"github.com/labgpu/bot/internal/understand/slots/oom"
	"github.com/labgpu/bot/internal/understand/slots/when"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// Intents. JSON answers carry them as "intent"; each has a definition in
// configs/intents/<intent>.yaml (how it is recognised) and a handler here.
const (
	IntentStock    = "stock"
	IntentEstimate = "estimate"
	IntentPrices   = "prices"
	// IntentCompare compares two or more platforms or GPUs; IntentPlan
	// answers a price in a billing mode (包月, 包周, 按天, spot);
	// IntentFactCheck checks a claim against the sourced figures.
	IntentCompare   = "compare"
	IntentPlan      = "plan"
	IntentFactCheck = "factcheck"
	IntentHelp      = "help"
	// IntentMore returns the full form of the chat's last answer ("详情").
	IntentMore = "more"
	// IntentChitChat is thanks or a greeting.
	IntentChitChat = "chitchat"
	// IntentClarify asks back with the two likeliest readings.
	IntentClarify = "clarify"
	// IntentUnknown is text outside what the bot does.
	IntentUnknown = "unknown"
	// Stock alert intents.
	IntentSubscribe     = "subscribe"
	IntentUnsubscribe   = "unsubscribe"
	IntentSubscriptions = "subscriptions"
	IntentMute          = "mute"
	// Storage ledger and digest intents.
	IntentStorageAdd    = "storage_add"
	IntentStorageList   = "storage_list"
	IntentStorageResize = "storage_resize"
	IntentStorageStop   = "storage_stop"
	IntentStorageStart  = "storage_start"
	IntentStorageRemove = "storage_remove"
	IntentStorageRisk   = "storage_risk" // stopped disks a platform will soon release or wipe
	IntentDigest        = "digest"
	IntentDigestOn      = "digest_on"
	IntentDigestOff     = "digest_off"
	// IntentAdvice answers a pasted error or a troubleshooting or
	// card-choice question from the knowledge base (configs/advice.yaml).
	IntentAdvice = "advice"
	// IntentAvailability answers when a card is usually free ("4090 什么
	// 时候好抢") from the availability history.
	IntentAvailability = "availability"
)

// Billing modes (slot billing_mode).
const (
	ModeHourly  = slots.ModeHourly
	ModeDaily   = slots.ModeDaily
	ModeWeekly  = slots.ModeWeekly
	ModeMonthly = slots.ModeMonthly
	ModeYearly  = slots.ModeYearly
	ModeSpot    = slots.ModeSpot
)

// MaxDiskGB is the largest disk size storage commands take, in GB.
const MaxDiskGB = slots.MaxDiskGB

// Storage admin commands (Query.AdminCommand) and kinds of small talk
// (Query.SmallTalk).
const (
	AdminBind         = slots.AdminBind
	AdminList         = slots.AdminList
	AdminUnbind       = slots.AdminUnbind
	SmallTalkThanks   = slots.SmallTalkThanks
	SmallTalkGreeting = slots.SmallTalkGreeting
	SmallTalkDecline  = slots.SmallTalkDecline
	SmallTalkNoAction = slots.SmallTalkNoAction
)

// Periods (slot period).
const (
	PeriodThisWeek  = slots.PeriodThisWeek
	PeriodLastWeek  = slots.PeriodLastWeek
	PeriodThisMonth = slots.PeriodThisMonth
	PeriodLastMonth = slots.PeriodLastMonth
)

// Query is an understood question: the intent, how sure, the runner-up
// readings and every slot found (see slots.Query); Alternative is another
// reading with its score; WeekWindow the part of the week a question
// names (Query.When), Claim what a fact check's claim says (Query.Claim),
// OOMError a pasted CUDA out-of-memory error's figures (Query.OOM).
type (
	Query       = slots.Query
	Alternative = slots.Alternative
	WeekWindow  = when.WeekWindow
	Claim       = claim.Claim
	OOMError    = oom.Error
	YesNo       = slots.YesNo
)

// What a message asks that the bot does not do (Query.OutOfScope; see
// slots.ReadScope).
const (
	ScopeCode   = slots.ScopeCode
	ScopeText   = slots.ScopeText
	ScopeAct    = slots.ScopeAct
	ScopeLLMAPI = slots.ScopeLLMAPI
	ScopeImage  = slots.ScopeImage
)

// What a comparison asks about (Query.Aspect).
const (
	AspectSpeed = slots.AspectSpeed
	AspectPrice = slots.AspectPrice
)

// What a yes/no question asks (Query.YesNo.Kind; see slots.YesNo).
const (
	YesNoFits    = slots.YesNoFits
	YesNoWorth   = slots.YesNoWorth
	YesNoCan     = slots.YesNoCan
	YesNoHave    = slots.YesNoHave
	YesNoCheaper = slots.YesNoCheaper
	YesNoEasy    = slots.YesNoEasy
	YesNoTrue    = slots.YesNoTrue
)

// HasCJK reports whether s has a Chinese character.
func HasCJK(s string) bool { return language.HasCJK(s) }

// ParseNum parses "12", "1.5", "三", "十二", "二十", "一百".
func ParseNum(s string) (float64, bool) { return words.ParseNum(s) }

// Round4 rounds to four decimals.
func Round4(x float64) float64 { return words.Round4(x) }

// ContainsAny reports whether s contains one of kws, a keyword with an
// ASCII letter at an end not glued to further letters there (see
// words.ContainsAny).
func ContainsAny(s string, kws []string) bool { return words.ContainsAny(s, kws) }

// AnswerEnglish decides the answer's language (see language.AnswerEnglish).
func AnswerEnglish(text string, chatEnglish bool) bool {
	return language.AnswerEnglish(text, chatEnglish)
}

// EnglishPaste reports whether text is a paste of English program output
// (see language.EnglishPaste).
func EnglishPaste(text string) bool { return language.EnglishPaste(text) }

// WeekdayName is how an answer names one weekday, 1 (Monday) … 7
// (Sunday): "周一", "Monday" ("" for none).
func WeekdayName(iso int, en bool) string {
	for _, w := range words.Weekdays() {
		if w.ISO == iso {
			return w.OneName.Pick(en)
		}
	}
	return ""
}

// MuteEnd is when a mute given as a clock time ends (see when.MuteEnd).
func MuteEnd(now time.Time, loc *time.Location, clock string, tomorrow bool, weekday int) time.Time {
	return when.MuteEnd(now, loc, clock, tomorrow, weekday)
}

// The one vocabulary of times of day and of the week
// (configs/slots/time.yaml, see slots/words/vocabulary.go): its items
// carry their ids, hours and names.
type (
	DayPart     = words.DayPart
	WeekPart    = words.WeekPart
	Weekday     = words.Weekday
	RelativeDay = words.RelativeDay
)

// DayParts are the parts of the day (see words.DayParts).
func DayParts() []DayPart { return words.DayParts() }

// WeekParts are the parts of the week (see words.WeekParts).
func WeekParts() []WeekPart { return words.WeekParts() }

// Weekdays are the days of the week, Monday first (see words.Weekdays).
func Weekdays() []Weekday { return words.Weekdays() }

// RelativeDays are the days named from today (see words.RelativeDays).
func RelativeDays() []RelativeDay { return words.RelativeDays() }

// Condition is a condition a question states (see conditions.Condition); the
// Cond* constants are its kinds, Group* the platform groups, Schedule*
// the schedules, CurrencyUSD the one other currency read.
type Condition = conditions.Condition

// Stated are a Query's stated conditions (see conditions.Stated).
type Stated = conditions.Stated

// Condition kinds, platform groups, schedules and currencies (see slots).
const (
	CondVRAMMin       = conditions.CondVRAMMin
	CondVRAMMax       = conditions.CondVRAMMax
	CondPeriod        = conditions.CondPeriod
	CondRegion        = conditions.CondRegion
	CondPlatformGroup = conditions.CondPlatformGroup
	CondPriceTotal    = conditions.CondPriceTotal
	CondPricePerCard  = conditions.CondPricePerCard
	CondBudget        = conditions.CondBudget
	CondCurrency      = conditions.CondCurrency
	CondSchedule      = conditions.CondSchedule
	GroupDomestic     = conditions.GroupDomestic
	GroupOverseas     = conditions.GroupOverseas
	GroupBoth         = conditions.GroupBoth
	ScheduleEvenings  = conditions.ScheduleEvenings
	ScheduleNights    = conditions.ScheduleNights
	ScheduleDaytime   = conditions.ScheduleDaytime
	ScheduleWeekdays  = conditions.ScheduleWeekdays
	ScheduleWeekends  = conditions.ScheduleWeekends
	CurrencyUSD       = conditions.CurrencyUSD
)

// InRegion reports whether an offer's region is in the region a question
// asked for (see conditions.InRegion).
func InRegion(region, offer string) bool { return conditions.InRegion(region, offer) }

// JobNames are the names a folded question gives to what it trains or
// runs, after a verb (slots.JobNames): the candidates for a job no
// estimator knows.
func JobNames(folded string) []string { return slots.JobNames(folded) }

// AsksSpeed reports whether a folded text asks about speed (slots.AsksSpeed).
func AsksSpeed(folded string) bool { return slots.AsksSpeed(folded) }
