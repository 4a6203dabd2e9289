package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// Platform behaviours (fakePlatform.mode). The hung platform is "hang"
// or "ok"; the flapping one "ok", "slow" or one of the failures.
const (
	modeOK      = "ok"      // answers at once
	modeSlow    = "slow"    // answers after 2.5-4 s: past the answer budget, within the timeout
	modeHang    = "hang"    // reads the request and never answers (until the client gives up)
	mode503     = "503"     // RFC 7807 problem, HTTP 503
	mode429     = "429"     // the recorded rate-limit problem with Retry-After: 1
	modeTimeout = "timeout" // like hang, for a while: the fetch times out
	modeReset   = "reset"   // the connection is closed without an answer
)

// flapFailures are the flapping platform's failure modes.
var flapFailures = []string{mode503, mode429, modeTimeout, modeReset}

// overlapTolerance: a request counts as in flight together with a newer
// one only after the newer one has been in flight this long. A client
// that gave up closes its connection before its next fetch starts, but
// the server may notice the close a moment after the next request
// arrives; a second fetch really in flight at once lasts seconds.
const overlapTolerance = 250 * time.Millisecond

// platformReq is one request a fake platform received.
type platformReq struct {
	Replica, Start int    // which replica process asked (Start: its start number)
	Kind           string // RunPod: the cloud asked for (one request each per fetch); vast.ai: ""
	Mode           string // what the platform did
	Arrived        time.Time
	Served         time.Time // the answer's state was taken and written (answered only)
	Ended          time.Time // answered, or the client gone (zero: still in flight)
	Answered       bool      // a 200 with the stock rows
	// Periods is, per GPU, the state period answered (the number of its
	// transitions before Served).
	Periods map[string]int
}

// modeSpan is a stretch of one behaviour.
type modeSpan struct {
	Mode       string
	Start, End time.Time // End zero: until the run's end
}

// fakePlatform is a platform API on loopback, one listener per replica
// (so each request is known by the replica process that sent it),
// answering bodies built from the project's recordings with the soak's
// current stock, or hanging, or failing, as its mode says.
type fakePlatform struct {
	name  string // provider id: "vastai", "runpod"
	label string // as the report names it
	role  string // "hung" or "flapping"
	s     *soak
	// body builds the answer from the GPUs' states (in stock or not).
	body func(in map[string]bool) []byte
	// kind names the endpoint a request is for (RunPod: its cloud).
	kind func(r *http.Request) string
	// auth, when set, is the bearer token every request must carry.
	auth string
	// rng draws the schedule's durations and modes (its own stream of
	// the seed).
	rng *rand.Rand

	srvs []*http.Server
	URLs []string // per replica

	mu sync.Mutex
	// replicas are the soak's replicas (attach), by listener.
	replicas []*replica
	mode     string
	spans    []modeSpan
	reqs     []*platformReq
	// unauthorized counts requests without the right token.
	unauthorized int
}

// newFakePlatform starts a platform with one listener per replica,
// answering body's answers; kind (nil: one endpoint) names a request's
// endpoint, and auth, when set, is the bearer token required.
func newFakePlatform(s *soak, name, label, role string, replicas int, body func(map[string]bool) []byte,
	kind func(*http.Request) string, auth string) (*fakePlatform, error) {
	if kind == nil {
		kind = func(*http.Request) string { return "" }
	}
	f := &fakePlatform{name: name, label: label, role: role, s: s, mode: modeOK, rng: s.stream(name), body: body, kind: kind, auth: auth}
	for i := 0; i < replicas; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			f.Close()
			return nil, err
		}
		srv := &http.Server{Handler: f.handler(i), ReadHeaderTimeout: 5 * time.Second}
		go srv.Serve(ln)
		f.srvs = append(f.srvs, srv)
		f.URLs = append(f.URLs, "http://"+ln.Addr().String())
	}
	return f, nil
}

// attach tells the platform the replicas its listeners serve, so that a
// request is known by the replica process (its start) that sent it.
func (f *fakePlatform) attach(rs []*replica) {
	f.mu.Lock()
	f.replicas = rs
	f.mu.Unlock()
}

func (f *fakePlatform) Close() {
	for _, s := range f.srvs {
		s.Close()
	}
}

