// Package health decides a replica's readiness from recorded state — the
// store watch, the channels, the board's providers — calling nobody, and
// probes a running bot (bot health). Not ready (503) only when the replica
// cannot serve: the store unreachable past its grace, a channel down; a
// failing platform makes it degraded (200, named).
package health

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/stock"
)

// Check is one readiness fact: what was checked, whether it is fine and,
// when not, why. A failed critical check (the store, a channel) means the
// replica cannot serve; a failed other one (a platform) that it serves
// degraded.
type Check struct {
	Name     string `json:"name"`
	OK       bool   `json:"ok"`
	Critical bool   `json:"critical"`
	Detail   string `json:"detail,omitempty"`
}

// Readiness is /readyz's body. Status is "ready", "degraded" (serving;
// Degraded names what fails, such as a platform) or "not_ready" (503).
type Readiness struct {
	Ready    bool     `json:"ready"`
	Status   string   `json:"status"`
	Degraded []string `json:"degraded,omitempty"`
	Checks   []Check  `json:"checks"`
}

// Readiness statuses.
const (
	StatusReady    = "ready"
	StatusDegraded = "degraded"
	StatusNotReady = "not_ready"
)

// In is what readiness is decided from, all of it recorded: the time,
// the store watch's state and its grace, the channels' checks, and — when
// the replica polls — the board's provider states and the age a provider's
// last success may reach.
type In struct {
	Now         time.Time
	Store       StoreState
	StoreGrace  time.Duration
	Channels    []Check
	Polling     bool
	Providers   []stock.ProviderSnapshot
	ProviderAge time.Duration
}

// Decide: not ready when a critical check fails (the store
// unreachable for longer than the grace, a channel); degraded when a
// platform fails (its breaker open, its last fetch failed, or its last
// success older than the allowed age).
func Decide(in In) Readiness {
	checks := []Check{storeCheck(in.Now, in.Store, in.StoreGrace)}
	checks = append(checks, in.Channels...)
	if in.Polling {
		checks = append(checks, providerChecks(in.Now, in.Providers, in.ProviderAge)...)
	}
	rd := Readiness{Ready: true, Checks: checks}
	for _, c := range checks {
		switch {
		case c.OK:
		case c.Critical:
			rd.Ready = false
		default:
			rd.Degraded = append(rd.Degraded, c.Name)
		}
	}
	switch {
	case !rd.Ready:
		rd.Status = StatusNotReady
	case len(rd.Degraded) > 0:
		rd.Status = StatusDegraded
	default:
		rd.Status = StatusReady
	}
	return rd
}

// StoreState is what the store watch recorded.
type StoreState struct {
	// Open: there is a store at all.
	Open bool
	// FailingSince is the first failed probe since the last good one
	// (zero while it answers); Err the last failure.
	FailingSince time.Time
	Err          string
}

func storeCheck(now time.Time, s StoreState, grace time.Duration) Check {
	c := Check{Name: "store", OK: true, Critical: true}
	switch {
	case !s.Open:
		c.OK, c.Detail = false, "not open"
	case s.FailingSince.IsZero():
	case now.Sub(s.FailingSince) > grace:
		c.OK = false
		c.Detail = fmt.Sprintf("unreachable for %s (allowed %s): %s", now.Sub(s.FailingSince).Round(time.Second), grace, s.Err)
	default:
		c.Detail = fmt.Sprintf("not answering for %s (not ready after %s): %s", now.Sub(s.FailingSince).Round(time.Second), grace, s.Err)
	}
	return c
}

// readier is a channel that can say whether it is connected from what it
// recorded (Feishu: its token, its long connection and its callback;
// WeChat: logged in).
type readier interface{ Ready() error }

// degrader is a channel that can say it serves but something reaching it
// is refused (Feishu: its callback refusing requests for a wrong token,
// signature or Encrypt Key, with the likely cause).
type degrader interface{ Degraded() error }

