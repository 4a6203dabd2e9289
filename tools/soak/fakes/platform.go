// Package fakes are the remote services the soak and tools/fakefeishu
// run the bot against, on loopback: the Feishu open platform, GPU
// platform APIs (vast.ai, RunPod) that answer the current stock, hang or
// fail as told, and a WeCom group robot webhook.
package fakes

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Soak is what a fake platform needs of the soak it serves.
type Soak interface {
	// Logf writes a line to the soak's log.
	Logf(format string, args ...any)
	// Stock is what platform (a provider id) answers now: per GPU (as
	// its recording names it), in stock or not, and the state's period
	// (the GPU's stock transitions so far).
	Stock(platform string) (in map[string]bool, periods map[string]int)
}

// Replica is what a platform knows of the replica behind one of its
// listeners.
type Replica interface {
	// StartCount is the number of the replica's latest start: which of
	// its processes is running now.
	StartCount() int
}

// Platform behaviours (Platform.SetMode). The hung platform is "hang"
// or "ok"; the flapping one "ok", "slow" or one of the failures.
const (
	ModeOK      = "ok"      // answers at once
	ModeSlow    = "slow"    // answers after 2.5-4 s: past the answer budget, within the timeout
	ModeHang    = "hang"    // reads the request and never answers (until the client gives up)
	Mode503     = "503"     // RFC 7807 problem, HTTP 503
	Mode429     = "429"     // the recorded rate-limit problem with Retry-After: 1
	ModeTimeout = "timeout" // like hang, for a while: the fetch times out
	ModeReset   = "reset"   // the connection is closed without an answer
)

// FlapFailures are the flapping platform's failure modes.
var FlapFailures = []string{Mode503, Mode429, ModeTimeout, ModeReset}

// overlapTolerance: a request counts as in flight together with a newer
// one only after the newer one has been in flight this long. A client
// that gave up closes its connection before its next fetch starts, but
// the server may notice the close a moment after the next request
// arrives; a second fetch really in flight at once lasts seconds.
const overlapTolerance = 250 * time.Millisecond

// Request is one request a fake platform received.
type Request struct {
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

// Platform is a platform API on loopback, one listener per replica
// (so each request is known by the replica process that sent it),
// answering bodies built from the project's recordings with the soak's
// current stock, or hanging, or failing, as its mode says.
type Platform struct {
	Name  string // provider id: "vastai", "runpod"
	label string // as the report names it
	role  string // "hung" or "flapping"
	soak  Soak
	// body builds the answer from the GPUs' states (in stock or not).
	body func(in map[string]bool) []byte
	// kind names the endpoint a request is for (RunPod: its cloud).
	kind func(r *http.Request) string
	// auth, when set, is the bearer token every request must carry.
	auth string

	srvs []*http.Server
	URLs []string // per replica

	mu sync.Mutex
	// replicas are the soak's replicas (Attach), by listener.
	replicas []Replica
	mode     string
	spans    []modeSpan
	reqs     []*Request
	// unauthorized counts requests without the right token.
	unauthorized int
}

// NewPlatform starts a platform with one listener per replica,
// answering body's answers; kind (nil: one endpoint) names a request's
// endpoint, and auth, when set, is the bearer token required.
func NewPlatform(s Soak, name, label, role string, replicas int, body func(map[string]bool) []byte,
	kind func(*http.Request) string, auth string) (*Platform, error) {
	if kind == nil {
		kind = func(*http.Request) string { return "" }
	}
	f := &Platform{Name: name, label: label, role: role, soak: s, mode: ModeOK, body: body, kind: kind, auth: auth}
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

// Attach tells the platform the replicas its listeners serve, so that a
// request is known by the replica process (its start) that sent it.
func (f *Platform) Attach(rs []Replica) {
	f.mu.Lock()
	f.replicas = rs
	f.mu.Unlock()
}

// Close stops the platform's listeners.
func (f *Platform) Close() {
	for _, s := range f.srvs {
		s.Close()
	}
}

// SetMode switches the platform's behaviour from now on; requests
// already in flight keep theirs.
func (f *Platform) SetMode(m string) {
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
	if m != ModeOK {
		f.spans = append(f.spans, modeSpan{Mode: m, Start: now})
	}
	f.soak.Logf("platform: %s %s", f.label, m)
}

func (f *Platform) handler(replica int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// Read the whole request: only then does the server notice a
		// client that gives up.
		_, _ = io.Copy(io.Discard, r.Body)
		f.mu.Lock()
		rp := f.replicas[replica]
		f.mu.Unlock()
		req := &Request{Replica: replica, Start: rp.StartCount(), Kind: f.kind(r), Arrived: time.Now()}
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
		case ModeHang, ModeTimeout:
			<-r.Context().Done()
			return
		case Mode503:
			problem(w, http.StatusServiceUnavailable, "Service Unavailable", "the catalog is temporarily unavailable")
			return
		case Mode429:
			w.Header().Set("Retry-After", "1")
			problem(w, http.StatusTooManyRequests, "Too Many Requests", "rate limit exceeded for the minute window")
			return
		case ModeReset:
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
		case ModeSlow:
			select {
			case <-r.Context().Done():
				return
			case <-time.After(2500*time.Millisecond + time.Duration(replica%3)*500*time.Millisecond):
			}
		}
		in, periods := f.soak.Stock(f.Name)
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

// LastAnswers returns, per request kind, the last answered request of
// one replica process served at or before t.
func (f *Platform) LastAnswers(replica, start int, t time.Time) map[string]*Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]*Request{}
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

// AnsweredIn reports whether the platform answered, to any replica, with
// gpu in its state period k.
func (f *Platform) AnsweredIn(gpu string, k int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.reqs {
		if p, ok := r.Periods[gpu]; r.Answered && ok && p == k {
			return true
		}
	}
	return false
}

// ModesDuring says what the platform did around t (±5 s), for a note.
func (f *Platform) ModesDuring(t time.Time, start time.Time) []string {
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