// setMode switches the platform's behaviour from now on; requests
// already in flight keep theirs.
func (f *fakePlatform) setMode(m string) {
	now := time.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.mode == m {
		return
	}
	if n := len(f.spans); n > 0 && f.spans[n-1].End.IsZero() {
		f.spans[n-1].End = now
	}
	f.mode = m
	if m != modeOK {
		f.spans = append(f.spans, modeSpan{Mode: m, Start: now})
	}
	f.s.logf("platform: %s %s", f.label, m)
}

func (f *fakePlatform) handler(replica int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// Read the whole request: only then does the server notice a
		// client that gives up.
		_, _ = io.Copy(io.Discard, r.Body)
		f.mu.Lock()
		rp := f.replicas[replica]
		f.mu.Unlock()
		req := &platformReq{Replica: replica, Start: rp.startCount(), Kind: f.kind(r), Arrived: time.Now()}
		f.mu.Lock()
		req.Mode = f.mode
		f.reqs = append(f.reqs, req)
		bad := f.auth != "" && r.Header.Get("Authorization") != "Bearer "+f.auth
		if bad {
			f.unauthorized++
		}
		f.mu.Unlock()
		defer func() {
			f.mu.Lock()
			req.Ended = time.Now()
			f.mu.Unlock()
		}()
		if bad {
			problem(w, http.StatusUnauthorized, "Unauthorized", "missing or invalid API key")
			return
		}
		switch req.Mode {
		case modeHang, modeTimeout:
			<-r.Context().Done()
			return
		case mode503:
			problem(w, http.StatusServiceUnavailable, "Service Unavailable", "the catalog is temporarily unavailable")
			return
		case mode429:
			w.Header().Set("Retry-After", "1")
			problem(w, http.StatusTooManyRequests, "Too Many Requests", "rate limit exceeded for the minute window")
			return
		case modeReset:
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					if tc, ok := c.(*net.TCPConn); ok {
						tc.SetLinger(0) // RST, not FIN
					}
					c.Close()
					return
				}
			}
			panic(http.ErrAbortHandler)
		case modeSlow:
			select {
			case <-r.Context().Done():
				return
			case <-time.After(2500*time.Millisecond + time.Duration(replica%3)*500*time.Millisecond):
			}
		}
		in, periods := f.s.platformState(f.name)
		body := f.body(in)
		f.mu.Lock()
		req.Served, req.Periods, req.Answered = time.Now(), periods, true
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}
}

// problem writes an RFC 7807 body, RunPod's error shape
// (testdata/stock-verbatim/runpod-rest-v2-error-429-1.json).
func problem(w http.ResponseWriter, status int, title, detail string) {
	b, _ := json.Marshal(map[string]any{"title": title, "status": status, "detail": detail})
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// hangSchedule drives the hung platform, hanging since before the
// replicas started: in a run with stretches it answers for 15-40 s after
// every 60-150 s of hanging.
func (f *fakePlatform) hangSchedule(ctx context.Context, stretches bool) {
	if !stretches {
		<-ctx.Done()
		return
	}
	for {
		if !sleep(ctx, f.s.durWith(f.rng, 60*time.Second, 150*time.Second)) {
			return
		}
		f.setMode(modeOK)
		if !sleep(ctx, f.s.durWith(f.rng, 15*time.Second, 40*time.Second)) {
			return
		}
		f.setMode(modeHang)
	}
}

// flapSchedule drives the flapping platform: it answers for 20-80 s,
// then fails (503, 429, timeouts or reset connections, at random) or
// answers slowly for 8-45 s, and so on. A short run has one failure,
// from 5 s to 13 s.
func (f *fakePlatform) flapSchedule(ctx context.Context, short bool) {
	pick := f.rng.IntN
	if short {
		if !sleep(ctx, 5*time.Second) {
			return
		}
		f.setMode(flapFailures[pick(len(flapFailures))])
		if sleep(ctx, 8*time.Second) {
			f.setMode(modeOK)
		}
		return
	}
	for {
		if !sleep(ctx, f.s.durWith(f.rng, 20*time.Second, 80*time.Second)) {
			return
		}
		m := modeSlow
		if pick(5) > 0 {
			m = flapFailures[pick(len(flapFailures))]
		}
		f.setMode(m)
		if !sleep(ctx, f.s.durWith(f.rng, 8*time.Second, 45*time.Second)) {
			return
		}
		f.setMode(modeOK)
	}
}

// lastAnswers returns, per request kind, the last answered request of
// one replica process served at or before t.
func (f *fakePlatform) lastAnswers(replica, start int, t time.Time) map[string]*platformReq {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]*platformReq{}
	for _, r := range f.reqs {
		if r.Replica != replica || r.Start != start || !r.Answered || r.Served.After(t) {
			continue
		}
		if p := out[r.Kind]; p == nil || r.Served.After(p.Served) {
			out[r.Kind] = r
		}
	}
	return out
}

