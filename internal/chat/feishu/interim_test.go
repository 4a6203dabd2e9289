package feishu_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
)

// slowHandler answers after a delay and has a "查询中…"; reply, when set,
// is the answer (it may panic).
type slowHandler struct {
	recHandler
	delay time.Duration
	reply func() chat.Reply
}

func (h *slowHandler) Handle(ctx context.Context, m chat.Message) chat.Reply {
	time.Sleep(h.delay)
	if h.reply != nil {
		return h.reply()
	}
	return chat.Reply{Title: "RTX 4090 有货", Table: &chat.Table{Header: []string{"平台", "元/卡时"}, Rows: [][]string{{"AutoDL", "2.18"}}}}
}

func (h *slowHandler) Interim(chat.Message) chat.Reply {
	return chat.Reply{Title: "查询中…", Lines: []string{"正在向各平台取最新数据"}}
}

// TestInterimCardUpdatedInPlace: a slow answer gets a "查询中…" card at
// once, and the answer replaces that card (PATCH) instead of arriving as
// a second message; a fast answer gets no interim.
func TestInterimCardUpdatedInPlace(t *testing.T) {
	fixtureDir(t)
	const replyID = "om_7f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c" // resp_im_v1_messages_reply.json
	cases := []struct {
		name  string
		delay time.Duration
		want  []string // paths, in order
	}{
		{"slow answer: interim card, then the answer in place", time.Second,
			[]string{"/open-apis/im/v1/messages/" + groupMsgID + "/reply", "/open-apis/im/v1/messages/" + replyID}},
		{"fast answer: one reply", 0, []string{"/open-apis/im/v1/messages/" + groupMsgID + "/reply"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			h := &slowHandler{delay: c.delay}
			opts := baseOptions(f, h, nil)
			opts.InterimAfter = 100 * time.Millisecond
			b := newBot(t, opts)
			start := time.Now()
			if rec := deliver(b.HTTPHandler(), sealed(groupEvent(t, groupEventID, groupMsgID, "", nil), time.Now())); rec.Code != 200 {
				t.Fatalf("status %d", rec.Code)
			}
			if c.delay > 0 {
				// The interim is posted while the answer is still being made.
				deadline := time.Now().Add(c.delay * 4 / 5)
				for len(f.messages()) == 0 && time.Now().Before(deadline) {
					time.Sleep(10 * time.Millisecond)
				}
				s := f.messages()
				if len(s) != 1 || !strings.Contains(s[0].Content, "查询中") || time.Since(start) >= c.delay {
					t.Fatalf("no interim card within %v: %+v", c.delay*4/5, s)
				}
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			s := f.messages()
			var paths []string
			for _, m := range s {
				paths = append(paths, m.Path)
			}
			if strings.Join(paths, " ") != strings.Join(c.want, " ") {
				t.Fatalf("requests %q, want %q", paths, c.want)
			}
			last := s[len(s)-1]
			if !strings.Contains(last.Content, "AutoDL") || strings.Contains(last.Content, "查询中") {
				t.Errorf("the last message is not the answer: %s", last.Content)
			}
		})
	}
}

// TestInterimCardNeverLeftBehind: when the answer cannot replace the
// "查询中…" card, the card still ends with a final line and the answer
// (if any) arrives once.
func TestInterimCardNeverLeftBehind(t *testing.T) {
	fixtureDir(t)
	const replyID = "om_7f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c"
	interimPath := "/open-apis/im/v1/messages/" + groupMsgID + "/reply"
	patchPath := "/open-apis/im/v1/messages/" + replyID
	cases := []struct {
		name        string
		refuse      bool
		reply       func() chat.Reply
		paths       []string
		lastContent string
	}{
		{"the card cannot be updated: the answer follows, the card points to it", true, nil,
			[]string{interimPath, patchPath, interimPath, patchPath}, "答案见下一条"},
		{"nothing to answer", false, func() chat.Reply { return chat.Reply{} },
			[]string{interimPath, patchPath}, "没有要回复的内容"},
		{"the handler panics", false, func() chat.Reply { panic("bug") },
			[]string{interimPath, patchPath}, "出错了"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.refusePatch = c.refuse
			h := &slowHandler{delay: 300 * time.Millisecond, reply: c.reply}
			opts := baseOptions(f, h, nil)
			opts.InterimAfter = 50 * time.Millisecond
			b := newBot(t, opts)
			if rec := deliver(b.HTTPHandler(), sealed(groupEvent(t, groupEventID, groupMsgID, "", nil), time.Now())); rec.Code != 200 {
				t.Fatalf("status %d", rec.Code)
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			s := f.messages()
			var paths []string
			for _, m := range s {
				paths = append(paths, m.Path)
			}
			if strings.Join(paths, " ") != strings.Join(c.paths, " ") {
				t.Fatalf("requests %q, want %q", paths, c.paths)
			}
			if last := s[len(s)-1]; !strings.Contains(last.Content, c.lastContent) {
				t.Errorf("the card ends as %s, want %q", last.Content, c.lastContent)
			}
			if c.refuse && !strings.Contains(s[2].Content, "AutoDL") {
				t.Errorf("the answer did not follow as a message: %s", s[2].Content)
			}
		})
	}
}

var _ chat.Interimer = (*slowHandler)(nil)
var _ chat.Handler = (*slowHandler)(nil)
