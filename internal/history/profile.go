package history

import (
	"math"
	"slices"
	"sort"
	"time"
)

// point is one slot of a timeline: its start, length, the share of polls
// with stock (the best platform's when several are merged) and the
// lowest in-stock price.
type point struct {
	at    time.Time
	dur   time.Duration
	share float64
	known bool
	price uint16
}

// timeline is the slots of keys from from to to: coarse (hourly) slots
// before the fine tier's window, 10-minute slots in it. In the fine window
// a key without 10-minute slots with polls in an hour (an hourly CSV row
// imported there) is read from its hourly slot instead, spread over the
// hour's 10-minute points; a key with 10-minute polls in an hour is never
// read from its hourly slot too (live polls go to both tiers), as Export
// does. An hour read from hourly slots only is one 1-hour point. r.mu is
// held.
func (r *Recorder) timeline(keys []Key, from, to time.Time) []point {
	fineFrom := to.Add(-FineDays * 24 * time.Hour).Truncate(time.Hour)
	var out []point
	var sub [6]point
	for t := from.Truncate(time.Hour); t.Before(to); t = t.Add(time.Hour) {
		if t.Before(fineFrom) {
			p := point{at: t, dur: CoarseSlot}
			n, i := coarse.chunkOf(t)
			for _, k := range keys {
				if s := r.series[k]; s != nil {
					if c := s.coarse[n]; c != nil {
						p.merge(c[i])
					}
				}
			}
			out = append(out, p)
			continue
		}
		for j := range sub {
			sub[j] = point{at: t.Add(time.Duration(j) * FineSlot), dur: FineSlot}
		}
		hourly := point{at: t, dur: CoarseSlot}
		anyFine := false
		fn, fi := fine.chunkOf(t) // an hour never straddles a UTC day
		cn, ci := coarse.chunkOf(t)
		for _, k := range keys {
			s := r.series[k]
			if s == nil {
				continue
			}
			if s.fineHour(t) {
				anyFine = true
				for j, sl := range s.fine[fn][fi : fi+len(sub)] {
					sub[j].merge(sl)
				}
				continue
			}
			if c := s.coarse[cn]; c != nil && c[ci].Known() {
				hourly.merge(c[ci])
			}
		}
		if !anyFine {
			out = append(out, hourly)
			continue
		}
		for j := range sub {
			if !sub[j].at.Before(to) {
				break
			}
			if hourly.known {
				sub[j].mergePoint(hourly)
			}
			out = append(out, sub[j])
		}
	}
	return out
}

// merge adds a key's slot to p: the best share, the lowest price.
func (p *point) merge(sl Slot) {
	if !sl.Known() {
		return
	}
	p.mergePoint(point{share: sl.Share(), known: true, price: sl.Price})
}

func (p *point) mergePoint(o point) {
	if !o.known {
		return
	}
	if !p.known || o.share > p.share {
		p.share = o.share
	}
	p.known = true
	if o.price > 0 && (p.price == 0 || o.price < p.price) {
		p.price = o.price
	}
}

// Hour is one hour of the week in a Profile.
type Hour struct {
	// Share is the share of polls with stock (0–1); Weight the known
	// 10-minute slots behind it (0: no data, Share means nothing).
	Share  float64
	Weight int
	// Price is the median lowest in-stock price, CNY per GPU-hour (0 none).
	Price float64
}

// Profile is the availability of a GPU (on some platforms) per hour of
// the week, in a time zone.
type Profile struct {
	GPU       string
	Platforms []string
	// Hours[d][h]: d 0 is Monday, h the local hour.
	Hours [7][24]Hour
	// Days is how many days the data covers: the local days with data,
	// at most the span from From to To in days (rounded, at least 1);
	// From and To are the start of the first and the end of the last slot
	// with data.
	Days     int
	From, To time.Time
	// Waits are the waits from sold out to in stock, by the hour of the
	// week they started in (Monday 00:00 is 0).
	waits [168][]time.Duration
}

// Lookback is how far answers look back (the coarse tier's retention).
const Lookback = CoarseWeeks * 7 * 24 * time.Hour

// maxWait caps a wait: a card not back within it is not counted.
const maxWait = 7 * 24 * time.Hour

