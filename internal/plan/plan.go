// Package plan is the plan optimizer (issue 16): given how a lab will use
// a GPU (a Profile) it prices every platform × billing mode (按量, 包日,
// 包周, 包月, 包年, 竞价) including what the list price leaves out: data
// disk billed while stopped, the minimum and rounding billed per start,
// setup time in no-card mode (无卡模式) or on the GPU, and the chance of
// not getting a card when it is wanted (a QueueRisk). It ranks the plans
// and gives break-even points ("包周 pays off above ~125 h a week").
//
// Optimize is a pure function: no clock, no I/O. Units: prices CNY per
// GPU-hour (hourly, spot) or CNY per GPU per term (daily 24 h, weekly
// 168 h, monthly 720 h, yearly 8760 h of wall clock, catalog.PlanModes);
// disk CNY per GB-day (GB = 1e9 bytes); hours are wall-clock hours.
package plan

import (
	"math"

	"github.com/labgpu/bot/internal/catalog"
)

// Windows of the day a profile works in (Profile.Window).
const (
	WindowDay     = "day"     // 08:00-19:00
	WindowEvening = "evening" // 19:00-23:00, the seeds' queue hours
)

// Profile is how a lab will use the cards.
type Profile struct {
	// GPU is a catalog GPU id; Count the cards used together (≥ 1).
	GPU   string `json:"gpu"`
	Count int    `json:"gpu_count"`
	// HoursPerWeek are the hours per week the cards run; TotalHours the
	// hours in all (used when HoursPerWeek is 0).
	HoursPerWeek float64 `json:"hours_per_week,omitempty"`
	TotalHours   float64 `json:"total_hours,omitempty"`
	// Weeks is how long the work lasts, in weeks of calendar time (5 days
	// = 0.714).
	Weeks float64 `json:"weeks"`
	// Window is WindowDay, WindowEvening or "" (not said).
	Window string `json:"window,omitempty"`
	// DiskGB is the data disk kept for the whole span, GB.
	DiskGB float64 `json:"disk_gb"`
	// SetupHours are hours over the whole span that need the machine but
	// no GPU (environment, uploads): no-card mode where the platform has
	// one, else billed on the GPU. Plans (the GPU is paid for anyway)
	// cost nothing more for them.
	SetupHours float64 `json:"setup_hours"`
	// Starts is how many times an instance is started over the span (the
	// minimum and rounding are billed per start); 0 counts one.
	Starts int `json:"starts"`
}

// Hours is the GPU hours per card over the whole span.
func (p Profile) Hours() float64 {
	if p.HoursPerWeek > 0 {
		return p.HoursPerWeek * p.Weeks
	}
	return p.TotalHours
}

// SpanHours is the wall-clock hours the work spans (Weeks × 168), never
// less than the GPU hours.
func (p Profile) SpanHours() float64 { return math.Max(p.Weeks*168, p.Hours()) }

// Platform is what the optimizer needs of a platform besides its prices.
type Platform struct {
	ID string
	// GranularityHours is what a pay-as-you-go run rounds up to (1/3600
	// per second); half of it is billed per start on average. 0: exact.
	GranularityHours float64
	// MinimumHours is the least billed per start (hours).
	MinimumHours float64
	// NoCard is the no-card mode price, CNY per hour; nil when the
	// platform has none or its price is unknown.
	NoCard *float64
	// DiskFreeGB is the data disk included free; DiskCNYPerGBDay the
	// price beyond it (nil: unknown).
	DiskFreeGB      float64
	DiskCNYPerGBDay *float64
}

// Price is one platform's price for a GPU in one mode: CNY per GPU-hour
// (hourly, spot) or per GPU per term. Lab is set for a price the lab
// recorded itself (config plans:, "本组记录"), which wins over the
// catalog's.
type Price struct {
	Platform string         `json:"platform"`
	GPU      string         `json:"gpu"`
	Mode     string         `json:"mode"`
	CNY      catalog.Figure `json:"cny"`
	Lab      bool           `json:"lab,omitempty"`
	SeenBy   string         `json:"seen_by,omitempty"`
}

// Risk is the probability that no card is free when wanted, and the
// history it rests on.
type Risk struct {
	// P is in [0, 1]: the share of polls at the profile's hours with no
	// card free.
	P float64 `json:"p"`
	// Days of history and the polls behind P.
	Days  float64 `json:"days"`
	Polls int     `json:"polls"`
}

// QueueRisk says how likely a platform has no card of a GPU free in a
// window of the day (WindowDay, WindowEvening, "" any time); ok is false
// when it does not know. The availability history implements it.
type QueueRisk interface {
	NotAvailable(platform, gpu, window string) (r Risk, ok bool)
}
