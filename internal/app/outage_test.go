package app_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/store/storetest"
)

// TestServeThroughRedisOutage: `bot serve` on a Redis that is down at
// start starts all the same and answers "帮助"; a command that needs the
// store says the store is unreachable; /readyz is 503 naming the store;
// when Redis comes back the store command works and /readyz is 200 —
// nothing restarted.
func TestServeThroughRedisOutage(t *testing.T) {
	needShared(t, feishuFixtures)
	srv := storetest.StartRedis(t)
	srv.Kill()
	fake := newFakeFeishu(t)
	cfg := feishuConfig(t, fake.URL, t.TempDir())
	cfg.Store = config.StoreConf{Kind: "redis", RedisURL: srv.URL(), Prefix: "labgpu-outage:"}
	// Not ready as soon as a probe failed (the default grace is 30 s).
	cfg.HTTP.ReadyStoreGrace = config.Dur(time.Millisecond)
	_, base, stop := startServe(t, cfg)
	defer stop()
	events := base + "/feishu/events"
	ask := func(id, text string) string {
		t.Helper()
		n := len(fake.Messages())
		body, hdr := sealed(t, groupEvent(t, "ev-"+id, "om_"+id, text), time.Now())
		if code := post(t, events, body, hdr); code != http.StatusOK {
			t.Fatalf("%s: HTTP %d", text, code)
		}
		// A slow answer first posts "查询中…" and then replaces it in
		// place (a PATCH the fake records too): wait for the final one.
		last := func() string {
			m := fake.Messages()
			if len(m) <= n {
				return ""
			}
			return m[len(m)-1].Content
		}
		waitFor(t, "the answer to "+text, func() bool { c := last(); return c != "" && !strings.Contains(c, "查询中") })
		return last()
	}

	if got := ask("1", "帮助"); !strings.Contains(got, "4090") {
		t.Errorf("帮助 with Redis down: %q", got)
	}
	if got := ask("2", "4090 有货了提醒我"); !strings.Contains(got, "存储暂时连不上") {
		t.Errorf("a subscription with Redis down: %q", got)
	}
	code, rd := readyz(t, base)
	if code != http.StatusServiceUnavailable || !strings.Contains(failing(rd), "store: unreachable") {
		t.Errorf("/readyz with Redis down: %d %s", code, failing(rd))
	}

	srv.Restart()
	waitFor(t, "ready again", func() bool { c, _ := readyz(t, base); return c == http.StatusOK })
	if got := ask("3", "4090 有货了提醒我"); !strings.Contains(got, "已订阅") {
		t.Errorf("a subscription after Redis came back: %q", got)
	}
}
