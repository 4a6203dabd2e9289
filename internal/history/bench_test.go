package history

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/store/embedded"
)

// yearScale fills r with 10 platforms × 30 GPUs, each with full retention
// (15 day chunks of 10-minute slots, 13 week chunks of hourly ones), as
// a year of polling leaves it.
func yearScale(r *Recorder, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for p := range 10 {
		for g := range 30 {
			s := r.get(Key{fmt.Sprintf("platform%d", p), fmt.Sprintf("GPU %d", g)})
			for d := range FineDays + 1 {
				n, _ := fine.chunkOf(now.Add(-time.Duration(d) * 24 * time.Hour))
				s.fine[n] = filled(fine, p+g+d)
			}
			for w := range CoarseWeeks + 1 {
				n, _ := coarse.chunkOf(now.Add(-time.Duration(w) * 7 * 24 * time.Hour))
				s.coarse[n] = filled(coarse, p+g+w)
			}
		}
	}
}

func filled(t tier, seed int) []Slot {
	c := emptyChunk(t)
	for i := range c {
		in := uint16((i + seed) % 3 / 2)
		c[i] = Slot{Polls: 2, In: 2 * in, Out: 2 - 2*in, Free: 2 * in, Price: 198}
	}
	return c
}

// BenchmarkAvailabilityYear is the availability answer's work (a Profile
// over every platform of one GPU, with its windows and the wait) on a
// year-scale history; budget under 10 ms. It reports the history's heap
// (budget 16 MB); TestYearScaleDisk its size on disk.
func BenchmarkAvailabilityYear(b *testing.B) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := &Recorder{Now: func() time.Time { return now }}
	yearScale(r, now)
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := float64(after.HeapAlloc-before.HeapAlloc) / 1e6
	b.ResetTimer()
	for b.Loop() {
		pf := r.Profile("GPU 7", nil, now, time.UTC)
		pf.Windows()
		pf.WaitAt(HourOfWeek(now, time.UTC))
	}
	b.StopTimer()
	b.ReportMetric(heap, "heap-MB")
	if heap > 16 {
		b.Errorf("history heap %.1f MB, budget 16 MB", heap)
	}
	runtime.KeepAlive(r)
}

// TestYearScaleDisk writes the year-scale history to the embedded store
// and checks the file against its budget: 40 MB for 300 platform·GPUs
// (11.7 MB of values; bbolt keeps about two 1.4 kB chunks a 4 kB page and
// grows its file by doubling, so the file is about 3× the values).
func TestYearScaleDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("writes ~20 MB")
	}
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	r := &Recorder{Now: func() time.Time { return now }}
	yearScale(r, now)
	dir := t.TempDir()
	st, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r.mu.Lock()
	dirty := map[string]dirtyChunk{}
	for k, s := range r.series {
		for _, tr := range []tier{fine, coarse} {
			for n, c := range s.chunks(tr) {
				dirty[chunkKey(tr, k, n)] = dirtyChunk{tr, c}
			}
		}
	}
	put := flush(dirty)
	r.mu.Unlock()
	if err := st.PutHistory(context.Background(), put); err != nil {
		t.Fatal(err)
	}
	var size int64
	_ = filepath.Walk(dir, func(_ string, fi os.FileInfo, _ error) error {
		if fi != nil && !fi.IsDir() {
			size += fi.Size()
		}
		return nil
	})
	t.Logf("year-scale history: %d chunks, %.1f MB file (values %.1f MB)", len(put), float64(size)/1e6, float64(300*BytesPerSeries)/1e6)
	if size > 40e6 {
		t.Errorf("store file %.1f MB, budget 40 MB", float64(size)/1e6)
	}
	back := &Recorder{Store: st, Now: r.Now}
	if err := back.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(back.Keys()) != 300 {
		t.Errorf("loaded %d series, want 300", len(back.Keys()))
	}
}

func TestCSVRoundTrip(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 5, 0, 0, shanghai)
	r := &Recorder{Now: func() time.Time { return now }}
	generate(t, r, now)
	var buf bytes.Buffer
	if err := r.Export(&buf); err != nil {
		t.Fatal(err)
	}
	st := &memStore{}
	back := &Recorder{Store: st, Now: r.Now}
	added, skipped, err := back.Import(context.Background(), bytes.NewReader(buf.Bytes()))
	if err != nil || skipped != 0 || added == 0 {
		t.Fatalf("import: %d added, %d skipped, %v", added, skipped, err)
	}
	if st.writes != 1 {
		t.Errorf("import wrote %d times, want 1", st.writes)
	}
	var again bytes.Buffer
	if err := back.Export(&again); err != nil {
		t.Fatal(err)
	}
	if again.String() != buf.String() {
		t.Errorf("export → import → export differs")
	}
	a, b := r.Profile("RTX 4090", nil, now, shanghai), back.Profile("RTX 4090", nil, now, shanghai)
	if a.Hours != b.Hours || a.Days != b.Days {
		t.Errorf("profile after import differs")
	}
	bad := strings.Replace(buf.String(), ",10,autodl,", ",15,autodl,", 1)
	if _, _, err := (&Recorder{Now: r.Now}).Import(context.Background(), strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line ") {
		t.Errorf("bad minutes: err = %v, want one naming the line", err)
	}
}
