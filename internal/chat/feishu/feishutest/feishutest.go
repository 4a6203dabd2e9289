// Package feishutest helps test code that talks to Feishu: a fake open
// platform on loopback and events encrypted and signed as Feishu sends them.
package feishutest

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	larkcore "github.com/larksuite/oapi-sdk-go/v3/core"
	"github.com/larksuite/oapi-sdk-go/v3/core/httpserverext"
	larkevent "github.com/larksuite/oapi-sdk-go/v3/event"
	"github.com/larksuite/oapi-sdk-go/v3/event/dispatcher"
	larkim "github.com/larksuite/oapi-sdk-go/v3/service/im/v1"
)

// Sent is one message the fake received.
type Sent struct {
	// Path is the request path (…/messages, …/messages/<id>/reply, or
	// …/messages/<id> for a card updated in place).
	Path    string
	ChatID  string
	MsgType string
	// Content is the message content JSON string.
	Content string
	// UUID is the request's idempotency uuid ("" when it had none).
	UUID string
	// Method is the HTTP method: POST (sent) or PATCH (updated).
	Method string
	// At is when the fake received it.
	At time.Time
	// MessageID is the message_id the fake gave a sent message (each one
	// its own, "om_fake_<n>"), or the one a PATCH updated.
	MessageID string
}

// Server is a fake Feishu open platform: tenant token, bot info, message
// create and reply, answered from the fixtures in a directory
// (testdata/feishu of the repository).
type Server struct {
	*httptest.Server
	mu   sync.Mutex
	sent []Sent
	// Opt-in behaviours of the real open platform (SetSlow, DedupUUID,
	// LoseAnswers).
	slow  time.Duration
	uuids map[string]bool
	lose  int
	ids   int
}

// SetSlow makes every message request wait d before its message is
// created; a client that gives up first creates none.
func (s *Server) SetSlow(d time.Duration) {
	s.mu.Lock()
	s.slow = d
	s.mu.Unlock()
}

// DedupUUID makes a request whose uuid created a message create no
// second one (it still succeeds), as Feishu does within an hour.
func (s *Server) DedupUUID() {
	s.mu.Lock()
	s.uuids = map[string]bool{}
	s.mu.Unlock()
}

// LoseAnswers makes the next n message requests create their message
// and answer HTTP 502, as when the answer is lost on its way back.
func (s *Server) LoseAnswers(n int) {
	s.mu.Lock()
	s.lose = n
	s.mu.Unlock()
}

// message records one message request (its message id given: its own
// for a sent one, the updated one's for a PATCH) and says whether to
// answer it as lost; false for created when the client gave up while it
// was slow.
func (s *Server) message(r *http.Request, m Sent) (_ Sent, created, lost bool) {
	s.mu.Lock()
	slow := s.slow
	s.mu.Unlock()
	if slow > 0 {
		// Read to the end: the server then sees a client that gives up.
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-time.After(slow):
		case <-r.Context().Done():
			return m, false, false
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Method == http.MethodPatch {
		m.MessageID = strings.TrimPrefix(r.URL.Path, "/open-apis/im/v1/messages/")
	} else {
		s.ids++
		m.MessageID = "om_fake_" + strconv.Itoa(s.ids)
	}
	if s.uuids == nil || m.UUID == "" || !s.uuids[m.UUID] {
		s.sent = append(s.sent, m)
	}
	if s.uuids != nil && m.UUID != "" {
		s.uuids[m.UUID] = true
	}
	if s.lose > 0 {
		s.lose--
		return m, true, true
	}
	return m, true, false
}

// NewServer starts the fake; fixtures is the directory of resp_*.json.
func NewServer(fixtures string) (*Server, error) {
	names := []string{"resp_tenant_access_token_internal.json", "resp_bot_v3_info.json", "resp_im_v1_messages_create.json", "resp_im_v1_messages_reply.json"}
	files := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(fixtures, n))
		if err != nil {
			return nil, err
		}
		files[n] = b
	}
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/open-apis/auth/v3/tenant_access_token/internal":
			w.Write(files[names[0]])
		case r.URL.Path == "/open-apis/bot/v3/info":
			w.Write(files[names[1]])
		case strings.HasPrefix(r.URL.Path, "/open-apis/im/v1/messages"):
			var body struct {
				ReceiveID string `json:"receive_id"`
				MsgType   string `json:"msg_type"`
				Content   string `json:"content"`
				UUID      string `json:"uuid"`
			}
			json.NewDecoder(r.Body).Decode(&body)
			sent, created, lost := s.message(r, Sent{Path: r.URL.Path, ChatID: body.ReceiveID, MsgType: body.MsgType, Content: body.Content, UUID: body.UUID,
				Method: r.Method, At: time.Now()})
			switch {
			case !created:
				return
			case lost:
				w.WriteHeader(http.StatusBadGateway)
				return
			}
			var resp []byte
			switch {
			case r.Method == http.MethodPatch:
				resp = []byte(`{"code":0,"msg":"success","data":{}}`)
			case strings.HasSuffix(r.URL.Path, "/reply"):
				resp = withMessageID(files[names[3]], sent.MessageID)
			default:
				resp = withMessageID(files[names[2]], sent.MessageID)
			}
			w.Write(resp)
		default:
			http.NotFound(w, r)
		}
	}))
	return s, nil
}

