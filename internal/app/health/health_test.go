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

// TestRecorded: the states readiness checks are the configured
// providers', as recorded: a record of a provider that is not configured
// never counts, a configured one without a record reads "not fetched
// yet", and the recorded state decides with its age (a standby reads the
// poller's record, ready while it is fresh).
func TestRecorded(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	fresh := stock.ProviderSnapshot{Provider: "vastai", Status: stock.StatusOK, FetchedAt: now.Add(-time.Minute)}
	old := stock.ProviderSnapshot{Provider: "vastai", Status: stock.StatusOK, FetchedAt: now.Add(-time.Hour)}
	failing := stock.ProviderSnapshot{Provider: "gpushare", Status: stock.StatusError, Err: "HTTP 401"}
	cases := []struct {
		name       string
		recorded   []stock.ProviderSnapshot
		configured []string
		status     string
		degraded   string
	}{
		{"the poller's fresh record", []stock.ProviderSnapshot{fresh}, []string{"vastai"}, StatusReady, ""},
		{"a record too old", []stock.ProviderSnapshot{old}, []string{"vastai"}, StatusDegraded, "provider vastai"},
		{"nothing recorded yet", nil, []string{"vastai"}, StatusDegraded, "provider vastai"},
		{"a failing record of a provider not configured", []stock.ProviderSnapshot{fresh, failing}, []string{"vastai"}, StatusReady, ""},
		{"no provider configured", []stock.ProviderSnapshot{failing}, nil, StatusReady, ""},
		{"two configured, one failing", []stock.ProviderSnapshot{failing, fresh}, []string{"vastai", "gpushare"}, StatusDegraded, "provider gpushare"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ps := Recorded(c.recorded, c.configured)
			if len(ps) != len(c.configured) {
				t.Fatalf("%d states for %d configured providers: %+v", len(ps), len(c.configured), ps)
			}
			rd := Decide(In{Now: now, Store: StoreState{Open: true}, StoreGrace: 30 * time.Second, Polling: true, Providers: ps, ProviderAge: 10 * time.Minute})
			if rd.Status != c.status || strings.Join(rd.Degraded, ",") != c.degraded {
				t.Errorf("got %s degraded %v; want %s degraded %q", rd.Status, rd.Degraded, c.status, c.degraded)
			}
		})
	}
}
