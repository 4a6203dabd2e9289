// Package backup keeps and moves a bot's state: a backup of the store
// (`bot backup`), putting one back (`bot restore`) and moving every kind
// of state into Redis (`bot migrate`). Each works on the store the config
// names, and on the embedded store while a bot runs on it, through that
// bot's admin listener (bbolt lets one process open the file).
//
// A backup is one file, a gzipped tar of the embedded store's two files
// (labgpu.db and labgpu-claims.db), whatever the store: the Redis
// store's entries are written into an embedded store first. So a backup
// restores into either store.
package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/labgpu/bot/internal/admin"
	"github.com/labgpu/bot/internal/store/dump"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// Store is where the state is: the config's store settings.
type Store struct {
	// Kind is "embedded" or "redis".
	Kind string
	// DataDir is the embedded store's directory.
	DataDir string
	// RedisURL, Prefix, RedisAddrs and MasterName reach the Redis store
	// (store.redis_url, store.prefix, store.redis_addrs,
	// store.redis_master_name).
	RedisURL, Prefix, MasterName string
	RedisAddrs                   []string
	// Admin reaches a bot running on the embedded store.
	Admin admin.DialOptions
}

// Result is what a backup or a restore did: where the state came from
// or went (Via, for people) and what the backup holds, counted by opening
// it.
type Result struct {
	Via    string
	Counts dump.Counts
}

// Backup writes a backup of st to w: from the store's files, through the
// bot running on them, or from Redis. The backup is opened as it is
// written, and Result counts what it holds.
func Backup(ctx context.Context, st Store, w io.Writer) (Result, error) {
	check, err := os.MkdirTemp("", "labgpu-backup-check-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(check)
	pr, pw := io.Pipe()
	counted := make(chan error, 1)
	var res Result
	go func() {
		var err error
		res.Counts, err = embedded.RestoreBackup(ctx, pr, check, false)
		if err == nil {
			_, err = io.Copy(io.Discard, pr) // the stream's end (gzip's trailer)
		}
		pr.CloseWithError(err) // a writer still writing learns it
		counted <- err
	}()
	via, err := write(ctx, st, io.MultiWriter(w, pw))
	pw.CloseWithError(err)
	if cerr := <-counted; err == nil && cerr != nil {
		err = fmt.Errorf("the backup written does not open: %w", cerr)
	}
	res.Via = via
	return res, err
}

// write writes st's backup to w and says where it came from.
func write(ctx context.Context, st Store, w io.Writer) (string, error) {
	if st.Kind == "redis" {
		return writeRedis(ctx, st, w)
	}
	s, err := embedded.Open(st.DataDir)
	if errors.Is(err, embedded.ErrInUse) {
		c, derr := admin.Dial(ctx, st.Admin)
		if derr != nil {
			return "", fmt.Errorf("%w; %w", err, derr)
		}
		defer c.Close()
		return "the running bot at " + st.Admin.Addr, c.Backup(ctx, w)
	}
	if err != nil {
		return "", err
	}
	defer s.Close()
	return st.DataDir, s.WriteBackup(ctx, w)
}

// writeRedis copies the Redis store into an embedded store in a
// temporary directory and writes that one's backup.
func writeRedis(ctx context.Context, st Store, w io.Writer) (string, error) {
	r, at, err := openRedis(ctx, st.RedisURL, st.Prefix, st)
	if err != nil {
		return "", err
	}
	defer r.Close()
	tmp, err := os.MkdirTemp("", "labgpu-backup-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	e, err := embedded.Open(tmp)
	if err != nil {
		return "", err
	}
	defer e.Close()
	if _, err := dump.Move(ctx, r, e, false); err != nil {
		return "", fmt.Errorf("copy Redis: %w", err)
	}
	return at, e.WriteBackup(ctx, w)
}

// openRedis opens the Redis store at rawURL under prefix (through
// st.RedisAddrs when set); at names it for people, without a password.
func openRedis(ctx context.Context, rawURL, prefix string, st Store) (s *redisstore.Store, at string, err error) {
	if len(st.RedisAddrs) > 0 {
		s, err = redisstore.OpenCluster(ctx, st.RedisAddrs, st.MasterName, rawURL, prefix)
		return s, fmt.Sprintf("Redis at %v (prefix %s)", st.RedisAddrs, prefixOr(prefix)), err
	}
	s, err = redisstore.Open(ctx, rawURL, prefix)
	return s, fmt.Sprintf("Redis at %s (prefix %s)", Redacted(rawURL), prefixOr(prefix)), err
}

func prefixOr(p string) string {
	if p == "" {
		return redisstore.DefaultPrefix
	}
	return p
}

// Restore puts the backup read from r into st. The embedded store's
// files are replaced (never while a bot runs on them; with entries only
// with force, the old files kept beside); the Redis store gets every
// entry of the backup (with entries only with force, which deletes them
// first).
func Restore(ctx context.Context, st Store, r io.Reader, force bool) (Result, error) {
	if st.Kind != "redis" {
		counts, err := embedded.RestoreBackup(ctx, r, st.DataDir, force)
		if errors.Is(err, embedded.ErrInUse) {
			err = fmt.Errorf("%w: stop the bot first (a restore replaces the store's files)", err)
		}
		return Result{Via: st.DataDir, Counts: counts}, err
	}
	tmp, err := os.MkdirTemp("", "labgpu-restore-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(tmp)
	if _, err := embedded.RestoreBackup(ctx, r, tmp, false); err != nil {
		return Result{}, err
	}
	e, err := embedded.Open(tmp)
	if err != nil {
		return Result{}, err
	}
	defer e.Close()
	dst, at, err := openRedis(ctx, st.RedisURL, st.Prefix, st)
	if err != nil {
		return Result{}, err
	}
	defer dst.Close()
	rep, err := dump.Move(ctx, e, dst, force)
	return Result{Via: at, Counts: rep.After}, err
}
