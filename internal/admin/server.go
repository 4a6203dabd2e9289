package admin

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Server is the admin listener of a running bot.
type Server struct {
	// Store is the bot's store (an Info.Store "embedded" one also writes
	// backups).
	Store Store
	// Token authenticates every request; Serve refuses an empty one.
	Token string
	// Info describes the bot (its data directory and store kind).
	Info Info
	Log  *slog.Logger
}

// backuper writes a backup of the store (the embedded store does).
type backuper interface {
	WriteBackup(ctx context.Context, w io.Writer) error
}

// maxRequest bounds a request body (a history import is the largest).
const maxRequest = 256 << 20

// Handler is the API behind the token.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+pathPing, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, s.Info) })
	mux.HandleFunc("POST "+pathStore+"{method}", s.serveStore)
	mux.HandleFunc("GET "+pathBackup, s.serveBackup)
	return s.authenticated(mux)
}

// authenticated lets a request through only with the token (compared in
// constant time); a refusal is logged without what was sent.
func (s *Server) authenticated(next http.Handler) http.Handler {
	want := []byte("Bearer " + s.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if s.Token == "" || subtle.ConstantTimeCompare(got, want) != 1 {
			s.Log.Warn("admin: a request without the right token refused", "path", r.URL.Path, "from", r.RemoteAddr)
			w.Header().Set("WWW-Authenticate", `Bearer realm="labgpu admin"`)
			http.Error(w, "admin token refused", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// response is a store method's answer: its result and its error (both
// may be set: a list read with one record that did not decode).
type response struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
	Code   string          `json:"code,omitempty"`
}

func (s *Server) serveStore(w http.ResponseWriter, r *http.Request) {
	h, ok := methods[r.PathValue("method")]
	if !ok {
		writeJSON(w, http.StatusNotFound, response{Error: fmt.Sprintf("no store method %q", r.PathValue("method")), Code: codeBadRequest})
		return
	}
	var args []json.RawMessage
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxRequest)).Decode(&args); err != nil {
		writeJSON(w, http.StatusBadRequest, response{Error: "arguments: " + err.Error(), Code: codeBadRequest})
		return
	}
	res, err, bad := h(&call{ctx: r.Context(), s: s.Store, args: args})
	if bad != nil {
		writeJSON(w, http.StatusBadRequest, response{Error: bad.Error(), Code: codeBadRequest})
		return
	}
	var out response
	if res != nil {
		b, merr := json.Marshal(res)
		if merr != nil {
			err = errors.Join(err, merr)
		}
		out.Result = b
	}
	if err != nil {
		out.Error, out.Code = err.Error(), codeOf(err)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) serveBackup(w http.ResponseWriter, r *http.Request) {
	b, ok := s.Store.(backuper)
	if !ok {
		http.Error(w, "the running bot's store ("+s.Info.Store+") is not backed up through the bot: run bot backup with its config, it reads the store directly", http.StatusNotImplemented)
		return
	}
	w.Header().Set("Content-Type", "application/gzip")
	if err := b.WriteBackup(r.Context(), w); err != nil {
		// The status is sent; a cut stream fails the client's unpack.
		s.Log.Error("admin: backup failed", "err", err)
		panic(http.ErrAbortHandler)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Serve answers on ln until ctx ends, then shuts down within 5 s. It
// refuses to run without a token.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if s.Token == "" {
		return ErrNoToken
	}
	// No write timeout: a backup streams for as long as the store takes.
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute,
		ErrorLog: slog.NewLogLogger(s.Log.Handler(), slog.LevelWarn)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
	case err := <-errc:
		return err
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// Listen opens the admin address; the error names it and what to do.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("admin listener (BOT_ADMIN_ADDR %s): %w", addr, err)
	}
	return ln, nil
}

// Describe is the start-up line's words for the listener at addr.
func Describe(addr string) string {
	if Loopback(addr) {
		return "admin listener on " + addr + " (loopback)"
	}
	return "admin listener on " + addr + " (not loopback: reachable from the network, only BOT_ADMIN_TOKEN protects it)"
}

// Off is the start-up line's words when there is no token.
const Off = "admin listener off (BOT_ADMIN_TOKEN not set): one-shot commands cannot reach the embedded store while this bot runs"
