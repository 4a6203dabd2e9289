package commands

import "github.com/labgpu/bot/internal/understand"

// The understanding (internal/understand) reads a message into a Query;
// these names keep the router's API in its terms.
type (
	Query               = understand.Query
	Alternative         = understand.Alternative
	Intents             = understand.Intents
	Definition          = understand.Definition
	Understander        = understand.Understander
	UnderstanderOptions = understand.UnderstanderOptions
)

// Intents, billing modes and periods (understand's).
const (
	IntentStock         = understand.IntentStock
	IntentEstimate      = understand.IntentEstimate
	IntentPrices        = understand.IntentPrices
	IntentCompare       = understand.IntentCompare
	IntentPlan          = understand.IntentPlan
	IntentFactCheck     = understand.IntentFactCheck
	IntentHelp          = understand.IntentHelp
	IntentMore          = understand.IntentMore
	IntentChitChat      = understand.IntentChitChat
	IntentClarify       = understand.IntentClarify
	IntentUnknown       = understand.IntentUnknown
	IntentSubscribe     = understand.IntentSubscribe
	IntentUnsubscribe   = understand.IntentUnsubscribe
	IntentSubscriptions = understand.IntentSubscriptions
	IntentMute          = understand.IntentMute
	IntentStorageAdd    = understand.IntentStorageAdd
	IntentStorageList   = understand.IntentStorageList
	IntentStorageResize = understand.IntentStorageResize
	IntentStorageStop   = understand.IntentStorageStop
	IntentStorageStart  = understand.IntentStorageStart
	IntentStorageRemove = understand.IntentStorageRemove
	IntentStorageRisk   = understand.IntentStorageRisk
	IntentDigest        = understand.IntentDigest
	IntentDigestOn      = understand.IntentDigestOn
	IntentDigestOff     = understand.IntentDigestOff
	IntentAdvice        = understand.IntentAdvice

	ModeHourly  = understand.ModeHourly
	ModeDaily   = understand.ModeDaily
	ModeWeekly  = understand.ModeWeekly
	ModeMonthly = understand.ModeMonthly
	ModeYearly  = understand.ModeYearly
	ModeSpot    = understand.ModeSpot

	PeriodThisWeek  = understand.PeriodThisWeek
	PeriodLastWeek  = understand.PeriodLastWeek
	PeriodThisMonth = understand.PeriodThisMonth
	PeriodLastMonth = understand.PeriodLastMonth
)
