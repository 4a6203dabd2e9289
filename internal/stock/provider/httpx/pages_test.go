package httpx_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// fakeList is a paged list of rows machines (pageSize a page) whose
// pages answer after delay(n); fail[n] fails page n, hang[n] blocks it
// until its context ends. It records the pages asked for and the most
// requests in flight at once.
type fakeList struct {
	rows, pageSize int
	noTotal        bool
	delay          func(n int) time.Duration
	fail           map[int]error
	hang           map[int]bool

	mu       sync.Mutex
	asked    []int
	inFlight int
	most     int
}

func (f *fakeList) page(ctx context.Context, n int) ([]stock.Offer, int, int, error) {
	f.mu.Lock()
	f.asked = append(f.asked, n)
	f.inFlight++
	f.most = max(f.most, f.inFlight)
	f.mu.Unlock()
	defer func() { f.mu.Lock(); f.inFlight--; f.mu.Unlock() }()
	var d time.Duration
	if f.delay != nil {
		d = f.delay(n)
	}
	if f.hang[n] {
		d = time.Hour
	}
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return nil, 0, 0, ctx.Err()
	}
	if err := f.fail[n]; err != nil {
		return nil, 0, 0, err
	}
	rows := min(max(f.rows-(n-1)*f.pageSize, 0), f.pageSize)
	offers := make([]stock.Offer, rows)
	for i := range offers {
		offers[i] = stock.Offer{GPU: "RTX 4090", Note: fmt.Sprint((n-1)*f.pageSize + i)}
	}
	total := f.rows
	if f.noTotal {
		total = -1
	}
	return offers, rows, total, nil
}

func (f *fakeList) pages() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Sorted(slices.Values(f.asked))
}

func pagesUpTo(n int) []int {
	var out []int
	for i := 1; i <= n; i++ {
		out = append(out, i)
	}
	return out
}

// TestFetchPages: the pages asked for, the rows kept in page order
// whatever order the pages answer in, and the bound on requests in flight.
func TestFetchPages(t *testing.T) {
	reverse := func(n int) time.Duration { return time.Duration(25-n) * time.Millisecond }
	tests := []struct {
		name        string
		list        fakeList
		paging      httpx.Paging
		wantPages   []int
		wantRows    int
		wantMostMax int
	}{
		{"one page", fakeList{rows: 3, pageSize: 50}, httpx.Paging{Max: 20, Size: 50, Concurrency: 10}, []int{1}, 3, 1},
		{"total of 20 pages, answers in reverse", fakeList{rows: 1000, pageSize: 50, delay: reverse}, httpx.Paging{Max: 20, Size: 50, Concurrency: 10}, pagesUpTo(20), 1000, 10},
		{"total beyond the cap", fakeList{rows: 5000, pageSize: 50, delay: reverse}, httpx.Paging{Max: 20, Size: 50, Concurrency: 4}, pagesUpTo(20), 1000, 4},
		{"total of 3 pages, no more asked", fakeList{rows: 107, pageSize: 50}, httpx.Paging{Max: 20, Size: 50, Concurrency: 10}, []int{1, 2, 3}, 107, 2},
		{"one at a time", fakeList{rows: 1000, pageSize: 50}, httpx.Paging{Max: 20, Size: 50, Concurrency: 1}, pagesUpTo(20), 1000, 1},
		{"zero concurrency is one at a time", fakeList{rows: 300, pageSize: 50}, httpx.Paging{Max: 20, Size: 50}, pagesUpTo(6), 300, 1},
		// Without a total: 1, 2, 3–4, 5–8; the list ends on page 6.
		{"no total, doubling rounds", fakeList{rows: 260, pageSize: 50, noTotal: true, delay: reverse}, httpx.Paging{Max: 20, Size: 50, Concurrency: 10}, pagesUpTo(8), 260, 4},
		{"no total, ends on a full page", fakeList{rows: 100, pageSize: 50, noTotal: true}, httpx.Paging{Max: 20, Size: 50, Concurrency: 10}, pagesUpTo(4), 100, 2},
		{"no total, to the cap", fakeList{rows: 5000, pageSize: 50, noTotal: true}, httpx.Paging{Max: 20, Size: 50, Concurrency: 10}, pagesUpTo(20), 1000, 8},
	}
	for i := range tests {
		tt := &tests[i]
		t.Run(tt.name, func(t *testing.T) {
			f := &tt.list
			got, err := httpx.FetchPages(context.Background(), tt.paging, "test: list", f.page)
			if err != nil {
				t.Fatalf("FetchPages: %v", err)
			}
			if len(got) != tt.wantRows {
				t.Errorf("%d offers, want %d", len(got), tt.wantRows)
			}
			for i, o := range got {
				if o.Note != fmt.Sprint(i) {
					t.Fatalf("offer %d is row %s: page order lost", i, o.Note)
				}
			}
			if p := f.pages(); !slices.Equal(p, tt.wantPages) {
				t.Errorf("pages asked for %v, want %v", p, tt.wantPages)
			}
			if f.most > tt.wantMostMax {
				t.Errorf("%d requests in flight at once, bound %d", f.most, tt.wantMostMax)
			}
			if f.delay != nil && tt.paging.Concurrency > 1 && f.most < 2 {
				t.Errorf("pages asked for one at a time, want up to %d at once", tt.wantMostMax)
			}
		})
	}
}

