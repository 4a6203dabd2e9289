package admin_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/admin"
	"github.com/labgpu/bot/internal/store/dump"
	"github.com/labgpu/bot/internal/store/embedded"
	"github.com/labgpu/bot/internal/store/storetest"
)

var _ storetest.Store = (*admin.Client)(nil)

const token = "0123456789abcdef0123"

// serve runs a listener on loopback over an embedded store in dir and
// returns its address.
func serve(t *testing.T, dir string) (*embedded.Store, string) {
	t.Helper()
	st, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	abs, _ := filepath.Abs(dir)
	srv := &admin.Server{Store: st, Token: token, Info: admin.Info{DataDir: abs, Store: "embedded"}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		st.Close()
	})
	return st, ln.Addr().String()
}

// TestConformanceThroughListener: the store reached through the
// listener passes the suite both stores pass, the races of concurrent
// registrations and subscriptions included: a one-shot command beside a
// running bot loses no write.
func TestConformanceThroughListener(t *testing.T) {
	dir := t.TempDir()
	_, addr := serve(t, dir)
	c, err := admin.Dial(context.Background(), admin.DialOptions{Addr: addr, Token: token, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	storetest.All(t, c)
}

// TestDialRefusals: no token, a wrong one, nobody listening and a bot
// keeping its store elsewhere each fail with their own error saying what
// to do.
func TestDialRefusals(t *testing.T) {
	dir := t.TempDir()
	_, addr := serve(t, dir)
	free, _ := net.Listen("tcp", "127.0.0.1:0")
	nobody := free.Addr().String()
	free.Close()
	for _, c := range []struct {
		name string
		o    admin.DialOptions
		want error
		says string
	}{
		{"no token", admin.DialOptions{Addr: addr, DataDir: dir}, admin.ErrNoToken, "BOT_ADMIN_TOKEN set"},
		{"wrong token", admin.DialOptions{Addr: addr, Token: strings.Repeat("x", 20), DataDir: dir}, admin.ErrRefused, "same BOT_ADMIN_TOKEN"},
		{"nobody listens", admin.DialOptions{Addr: nobody, Token: token, DataDir: dir}, admin.ErrNoListener, "BOT_ADMIN_ADDR"},
		{"another data dir", admin.DialOptions{Addr: addr, Token: token, DataDir: t.TempDir()}, admin.ErrOtherBot, "BOT_DATA_DIR"},
	} {
		_, err := admin.Dial(context.Background(), c.o)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v; want %v saying %q", c.name, err, c.want, c.says)
		}
	}
	// Every path refuses a request without the token, a backup included.
	for _, p := range []string{"/admin/v1/ping", "/admin/v1/backup"} {
		resp, err := http.Get("http://" + addr + p)
		if err != nil || resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s without a token: %v %v", p, resp, err)
		} else {
			resp.Body.Close()
		}
	}
}

// TestBackupThroughListener: a backup fetched from the running bot
// restores into a store holding what the bot's held.
func TestBackupThroughListener(t *testing.T) {
	dir := t.TempDir()
	st, addr := serve(t, dir)
	ctx := context.Background()
	st.SetDigestChat(ctx, "feishu/oc_a", true)
	st.ClaimAlert(ctx, "digest:nlp:2026-11-16/2026-11-23", time.Hour)
	c, err := admin.Dial(ctx, admin.DialOptions{Addr: addr, Token: token, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.Backup(ctx, &b); err != nil {
		t.Fatal(err)
	}
	counts, err := embedded.RestoreBackup(ctx, &b, t.TempDir(), false)
	if err != nil || counts[dump.DigestChats] != 1 || counts[dump.Claims] != 1 {
		t.Errorf("restored %s, %v", counts, err)
	}
}

func TestCheckConfig(t *testing.T) {
	for _, c := range []struct {
		addr, token, http string
		bad               string
	}{
		{"127.0.0.1:8081", token, ":8080", ""},
		{"127.0.0.1:8081", "", ":8080", ""},
		{"127.0.0.1:8080", token, ":8080", "callback port"},
		{":9000", token, "127.0.0.1:9000", "callback port"},
		{"127.0.0.1:8081", "short", ":8080", "at least 16"},
		{"8081", token, ":8080", "host:port"},
	} {
		err := admin.CheckConfig(c.addr, c.token, c.http)
		if (c.bad == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.bad)) {
			t.Errorf("CheckConfig(%q, %q, %q) = %v; want %q", c.addr, c.token, c.http, err, c.bad)
		}
	}
}
