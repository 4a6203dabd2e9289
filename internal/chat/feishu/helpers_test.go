package feishu_test

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
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/claim"
	"github.com/labgpu/bot/internal/chat/feishu"
	"github.com/labgpu/bot/internal/fixture"
)

// Constants of the fixtures (testdata/feishu/README.md).
const (
	encryptKey   = "labbot-encrypt-key-0001"
	verifyToken  = "labbot-verify-token-0001"
	appID        = "cli_a5f0c1d2e3b4c5d6"
	appSecret    = "test-app-secret-do-not-log"
	botOpenID    = "ou_b07a1c2d3e4f5a6b7c8d9e0f1a2b3c4d"
	groupChat    = "oc_5ad11d72b830411d72b836c20ad11d72"
	p2pChat      = "oc_e1f2a3b4c5d6e7f8091a2b3c4d5e6f70"
	humanOpenID  = "ou_84aad35d084aa403a838cf73ee18467d"
	aliceOpenID  = "ou_3f1e8d2c7b6a5f4e3d2c1b0a9f8e7d6c"
	groupEventID = "5e3702a84e847582be8db7fb73283c02"
	groupMsgID   = "om_5ce6d572455d361153b7cb51da133945"
)

// fixtureDir returns the fixture directory (testdata/feishu of the
// repository); the test fails without it.
func fixtureDir(tb testing.TB) string {
	tb.Helper()
	dir := fixture.Dir(fixture.Feishu)
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		tb.Fatalf("Feishu fixtures missing at %s: %v", dir, err)
	}
	return dir
}

func readFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir(tb), name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// event loads a plaintext event fixture as a map, for editing.
func event(tb testing.TB, name string) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(readFixture(tb, name), &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

func sub(m map[string]any, key string) map[string]any { return m[key].(map[string]any) }

// groupEvent is the fixture's group message with fresh ids and times;
// text replaces the content when not empty, mentions the mention list
// when not nil.
func groupEvent(tb testing.TB, eventID, msgID, text string, mentions []any) map[string]any {
	ev := event(tb, "event_im_message_receive_group_at_bot.json")
	setIDs(ev, eventID, msgID, time.Now())
	msg := sub(sub(ev, "event"), "message")
	if text != "" {
		msg["content"] = mustJSON(map[string]string{"text": text})
	}
	if mentions != nil {
		msg["mentions"] = mentions
	}
	return ev
}

func p2pEvent(tb testing.TB, eventID, msgID, text string) map[string]any {
	ev := event(tb, "event_im_message_receive_p2p.json")
	setIDs(ev, eventID, msgID, time.Now())
	if text != "" {
		sub(sub(ev, "event"), "message")["content"] = mustJSON(map[string]string{"text": text})
	}
	return ev
}

func setIDs(ev map[string]any, eventID, msgID string, created time.Time) {
	sub(ev, "header")["event_id"] = eventID
	sub(ev, "header")["create_time"] = strconv.FormatInt(created.UnixMilli(), 10)
	msg := sub(sub(ev, "event"), "message")
	msg["message_id"] = msgID
	msg["create_time"] = strconv.FormatInt(created.UnixMilli(), 10)
}

func mention(key, openID, name string) map[string]any {
	return map[string]any{"key": key, "id": map[string]any{"open_id": openID, "union_id": "", "user_id": ""},
		"name": name, "tenant_key": "2ca1d211f64f6438"}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// encrypt encrypts plain the way Feishu does (§1a): AES-256-CBC with key
// sha256(encryptKey), a random IV prepended, PKCS7 padding, base64; the
// body is {"encrypt": "..."}.
func encrypt(plain []byte, key string) []byte {
	k := sha256.Sum256([]byte(key))
	block, err := aes.NewCipher(k[:])
	if err != nil {
		panic(err)
	}
	pad := aes.BlockSize - len(plain)%aes.BlockSize
	buf := make([]byte, aes.BlockSize+len(plain)+pad)
	iv := buf[:aes.BlockSize]
	if _, err := rand.Read(iv); err != nil {
		panic(err)
	}
	copy(buf[aes.BlockSize:], plain)
	for i := len(buf) - pad; i < len(buf); i++ {
		buf[i] = byte(pad)
	}
	cipher.NewCBCEncrypter(block, iv).CryptBlocks(buf[aes.BlockSize:], buf[aes.BlockSize:])
	return []byte(`{"encrypt":"` + base64.StdEncoding.EncodeToString(buf) + `"}`)
}

// sign is X-Lark-Signature: hex(sha256(timestamp + nonce + encryptKey + body)).
func sign(ts, nonce, key string, body []byte) string {
	h := sha256.New()
	h.Write([]byte(ts + nonce + key))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// delivery is one callback request.
type delivery struct {
	method string
	body   []byte
	header http.Header
}

// sealed encrypts and signs ev (a map or raw JSON) with a timestamp at ts.
func sealed(ev any, ts time.Time) delivery {
	var plain []byte
	switch v := ev.(type) {
	case []byte:
		var buf bytes.Buffer
		_ = json.Compact(&buf, v)
		plain = buf.Bytes()
	default:
		plain = []byte(mustJSON(v))
	}
	body := encrypt(plain, encryptKey)
	return signedDelivery(body, ts, encryptKey)
}

func signedDelivery(body []byte, ts time.Time, key string) delivery {
	var nb [8]byte
	_, _ = rand.Read(nb[:])
	nonce := hex.EncodeToString(nb[:])
	tss := strconv.FormatInt(ts.Unix(), 10)
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Lark-Request-Timestamp", tss)
	h.Set("X-Lark-Request-Nonce", nonce)
	h.Set("X-Lark-Signature", sign(tss, nonce, key, body))
	return delivery{method: http.MethodPost, body: body, header: h}
}

// plainDelivery is an unencrypted, unsigned request with a timestamp.
func plainDelivery(ev any, ts time.Time) delivery {
	body := []byte(mustJSON(ev))
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	if !ts.IsZero() {
		h.Set("X-Lark-Request-Timestamp", strconv.FormatInt(ts.Unix(), 10))
		h.Set("X-Lark-Request-Nonce", "n1")
	}
	return delivery{method: http.MethodPost, body: body, header: h}
}

func deliver(h http.Handler, d delivery) *httptest.ResponseRecorder {
	method, unknownLength := d.method, false
	switch method {
	case "":
		method = http.MethodPost
	case "POST-chunked":
		method, unknownLength = http.MethodPost, true
	}
	req := httptest.NewRequest(method, "/feishu/events", bytes.NewReader(d.body))
	if unknownLength {
		req.ContentLength = -1
	}
	for k, vs := range d.header {
		req.Header[k] = vs
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// sent is one message request the fake open platform received.
type sent struct {
	Path          string
	ReceiveIDType string
	Auth          string
	ReceiveID     string `json:"receive_id"`
	MsgType       string `json:"msg_type"`
	Content       string `json:"content"`
	UUID          string `json:"uuid"`
}

// text decodes a text message's content.
func (s sent) text(tb testing.TB) string {
	tb.Helper()
	var c struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal([]byte(s.Content), &c); err != nil {
		tb.Fatalf("content %q is not JSON: %v", s.Content, err)
	}
	return c.Text
}

type reply struct {
	status int
	body   string
	header http.Header // extra response headers, if any
}

// fake is a fake Feishu open platform on 127.0.0.1.
type fake struct {
	tb  testing.TB
	srv *httptest.Server

	mu          sync.Mutex
	sent        []sent
	tokenCalls  int
	infoCalls   int
	validToken  string
	script      []reply // answers to message requests, in order
	infoReply   *reply
	wsReply     *reply
	fixtureResp map[string][]byte
	refusePatch bool // PATCH answers 400
	// slow delays every message request: before the message is created
	// (a client that gives up first leaves none), or after it when
	// slowAfter (the message exists, the answer is late or lost).
	slow      time.Duration
	slowAfter bool
	// uuids, when set, makes a repeated uuid create no second message
	// (Feishu: at most one message per uuid within an hour).
	uuids map[string]bool
}

func newFake(tb testing.TB) *fake {
	f := &fake{tb: tb, fixtureResp: map[string][]byte{}}
	for _, n := range []string{"resp_tenant_access_token_internal.json", "resp_bot_v3_info.json",
		"resp_im_v1_messages_create.json", "resp_im_v1_messages_reply.json", "resp_error_tenant_token_invalid.json"} {
		f.fixtureResp[n] = readFixture(tb, n)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /open-apis/auth/v3/tenant_access_token/internal", f.token)
	mux.HandleFunc("GET /open-apis/bot/v3/info", f.info)
	mux.HandleFunc("POST /open-apis/im/v1/messages", f.message)
	mux.HandleFunc("POST /open-apis/im/v1/messages/{id}/reply", f.message)
	mux.HandleFunc("PATCH /open-apis/im/v1/messages/{id}", f.patch)
	mux.HandleFunc("POST /callback/ws/endpoint", f.ws)
	f.srv = httptest.NewServer(mux)
	tb.Cleanup(f.srv.Close)
	return f
}

func writeResp(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func (f *fake) token(w http.ResponseWriter, r *http.Request) {
	var req struct {
		AppID     string `json:"app_id"`
		AppSecret string `json:"app_secret"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	if req.AppID != appID || req.AppSecret != appSecret {
		writeResp(w, 400, []byte(`{"code":10014,"msg":"app secret invalid"}`))
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokenCalls++
	var m map[string]any
	_ = json.Unmarshal(f.fixtureResp["resp_tenant_access_token_internal.json"], &m)
	tok := fmt.Sprintf("%s-%d", m["tenant_access_token"], f.tokenCalls)
	m["tenant_access_token"] = tok
	f.validToken = tok
	writeResp(w, 200, []byte(mustJSON(m)))
}

func (f *fake) authOK(r *http.Request) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.validToken != "" && r.Header.Get("Authorization") == "Bearer "+f.validToken
}

func (f *fake) info(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.infoCalls++
	ir := f.infoReply
	f.mu.Unlock()
	if ir != nil {
		writeResp(w, ir.status, []byte(ir.body))
		return
	}
	if !f.authOK(r) {
		writeResp(w, 400, f.fixtureResp["resp_error_tenant_token_invalid.json"])
		return
	}
	writeResp(w, 200, f.fixtureResp["resp_bot_v3_info.json"])
}

// wait is the fake's slowness: false when the client gave up first.
func (f *fake) wait(r *http.Request, after bool) bool {
	f.mu.Lock()
	d, a := f.slow, f.slowAfter
	f.mu.Unlock()
	if d <= 0 || a != after {
		return true
	}
	select {
	case <-time.After(d):
		return true
	case <-r.Context().Done():
		return false
	}
}

func (f *fake) message(w http.ResponseWriter, r *http.Request) {
	var s sent
	body, _ := io.ReadAll(r.Body) // read first: the server then sees a client that gives up
	if !f.wait(r, false) {
		return
	}
	defer f.wait(r, true)
	if err := json.Unmarshal(body, &s); err != nil {
		writeResp(w, 400, []byte(`{"code":9499,"msg":"bad json"}`))
		return
	}
	s.Path = r.URL.Path
	s.ReceiveIDType = r.URL.Query().Get("receive_id_type")
	s.Auth = r.Header.Get("Authorization")
	ok := f.authOK(r)
	f.mu.Lock()
	switch {
	case f.uuids == nil:
		f.sent = append(f.sent, s) // every attempt
	case ok && (s.UUID == "" || !f.uuids[s.UUID]):
		f.sent = append(f.sent, s) // as Feishu: messages created, once per uuid
		f.uuids[s.UUID] = true
	}
	var next *reply
	if ok && len(f.script) > 0 {
		next = &f.script[0]
		f.script = f.script[1:]
	}
	f.mu.Unlock()
	switch {
	case !ok:
		writeResp(w, 400, f.fixtureResp["resp_error_tenant_token_invalid.json"])
	case next != nil:
		for k, v := range next.header {
			w.Header()[k] = v
		}
		writeResp(w, next.status, []byte(next.body))
	case !json.Valid([]byte(s.Content)):
		writeResp(w, 400, []byte(`{"code":230001,"msg":"invalid content"}`))
	case strings.HasSuffix(s.Path, "/reply"):
		writeResp(w, 200, f.fixtureResp["resp_im_v1_messages_reply.json"])
	default:
		writeResp(w, 200, f.fixtureResp["resp_im_v1_messages_create.json"])
	}
}

// patch records a card update (PATCH /open-apis/im/v1/messages/{id}) as
// a sent entry whose Path names the message and MsgType is "patch".
func (f *fake) patch(w http.ResponseWriter, r *http.Request) {
	var s sent
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &s); err != nil || !json.Valid([]byte(s.Content)) {
		writeResp(w, 400, []byte(`{"code":230001,"msg":"invalid content"}`))
		return
	}
	s.Path, s.MsgType, s.Auth = r.URL.Path, "patch", r.Header.Get("Authorization")
	if !f.authOK(r) {
		writeResp(w, 400, f.fixtureResp["resp_error_tenant_token_invalid.json"])
		return
	}
	f.mu.Lock()
	f.sent = append(f.sent, s)
	refuse := f.refusePatch
	f.mu.Unlock()
	if refuse {
		writeResp(w, 400, []byte(`{"code":230031,"msg":"the card cannot be updated"}`))
		return
	}
	writeResp(w, 200, []byte(`{"code":0,"msg":"success","data":{}}`))
}

func (f *fake) ws(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	wr := f.wsReply
	f.mu.Unlock()
	if wr == nil {
		wr = &reply{status: 200, body: `{"code":1000040345,"msg":"app not allowed to use long connection"}`}
	}
	writeResp(w, wr.status, []byte(wr.body))
}

func (f *fake) messages() []sent {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sent(nil), f.sent...)
}

func (f *fake) setScript(rs ...reply) {
	f.mu.Lock()
	f.script = rs
	f.mu.Unlock()
}

// revoke makes the current token invalid, as if it had expired early.
func (f *fake) revoke() {
	f.mu.Lock()
	f.validToken = "revoked"
	f.mu.Unlock()
}

// recHandler records the messages it is asked and echoes them.
type recHandler struct {
	mu    sync.Mutex
	msgs  []chat.Message
	reply func(chat.Message) chat.Reply
	gate  chan struct{} // when set, Handle waits on it
	got   chan struct{} // when set, Handle signals each call
}

func (h *recHandler) Handle(ctx context.Context, m chat.Message) chat.Reply {
	h.mu.Lock()
	h.msgs = append(h.msgs, m)
	h.mu.Unlock()
	if h.got != nil {
		h.got <- struct{}{}
	}
	if h.gate != nil {
		select {
		case <-h.gate:
		case <-ctx.Done():
		}
	}
	if h.reply != nil {
		return h.reply(m)
	}
	return chat.Reply{Lines: []string{"echo: " + m.Text}}
}

func (h *recHandler) texts() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, m := range h.msgs {
		out = append(out, m.Text)
	}
	return out
}

func (h *recHandler) messages() []chat.Message {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]chat.Message(nil), h.msgs...)
}

// syncBuffer collects logs from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newDeduper is a claim.StoreDeduper over st for a test, quiet, replica
// "test" unless opts says otherwise, closed when the test ends.
func newDeduper(t *testing.T, st feishu.Deduper, opts claim.StoreDeduperOptions) *claim.StoreDeduper {
	t.Helper()
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Replica == "" {
		opts.Replica = "test"
	}
	d := claim.NewStoreDeduper(st, opts)
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// baseOptions are options for a webhook bot against f.
func baseOptions(f *fake, h chat.Handler, logs io.Writer) feishu.Options {
	if logs == nil {
		logs = io.Discard
	}
	return feishu.Options{
		AppID: appID, AppSecret: appSecret,
		VerificationToken: verifyToken, EncryptKey: encryptKey,
		BaseURL:     f.srv.URL,
		Mode:        feishu.ModeWebhook,
		Handler:     h,
		Dedup:       claim.NewMemoryDeduper(),
		Log:         slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		RatePerChat: rate.Inf,
	}
}

// newBot starts a bot against f; it is closed at cleanup.
func newBot(tb testing.TB, opts feishu.Options) *feishu.Bot {
	tb.Helper()
	b, err := feishu.New(context.Background(), opts)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	tb.Cleanup(func() { _ = b.Close() })
	return b
}