// TestFetchPagesFailures: a failed page fails the fetch and is named, as
// in a read one page after another; it cancels the pages after it, not
// those before; an empty first page is unknown; a cancelled context ends
// the fetch.
func TestFetchPagesFailures(t *testing.T) {
	boom := errors.New("HTTP 502")
	p := httpx.Paging{Max: 20, Size: 50, Concurrency: 10}
	slow := func(n int) time.Duration { return time.Duration(n) * 10 * time.Millisecond }
	tests := []struct {
		name    string
		list    fakeList
		want    string // in the error; "" for success
		wantIs  error
		maxTime time.Duration
	}{
		{"page 2 fails", fakeList{rows: 1000, pageSize: 50, fail: map[int]error{2: boom}}, "HTTP 502 (page 2)", boom, time.Second},
		{"the earliest failed page is named", fakeList{rows: 1000, pageSize: 50, delay: func(n int) time.Duration { return time.Duration(25-n) * time.Millisecond }, fail: map[int]error{4: errors.New("page four"), 9: boom}}, "page four (page 4)", nil, time.Second},
		{"a failed page cancels the pages after it", fakeList{rows: 1000, pageSize: 50, fail: map[int]error{3: boom}, hang: map[int]bool{4: true, 20: true}}, "(page 3)", boom, 2 * time.Second},
		{"a page before the failed one still answers", fakeList{rows: 1000, pageSize: 50, delay: slow, fail: map[int]error{19: boom}}, "(page 19)", boom, 2 * time.Second},
		{"a failure after the end of a list without total", fakeList{rows: 120, pageSize: 50, noTotal: true, fail: map[int]error{4: boom}}, "", nil, time.Second},
		{"empty first page", fakeList{rows: 0, pageSize: 50}, "test: list answered an empty list", stock.ErrEmpty, time.Second},
	}
	for i := range tests {
		tt := &tests[i]
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			got, err := httpx.FetchPages(context.Background(), p, "test: list", tt.list.page)
			if took := time.Since(start); took > tt.maxTime {
				t.Errorf("took %v, want under %v", took, tt.maxTime)
			}
			if tt.want == "" {
				if err != nil || len(got) != tt.list.rows {
					t.Fatalf("got %d offers, %v; want %d offers", len(got), err, tt.list.rows)
				}
				return
			}
			if err == nil || got != nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %d offers, err %v; want none and an error containing %q", len(got), err, tt.want)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v does not wrap %v", err, tt.wantIs)
			}
		})
	}
	t.Run("cancelled context", func(t *testing.T) {
		f := &fakeList{rows: 1000, pageSize: 50, hang: map[int]bool{5: true}}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := httpx.FetchPages(ctx, p, "test: list", f.page)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "(page 5)") || time.Since(start) > time.Second {
			t.Errorf("err %v after %v; want the deadline, naming page 5, at once", err, time.Since(start))
		}
	})
}

// TestParallel: results by index, the first error in index order kept,
// later calls cancelled or not made.
func TestParallel(t *testing.T) {
	boom := errors.New("boom")
	var mu sync.Mutex
	var called []int
	res, errs := httpx.Parallel(context.Background(), 2, 6, func(ctx context.Context, i int) (int, error) {
		mu.Lock()
		called = append(called, i)
		mu.Unlock()
		if i == 1 {
			return 0, boom
		}
		if i > 1 {
			<-ctx.Done() // cancelled by the failure of call 1
			return 0, ctx.Err()
		}
		return 10, nil
	})
	if res[0] != 10 || errs[0] != nil || !errors.Is(errs[1], boom) {
		t.Errorf("results %v errors %v; want 10 then boom", res, errs)
	}
	for i := 2; i < 6; i++ {
		if !errors.Is(errs[i], context.Canceled) {
			t.Errorf("call %d: %v, want cancelled", i, errs[i])
		}
	}
	if len(called) > 3 {
		t.Errorf("calls made %v: those queued after the failure should not be", called)
	}
}
