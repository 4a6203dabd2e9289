package catalog

import (
	"fmt"
	"strings"
	"time"
)

// Retention clocks: what starts a rule's clock (Retention.Clock).
const (
	// ClockStopped: the instance has been shut down continuously (the
	// storage ledger's stop event).
	ClockStopped = "stopped"
)

// What a retention rule deletes (Retention.Wipes), and the kinds of a
// ledger disk (Platform.DiskKind).
const (
	// WipesInstance: the instance is released with every disk on it.
	WipesInstance = "instance"
	// WipesScratch: only the instance's local scratch disk is emptied
	// (恒源云 /hy-tmp).
	WipesScratch = "scratch"
	// DiskScratch is a disk whose note names the platform's scratch disk;
	// DiskPersistent one that names storage kept apart from instances
	// (autodl-fs, /hy-nas); DiskUnknown a disk of the instance whose
	// place the note does not say.
	DiskScratch    = "scratch"
	DiskPersistent = "persistent"
	DiskUnknown    = ""
)

// DiskKinds tell a platform's storage apart by the words of a ledger
// disk's note ("/hy-tmp 数据集", "autodl-fs 脚本"), for release warnings:
// a disk naming persistent storage is never at risk, one naming the
// scratch disk is lost when the scratch disk is emptied.
type DiskKinds struct {
	Scratch    []string `yaml:"scratch,omitempty" json:"scratch,omitempty"`
	Persistent []string `yaml:"persistent,omitempty" json:"persistent,omitempty"`
}

// After is how long after its clock starts the rule applies (Days × 24 h).
func (r Retention) After() time.Duration {
	return time.Duration(r.Days * float64(24*time.Hour))
}

// Timed reports whether release warnings follow the rule: its clock is
// one the storage ledger records.
func (r Retention) Timed() bool { return r.Clock == ClockStopped }

// DiskKind reads a ledger disk's note: DiskPersistent when it names the
// platform's persistent storage, DiskScratch when it names its scratch
// disk, else DiskUnknown. Words match in folded text; a word of ASCII
// letters and digits only where it is not glued to other ones ("oss" is
// not in "boss").
func (p *Platform) DiskKind(note string) string {
	n := Fold(note)
	switch {
	case containsWord(n, p.DiskKinds.Persistent):
		return DiskPersistent
	case containsWord(n, p.DiskKinds.Scratch):
		return DiskScratch
	}
	return DiskUnknown
}

// containsWord reports whether folded text s holds one of words.
func containsWord(s string, words []string) bool {
	for _, w := range words {
		w = Fold(w)
		for i := 0; w != "" && i <= len(s); {
			j := strings.Index(s[i:], w)
			if j < 0 {
				break
			}
			start, end := i+j, i+j+len(w)
			if glued(s, start, end, w) {
				i = start + 1
				continue
			}
			return true
		}
	}
	return false
}

// glued reports whether the match [start, end) of w in s touches ASCII
// letters or digits on a side where w itself has one.
func glued(s string, start, end int, w string) bool {
	if start > 0 && isWordRune(lastRune(s[:start])) && isWordRune([]rune(w)[0]) {
		return true
	}
	return end < len(s) && isWordRune([]rune(s[end:])[0]) && isWordRune(lastRune(w))
}

// checkRetention checks a platform's timed retention rules (those release
// warnings follow): a known clock and a known wipes, days ≥ 0, what is
// lost, a reader's name of the source with its date, and the source.
func checkRetention(where string, p *Platform) []error {
	var errs []error
	for i, r := range p.Retention {
		rw := fmt.Sprintf("%s: retention #%d", where, i+1)
		if r.Clock == "" {
			continue
		}
		if r.Clock != ClockStopped {
			errs = append(errs, fmt.Errorf("%s: clock %q is not %q", rw, r.Clock, ClockStopped))
		}
		if r.Wipes != WipesInstance && r.Wipes != WipesScratch {
			errs = append(errs, fmt.Errorf("%s: wipes %q is not %q or %q", rw, r.Wipes, WipesInstance, WipesScratch))
		}
		if !(r.Days >= 0) {
			errs = append(errs, fmt.Errorf("%s: days %v is negative", rw, r.Days))
		}
		if r.Lost.Zh == "" || r.Lost.En == "" || r.Cite.Zh == "" || r.Cite.En == "" {
			errs = append(errs, fmt.Errorf("%s: a timed rule needs lost and cite in zh and en", rw))
		}
		if !dateRe.MatchString(r.AsOf) {
			errs = append(errs, fmt.Errorf("%s: as_of %q has no year", rw, r.AsOf))
		}
		if strings.TrimSpace(r.Source) == "" {
			errs = append(errs, fmt.Errorf("%s: source is empty", rw))
		}
	}
	return errs
}