// answeredIn reports whether the platform answered, to any replica, with
// gpu in its state period k.
func (f *fakePlatform) answeredIn(gpu string, k int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.reqs {
		if p, ok := r.Periods[gpu]; r.Answered && ok && p == k {
			return true
		}
	}
	return false
}

// platformStats is what the report says of a platform.
type platformStats struct {
	Name     string         `json:"name"`
	Role     string         `json:"role"`
	Requests int            `json:"requests"`
	Answered int            `json:"answered"`
	ByMode   map[string]int `json:"requests_by_mode"`
	// Fetches counts fetch attempts (RunPod asks two clouds per attempt).
	Fetches int `json:"fetches"`
	// MaxInFlight is the most requests in flight at once from all
	// replicas; MaxPerReplica the most from one replica process for one
	// endpoint (overlaps longer than overlapTolerance): 1 when fetches
	// are single-flight.
	MaxInFlight   int     `json:"max_in_flight"`
	MaxPerReplica int     `json:"max_in_flight_per_replica"`
	Outages       int     `json:"outages"`
	OutageSeconds float64 `json:"outage_seconds"`
	Unauthorized  int     `json:"unauthorized"`
	// Overlaps describes requests of one replica process in flight
	// together (a single-flight breach).
	Overlaps []string `json:"overlaps,omitempty"`
}

func (f *fakePlatform) stats(start, end time.Time) platformStats {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := platformStats{Name: f.label, Role: f.role, ByMode: map[string]int{}, Unauthorized: f.unauthorized}
	kinds := map[string]bool{}
	var all []edge
	groups := map[string][]*platformReq{}
	for _, r := range f.reqs {
		st.Requests++
		st.ByMode[r.Mode]++
		kinds[r.Kind] = true
		if r.Answered {
			st.Answered++
		}
		ended := r.Ended
		if ended.IsZero() {
			ended = end
		}
		all = append(all, edge{r.Arrived, 1}, edge{ended, -1})
		k := fmt.Sprintf("%d/%d/%s", r.Replica, r.Start, r.Kind)
		groups[k] = append(groups[k], r)
	}
	st.Fetches = st.Requests / max(1, len(kinds))
	st.MaxInFlight = maxInFlight(all)
	for _, rs := range groups {
		st.overlaps(rs, start, end)
	}
	for _, sp := range f.spans {
		st.Outages++
		st.OutageSeconds += spanEnd(sp, end).Sub(later(sp.Start, start)).Seconds()
	}
	return st
}

// edge is a request's arrival (+1) or end (-1).
type edge struct {
	at    time.Time
	delta int
}

// maxInFlight is the most requests in flight at once; an end at the
// same time as an arrival comes first.
func maxInFlight(all []edge) int {
	sort.Slice(all, func(i, j int) bool {
		if !all[i].at.Equal(all[j].at) {
			return all[i].at.Before(all[j].at)
		}
		return all[i].delta < all[j].delta
	})
	n, most := 0, 0
	for _, e := range all {
		n += e.delta
		most = max(most, n)
	}
	return most
}

