package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// PlansFile is the file of billing-mode rules in the catalog directory.
const PlansFile = "plans.yaml"

// ModeRule is how one platform sells compute in one billing mode (按量,
// 包日, 包周, 包月, 包年, 竞价): the rules a plan's real cost depends on,
// with the date and source they come from. A tri-state rule (a *bool) is
// nil when no source says; answers then say "未知", never "no".
type ModeRule struct {
	// Mode is hourly, daily, weekly, monthly, yearly or spot.
	Mode string `yaml:"mode" json:"mode"`
	// MinTermHours is the shortest term one can buy, in hours of wall
	// clock (包周 168); 0 when there is none (pay-as-you-go).
	MinTermHours float64 `yaml:"min_term_hours,omitempty" json:"min_term_hours,omitempty"`
	// Granularity is what a run is rounded up to in this mode: "second",
	// "minute", "hour", "day", "week", "month" ("" unknown).
	Granularity string `yaml:"granularity,omitempty" json:"granularity,omitempty"`
	// GPUReservedWhileStopped: the card stays yours while shut down.
	GPUReservedWhileStopped *bool `yaml:"gpu_reserved_while_stopped,omitempty" json:"gpu_reserved_while_stopped,omitempty"`
	// StopForfeitsTerm: stopping or releasing early loses the rest of the
	// prepaid term.
	StopForfeitsTerm *bool `yaml:"stop_forfeits_term,omitempty" json:"stop_forfeits_term,omitempty"`
	// Interruptible: the platform may take the card back at any time.
	Interruptible bool `yaml:"interruptible,omitempty" json:"interruptible,omitempty"`
	// DiskBilledWhileStopped: paid disk keeps billing while stopped (at
	// the platform's storage.data_disk_cny_per_gb_day rate).
	DiskBilledWhileStopped *bool `yaml:"disk_billed_while_stopped,omitempty" json:"disk_billed_while_stopped,omitempty"`
	// AtExpiry, Refund and Note say what happens when the term ends, what
	// can be refunded, and anything else (Chinese and English).
	AtExpiry Text `yaml:"at_expiry,omitempty" json:"at_expiry,omitempty"`
	Refund   Text `yaml:"refund,omitempty" json:"refund,omitempty"`
	Note     Text `yaml:"note,omitempty" json:"note,omitempty"`
	// AsOf and Source date and cite the rules; Verified is false when only
	// the seed articles support them.
	AsOf     string `yaml:"as_of" json:"as_of"`
	Source   string `yaml:"source" json:"source"`
	Verified bool   `yaml:"verified" json:"verified"`
}

// TermHours is the wall-clock hours one term of a billing mode covers
// (包周 168), 0 for hourly and spot.
func TermHours(mode string) float64 {
	if mode == "spot" {
		return 0
	}
	return PlanModes[mode]
}

// RuleFor returns the platform's rules for a billing mode.
func (p *Platform) RuleFor(mode string) (ModeRule, bool) {
	return first(p.Modes, func(r ModeRule) bool { return r.Mode == mode })
}

type plansDoc struct {
	Plans []struct {
		Platform string     `yaml:"platform"`
		Modes    []ModeRule `yaml:"modes"`
	} `yaml:"plans"`
}

// decodePlans reads plans.yaml, which is optional: a catalog directory
// without one has no mode rules (and no error).
func decodePlans(fsys fs.FS, pd *plansDoc) error {
	if err := decodeFile(fsys, PlansFile, pd); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// attachPlans checks plans.yaml's rules and attaches each platform's to it.
func attachPlans(pd *plansDoc, platforms []Platform) error {
	idx := map[string]int{}
	for i, p := range platforms {
		idx[p.ID] = i
	}
	var errs []error
	for _, e := range pd.Plans {
		i, ok := idx[e.Platform]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: platform %q is not in %s", PlansFile, e.Platform, PlatformsFile))
			continue
		}
		seen := map[string]bool{}
		for _, r := range e.Modes {
			where := fmt.Sprintf("%s: platform %q: mode %q", PlansFile, e.Platform, r.Mode)
			if _, ok := PlanModes[r.Mode]; !ok && r.Mode != "hourly" {
				errs = append(errs, fmt.Errorf("%s: not hourly, daily, weekly, monthly, yearly or spot", where))
			}
			if seen[r.Mode] {
				errs = append(errs, fmt.Errorf("%s: listed twice", where))
			}
			seen[r.Mode] = true
			if r.MinTermHours < 0 {
				errs = append(errs, fmt.Errorf("%s: min_term_hours is negative", where))
			}
			if strings.TrimSpace(r.Source) == "" || !dateRe.MatchString(r.AsOf) {
				errs = append(errs, fmt.Errorf("%s: source and as_of (with a year) are required", where))
			}
		}
		platforms[i].Modes = append(platforms[i].Modes, e.Modes...)
	}
	return errors.Join(errs...)
}
