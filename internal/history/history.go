// Package history keeps the availability history of every polled
// platform·GPU and answers from it: per hour of the week, the share of
// polls with stock and the median price (Profile), the typical wait from
// sold out to available (Waits), the queue risk the plan optimizer reads
// (Risk), and CSV export and import.
//
// Storage: two tiers of fixed-size slots per platform·GPU, in chunks the
// store keeps as opaque values (Store):
//   - fine: 10-minute slots, one chunk per UTC day (144 slots × 10 bytes =
//     1,440 bytes), kept FineDays (14) days;
//   - coarse: 1-hour slots, one chunk per 168-hour block since the Unix
//     epoch (168 × 8 bytes = 1,344 bytes), kept CoarseWeeks (12) weeks.
//
// Budget: at most BytesPerSeries (39,072 bytes: 15 day chunks and 13 week
// chunks, the current ones included) of values per platform·GPU, in the
// store and in memory; keys add about 30 bytes a chunk. A poll costs at
// most one store write per provider (Recorder.Record).
package history

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Store keeps history chunks as opaque values. Both stores implement it.
type Store interface {
	// PutHistory writes chunks in one write (one bbolt transaction, one
	// Redis MULTI); a nil or empty value deletes the chunk.
	PutHistory(ctx context.Context, chunks map[string][]byte) error
	// LoadHistory returns every stored chunk.
	LoadHistory(ctx context.Context) (map[string][]byte, error)
}

// ChunkReader reads the given chunks (both stores implement it; a chunk
// not stored is absent from the map). The Recorder reads the chunks a
// poll changes just before merging it, so that a replica that takes the
// poll over from another merges into what that one wrote, not into the
// older copy it loaded at its start.
type ChunkReader interface {
	GetHistory(ctx context.Context, keys []string) (map[string][]byte, error)
}

// Retention and slot sizes.
const (
	FineSlot    = 10 * time.Minute
	CoarseSlot  = time.Hour
	FineDays    = 14
	CoarseWeeks = 12
	finePerDay  = 144
	coarseWeek  = 168
	fineBytes   = 10
	coarseBytes = 8
	// BytesPerSeries is the most value bytes one platform·GPU holds.
	BytesPerSeries = (FineDays+1)*finePerDay*fineBytes + (CoarseWeeks+1)*coarseWeek*coarseBytes
)

// noFree marks a slot without a free count.
const noFree = 0xFFFF

// Slot is what the polls of one time slot saw for one platform·GPU.
type Slot struct {
	// Polls counts polls; In those with stock, Out those sold out (the
	// rest said nothing: unknown).
	Polls, In, Out uint16
	// Free is the largest free count seen (noFree: none, levels only).
	Free uint16
	// Price is the lowest price of an in-stock offer, in fen (0.01 CNY)
	// per GPU-hour; 0 when none.
	Price uint16
}

// Known reports whether any poll of the slot said in stock or sold out.
func (s Slot) Known() bool { return s.In+s.Out > 0 }

// Share is the fraction of knowing polls that saw stock (0 when unknown).
func (s Slot) Share() float64 {
	if !s.Known() {
		return 0
	}
	return float64(s.In) / float64(s.In+s.Out)
}

// PriceCNY is Price in CNY per GPU-hour (0 when none).
func (s Slot) PriceCNY() float64 { return float64(s.Price) / 100 }

func (s *Slot) add(o Slot) {
	s.Polls = sat(s.Polls, o.Polls)
	s.In = sat(s.In, o.In)
	s.Out = sat(s.Out, o.Out)
	if o.Free != noFree && (s.Free == noFree || o.Free > s.Free) {
		s.Free = o.Free
	}
	if o.Price > 0 && (s.Price == 0 || o.Price < s.Price) {
		s.Price = o.Price
	}
}

func sat(a, b uint16) uint16 {
	if int(a)+int(b) > 0xFFFF {
		return 0xFFFF
	}
	return a + b
}

// Key names one series: a catalog platform id and GPU id.
type Key struct{ Platform, GPU string }

// tier is fine or coarse.
type tier byte

const (
	fine   tier = 'f'
	coarse tier = 'h'
)

func (t tier) slot() time.Duration {
	if t == fine {
		return FineSlot
	}
	return CoarseSlot
}

func (t tier) slots() int {
	if t == fine {
		return finePerDay
	}
	return coarseWeek
}

func (t tier) span() int64 { return int64(t.slots()) * int64(t.slot()/time.Second) }

// chunkOf returns the chunk number and slot index of t in a tier.
func (t tier) chunkOf(at time.Time) (int64, int) {
	sec := at.Unix()
	n := floorDiv(sec, t.span())
	return n, int((sec - n*t.span()) / int64(t.slot()/time.Second))
}

// start is the time of a chunk's first slot.
func (t tier) start(n int64) time.Time { return time.Unix(n*t.span(), 0).UTC() }

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// chunkKey is a chunk's store key: "<tier>|<platform>|<gpu>|<n>".
func chunkKey(t tier, k Key, n int64) string {
	return string(t) + "|" + k.Platform + "|" + k.GPU + "|" + strconv.FormatInt(n, 10)
}

func parseKey(s string) (tier, Key, int64, error) {
	p := strings.Split(s, "|")
	if len(p) != 4 || len(p[0]) != 1 || (p[0][0] != byte(fine) && p[0][0] != byte(coarse)) {
		return 0, Key{}, 0, fmt.Errorf("history: bad chunk key %q", s)
	}
	n, err := strconv.ParseInt(p[3], 10, 64)
	if err != nil {
		return 0, Key{}, 0, fmt.Errorf("history: bad chunk key %q", s)
	}
	return tier(p[0][0]), Key{p[1], p[2]}, n, nil
}

// encode packs a chunk's slots (fine: 10 bytes a slot, coarse: 8, no
// free count).
func encode(t tier, slots []Slot) []byte {
	size := coarseBytes
	if t == fine {
		size = fineBytes
	}
	b := make([]byte, 0, len(slots)*size)
	for _, s := range slots {
		b = binary.LittleEndian.AppendUint16(b, s.Polls)
		b = binary.LittleEndian.AppendUint16(b, s.In)
		b = binary.LittleEndian.AppendUint16(b, s.Out)
		if t == fine {
			b = binary.LittleEndian.AppendUint16(b, s.Free)
		}
		b = binary.LittleEndian.AppendUint16(b, s.Price)
	}
	return b
}

func decode(t tier, b []byte) ([]Slot, error) {
	size := coarseBytes
	if t == fine {
		size = fineBytes
	}
	if len(b) != t.slots()*size {
		return nil, fmt.Errorf("history: chunk of %d bytes, want %d", len(b), t.slots()*size)
	}
	out := make([]Slot, t.slots())
	for i := range out {
		c := b[i*size:]
		s := Slot{Polls: u16(c, 0), In: u16(c, 1), Out: u16(c, 2), Free: noFree}
		if t == fine {
			s.Free, s.Price = u16(c, 3), u16(c, 4)
		} else {
			s.Price = u16(c, 3)
		}
		out[i] = s
	}
	return out, nil
}

func u16(b []byte, i int) uint16 { return binary.LittleEndian.Uint16(b[2*i:]) }
