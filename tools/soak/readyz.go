package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/labgpu/bot/tools/soak/procs"
)

// probeEvery is how often each replica's /readyz is asked, as a
// Kubernetes readiness probe would (periodSeconds 1, timeoutSeconds 1:
// the client here waits 2 s to measure a slow answer).
const probeEvery = time.Second

// probe is one /readyz request.
type probe struct {
	Replica int
	At      time.Time
	Took    time.Duration
	Code    int
	Status  string   // ready, degraded, not_ready; "" without an answer
	Failing []string // degraded: what
	Err     string   // "refused" (the replica not listening: killed or starting), "timeout", or the error
}

// probeReady asks r's /readyz every probeEvery while the soak believes
// it up, until ctx ends.
func (s *soak) probeReady(ctx context.Context, r *procs.Replica) {
	c := &http.Client{Timeout: 2 * time.Second}
	// Stagger the replicas' probes over the second.
	if !sleep(ctx, time.Duration(r.Idx)*probeEvery/time.Duration(len(s.replicas))) {
		return
	}
	t := time.NewTicker(probeEvery)
	defer t.Stop()
	for {
		if r.Up() {
			p := askReady(ctx, c, r)
			if ctx.Err() != nil {
				return
			}
			s.mu.Lock()
			s.probes = append(s.probes, p)
			s.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func askReady(ctx context.Context, c *http.Client, r *procs.Replica) probe {
	p := probe{Replica: r.Idx, At: time.Now()}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.Base()+"/readyz", nil)
	resp, err := c.Do(req)
	if err != nil {
		p.Took = time.Since(p.At)
		switch {
		case errors.Is(err, syscall.ECONNREFUSED):
			p.Err = "refused"
		case errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Timeout"):
			p.Err = "timeout"
		default:
			p.Err = err.Error()
		}
		return p
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	p.Took, p.Code = time.Since(p.At), resp.StatusCode
	if err != nil {
		p.Err = err.Error()
		return p
	}
	var rd struct {
		Status   string   `json:"status"`
		Degraded []string `json:"degraded"`
	}
	if json.Unmarshal(body, &rd) != nil {
		p.Err = "unreadable body"
		return p
	}
	p.Status, p.Failing = rd.Status, rd.Degraded
	return p
}

// readyStats is what the report says of /readyz.
type readyStats struct {
	Probes   int `json:"probes"`
	Answered int `json:"answered"`
	// Refused: the replica was not listening (killed, or not yet
	// serving after a start); Timeouts: no answer within 2 s; Errors:
	// anything else.
	Refused  int `json:"refused"`
	Timeouts int `json:"timeouts"`
	Errors   int `json:"errors"`
	// Latencies of the answered probes, in ms.
	P50, P99, Max float64 `json:"-"`
	Over100ms     int     `json:"over_100ms"`
	Over1s        int     `json:"over_1s"`
	// Statuses counts the answers by status ("degraded (runpod,
	// vastai)").
	Statuses map[string]int `json:"statuses"`
}

func readyReport(ps []probe) readyStats {
	st := readyStats{Probes: len(ps), Statuses: map[string]int{}}
	var lat []float64
	for _, p := range ps {
		switch {
		case p.Err == "refused":
			st.Refused++
			continue
		case p.Err == "timeout":
			st.Timeouts++
			continue
		case p.Err != "":
			st.Errors++
			continue
		}
		st.Answered++
		ms := float64(p.Took.Microseconds()) / 1000
		lat = append(lat, ms)
		if ms > 100 {
			st.Over100ms++
		}
		if ms > 1000 {
			st.Over1s++
		}
		k := p.Status
		if len(p.Failing) > 0 {
			f := append([]string(nil), p.Failing...)
			sort.Strings(f)
			k += " (" + strings.Join(f, ", ") + ")"
		}
		st.Statuses[k]++
	}
	st.P50, st.P99, st.Max = quantiles(lat)
	return st
}

// quantiles returns p50, p99 and max of xs (sorted in place).
func quantiles(xs []float64) (p50, p99, mx float64) {
	sort.Float64s(xs)
	n := len(xs)
	if n == 0 {
		return 0, 0, 0
	}
	return xs[n/2], xs[min(n-1, n*99/100)], xs[n-1]
}