// overlaps adds the requests of one replica process to one endpoint (rs,
// in arrival order) in flight together for longer than
// overlapTolerance: the most at once, and notes of the first ten.
func (st *platformStats) overlaps(rs []*platformReq, start, end time.Time) {
	st.MaxPerReplica = max(st.MaxPerReplica, 1)
	for i, a := range rs {
		together := 1
		for _, b := range rs[:i] {
			// b arrived before a; still in flight once a had been
			// for overlapTolerance.
			bEnd := b.Ended
			if bEnd.IsZero() {
				bEnd = end
			}
			aEnd := a.Ended
			if aEnd.IsZero() {
				aEnd = end
			}
			at := a.Arrived.Add(overlapTolerance)
			if bEnd.After(at) && aEnd.After(at) {
				together++
				if len(st.Overlaps) < 10 {
					st.Overlaps = append(st.Overlaps, fmt.Sprintf("replica %d (start %d) %s: a request from +%.1fs (%s) still in flight at +%.1fs, when another from +%.1fs (%s) had been for %v",
						a.Replica, a.Start, kindText(a.Kind), b.Arrived.Sub(start).Seconds(), b.Mode, at.Sub(start).Seconds(), a.Arrived.Sub(start).Seconds(), a.Mode, overlapTolerance))
				}
			}
		}
		st.MaxPerReplica = max(st.MaxPerReplica, together)
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func spanEnd(sp modeSpan, end time.Time) time.Time {
	if sp.End.IsZero() {
		return end
	}
	return sp.End
}

func kindText(k string) string {
	if k == "" {
		return "bundles"
	}
	return "cloud " + k
}

// modesDuring says what the platform did around t (±5 s), for a note.
func (f *fakePlatform) modesDuring(t time.Time, start time.Time) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, sp := range f.spans {
		e := spanEnd(sp, time.Now())
		if sp.Start.Before(t.Add(5*time.Second)) && e.After(t.Add(-5*time.Second)) {
			out = append(out, fmt.Sprintf("%s %s +%.1fs..+%.1fs", f.label, sp.Mode, sp.Start.Sub(start).Seconds(), e.Sub(start).Seconds()))
		}
	}
	return out
}

// vastBody builds vast.ai bundles answers from the recording
// testdata/stock/vastai-bundles.json: its RTX 4090 offers while the
// 4090 is in stock, and always an RTX 3090 offer derived from the first
// one (vast.ai lists only what is rentable: without the 4090 rows the
// answer must still list something, or it is an empty search).
func vastBody(fixtures string) (func(map[string]bool) []byte, error) {
	b, err := os.ReadFile(filepath.Join(fixtures, "stock", "vastai-bundles.json"))
	if err != nil {
		return nil, err
	}
	var rec struct {
		Offers []map[string]any `json:"offers"`
	}
	if err := json.Unmarshal(b, &rec); err != nil || len(rec.Offers) == 0 {
		return nil, fmt.Errorf("vastai-bundles.json: no offers (%v)", err)
	}
	other := map[string]any{}
	for k, v := range rec.Offers[0] {
		other[k] = v
	}
	other["id"], other["ask_contract_id"], other["machine_id"] = 31847001, 31847001, 43001
	other["gpu_name"], other["dph_base"], other["dph_total"], other["discounted_dph_total"] = "RTX 3090", 0.18, 0.2031, 0.2031
	return func(in map[string]bool) []byte {
		var offers []map[string]any
		for _, o := range rec.Offers {
			if in[fmt.Sprint(o["gpu_name"])] {
				offers = append(offers, o)
			}
		}
		offers = append(offers, other)
		out, _ := json.Marshal(map[string]any{"offers": offers})
		return out
	}, nil
}

// runpodBody builds RunPod REST v2 catalog answers (GET
// /v2/catalog/gpus) from the recording
// testdata/stock-verbatim/runpod-rest-v2-catalog-gpus-1.json, each GPU's
// availability (and its data centers') HIGH while in stock, else NONE.
func runpodBody(fixtures string) (func(map[string]bool) []byte, error) {
	b, err := os.ReadFile(filepath.Join(fixtures, "stock-verbatim", "runpod-rest-v2-catalog-gpus-1.json"))
	if err != nil {
		return nil, err
	}
	var probe struct {
		GPUs []map[string]any `json:"gpus"`
	}
	if err := json.Unmarshal(b, &probe); err != nil || len(probe.GPUs) == 0 {
		return nil, fmt.Errorf("runpod-rest-v2-catalog-gpus-1.json: no gpus (%v)", err)
	}
	return func(in map[string]bool) []byte {
		var rec struct {
			GPUs []map[string]any `json:"gpus"`
		}
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		_ = d.Decode(&rec)
		for _, g := range rec.GPUs {
			level := "NONE"
			if in[fmt.Sprint(g["name"])] {
				level = "HIGH"
			}
			g["availability"] = level
			if dcs, ok := g["dataCenters"].([]any); ok {
				for _, dc := range dcs {
					if m, ok := dc.(map[string]any); ok {
						m["availability"] = level
					}
				}
			}
		}
		out, _ := json.Marshal(rec)
		return out
	}, nil
}

// runpodCloud is the request kind of a RunPod catalog request: its cloud.
func runpodCloud(r *http.Request) string { return r.URL.Query().Get("cloud") }
