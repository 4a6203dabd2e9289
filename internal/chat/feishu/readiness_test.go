package feishu_test

import (
	"bufio"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat/feishu"
)

// wsServer is a websocket endpoint that only shakes hands and then holds
// the connection (what the long connection needs to count as up), until
// drop closes it.
type wsServer struct {
	*httptest.Server
	mu    sync.Mutex
	conns []net.Conn
}

func newWSServer(t *testing.T) *wsServer {
	s := &wsServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sum := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
		conn, rw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		rw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " +
			base64.StdEncoding.EncodeToString(sum[:]) + "\r\n\r\n")
		rw.Flush()
		s.mu.Lock()
		s.conns = append(s.conns, conn)
		s.mu.Unlock()
		go func() { _, _ = bufio.NewReader(conn).WriteTo(discard{}) }()
	}))
	t.Cleanup(func() { s.drop(); s.Close() })
	return s
}

// drop closes every connection the server holds.
func (s *wsServer) drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.Close()
	}
	s.conns = nil
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
	}
}

// TestLongConnectionReadiness: in websocket mode the bot is ready only
// while the long connection is up: not before it connects, not while the
// open platform gives no address ("endpoint is null", the case a fake
// FEISHU_BASE_URL gives), not after it dropped, and not when the SDK gave
// up on a refused app; each time the reason names the likely cause. The
// connection's URL, which carries a ticket, is never logged.
func TestLongConnectionReadiness(t *testing.T) {
	cases := []struct {
		name   string
		answer func(ws *wsServer) string
		want   string
	}{
		{"endpoint is null", func(*wsServer) string { return `{"code":0,"msg":"ok","data":{}}` },
			"endpoint is null; likely cause: the open platform gave no connection address: FEISHU_BASE_URL must be the open platform"},
		{"app refused", func(*wsServer) string { return `{"code":1000040345,"msg":"app not allowed to use long connection"}` },
			"gave up: 1000040345: app not allowed to use long connection; likely cause: the open platform refused the app"},
		{"connected, then dropped", func(ws *wsServer) string {
			return `{"code":0,"msg":"ok","data":{"URL":"` + strings.Replace(ws.URL, "http://", "ws://", 1) + `/ws?device_id=d1&service_id=1&ticket=TICKET-SECRET"}}`
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			ws := newWSServer(t)
			f.mu.Lock()
			f.wsReply = &reply{status: 200, body: c.answer(ws)}
			f.mu.Unlock()
			var logs syncBuffer
			opts := baseOptions(f, &recHandler{}, &logs)
			opts.Mode = feishu.ModeWebsocket
			b := newBot(t, opts)
			if err := b.Ready(); err == nil || !strings.Contains(err.Error(), "not connected yet") {
				t.Errorf("before connecting: Ready() = %v", err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go b.RunWebsocket(ctx)
			if c.want != "" {
				waitFor(t, "the failure in Ready", func() bool { err := b.Ready(); return err != nil && strings.Contains(err.Error(), c.want) })
				return
			}
			waitFor(t, "connected", func() bool { return b.Ready() == nil })
			ws.drop()
			waitFor(t, "down after the drop", func() bool {
				err := b.Ready()
				return err != nil && strings.Contains(err.Error(), "long connection is down") && strings.Contains(err.Error(), "dropped")
			})
			if strings.Contains(logs.String(), "TICKET-SECRET") || !strings.Contains(logs.String(), "long connection up") {
				t.Errorf("logs (no ticket, the connection's line):\n%s", logs.String())
			}
		})
	}
}

// TestCallbackRejections: requests the callback refuses for a wrong
// verification token, a bad signature, another Encrypt Key or none are
// counted by reason; three in a row with none accepted make the callback
// degraded, naming the likely cause; the log says it once a minute; an
// accepted event ends it.
func TestCallbackRejections(t *testing.T) {
	var now atomic.Pointer[time.Time]
	start := time.Now()
	now.Store(&start)
	clock := func() time.Time { return *now.Load() }
	advance := func(d time.Duration) { t := clock().Add(d); now.Store(&t) }
	wrongToken := func(id string) delivery {
		ev := p2pEvent(t, id, "om_"+id, "hi")
		sub(ev, "header")["token"] = "not-the-token"
		return sealed(ev, clock())
	}
	badSignature := func(id string) delivery {
		d := sealed(p2pEvent(t, id, "om_"+id, "hi"), clock())
		d.header.Set("X-Lark-Signature", "0000")
		return d
	}
	otherKey := func(id string) delivery {
		body := encrypt([]byte(mustJSON(p2pEvent(t, id, "om_"+id, "hi"))), "another-encrypt-key")
		return signedDelivery(body, clock(), "another-encrypt-key")
	}
	notEncrypted := func(id string) delivery { return plainDelivery(p2pEvent(t, id, "om_"+id, "hi"), clock()) }
	cases := []struct {
		name, reason, cause string
		make                func(id string) delivery
	}{
		{"wrong token", feishu.RejectToken, "FEISHU_VERIFICATION_TOKEN must be the app's Verification Token", wrongToken},
		{"bad signature", feishu.RejectSignature, "the signature does not match", badSignature},
		{"another Encrypt Key", feishu.RejectEncryptKey, "FEISHU_ENCRYPT_KEY is not the app's Encrypt Key", otherKey},
		{"not encrypted", feishu.RejectNotEncrypted, "events arrive unencrypted while FEISHU_ENCRYPT_KEY is set", notEncrypted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			var logs syncBuffer
			opts := baseOptions(f, &recHandler{}, &logs)
			opts.Now = clock
			b := newBot(t, opts)
			h := b.HTTPHandler()
			for i := range 5 {
				if rec := deliver(h, c.make(c.name+string(rune('a'+i)))); rec.Code != http.StatusUnauthorized {
					t.Fatalf("delivery %d: %d, want 401", i, rec.Code)
				}
				if i == 1 {
					if err := b.Degraded(); err != nil {
						t.Errorf("degraded after two refusals: %v", err)
					}
				}
				advance(time.Second)
			}
			err := b.Degraded()
			if err == nil || !strings.Contains(err.Error(), "refused 5 requests") || !strings.Contains(err.Error(), c.cause) {
				t.Errorf("Degraded() = %v, want 5 refusals and %q", err, c.cause)
			}
			if got := b.Rejections()[c.reason]; got != 5 {
				t.Errorf("Rejections()[%s] = %d, want 5 (%v)", c.reason, got, b.Rejections())
			}
			if n := strings.Count(logs.String(), "refusing events; likely cause: "); n != 1 || !strings.Contains(logs.String(), c.cause) {
				t.Errorf("%d log lines in 5 s, want 1 naming %q:\n%s", n, c.cause, logs.String())
			}
			for _, l := range strings.Split(logs.String(), "\n") {
				if strings.Contains(l, "level=WARN") && strings.Contains(l, "component=lark-sdk") {
					t.Errorf("the SDK's own words were logged as a warning: %s", l)
				}
			}
			advance(time.Minute)
			deliver(h, c.make(c.name+"z"))
			if n := strings.Count(logs.String(), "refusing events; likely cause"); n != 2 {
				t.Errorf("%d log lines after a minute, want 2", n)
			}
			// An accepted event: the callback works again.
			if rec := deliver(h, sealed(p2pEvent(t, c.name+"ok", "om_"+c.name+"ok", "hi"), clock())); rec.Code != http.StatusOK {
				t.Fatalf("a good event: %d", rec.Code)
			}
			if err := b.Degraded(); err != nil {
				t.Errorf("degraded after a good event: %v", err)
			}
		})
	}
}