// withMessageID is a recorded send answer with data.message_id set to id.
func withMessageID(answer []byte, id string) []byte {
	var m map[string]any
	if json.Unmarshal(answer, &m) != nil {
		return answer
	}
	if d, ok := m["data"].(map[string]any); ok {
		d["message_id"] = id
	}
	b, err := json.Marshal(m)
	if err != nil {
		return answer
	}
	return b
}

// Messages returns the messages received so far.
func (s *Server) Messages() []Sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sent(nil), s.sent...)
}

// GroupEvent is the fixture group message that @mentions the bot, made
// fresh: the given ids, created now, with text after the mention.
func GroupEvent(fixtures, eventID, messageID, text string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(fixtures, "event_im_message_receive_group_at_bot.json"))
	if err != nil {
		return nil, err
	}
	var ev map[string]any
	if err := json.Unmarshal(b, &ev); err != nil {
		return nil, err
	}
	now := strconv.FormatInt(time.Now().UnixMilli(), 10)
	h := ev["header"].(map[string]any)
	h["event_id"], h["create_time"] = eventID, now
	m := ev["event"].(map[string]any)["message"].(map[string]any)
	m["message_id"], m["create_time"] = messageID, now
	content, _ := json.Marshal(map[string]string{"text": "@_user_1 " + text})
	m["content"] = string(content)
	return json.Marshal(ev)
}

// Seal encrypts and signs an event body as Feishu does: AES-256-CBC with key
// sha256(encryptKey), a random IV and PKCS7 padding, sent as
// {"encrypt": base64(iv+ciphertext)}; the signature header is
// hex(sha256(timestamp + nonce + encryptKey + body)).
func Seal(plain []byte, encryptKey string, ts time.Time) (body []byte, headers map[string]string) {
	key := sha256.Sum256([]byte(encryptKey))
	block, _ := aes.NewCipher(key[:])
	pad := aes.BlockSize - len(plain)%aes.BlockSize
	padded := append(append([]byte(nil), plain...), bytes.Repeat([]byte{byte(pad)}, pad)...)
	iv := make([]byte, aes.BlockSize)
	_, _ = rand.Read(iv)
	ct := make([]byte, len(padded))
	cipher.NewCBCEncrypter(block, iv).CryptBlocks(ct, padded)
	body, _ = json.Marshal(map[string]string{"encrypt": base64.StdEncoding.EncodeToString(append(iv, ct...))})
	stamp := strconv.FormatInt(ts.Unix(), 10)
	nonce := "n" + strconv.FormatInt(ts.UnixNano(), 36)
	sum := sha256.Sum256([]byte(stamp + nonce + encryptKey + string(body)))
	return body, map[string]string{"X-Lark-Request-Timestamp": stamp, "X-Lark-Request-Nonce": nonce,
		"X-Lark-Signature": hex.EncodeToString(sum[:]), "Content-Type": "application/json"}
}

// SDKAnchor is the callback issue 19 measures the bot's against: the
// SDK's own dispatcher.NewEventDispatcher(token, encryptKey) with
// OnP2MessageReceiveV1 behind httpserverext.NewEventHandlerFunc, its
// handler only putting the event on a queue that a goroutine drains
// (counting into handed, when set). It answers at /feishu/events, and 200
// at /healthz.
func SDKAnchor(token, encryptKey string, handed *atomic.Int64) http.Handler {
	q := make(chan *larkim.P2MessageReceiveV1, 1<<16)
	go func() {
		for range q {
			if handed != nil {
				handed.Add(1)
			}
		}
	}()
	d := dispatcher.NewEventDispatcher(token, encryptKey).OnP2MessageReceiveV1(
		func(_ context.Context, ev *larkim.P2MessageReceiveV1) error {
			q <- ev
			return nil
		})
	mux := http.NewServeMux()
	mux.HandleFunc("/feishu/events", httpserverext.NewEventHandlerFunc(d, larkevent.WithLogLevel(larkcore.LogLevelWarn)))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	return mux
}

// Delivery is one event as Feishu posts it: the body and its headers.
type Delivery struct {
	Body   []byte
	Header http.Header
}

// PostAll posts ds to url from conc goroutines over client's keep-alive
// connections, the load of the callback benchmarks, and returns the wall
// time and each delivery's latency. A failed request or a status other
// than 200 stops it with an error naming it.
func PostAll(ctx context.Context, client *http.Client, url string, conc int, ds []Delivery) (time.Duration, []time.Duration, error) {
	lat := make([]time.Duration, len(ds))
	var failed atomic.Value
	var next atomic.Int64
	var wg sync.WaitGroup
	t0 := time.Now()
	for range conc {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(ds) || ctx.Err() != nil || failed.Load() != nil {
					return
				}
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(ds[i].Body))
				req.Header = ds[i].Header
				t := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat[i] = time.Since(t)
				if resp.StatusCode != http.StatusOK {
					failed.Store(fmt.Sprintf("%s answered %d", url, resp.StatusCode))
					return
				}
			}
		})
	}
	wg.Wait()
	if msg := failed.Load(); msg != nil {
		return 0, nil, fmt.Errorf("delivery failed: %v", msg)
	}
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	return time.Since(t0), lat, nil
}
