package fakes

import (
	"fmt"
	"sort"
	"time"
)

// Stats is what the report says of a platform.
type Stats struct {
	Name     string         `json:"name"`
	Role     string         `json:"role"`
	Requests int            `json:"requests"`
	Answered int            `json:"answered"`
	ByMode   map[string]int `json:"requests_by_mode"`
	// Fetches counts fetch attempts (RunPod asks two clouds per attempt).
	Fetches int `json:"fetches"`
	// MaxInFlight is the most requests in flight at once from all
	// replicas; MaxPerReplica the most from one replica process for one
	// endpoint (overlaps longer than overlapTolerance): 1 when fetches
	// are single-flight.
	MaxInFlight   int     `json:"max_in_flight"`
	MaxPerReplica int     `json:"max_in_flight_per_replica"`
	Outages       int     `json:"outages"`
	OutageSeconds float64 `json:"outage_seconds"`
	Unauthorized  int     `json:"unauthorized"`
	// Overlaps describes requests of one replica process in flight
	// together (a single-flight breach).
	Overlaps []string `json:"overlaps,omitempty"`
}

// Stats sums up the requests of the run from start to end (requests
// still in flight end at end).
func (f *Platform) Stats(start, end time.Time) Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := Stats{Name: f.label, Role: f.role, ByMode: map[string]int{}, Unauthorized: f.unauthorized}
	kinds := map[string]bool{}
	var all []edge
	groups := map[string][]*Request{}
	for _, r := range f.reqs {
		st.Requests++
		st.ByMode[r.Mode]++
		kinds[r.Kind] = true
		if r.Answered {
			st.Answered++
		}
		ended := r.Ended
		if ended.IsZero() {
			ended = end
		}
		all = append(all, edge{r.Arrived, 1}, edge{ended, -1})
		k := fmt.Sprintf("%d/%d/%s", r.Replica, r.Start, r.Kind)
		groups[k] = append(groups[k], r)
	}
	st.Fetches = st.Requests / max(1, len(kinds))
	st.MaxInFlight = maxInFlight(all)
	for _, rs := range groups {
		st.overlaps(rs, start, end)
	}
	for _, sp := range f.spans {
		st.Outages++
		st.OutageSeconds += spanEnd(sp, end).Sub(later(sp.Start, start)).Seconds()
	}
	return st
}

// edge is a request's arrival (+1) or end (-1).
type edge struct {
	at    time.Time
	delta int
}

// maxInFlight is the most requests in flight at once; an end at the
// same time as an arrival comes first.
func maxInFlight(all []edge) int {
	sort.Slice(all, func(i, j int) bool {
		if !all[i].at.Equal(all[j].at) {
			return all[i].at.Before(all[j].at)
		}
		return all[i].delta < all[j].delta
	})
	n, most := 0, 0
	for _, e := range all {
		n += e.delta
		most = max(most, n)
	}
	return most
}

// overlaps adds the requests of one replica process to one endpoint (rs,
// in arrival order) in flight together for longer than
// overlapTolerance: the most at once, and notes of the first ten.
func (st *Stats) overlaps(rs []*Request, start, end time.Time) {
	st.MaxPerReplica = max(st.MaxPerReplica, 1)
	for i, a := range rs {
		together := 1
		for _, b := range rs[:i] {
			// b arrived before a; still in flight once a had been
			// for overlapTolerance.
			bEnd := b.Ended
			if bEnd.IsZero() {
				bEnd = end
			}
			aEnd := a.Ended
			if aEnd.IsZero() {
				aEnd = end
			}
			at := a.Arrived.Add(overlapTolerance)
			if bEnd.After(at) && aEnd.After(at) {
				together++
				if len(st.Overlaps) < 10 {
					st.Overlaps = append(st.Overlaps, fmt.Sprintf("replica %d (start %d) %s: a request from +%.1fs (%s) still in flight at +%.1fs, when another from +%.1fs (%s) had been for %v",
						a.Replica, a.Start, kindText(a.Kind), b.Arrived.Sub(start).Seconds(), b.Mode, at.Sub(start).Seconds(), a.Arrived.Sub(start).Seconds(), a.Mode, overlapTolerance))
				}
			}
		}
		st.MaxPerReplica = max(st.MaxPerReplica, together)
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func spanEnd(sp modeSpan, end time.Time) time.Time {
	if sp.End.IsZero() {
		return end
	}
	return sp.End
}

func kindText(k string) string {
	if k == "" {
		return "bundles"
	}
	return "cloud " + k
}
