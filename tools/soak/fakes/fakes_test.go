package fakes

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixtures is the module's testdata/.
var fixtures = filepath.Join("..", "..", "..", "testdata")

// call sends one message call to the fake Feishu and returns the
// message id it answered.
func call(t *testing.T, f *Feishu, method, path, body string) string {
	t.Helper()
	req, _ := http.NewRequest(method, f.URL+path, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Code int `json:"code"`
		Data struct {
			MessageID string `json:"message_id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Code != 0 {
		t.Fatalf("%s %s: code %d, %v", method, path, out.Code, err)
	}
	return out.Data.MessageID
}

func TestFeishuDedupByUUID(t *testing.T) {
	f, err := NewFeishu(filepath.Join(fixtures, "feishu"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.NoteChat("om_user", "oc_1")
	steps := []struct {
		method, path, body string
		want               Post // At, Type and Text not compared
	}{
		{"POST", "/open-apis/im/v1/messages/om_user/reply", `{"uuid":"u1","msg_type":"text"}`,
			Post{Kind: "reply", Target: "om_user", ChatID: "oc_1", UUID: "u1", MessageID: "om_soakbot_000001"}},
		{"POST", "/open-apis/im/v1/messages/om_user/reply", `{"uuid":"u1","msg_type":"text"}`,
			Post{Kind: "reply", Target: "om_user", ChatID: "oc_1", UUID: "u1", MessageID: "om_soakbot_000001", Repeat: true}},
		{"POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", `{"receive_id":"oc_2","uuid":"u2","msg_type":"text"}`,
			Post{Kind: "create", ChatID: "oc_2", UUID: "u2", MessageID: "om_soakbot_000002"}},
		{"POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", `{"receive_id":"oc_2","msg_type":"text"}`,
			Post{Kind: "create", ChatID: "oc_2", MessageID: "om_soakbot_000003"}},
		{"PATCH", "/open-apis/im/v1/messages/om_soakbot_000001", `{"content":"{}"}`,
			Post{Kind: "patch", Target: "om_soakbot_000001", ChatID: "oc_1", MessageID: "om_soakbot_000001"}},
	}
	for i, st := range steps {
		if id := call(t, f, st.method, st.path, st.body); id != st.want.MessageID {
			t.Errorf("step %d: message id %q, want %q", i, id, st.want.MessageID)
		}
	}
	posts := f.Posts()
	if len(posts) != len(steps) {
		t.Fatalf("%d posts, want %d", len(posts), len(steps))
	}
	for i, p := range posts {
		p.At, p.Type, p.Text = time.Time{}, "", ""
		if p != steps[i].want {
			t.Errorf("post %d = %+v, want %+v", i, p, steps[i].want)
		}
	}
}

// stock is a fakes.Soak with fixed stock.
type stock struct {
	mu  sync.Mutex
	log []string
	in  map[string]bool
}

func (s *stock) Logf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, format)
}

func (s *stock) Stock(string) (map[string]bool, map[string]int) {
	return s.in, map[string]int{"RTX 4090": 1}
}

type replica struct{}

func (replica) StartCount() int { return 7 }

func TestPlatformModes(t *testing.T) {
	body, err := VastBody(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	s := &stock{in: map[string]bool{"RTX 4090": true}}
	p, err := NewPlatform(s, "vastai", "vast.ai", "hung", 1, body, nil, "key")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Attach([]Replica{replica{}})
	start := time.Now()
	steps := []struct {
		mode, auth string
		status     int
		has        string // in the body
	}{
		{ModeOK, "", http.StatusUnauthorized, "invalid API key"},
		{ModeOK, "key", http.StatusOK, `"RTX 4090"`},
		{Mode503, "key", http.StatusServiceUnavailable, `"status":503`},
		{Mode429, "key", http.StatusTooManyRequests, `"status":429`},
		{ModeOK, "key", http.StatusOK, `"RTX 3090"`},
	}
	for i, st := range steps {
		p.SetMode(st.mode)
		req, _ := http.NewRequest(http.MethodGet, p.URLs[0]+"/api/v0/bundles/", nil)
		if st.auth != "" {
			req.Header.Set("Authorization", "Bearer "+st.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != st.status || !bytes.Contains(b, []byte(st.has)) {
			t.Errorf("step %d (%s): HTTP %d %.80s, want %d with %s", i, st.mode, resp.StatusCode, b, st.status, st.has)
		}
	}
	st := p.Stats(start, time.Now())
	if st.Requests != 5 || st.Answered != 2 || st.Unauthorized != 1 || st.ByMode[Mode503] != 1 || st.Outages != 2 || st.MaxPerReplica != 1 {
		t.Errorf("stats %+v", st)
	}
	last := p.LastAnswers(0, 7, time.Now())[""]
	if last == nil || last.Periods["RTX 4090"] != 1 || !p.AnsweredIn("RTX 4090", 1) || p.AnsweredIn("RTX 4090", 0) {
		t.Errorf("last answer %+v: want the RTX 4090 in period 1, from start 7", last)
	}
}