// Profile computes gpu's profile on the given platforms (all held when
// none) over the Lookback before now, in loc. Budget: one pass over at
// most 12 weeks of slots per series (about 4,000), no store access.
func (r *Recorder) Profile(gpu string, platforms []string, now time.Time, loc *time.Location) Profile {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var keys []Key
	seen := map[string]bool{}
	for k := range r.series {
		if k.GPU == gpu && (len(platforms) == 0 || slices.Contains(platforms, k.Platform)) {
			keys = append(keys, k)
			seen[k.Platform] = true
		}
	}
	pf := Profile{GPU: gpu}
	for p := range seen {
		pf.Platforms = append(pf.Platforms, p)
	}
	sort.Strings(pf.Platforms)
	if len(keys) == 0 {
		return pf
	}
	tl := r.timeline(keys, now.Add(-Lookback), now)
	pf.fill(tl, loc)
	pf.waitsFrom(tl, loc)
	return pf
}

// HourOfWeek is t's hour of the week in loc, Monday 00:00–01:00 being 0.
func HourOfWeek(t time.Time, loc *time.Location) int {
	lt := t.In(loc)
	return (int(lt.Weekday())+6)%7*24 + lt.Hour()
}

func (pf *Profile) fill(tl []point, loc *time.Location) {
	var sum [168]float64
	var w [168]int
	prices := make([][]float64, 168)
	days := map[string]bool{}
	for _, p := range tl {
		if !p.known {
			continue
		}
		if pf.From.IsZero() {
			pf.From = p.at
		}
		pf.To = p.at.Add(p.dur)
		days[p.at.In(loc).Format(time.DateOnly)] = true
		h := HourOfWeek(p.at, loc)
		n := int(p.dur / FineSlot)
		sum[h] += p.share * float64(n)
		w[h] += n
		if p.price > 0 {
			prices[h] = append(prices[h], float64(p.price)/100)
		}
	}
	// Calendar days overcount a span: 21 days of hours from 02:00 touch 22
	// dates. Days is at most the span from From to To, rounded.
	pf.Days = len(days)
	if pf.Days > 0 {
		pf.Days = min(pf.Days, max(1, int(math.Round(pf.To.Sub(pf.From).Hours()/24))))
	}
	for h := range 168 {
		hr := Hour{Weight: w[h]}
		if w[h] > 0 {
			hr.Share = sum[h] / float64(w[h])
		}
		hr.Price = median(prices[h])
		pf.Hours[h/24][h%24] = hr
	}
}

func (pf *Profile) waitsFrom(tl []point, loc *time.Location) {
	next := time.Time{} // start of the next in-stock slot, scanning back
	for i := len(tl) - 1; i >= 0; i-- {
		p := tl[i]
		if !p.known {
			continue
		}
		if p.share >= 0.5 {
			next = p.at
			continue
		}
		if next.IsZero() || next.Sub(p.at) > maxWait {
			continue
		}
		h := HourOfWeek(p.at, loc)
		pf.waits[h] = append(pf.waits[h], next.Sub(p.at))
	}
}

// Wait is the typical wait from sold out to in stock.
type Wait struct {
	// Median and P90 of the waits seen; Samples how many (slots that were
	// sold out in that hour of the week and came back within a week).
	Median, P90 time.Duration
	Samples     int
}

