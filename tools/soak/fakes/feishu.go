package fakes

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The Feishu app the fixtures describe (testdata/feishu/README.md).
const (
	AppID     = "cli_a5f0c1d2e3b4c5d6"
	TenantKey = "2ca1d211f64f6438"
)

// Post is one call the fake Feishu open platform received that sends or
// changes a message.
type Post struct {
	At     time.Time
	Kind   string // "create", "reply" or "patch"
	Target string // the message replied to or patched
	ChatID string
	UUID   string
	Type   string
	Text   string // content JSON
	// MessageID is the id the fake gave the message (for a repeat, the
	// first one's).
	MessageID string
	// Repeat: the uuid was seen before, so Feishu delivered nothing new
	// (it sends at most one message per uuid within an hour).
	Repeat bool
}

// Feishu is a loopback Feishu open platform: tenant token, bot info,
// message create, reply and patch, with Feishu's uuid deduplication. It
// answers token and bot info from testdata/feishu.
type Feishu struct {
	srv   *http.Server
	ln    net.Listener
	URL   string
	token []byte
	info  []byte

	mu     sync.Mutex
	posts  []Post
	byUUID map[string]string // uuid → message id
	chatOf map[string]string // message id → chat id
	seq    int
	onPost func(Post)
}

// NewFeishu starts the fake on a loopback port, answering from the
// recordings in fixtures (testdata/feishu).
func NewFeishu(fixtures string) (*Feishu, error) { return NewFeishuAt(fixtures, "127.0.0.1:0") }

// NewFeishuAt is NewFeishu listening on addr ("host:port").
func NewFeishuAt(fixtures, addr string) (*Feishu, error) {
	tok, err := os.ReadFile(filepath.Join(fixtures, "resp_tenant_access_token_internal.json"))
	if err != nil {
		return nil, err
	}
	info, err := os.ReadFile(filepath.Join(fixtures, "resp_bot_v3_info.json"))
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	f := &Feishu{ln: ln, URL: "http://" + ln.Addr().String(), token: tok, info: info,
		byUUID: map[string]string{}, chatOf: map[string]string{}}
	f.srv = &http.Server{Handler: http.HandlerFunc(f.serve), ReadHeaderTimeout: 5 * time.Second}
	go f.srv.Serve(ln)
	return f, nil
}

// Close stops the fake.
func (f *Feishu) Close() { f.srv.Close() }

// NoteChat tells the fake which chat a user's message is in, so that
// replies to it are counted in that chat.
func (f *Feishu) NoteChat(messageID, chatID string) {
	f.mu.Lock()
	f.chatOf[messageID] = chatID
	f.mu.Unlock()
}

// OnPost calls fn with each message call from now on, once it is
// recorded (on the request's goroutine, before it is answered).
func (f *Feishu) OnPost(fn func(Post)) {
	f.mu.Lock()
	f.onPost = fn
	f.mu.Unlock()
}

// Posts returns the calls received so far, in order.
func (f *Feishu) Posts() []Post {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Post(nil), f.posts...)
}

func (f *Feishu) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	const msgs = "/open-apis/im/v1/messages"
	switch {
	case r.URL.Path == "/open-apis/auth/v3/tenant_access_token/internal":
		w.Write(f.token)
		return
	case r.URL.Path == "/open-apis/bot/v3/info":
		w.Write(f.info)
		return
	case r.URL.Path != msgs && !strings.HasPrefix(r.URL.Path, msgs+"/"):
		http.NotFound(w, r)
		return
	}
	var body struct {
		ReceiveID string `json:"receive_id"`
		MsgType   string `json:"msg_type"`
		Content   string `json:"content"`
		UUID      string `json:"uuid"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"code":9499,"msg":"bad body"}`)
		return
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, msgs), "/")
	p := Post{At: time.Now(), UUID: body.UUID, Type: body.MsgType, Text: body.Content}
	switch {
	case r.Method == http.MethodPost && rest == "":
		p.Kind, p.ChatID = "create", body.ReceiveID
	case r.Method == http.MethodPost && strings.HasSuffix(rest, "/reply"):
		p.Kind, p.Target = "reply", strings.TrimSuffix(rest, "/reply")
	case r.Method == http.MethodPatch && rest != "" && !strings.Contains(rest, "/"):
		p.Kind, p.Target = "patch", rest
	default:
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	if p.ChatID == "" {
		p.ChatID = f.chatOf[p.Target]
	}
	if p.Kind == "patch" {
		p.MessageID = p.Target
	} else if id, ok := f.byUUID[p.UUID]; ok && p.UUID != "" {
		p.MessageID, p.Repeat = id, true
	} else {
		f.seq++
		p.MessageID = fmt.Sprintf("om_soakbot_%06d", f.seq)
		if p.UUID != "" {
			f.byUUID[p.UUID] = p.MessageID
		}
		f.chatOf[p.MessageID] = p.ChatID
	}
	f.posts = append(f.posts, p)
	notify := f.onPost
	f.mu.Unlock()
	if notify != nil {
		notify(p)
	}
	out, _ := json.Marshal(map[string]any{"code": 0, "msg": "success", "data": map[string]any{
		"message_id": p.MessageID, "chat_id": p.ChatID, "msg_type": p.Type,
		"create_time": fmt.Sprint(p.At.UnixMilli()), "update_time": fmt.Sprint(p.At.UnixMilli()),
		"sender": map[string]any{"id": AppID, "id_type": "app_id", "sender_type": "app", "tenant_key": TenantKey},
	}})
	w.Write(out)
}
