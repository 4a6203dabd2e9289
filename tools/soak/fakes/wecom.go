package fakes

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// WeComPost is one message a fake WeCom group robot accepted.
type WeComPost struct {
	At      time.Time
	MsgType string // "text", "markdown" or "image"
	// Content is a text or markdown message's content.
	Content string
	// Mentioned is a text message's mentioned_list (userids, "@all").
	Mentioned []string
	// ImageBytes is an image message's size, decoded.
	ImageBytes int
}

// WeCom robot answers (errcode, errmsg) the fake gives, as the real
// robot does (its documentation's codes).
const (
	weComInvalidKey = 93000 // the key is wrong or the robot was removed
	weComRateLimit  = 45009 // over 20 messages a minute
	weComBadType    = 40008 // an unknown msgtype
	weComEmpty      = 44004 // empty content
)

// weComPerMinute is the robot's limit: 20 messages a minute.
const weComPerMinute = 20

// WeCom is a loopback WeCom (企业微信) group robot webhook: POST
// /cgi-bin/webhook/send?key=KEY with a text, markdown or image message. It
// answers {"errcode":0,"errmsg":"ok"} to a well-formed message with the
// right key; a wrong key gets errcode 93000, a 21st message within a
// minute 45009.
type WeCom struct {
	// URL is the webhook address, key included.
	URL string
	key string
	srv *http.Server

	mu     sync.Mutex
	posts  []WeComPost
	recent []time.Time // accepted within the last minute
	onPost func(WeComPost)
}

// NewWeCom starts a robot on addr ("127.0.0.1:0": any free port) that
// accepts key.
func NewWeCom(addr, key string) (*WeCom, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	w := &WeCom{URL: "http://" + ln.Addr().String() + "/cgi-bin/webhook/send?key=" + key, key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /cgi-bin/webhook/send", w.serve)
	w.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go w.srv.Serve(ln)
	return w, nil
}

// Close stops the robot.
func (w *WeCom) Close() { w.srv.Close() }

// OnPost calls fn with each message accepted from now on (on the
// request's goroutine).
func (w *WeCom) OnPost(fn func(WeComPost)) {
	w.mu.Lock()
	w.onPost = fn
	w.mu.Unlock()
}

// Posts returns the messages accepted so far, in order.
func (w *WeCom) Posts() []WeComPost {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]WeComPost(nil), w.posts...)
}

// weComMsg is a robot message body.
type weComMsg struct {
	MsgType string `json:"msgtype"`
	Text    *struct {
		Content       string   `json:"content"`
		MentionedList []string `json:"mentioned_list"`
	} `json:"text"`
	Markdown *struct {
		Content string `json:"content"`
	} `json:"markdown"`
	Image *struct {
		Base64 string `json:"base64"`
		MD5    string `json:"md5"`
	} `json:"image"`
}

func (w *WeCom) serve(rw http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
	if err != nil {
		return
	}
	if r.URL.Query().Get("key") != w.key {
		weComAnswer(rw, weComInvalidKey, "invalid webhook url")
		return
	}
	var m weComMsg
	if err := json.Unmarshal(b, &m); err != nil {
		weComAnswer(rw, weComBadType, "invalid json: "+err.Error())
		return
	}
	p, code, msg := readWeCom(m)
	if code == 0 && !w.accept(time.Now()) {
		code, msg = weComRateLimit, "api freq out of limit"
	}
	if code != 0 {
		weComAnswer(rw, code, msg)
		return
	}
	p.At = time.Now()
	w.mu.Lock()
	w.posts = append(w.posts, p)
	notify := w.onPost
	w.mu.Unlock()
	if notify != nil {
		notify(p)
	}
	weComAnswer(rw, 0, "ok")
}

// readWeCom checks a message as the robot does and returns what it
// holds, or the error code and message the robot answers.
func readWeCom(m weComMsg) (WeComPost, int, string) {
	p := WeComPost{MsgType: m.MsgType}
	switch {
	case m.MsgType == "text" && m.Text != nil:
		p.Content, p.Mentioned = m.Text.Content, m.Text.MentionedList
	case m.MsgType == "markdown" && m.Markdown != nil:
		p.Content = m.Markdown.Content
	case m.MsgType == "image" && m.Image != nil:
		img, err := base64.StdEncoding.DecodeString(m.Image.Base64)
		if err != nil || len(img) == 0 {
			return p, weComEmpty, "invalid image: not base64 or empty"
		}
		p.ImageBytes = len(img)
		return p, 0, ""
	default:
		return p, weComBadType, fmt.Sprintf("invalid message type %q or no %[1]s field", m.MsgType)
	}
	if p.Content == "" {
		return p, weComEmpty, "empty content"
	}
	return p, 0, ""
}

// accept counts a message at now against the limit of 20 a minute.
func (w *WeCom) accept(now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	keep := w.recent[:0]
	for _, t := range w.recent {
		if now.Sub(t) < time.Minute {
			keep = append(keep, t)
		}
	}
	w.recent = keep
	if len(w.recent) >= weComPerMinute {
		return false
	}
	w.recent = append(w.recent, now)
	return true
}

// weComAnswer writes the robot's answer: HTTP 200 with errcode and
// errmsg, whatever happened.
func weComAnswer(rw http.ResponseWriter, code int, msg string) {
	rw.Header().Set("Content-Type", "application/json")
	b, _ := json.Marshal(map[string]any{"errcode": code, "errmsg": msg})
	_, _ = rw.Write(b)
}
