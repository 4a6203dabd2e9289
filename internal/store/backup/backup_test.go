package backup_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/admin"
	"github.com/labgpu/bot/internal/store/backup"
	"github.com/labgpu/bot/internal/store/dump"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

const token = "0123456789abcdef0123"

// seed writes a digest switch, a mute, a claim and a ledger event.
func seed(t *testing.T, s interface {
	SetDigestChat(context.Context, string, bool) error
	SetMute(context.Context, string, time.Time) error
	ClaimAlert(context.Context, string, time.Duration) (bool, error)
}) {
	t.Helper()
	ctx := context.Background()
	if err := s.SetDigestChat(ctx, "feishu/oc_a", true); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMute(ctx, "feishu/oc_a", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.ClaimAlert(ctx, "alert:s-1:1", time.Hour); !ok || err != nil {
		t.Fatal(ok, err)
	}
}

var want = dump.Counts{dump.DigestChats: 1, dump.Mutes: 1, dump.Claims: 1}

func same(a, b dump.Counts) bool { return a.String() == b.String() }

// runningBot holds the embedded store in dir and serves it on an admin
// listener, as bot serve does.
func runningBot(t *testing.T, dir string) (*embedded.Store, admin.DialOptions) {
	t.Helper()
	st, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	abs, _ := filepath.Abs(dir)
	srv := &admin.Server{Store: st, Token: token, Info: admin.Info{DataDir: abs, Store: "embedded"}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	done := make(chan struct{})
	go func() { srv.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done; st.Close() })
	return st, admin.DialOptions{Addr: ln.Addr().String(), Token: token, DataDir: dir}
}

// TestBackupBesideRunningBot: the backup of a store a bot holds comes
// through the bot, counts what it holds, and restores into an empty
// directory; restoring over the running bot's store is refused.
func TestBackupBesideRunningBot(t *testing.T) {
	dir := t.TempDir()
	bot, dial := runningBot(t, dir)
	seed(t, bot)
	st := backup.Store{Kind: "embedded", DataDir: dir, Admin: dial}
	var b bytes.Buffer
	res, err := backup.Backup(context.Background(), st, &b)
	if err != nil || !same(res.Counts, want) || res.Via != "the running bot at "+dial.Addr {
		t.Fatalf("backup: %v via %q holds %s", err, res.Via, res.Counts)
	}
	if _, err := backup.Restore(context.Background(), st, bytes.NewReader(b.Bytes()), true); !errors.Is(err, embedded.ErrInUse) {
		t.Errorf("restore over the running bot: %v", err)
	}
	res, err = backup.Restore(context.Background(), backup.Store{Kind: "embedded", DataDir: t.TempDir()}, bytes.NewReader(b.Bytes()), false)
	if err != nil || !same(res.Counts, want) {
		t.Errorf("restore: %v, %s", err, res.Counts)
	}
	// Without the token the command says how to turn the listener on.
	st.Admin.Token = ""
	if _, err := backup.Backup(context.Background(), st, io.Discard); !errors.Is(err, admin.ErrNoToken) || !errors.Is(err, embedded.ErrInUse) {
		t.Errorf("backup without a token: %v", err)
	}
}

func redisStore(t *testing.T) backup.Store {
	t.Helper()
	var b [8]byte
	rand.Read(b[:])
	prefix := "labgpu-test:" + hex.EncodeToString(b[:]) + ":"
	raw := os.Getenv("REDIS_URL")
	if raw == "" {
		raw = redisstore.DefaultURL
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	s, err := redisstore.Open(ctx, raw, prefix)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	t.Cleanup(func() {
		iter := s.Client().Scan(context.Background(), 0, prefix+"*", 500).Iterator()
		for iter.Next(context.Background()) {
			s.Client().Del(context.Background(), iter.Val())
		}
		s.Close()
	})
	return backup.Store{Kind: "redis", RedisURL: raw, Prefix: prefix}
}

// TestRedisBackupAndMigrate: a bot running on the embedded store is
// migrated through it into Redis; Redis's backup restores into an empty
// embedded store and into another Redis prefix with the same counts.
func TestRedisBackupAndMigrate(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bot, dial := runningBot(t, dir)
	seed(t, bot)
	to := redisStore(t)
	m, err := backup.Migrate(ctx, backup.Store{Kind: "embedded", DataDir: dir, Admin: dial}, to.RedisURL, to.Prefix, false)
	if err != nil || !m.RunningBot || !same(m.After, want) {
		t.Fatalf("migrate: %v running %v after %s", err, m.RunningBot, m.After)
	}
	if _, err := backup.Migrate(ctx, backup.Store{Kind: "embedded", DataDir: dir, Admin: dial}, to.RedisURL, to.Prefix, false); !errors.Is(err, dump.ErrNotEmpty) {
		t.Errorf("migrate again: %v", err)
	}
	var b bytes.Buffer
	res, err := backup.Backup(ctx, to, &b)
	if err != nil || !same(res.Counts, want) {
		t.Fatalf("Redis backup: %v %s", err, res.Counts)
	}
	other := redisStore(t)
	if res, err := backup.Restore(ctx, other, bytes.NewReader(b.Bytes()), false); err != nil || !same(res.Counts, want) {
		t.Errorf("restore into Redis: %v %s", err, res.Counts)
	}
}
