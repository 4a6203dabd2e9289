package fakes

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/webhook"
)

// TestWeComTakesTheBotsSender: the bot's own WeCom sender delivers a
// text, a table (as markdown) and a chart image to the fake.
func TestWeComTakesTheBotsSender(t *testing.T) {
	w, err := NewWeCom("127.0.0.1:0", "k1")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var mu sync.Mutex
	var seen []string
	w.OnPost(func(p WeComPost) {
		mu.Lock()
		seen = append(seen, p.MsgType)
		mu.Unlock()
	})
	png := func(*chat.BarChart) ([]byte, error) { return []byte("\x89PNG fake"), nil }
	hook, err := webhook.NewWeCom(w.URL, webhook.WithRetry(1, 0), webhook.WithChartPNG(png))
	if err != nil {
		t.Fatal(err)
	}
	replies := []chat.Reply{
		{Lines: []string{"hello"}},
		{Title: "t", Table: &chat.Table{Header: []string{"a", "b"}, Rows: [][]string{{"1", "2"}}},
			Chart: &chat.BarChart{Title: "c", Labels: []string{"x"}, Values: []float64{1}}},
	}
	for _, r := range replies {
		if err := hook.Send(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	posts := w.Posts()
	mu.Lock()
	got := strings.Join(seen, ",")
	mu.Unlock()
	if got != "text,markdown,image" || len(posts) != 3 {
		t.Fatalf("posts %+v (seen %s); want text, markdown, image", posts, got)
	}
	if posts[0].Content != "hello" || !strings.Contains(posts[1].Content, "**1**") || posts[2].ImageBytes != 9 {
		t.Errorf("posts %+v", posts)
	}
}

// TestWeComRefuses: the robot's answers to a wrong key, a bad message
// and a 21st message in a minute.
func TestWeComRefuses(t *testing.T) {
	w, err := NewWeCom("127.0.0.1:0", "k1")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	good := `{"msgtype":"text","text":{"content":"x"}}`
	steps := []struct {
		url, body string
		code      int
	}{
		{strings.Replace(w.URL, "k1", "k2", 1), good, weComInvalidKey},
		{w.URL, `{"msgtype":"voice","voice":{}}`, weComBadType},
		{w.URL, `{"msgtype":"text","text":{"content":""}}`, weComEmpty},
		{w.URL, `{"msgtype":"image","image":{"base64":"!!"}}`, weComEmpty},
		{w.URL, `not json`, weComBadType},
	}
	for range weComPerMinute {
		steps = append(steps, struct {
			url, body string
			code      int
		}{w.URL, good, 0})
	}
	steps = append(steps, struct {
		url, body string
		code      int
	}{w.URL, good, weComRateLimit})
	for i, st := range steps {
		resp, err := http.Post(st.url, "application/json", strings.NewReader(st.body))
		if err != nil {
			t.Fatal(err)
		}
		var a struct {
			ErrCode int `json:"errcode"`
		}
		err = json.NewDecoder(resp.Body).Decode(&a)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || a.ErrCode != st.code {
			t.Errorf("step %d: HTTP %d errcode %d (%v); want 200 errcode %d", i, resp.StatusCode, a.ErrCode, err, st.code)
		}
	}
	if n := len(w.Posts()); n != weComPerMinute {
		t.Errorf("%d posts kept, want %d", n, weComPerMinute)
	}
}
