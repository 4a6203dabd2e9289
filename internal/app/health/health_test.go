package health

import (
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

// TestDecideReadiness: readiness is decided from recorded state on an
// injected clock: the store past its grace or a channel down is not
// ready (503); a failing platform is degraded, named, and still ready.
func TestDecideReadiness(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	ok := stock.ProviderSnapshot{Provider: "vastai", Status: stock.StatusOK, FetchedAt: now.Add(-time.Minute)}
	cases := []struct {
		name      string
		in        In
		status    string
		degraded  string
		detailHas string
	}{
		{"all fine", In{Store: StoreState{Open: true}, Polling: true, Providers: []stock.ProviderSnapshot{ok}}, StatusReady, "", ""},
		{"store failing within the grace", In{Store: StoreState{Open: true, FailingSince: now.Add(-29 * time.Second), Err: "dial tcp: refused"}},
			StatusReady, "", "not answering for 29s"},
		{"store failing past the grace", In{Store: StoreState{Open: true, FailingSince: now.Add(-31 * time.Second), Err: "dial tcp: refused"}},
			StatusNotReady, "", "unreachable for 31s (allowed 30s): dial tcp: refused"},
		{"no store", In{Store: StoreState{}}, StatusNotReady, "", "not open"},
		{"channel down", In{Store: StoreState{Open: true}, Channels: []Check{{Name: "channel feishu", Critical: true, Detail: "closed"}}},
			StatusNotReady, "", "closed"},
		{"platform hung, never fetched", In{Store: StoreState{Open: true}, Polling: true,
			Providers: []stock.ProviderSnapshot{{Provider: "vastai"}}}, StatusDegraded, "provider vastai", "not fetched yet"},
		{"platform breaker open", In{Store: StoreState{Open: true}, Polling: true,
			Providers: []stock.ProviderSnapshot{{Provider: "vastai", Status: stock.StatusStale, FetchedAt: now.Add(-9 * time.Minute), Breaker: stock.BreakerOpen, Err: "timeout"}}},
			StatusDegraded, "provider vastai", "circuit breaker open (no fetch for now); last success 9m0s ago: timeout"},
		{"platform's last fetch failed", In{Store: StoreState{Open: true}, Polling: true,
			Providers: []stock.ProviderSnapshot{{Provider: "vastai", Status: stock.StatusStale, FetchedAt: now.Add(-3 * time.Minute), Err: "HTTP 502"}}},
			StatusDegraded, "provider vastai", "last fetch failed: HTTP 502"},
		{"platform too old", In{Store: StoreState{Open: true}, Polling: true,
			Providers: []stock.ProviderSnapshot{{Provider: "vastai", Status: stock.StatusOK, FetchedAt: now.Add(-11 * time.Minute)}}},
			StatusDegraded, "provider vastai", "last success 11m0s ago (allowed 10m0s)"},
		{"not configured and the catalog are no platforms", In{Store: StoreState{Open: true}, Polling: true,
			Providers: []stock.ProviderSnapshot{{Provider: "autodl", Status: stock.StatusNotConfigured}, {Provider: "catalog", Status: stock.StatusOK, FetchedAt: now.Add(-time.Hour)}}},
			StatusReady, "", ""},
		{"store down and a platform failing", In{Store: StoreState{Open: true, FailingSince: now.Add(-time.Minute), Err: "i/o timeout"}, Polling: true,
			Providers: []stock.ProviderSnapshot{{Provider: "vastai"}}}, StatusNotReady, "provider vastai", "unreachable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.in.Now, c.in.StoreGrace, c.in.ProviderAge = now, 30*time.Second, 10*time.Minute
			rd := Decide(c.in)
			if rd.Status != c.status || rd.Ready != (c.status != StatusNotReady) || strings.Join(rd.Degraded, ",") != c.degraded {
				t.Errorf("got %s ready %v degraded %v; want %s, degraded %q", rd.Status, rd.Ready, rd.Degraded, c.status, c.degraded)
			}
			var details []string
			for _, k := range rd.Checks {
				details = append(details, k.Detail)
			}
			if !strings.Contains(strings.Join(details, "|"), c.detailHas) {
				t.Errorf("details %q lack %q", details, c.detailHas)
			}
		})
	}
}
