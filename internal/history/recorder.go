package history

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

// Recorder holds the history in memory and writes what a poll changed to
// the store: at most one PutHistory per provider per poll.
type Recorder struct {
	// Store persists chunks (nil: memory only).
	Store Store
	// Now is the clock for retention (default time.Now).
	Now func() time.Time

	mu     sync.RWMutex
	series map[Key]*series
	// wmu serialises Add's read, merge and write (r.mu is held only for
	// the merge, so answers never wait on the store).
	wmu sync.Mutex
	// last is each provider's last recorded fetch time: a provider whose
	// snapshot was not fetched again is not recorded twice.
	last map[string]time.Time
}

// series is one platform·GPU's chunks by tier and number.
type series struct {
	fine, coarse map[int64][]Slot
}

func (s *series) chunks(t tier) map[int64][]Slot {
	if t == fine {
		return s.fine
	}
	return s.coarse
}

func (r *Recorder) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Recorder) get(k Key) *series {
	if r.series == nil {
		r.series = map[Key]*series{}
	}
	s := r.series[k]
	if s == nil {
		s = &series{fine: map[int64][]Slot{}, coarse: map[int64][]Slot{}}
		r.series[k] = s
	}
	return s
}

// Load reads every chunk from the store into memory (replacing what is
// there); chunks past retention are ignored.
func (r *Recorder) Load(ctx context.Context) error {
	if r.Store == nil {
		return nil
	}
	m, err := r.Store.LoadHistory(ctx)
	if err != nil {
		return fmt.Errorf("history: load: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.series = map[Key]*series{}
	now := r.now()
	for key, b := range m {
		t, k, n, err := parseKey(key)
		if err != nil || expired(t, n, now) {
			continue
		}
		slots, err := decode(t, b)
		if err != nil {
			continue
		}
		r.get(k).chunks(t)[n] = slots
	}
	return nil
}

// expired reports whether chunk n of tier t is past retention at now.
func expired(t tier, n int64, now time.Time) bool {
	end := t.start(n + 1)
	if t == fine {
		return end.Before(now.Add(-FineDays * 24 * time.Hour))
	}
	return end.Before(now.Add(-CoarseWeeks * 7 * 24 * time.Hour))
}

// Observe reduces one provider's offers to one slot per platform·GPU:
// live, fresh offers only (list prices, recordings and stale offers are
// no observation). A platform·GPU is in stock when any offer is, sold
// out when offers say so and none is in stock, unknown otherwise.
func Observe(offers []stock.Offer) map[Key]Slot {
	out := map[Key]Slot{}
	for _, o := range offers {
		if o.Source != stock.SourceLive || o.Stale || o.Platform == "" || o.GPU == "" {
			continue
		}
		k := Key{o.Platform, o.GPU}
		s, ok := out[k]
		if !ok {
			s = Slot{Polls: 1, Free: noFree}
		}
		switch o.State() {
		case stock.InStock:
			s.In, s.Out = 1, 0
			if !o.FreeIsLevel && *o.Free < noFree && (s.Free == noFree || uint16(*o.Free) > s.Free) {
				s.Free = uint16(*o.Free)
			}
			if p := fen(o.CNYPerGPUHour); p > 0 && (s.Price == 0 || p < s.Price) {
				s.Price = p
			}
		case stock.SoldOut:
			if s.In == 0 {
				s.Out = 1
				if !o.FreeIsLevel && s.Free == noFree {
					s.Free = 0
				}
			}
		}
		out[k] = s
	}
	return out
}

func fen(cny float64) uint16 {
	if cny <= 0 {
		return 0
	}
	return uint16(math.Min(math.Round(cny*100), noFree-1))
}

// Record adds a poll's observations: each provider whose snapshot is
// fresh (StatusOK, fetched after its last record) in one store write.
// Errors of single providers are joined; memory is updated regardless.
func (r *Recorder) Record(ctx context.Context, snap stock.Snapshot) error {
	var errs []error
	for _, ps := range snap.Providers {
		if ps.Status != stock.StatusOK {
			continue
		}
		at := ps.FetchedAt
		if at.IsZero() {
			at = snap.TakenAt
		}
		r.mu.Lock()
		if r.last == nil {
			r.last = map[string]time.Time{}
		}
		if prev, ok := r.last[ps.Provider]; ok && !at.After(prev) {
			r.mu.Unlock()
			continue
		}
		r.last[ps.Provider] = at
		r.mu.Unlock()
		if err := r.Add(ctx, at, Observe(ps.Offers)); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ps.Provider, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("history: record: %v", errs)
	}
	return nil
}

// Add merges observations made at one time into both tiers and writes
// the changed chunks (and the series' expired ones, deleted) in one store
// write. Nothing to add writes nothing. With a store that reads chunks
// (ChunkReader), the chunks the observations fall in are read first and
// replace the copies in memory, so the merge starts from what the store
// holds: with the poll lock held, no other replica writes them between
// the read and the write. When that read fails, memory is updated and
// nothing is written (an older copy never overwrites newer chunks).
func (r *Recorder) Add(ctx context.Context, at time.Time, obs map[Key]Slot) error {
	if len(obs) == 0 {
		return nil
	}
	r.wmu.Lock()
	defer r.wmu.Unlock()
	stored, rerr := r.readChunks(ctx, at, obs)
	dirty := map[string]dirtyChunk{}
	r.mu.Lock()
	now := r.now()
	r.adopt(stored, now)
	for k, o := range obs {
		r.merge(dirty, now, k, at, o, fine, coarse)
	}
	put := flush(dirty)
	r.mu.Unlock()
	if rerr != nil {
		return fmt.Errorf("history: read the chunks to change (nothing written): %w", rerr)
	}
	return r.write(ctx, put)
}

// readChunks reads from the store the chunks of both tiers that
// observations at at fall in (nil without a ChunkReader).
func (r *Recorder) readChunks(ctx context.Context, at time.Time, obs map[Key]Slot) (map[string][]byte, error) {
	cr, ok := r.Store.(ChunkReader)
	if !ok {
		return nil, nil
	}
	keys := make([]string, 0, 2*len(obs))
	for k := range obs {
		for _, t := range []tier{fine, coarse} {
			n, _ := t.chunkOf(at)
			keys = append(keys, chunkKey(t, k, n))
		}
	}
	return cr.GetHistory(ctx, keys)
}

// adopt puts stored chunks in memory in place of the copies there
// (chunks past retention or that do not decode are left out). r.mu is
// held.
func (r *Recorder) adopt(stored map[string][]byte, now time.Time) {
	for key, b := range stored {
		t, k, n, err := parseKey(key)
		if err != nil || expired(t, n, now) {
			continue
		}
		if slots, err := decode(t, b); err == nil {
			r.get(k).chunks(t)[n] = slots
		}
	}
}

// dirtyChunk is a chunk to write (slots) or delete (nil slots).
type dirtyChunk struct {
	t     tier
	slots []Slot
}

// flush encodes the dirty chunks for the store. r.mu is held.
func flush(dirty map[string]dirtyChunk) map[string][]byte {
	put := make(map[string][]byte, len(dirty))
	for key, d := range dirty {
		if d.slots == nil {
			put[key] = nil
		} else {
			put[key] = encode(d.t, d.slots)
		}
	}
	return put
}

func (r *Recorder) write(ctx context.Context, put map[string][]byte) error {
	if r.Store == nil || len(put) == 0 {
		return nil
	}
	return r.Store.PutHistory(ctx, put)
}

// merge adds o at time at to series k's chunks of the given tiers and
// notes the changed and expired chunks in dirty. r.mu is held.
func (r *Recorder) merge(dirty map[string]dirtyChunk, now time.Time, k Key, at time.Time, o Slot, tiers ...tier) {
	s := r.get(k)
	for _, t := range tiers {
		n, i := t.chunkOf(at)
		if expired(t, n, now) || at.After(now.Add(time.Hour)) {
			continue
		}
		c := s.chunks(t)[n]
		if c == nil {
			c = emptyChunk(t)
			s.chunks(t)[n] = c
		}
		c[i].add(o)
		dirty[chunkKey(t, k, n)] = dirtyChunk{t, c}
		for m := range s.chunks(t) {
			if expired(t, m, now) {
				delete(s.chunks(t), m)
				dirty[chunkKey(t, k, m)] = dirtyChunk{t, nil}
			}
		}
	}
}

func emptyChunk(t tier) []Slot {
	c := make([]Slot, t.slots())
	for i := range c {
		c[i].Free = noFree
	}
	return c
}

// Keys lists the series held, sorted.
func (r *Recorder) Keys() []Key {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Key, 0, len(r.series))
	for k := range r.series {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].GPU != out[j].GPU {
			return out[i].GPU < out[j].GPU
		}
		return out[i].Platform < out[j].Platform
	})
	return out
}

// SeriesBytes is the value bytes series k holds (the encoded chunks).
func (r *Recorder) SeriesBytes(k Key) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s := r.series[k]
	if s == nil {
		return 0
	}
	return len(s.fine)*finePerDay*fineBytes + len(s.coarse)*coarseWeek*coarseBytes
}
