package history

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// CSVHeader is the header of `bot history export` and import: one row per
// slot with data; minutes is 10 (a fine slot) or 60 (an hourly slot,
// older than the fine tier keeps); free and price_cny may be empty.
var CSVHeader = []string{"time", "minutes", "platform", "gpu", "polls", "in_stock", "sold_out", "free", "price_cny"}

// Export writes every slot with polls as CSV, by series then time: fine
// slots, and hourly ones for the hours without fine slots with polls (an
// hour with both was polled live: its hourly slot sums its fine ones).
func (r *Recorder) Export(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, k := range r.keysLocked() {
		s := r.series[k]
		for _, row := range exportRows(k, s) {
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func (r *Recorder) keysLocked() []Key {
	out := make([]Key, 0, len(r.series))
	for k := range r.series {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b Key) int {
		return strings.Compare(a.Platform+"|"+a.GPU, b.Platform+"|"+b.GPU)
	})
	return out
}

// fineHour reports whether any 10-minute slot of the hour starting at at
// has polls.
func (s *series) fineHour(at time.Time) bool {
	n, i := fine.chunkOf(at)
	c := s.fine[n]
	return c != nil && slices.ContainsFunc(c[i:i+int(CoarseSlot/FineSlot)], func(x Slot) bool { return x.Polls > 0 })
}

// exportRows lists series s's slots in time order.
func exportRows(k Key, s *series) [][]string {
	type row struct {
		at  time.Time
		min int
		sl  Slot
	}
	var rows []row
	for n, c := range s.coarse {
		for i, sl := range c {
			at := coarse.start(n).Add(time.Duration(i) * CoarseSlot)
			if sl.Polls == 0 || s.fineHour(at) {
				continue
			}
			rows = append(rows, row{at, 60, sl})
		}
	}
	for n, c := range s.fine {
		for i, sl := range c {
			if sl.Polls > 0 {
				rows = append(rows, row{fine.start(n).Add(time.Duration(i) * FineSlot), 10, sl})
			}
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return a.at.Compare(b.at) })
	out := make([][]string, 0, len(rows))
	for _, x := range rows {
		free, price := "", ""
		if x.sl.Free != noFree {
			free = strconv.Itoa(int(x.sl.Free))
		}
		if x.sl.Price > 0 {
			price = strconv.FormatFloat(x.sl.PriceCNY(), 'f', 2, 64)
		}
		out = append(out, []string{x.at.UTC().Format(time.RFC3339), strconv.Itoa(x.min), k.Platform, k.GPU,
			strconv.Itoa(int(x.sl.Polls)), strconv.Itoa(int(x.sl.In)), strconv.Itoa(int(x.sl.Out)), free, price})
	}
	return out
}

// Import adds a CSV's rows (CSVHeader) to the history: all or none, in
// one store write. Rows past retention are skipped and counted apart.
// Names are checked by name (catalog ids are the caller's to check).
func (r *Recorder) Import(ctx context.Context, in io.Reader) (added, skipped int, err error) {
	rows, err := parseCSV(in)
	if err != nil {
		return 0, 0, err
	}
	dirty := map[string]dirtyChunk{}
	r.mu.Lock()
	now := r.now()
	for _, x := range rows {
		tiers := []tier{fine, coarse}
		if x.min == 60 {
			tiers = tiers[1:]
		}
		if n, _ := coarse.chunkOf(x.at); expired(coarse, n, now) || x.at.After(now) {
			skipped++
			continue
		}
		r.merge(dirty, now, x.key, x.at, x.sl, tiers...)
		added++
	}
	put := flush(dirty)
	r.mu.Unlock()
	return added, skipped, r.write(ctx, put)
}

type csvRow struct {
	at  time.Time
	min int
	key Key
	sl  Slot
}

func parseCSV(in io.Reader) ([]csvRow, error) {
	cr := csv.NewReader(in)
	cr.FieldsPerRecord = len(CSVHeader)
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("history csv: header: %w", err)
	}
	if !slices.Equal(head, CSVHeader) {
		return nil, fmt.Errorf("history csv: header is %q, want %q", strings.Join(head, ","), strings.Join(CSVHeader, ","))
	}
	var out []csvRow
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("history csv: %w", err)
		}
		x, err := parseRow(rec)
		if err != nil {
			return nil, fmt.Errorf("history csv: line %d: %w", line, err)
		}
		out = append(out, x)
	}
}

func parseRow(rec []string) (csvRow, error) {
	at, err := time.Parse(time.RFC3339, rec[0])
	if err != nil {
		return csvRow{}, fmt.Errorf("time %q is not RFC 3339", rec[0])
	}
	x := csvRow{at: at, key: Key{strings.TrimSpace(rec[2]), strings.TrimSpace(rec[3])}, sl: Slot{Free: noFree}}
	if x.key.Platform == "" || x.key.GPU == "" || strings.Contains(rec[2]+rec[3], "|") {
		return csvRow{}, fmt.Errorf("platform and gpu are needed (without “|”)")
	}
	if x.min, err = strconv.Atoi(rec[1]); err != nil || x.min != 10 && x.min != 60 {
		return csvRow{}, fmt.Errorf("minutes %q: want 10 or 60", rec[1])
	}
	var n [3]int
	for i := range n {
		if n[i], err = strconv.Atoi(rec[4+i]); err != nil || n[i] < 0 || n[i] > 0xFFFF {
			return csvRow{}, fmt.Errorf("%s %q: want a count", CSVHeader[4+i], rec[4+i])
		}
	}
	if n[1]+n[2] > n[0] {
		return csvRow{}, fmt.Errorf("in_stock + sold_out (%d) exceed polls (%d)", n[1]+n[2], n[0])
	}
	x.sl.Polls, x.sl.In, x.sl.Out = uint16(n[0]), uint16(n[1]), uint16(n[2])
	if rec[7] != "" {
		f, err := strconv.Atoi(rec[7])
		if err != nil || f < 0 || f >= noFree {
			return csvRow{}, fmt.Errorf("free %q: want a count", rec[7])
		}
		x.sl.Free = uint16(f)
	}
	if rec[8] != "" {
		p, err := strconv.ParseFloat(rec[8], 64)
		if err != nil || p < 0 || p > 600 {
			return csvRow{}, fmt.Errorf("price_cny %q: want CNY per GPU-hour", rec[8])
		}
		x.sl.Price = fen(p)
	}
	return x, nil
}