// ChannelChecks are a channel's checks: "channel <name>" (critical:
// connected), and for a degrader "channel <name> callback" (not
// critical: the replica serves degraded).
func ChannelChecks(ch chat.Channel) []Check {
	c := Check{Name: "channel " + ch.Name(), OK: true, Critical: true}
	if r, ok := ch.(readier); ok {
		if err := r.Ready(); err != nil {
			c.OK, c.Detail = false, err.Error()
		}
	}
	out := []Check{c}
	if d, ok := ch.(degrader); ok {
		cb := Check{Name: "channel " + ch.Name() + " callback", OK: true}
		if err := d.Degraded(); err != nil {
			cb.OK, cb.Detail = false, err.Error()
		}
		out = append(out, cb)
	}
	return out
}

// Recorded is the provider states readiness checks: of each configured
// provider (a live platform, set up, or the replay), its state as
// recorded in the store by whichever replica polls (recorded), or, with
// no record yet, a bare state that reads "not fetched yet". A provider
// that is not configured never counts, whatever was recorded of it
// (by another configuration, or before its credentials were removed).
func Recorded(recorded []stock.ProviderSnapshot, configured []string) []stock.ProviderSnapshot {
	out := make([]stock.ProviderSnapshot, 0, len(configured))
	for _, name := range configured {
		ps := stock.ProviderSnapshot{Provider: name}
		for _, r := range recorded {
			if r.Provider == name {
				ps = r
				break
			}
		}
		out = append(out, ps)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider < out[j].Provider })
	return out
}

// providerChecks: each configured provider's recorded state. A provider
// fails when its breaker is open, when its running fetch has gone longer
// than the answer budget without an answer, when it never fetched or its last fetch
// failed, or when its last success is older than maxAge. Providers that
// are not configured (no credentials) and the catalog's list prices are
// not checked.
func providerChecks(now time.Time, providers []stock.ProviderSnapshot, maxAge time.Duration) []Check {
	var out []Check
	for _, p := range providers {
		if p.Status == stock.StatusNotConfigured || p.Provider == string(stock.SourceCatalog) {
			// Not configured, or the catalog's own list prices: no
			// platform to fail.
			continue
		}
		c := Check{Name: "provider " + p.Provider, OK: true}
		switch {
		case p.Breaker == stock.BreakerOpen:
			c.OK, c.Detail = false, "circuit breaker open (no fetch for now)"
			if !p.FetchedAt.IsZero() {
				c.Detail += fmt.Sprintf("; last success %s ago", now.Sub(p.FetchedAt).Round(time.Second))
			}
			if p.Err != "" {
				c.Detail += ": " + p.Err
			}
		case p.Late:
			c.OK, c.Detail = false, fmt.Sprintf("its fetch has gone %s without an answer", p.RunningFor.Round(time.Second))
			if !p.FetchedAt.IsZero() {
				c.Detail += fmt.Sprintf("; last success %s ago", now.Sub(p.FetchedAt).Round(time.Second))
			}
		case p.FetchedAt.IsZero() && p.Status == stock.StatusError:
			c.OK, c.Detail = false, "no successful fetch since start: "+p.Err
		case p.FetchedAt.IsZero():
			c.OK, c.Detail = false, "not fetched yet"
		case now.Sub(p.FetchedAt) > maxAge:
			c.OK = false
			c.Detail = fmt.Sprintf("last success %s ago (allowed %s)", now.Sub(p.FetchedAt).Round(time.Second), maxAge)
			if p.Err != "" {
				c.Detail += ": " + p.Err
			}
		case p.Status != stock.StatusOK && p.Err != "":
			c.OK = false
			c.Detail = fmt.Sprintf("last fetch failed: %s (last success %s ago)", p.Err, now.Sub(p.FetchedAt).Round(time.Second))
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// probeTimeout bounds `bot health`.
const probeTimeout = 5 * time.Second

// Probe asks a running bot at base for /healthz (or /readyz when ready)
// and writes its answer to w; it fails unless the answer is 200.
func Probe(ctx context.Context, base string, ready bool, w io.Writer) error {
	path := "/healthz"
	if ready {
		path = "/readyz"
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+path, nil)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_, _ = w.Write(body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s answered %s", path, resp.Status)
	}
	return nil
}
