package app_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
)

// TestReadyzCallbackRefusing: Feishu's events reaching the callback with
// another verification token are refused (401) and, three in a row,
// make /readyz "degraded" (still 200) with the likely cause named, and
// /metrics count them by reason; the start-up build is a metric too.
func TestReadyzCallbackRefusing(t *testing.T) {
	needShared(t, feishuFixtures)
	fake := newFakeFeishu(t)
	cfg := feishuConfig(t, fake.URL, t.TempDir())
	_, base, stop := startServe(t, cfg)
	defer stop()
	if code, rd := readyz(t, base); code != http.StatusOK || rd.Status != app.StatusReady {
		t.Fatalf("before: %d %+v", code, rd)
	}
	for i := range 3 {
		plain, err := feishutest.GroupEvent(feishuFixtures, fmt.Sprintf("ev-wrong-%d", i), fmt.Sprintf("om_wrong_%d", i), "哪家有4090")
		if err != nil {
			t.Fatal(err)
		}
		plain = bytes.ReplaceAll(plain, []byte(verifyToken), []byte("a-token-from-another-app"))
		body, hdr := feishutest.Seal(plain, encryptKey, time.Now())
		req, _ := http.NewRequest(http.MethodPost, base+"/feishu/events", bytes.NewReader(body))
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("event %d: %d, want 401", i, resp.StatusCode)
		}
	}
	code, rd := readyz(t, base)
	if code != http.StatusOK || rd.Status != app.StatusDegraded || strings.Join(rd.Degraded, ",") != "channel feishu callback" ||
		!strings.Contains(failing(rd), "FEISHU_VERIFICATION_TOKEN must be the app's Verification Token") {
		t.Errorf("/readyz: %d %+v", code, rd)
	}
	m := get(t, base+"/metrics")
	for _, want := range []string{`labgpu_callback_rejected_total{reason="token"} 3`, `labgpu_callback_rejected_total{reason="signature"} 0`,
		`labgpu_ready_check{check="channel feishu callback"} 0`, "labgpu_degraded 1", `labgpu_build_info{goversion="go1.`} {
		if !strings.Contains(m, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, grep(m, "labgpu_"))
		}
	}
}

// TestReadyzLongConnection: in websocket mode the replica is not ready
// while the long connection cannot connect (here the open platform has
// no long-connection endpoint, as with a FEISHU_BASE_URL that is not the
// open platform), and /readyz says why.
func TestReadyzLongConnection(t *testing.T) {
	needShared(t, feishuFixtures)
	fake := newFakeFeishu(t)
	cfg := feishuConfig(t, fake.URL, t.TempDir())
	cfg.Feishu.Mode = "websocket"
	_, base, stop := startServe(t, cfg)
	defer stop()
	waitFor(t, "not ready, naming the long connection", func() bool {
		code, rd := readyz(t, base)
		return code == http.StatusServiceUnavailable && rd.Status == app.StatusNotReady &&
			strings.Contains(failing(rd), "channel feishu: the long connection is down") && strings.Contains(failing(rd), "FEISHU_BASE_URL must be the open platform")
	})
}