// WaitAt is the wait when a card is sold out in hour of the week how
// (see HourOfWeek), with the neighbouring hours when that hour has fewer
// than 3 samples.
func (pf *Profile) WaitAt(how int) Wait {
	ws := append([]time.Duration(nil), pf.waits[how]...)
	if len(ws) < 3 {
		ws = append(ws, pf.waits[(how+167)%168]...)
		ws = append(ws, pf.waits[(how+1)%168]...)
	}
	if len(ws) == 0 {
		return Wait{}
	}
	slices.Sort(ws)
	return Wait{Median: ws[(len(ws)-1)/2], P90: ws[int(math.Ceil(0.9*float64(len(ws))))-1], Samples: len(ws)}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// Known reports whether the profile rests on any data.
func (pf *Profile) Known() bool { return pf.Days > 0 }

// Window is a run of hours of the day on weekdays, weekends or every day.
type Window struct {
	// Days: "weekday", "weekend" or "daily".
	Days string
	// Start and End are local hours, End exclusive (may be 24).
	Start, End int
	Share      float64
}

// Windows returns the best and the worst window: the 3-hour run with the
// highest (lowest) mean share on weekdays or weekends, widened while the
// neighbouring hours are within 0.15 of it (to 12 hours) and then while
// they have its share (within sameShare, up to the whole day); "daily"
// when the other part of the week matches within 0.15.
func (pf *Profile) Windows() (best, worst Window) {
	var groups [2][24]Hour
	for g, days := range [][]int{{0, 1, 2, 3, 4}, {5, 6}} {
		for h := range 24 {
			var s float64
			var w int
			for _, d := range days {
				x := pf.Hours[d][h]
				s += x.Share * float64(x.Weight)
				w += x.Weight
			}
			if w > 0 {
				groups[g][h] = Hour{Share: s / float64(w), Weight: w}
			}
		}
	}
	best = pick(groups, func(a, b float64) bool { return a > b })
	worst = pick(groups, func(a, b float64) bool { return a < b })
	return best, worst
}

func pick(groups [2][24]Hour, better func(a, b float64) bool) Window {
	var out Window
	found := false
	for g := range 2 {
		for st := 0; st+3 <= 24; st++ {
			m, ok := mean(groups[g][:], st, st+3)
			if ok && (!found || better(m, out.Share)) {
				out, found = Window{Days: []string{"weekday", "weekend"}[g], Start: st, End: st + 3, Share: m}, true
			}
		}
	}
	if !found {
		return out
	}
	g := 0
	if out.Days == "weekend" {
		g = 1
	}
	row := groups[g]
	near := func(h int, tol float64) bool {
		return h >= 0 && h < 24 && row[h].Weight > 0 && math.Abs(row[h].Share-out.Share) <= tol
	}
	for out.End-out.Start < 12 {
		switch {
		case near(out.Start-1, 0.15):
			out.Start--
		case near(out.End, 0.15):
			out.End++
		default:
			goto equal
		}
	}
equal:
	// Hours with the same share as the run join it however wide it gets:
	// a weekend in stock all the time is "周末全天", not an arbitrary half.
	for {
		switch {
		case near(out.Start-1, sameShare):
			out.Start--
		case near(out.End, sameShare):
			out.End++
		default:
			goto done
		}
	}
done:
	out.Share, _ = mean(row[:], out.Start, out.End)
	if m, ok := mean(groups[1-g][:], out.Start, out.End); ok && math.Abs(m-out.Share) <= 0.15 {
		out.Days = "daily"
	}
	return out
}

// sameShare is how close two shares are to be the same in Windows.
const sameShare = 0.005

func mean(row []Hour, from, to int) (float64, bool) {
	var s float64
	n := 0
	for h := from; h < to; h++ {
		if row[h].Weight > 0 {
			s += row[h].Share
			n++
		}
	}
	if n < to-from {
		return 0, false
	}
	return s / float64(n), true
}

// Risk is the queue risk the plan optimizer reads: the probability that
// gpu is not available on platform in the given hours of the week (see
// HourOfWeek; all 168 when none), weighted by the polls behind each, and
// the days of history it rests on (0: no history, p is then 0 and means
// nothing), and the known 10-minute slots behind p. Budget: one Profile.
func (r *Recorder) Risk(platform, gpu string, hours []int, now time.Time, loc *time.Location) (p float64, days, slots int) {
	var pls []string
	if platform != "" {
		pls = []string{platform}
	}
	pf := r.Profile(gpu, pls, now, loc)
	if !pf.Known() {
		return 0, 0, 0
	}
	if len(hours) == 0 {
		for h := range 168 {
			hours = append(hours, h)
		}
	}
	var s float64
	var w int
	for _, h := range hours {
		x := pf.Hours[(h%168)/24][h%24]
		s += (1 - x.Share) * float64(x.Weight)
		w += x.Weight
	}
	if w == 0 {
		return 0, pf.Days, 0
	}
	return s / float64(w), pf.Days, w
}
