package commands_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
)

// liveRows is a live provider whose next answer a test sets.
type liveRows struct {
	mu   sync.Mutex
	rows []stock.Offer
	now  func() time.Time
}

func (l *liveRows) Name() string { return "autodl" }
func (l *liveRows) Fetch(context.Context) ([]stock.Offer, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]stock.Offer(nil), l.rows...)
	for i := range out {
		out[i].ObservedAt = l.now()
	}
	return out, nil
}

func (l *liveRows) set(rows ...stock.Offer) {
	l.mu.Lock()
	l.rows = rows
	l.mu.Unlock()
}

// TestAbsentRowAnswer: a GPU type missing from AutoDL's latest answer is
// answered as unknown, with its last figures marked old and a line that
// says it was missing; never as sold out, also when its last figure was a
// zero.
func TestAbsentRowAnswer(t *testing.T) {
	cat := testCatalog(t)
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	row := func(gpu string, free int) stock.Offer {
		return stock.Offer{Platform: "autodl", GPU: gpu, Free: stock.IntPtr(free), Region: "西北B区", Source: stock.SourceLive, CNYPerGPUHour: 2.18, Currency: "CNY", GPUsPerInstance: 1, Scope: stock.ScopeRegion}
	}
	for _, last := range []int{5, 0} {
		live := &liveRows{now: clock}
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		board := stock.NewBoard([]stock.Provider{provider.NewCatalog(cat, provider.CatalogOptions{Now: clock}), live}, stock.BoardOptions{Now: clock, MaxAge: -1, Log: log})
		live.set(row("RTX 4090", last), row("RTX 3090", 2))
		board.Refresh(context.Background())
		now = now.Add(30 * time.Minute)
		live.set(row("RTX 3090", 2))
		board.Refresh(context.Background())
		r := commands.NewRouter(cat, board, commands.WithClock(clock))
		for _, q := range []string{"AutoDL 有4090吗", "哪家有4090", "which platform has a 4090 right now"} {
			res := ask(r, q)
			text := res.Text + "\n" + res.FullText
			first := strings.SplitN(res.Text, "\n", 2)[0]
			for _, bad := range []string{"没货", "无货", "sold out"} {
				if strings.Contains(first, bad) {
					t.Errorf("last %d, %q: the first line calls a missing row sold out: %q", last, q, first)
				}
			}
			if !strings.Contains(first, "未知") && !strings.Contains(first, "unknown") {
				t.Errorf("last %d, %q: the first line does not say the stock is unknown: %q", last, q, first)
			}
			if !strings.Contains(text, "最新的回答里没有 RTX 4090") && !strings.Contains(text, "latest answer has no RTX 4090") {
				t.Errorf("last %d, %q: no line says AutoDL's answer left the 4090 out:\n%s", last, q, text)
			}
			if !strings.Contains(text, "30 分钟前") && !strings.Contains(text, "30 min ago") {
				t.Errorf("last %d, %q: the old figure's age is not shown:\n%s", last, q, text)
			}
		}
	}
}
