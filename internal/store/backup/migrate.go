package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"

	"github.com/labgpu/bot/internal/admin"
	"github.com/labgpu/bot/internal/store/dump"
	"github.com/labgpu/bot/internal/store/embedded"
)

// Migration is what Migrate did: the counts per kind (dump.Report), where
// from and to (for people), and whether it read a copy taken through a
// running bot (which keeps writing to its own store afterwards).
type Migration struct {
	dump.Report
	From, To   string
	RunningBot bool
}

// Migrate moves every kind of state of st into the Redis store at toURL
// under prefix ("" for the default): subscriptions, alert records,
// mutes, digest settings and marks, the ledger, blobs (the WeChat login
// state and admin bindings), the availability history, snapshots,
// claims and delivered parts (dump.Kinds; locks stay, and so does the
// Feishu inbox: events acknowledged and not answered yet are seconds of
// state, answered by the bot before it is stopped for the move).
// A target holding anything is refused unless force, which deletes it
// first. The embedded store is read in one transaction, from its file or
// from a backup the running bot takes; it is left as it was.
func Migrate(ctx context.Context, st Store, toURL, prefix string, force bool) (Migration, error) {
	var m Migration
	u, err := url.Parse(toURL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss" && u.Scheme != "unix") {
		return m, fmt.Errorf("--to: %q is not a Redis URL such as redis://127.0.0.1:6379/0", Redacted(toURL))
	}
	if st.Kind == "redis" && len(st.RedisAddrs) == 0 && Redacted(st.RedisURL) == Redacted(toURL) && prefixOr(st.Prefix) == prefixOr(prefix) {
		return m, errors.New("--to: the store is already there (same Redis URL and prefix)")
	}
	src, closeSrc, err := source(ctx, st, &m)
	if err != nil {
		return m, err
	}
	defer closeSrc()
	dst, at, err := openRedis(ctx, toURL, prefix, Store{})
	if err != nil {
		return m, fmt.Errorf("--to: %w", err)
	}
	defer dst.Close()
	m.To = at
	m.Report, err = dump.Move(ctx, src, dst, force)
	return m, err
}

// source opens st for reading: the Redis store, the embedded store's
// file, or a copy of it taken through the bot running on it (in a
// temporary directory, removed by closeSrc).
func source(ctx context.Context, st Store, m *Migration) (src dump.Exporter, closeSrc func(), err error) {
	if st.Kind == "redis" {
		r, at, err := openRedis(ctx, st.RedisURL, st.Prefix, st)
		if err != nil {
			return nil, nil, err
		}
		m.From = at
		return r, func() { r.Close() }, nil
	}
	e, err := embedded.Open(st.DataDir)
	if err == nil {
		m.From = st.DataDir
		return e, func() { e.Close() }, nil
	}
	if !errors.Is(err, embedded.ErrInUse) {
		return nil, nil, err
	}
	c, derr := admin.Dial(ctx, st.Admin)
	if derr != nil {
		return nil, nil, fmt.Errorf("%w; %w", err, derr)
	}
	defer c.Close()
	tmp, err := os.MkdirTemp("", "labgpu-migrate-")
	if err != nil {
		return nil, nil, err
	}
	e, err = copyThrough(ctx, c, tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	m.From, m.RunningBot = st.DataDir+" (a copy taken by the running bot at "+st.Admin.Addr+")", true
	return e, func() { e.Close(); os.RemoveAll(tmp) }, nil
}

// copyThrough restores the running bot's backup into dir and opens it.
func copyThrough(ctx context.Context, c *admin.Client, dir string) (*embedded.Store, error) {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(c.Backup(ctx, pw)) }()
	_, err := embedded.RestoreBackup(ctx, pr, dir, false)
	if err == nil {
		_, err = io.Copy(io.Discard, pr) // the stream's end (gzip's trailer)
	}
	pr.CloseWithError(err)
	if err != nil {
		return nil, fmt.Errorf("a copy through the running bot: %w", err)
	}
	return embedded.Open(dir)
}

// Redacted is a URL without its password, for messages.
func Redacted(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a URL that does not parse)"
	}
	return u.Redacted()
}
