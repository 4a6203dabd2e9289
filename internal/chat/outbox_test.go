package chat_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/retry"
)

// busyErr asks for a retry after its wait; refusedErr is permanent.
type busyErr struct{ after time.Duration }

func (e busyErr) Error() string { return "busy" }

var refusedErr = errors.New("refused: token=s3cret")

// scriptWire renders a reply as one part per line and answers posts from
// a script of errors (nil = delivered).
type scriptWire struct {
	mu       sync.Mutex
	script   []error
	posted   []string
	fallback bool
}

func (w *scriptWire) Parts(_ context.Context, _ string, r chat.Reply, _ chat.SendOptions) ([]chat.Part, error) {
	var ps []chat.Part
	for _, l := range r.Lines {
		ps = append(ps, chat.Part{Kind: "text", Payload: l, Optional: strings.HasPrefix(l, "optional")})
	}
	return ps, nil
}

func (w *scriptWire) Post(_ context.Context, _ string, p chat.Part, o chat.PostOptions) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	var err error
	if len(w.script) > 0 {
		err, w.script = w.script[0], w.script[1:]
	}
	if err == nil {
		w.posted = append(w.posted, p.Payload.(string)+"@"+o.Key)
	}
	return err
}

func (w *scriptWire) Retry(err error) retry.Verdict {
	var b busyErr
	if errors.As(err, &b) {
		return retry.Verdict{Retry: true, After: b.after}
	}
	return retry.Verdict{}
}

func (w *scriptWire) Fallback(_ context.Context, _ string, r chat.Reply, _ chat.SendOptions, err error) ([]chat.Part, bool) {
	if !w.fallback || !errors.Is(err, refusedErr) {
		return nil, false
	}
	return []chat.Part{{Kind: "text", Payload: "plain"}}, true
}

func (w *scriptWire) sent() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.posted...)
}

func TestOutbox(t *testing.T) {
	two := chat.Reply{Lines: []string{"a", "b"}}
	cases := []struct {
		name     string
		reply    chat.Reply
		script   []error
		fallback bool
		key      string
		posted   int
		errHas   string
		minTook  time.Duration
	}{
		{"delivered in order", two, nil, false, "", 2, "", 0},
		{"a Retry-After is waited out", two, []error{busyErr{600 * time.Millisecond}}, false, "", 2, "", 550 * time.Millisecond},
		{"busy three times: gives up", two, []error{busyErr{}, busyErr{}, busyErr{}}, false, "", 0, "giving up after 3 tries", 0},
		{"permanent: one try, redacted", two, []error{refusedErr}, false, "", 0, "token=***", 0},
		{"second part fails: says which", two, []error{nil, refusedErr}, false, "", 1, "part 2 of 2", 0},
		{"first refused: the plain form", two, []error{refusedErr}, true, "", 1, "", 0},
		{"first refused after a retried try: the plain form", two, []error{busyErr{}, refusedErr}, true, "", 1, "", 0},
		{"first busy to the end: no plain form", two, []error{busyErr{}, busyErr{}, busyErr{}}, true, "", 0, "giving up after 3 tries", 0},
		{"an optional part may fail", chat.Reply{Lines: []string{"a", "optional chart"}}, []error{nil, refusedErr}, false, "", 1, "", 0},
		{"empty: nothing", chat.Reply{}, nil, false, "", 0, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := &scriptWire{script: c.script, fallback: c.fallback}
			ob := chat.NewOutbox("test", w, chat.OutboxOptions{
				Retry: retry.Policy{Tries: 3, Initial: time.Millisecond},
				Clean: func(s string) string { return strings.ReplaceAll(s, "s3cret", "***") },
			})
			began := time.Now()
			err := ob.Send(context.Background(), "oc_1", c.reply, chat.SendOptions{IdempotencyKey: c.key})
			if (err == nil) != (c.errHas == "") || (err != nil && !strings.Contains(err.Error(), c.errHas)) {
				t.Fatalf("err = %v, want one containing %q", err, c.errHas)
			}
			if err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Errorf("secret in %q", err)
			}
			if got := w.sent(); len(got) != c.posted {
				t.Errorf("posted %q, want %d parts", got, c.posted)
			}
			if took := time.Since(began); took < c.minTook {
				t.Errorf("took %v, want at least %v", took, c.minTook)
			}
		})
	}
}

// TestOutboxIdempotent: a keyed Send repeated after a failure posts only
// the parts that did not go out; the part keys stay the same.
func TestOutboxIdempotent(t *testing.T) {
	w := &scriptWire{script: []error{nil, refusedErr}}
	ob := chat.NewOutbox("test", w, chat.OutboxOptions{Retry: retry.Policy{Tries: 1}})
	r := chat.Reply{Lines: []string{"a", "b"}}
	ctx := context.Background()
	if err := ob.Send(ctx, "oc_1", r, chat.SendOptions{IdempotencyKey: "alert:7"}); err == nil {
		t.Fatal("the second part's failure was not reported")
	}
	if err := ob.Send(ctx, "oc_1", r, chat.SendOptions{IdempotencyKey: "alert:7"}); err != nil {
		t.Fatal(err)
	}
	if err := ob.Send(ctx, "oc_1", r, chat.SendOptions{IdempotencyKey: "alert:7"}); err != nil {
		t.Fatal(err)
	}
	// The same key in another chat is another message.
	if err := ob.Send(ctx, "oc_2", r, chat.SendOptions{IdempotencyKey: "alert:7"}); err != nil {
		t.Fatal(err)
	}
	want := []string{"a@alert:7#0", "b@alert:7#1", "a@alert:7#0", "b@alert:7#1"}
	if got := w.sent(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("posted %q, want %q", got, want)
	}
}

// blockingWire holds every post to oc_1 until released.
type blockingWire struct {
	scriptWire
	release chan struct{}
	entered chan struct{}
}

func (w *blockingWire) Post(ctx context.Context, chatID string, p chat.Part, o chat.PostOptions) error {
	if chatID == "oc_1" {
		w.entered <- struct{}{}
		<-w.release
	}
	return w.scriptWire.Post(ctx, chatID, p, o)
}

// TestOutboxOneReplyAtATimePerChat: two replies to one chat do not
// interleave their parts; a reply to another chat is not held up.
func TestOutboxOneReplyAtATimePerChat(t *testing.T) {
	w := &blockingWire{release: make(chan struct{}), entered: make(chan struct{}, 8)}
	ob := chat.NewOutbox("test", w, chat.OutboxOptions{})
	ctx := context.Background()
	var wg sync.WaitGroup
	for _, r := range []chat.Reply{{Lines: []string{"a1", "a2"}}, {Lines: []string{"b1", "b2"}}} {
		wg.Add(1)
		go func() { defer wg.Done(); _ = ob.Send(ctx, "oc_1", r, chat.SendOptions{}) }()
	}
	<-w.entered // one oc_1 post is held
	done := make(chan error, 1)
	go func() { done <- ob.Send(ctx, "oc_2", chat.Reply{Lines: []string{"c"}}, chat.SendOptions{}) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a send to another chat waited for oc_1")
	}
	for i := range 4 {
		if i > 0 {
			select {
			case <-w.entered:
			case <-time.After(5 * time.Second):
				t.Fatal("stuck")
			}
		}
		w.release <- struct{}{}
	}
	wg.Wait()
	var oc1 []string
	for _, s := range w.sent() {
		if !strings.HasPrefix(s, "c@") {
			oc1 = append(oc1, s[:2])
		}
	}
	if j := strings.Join(oc1, " "); j != "a1 a2 b1 b2" && j != "b1 b2 a1 a2" {
		t.Errorf("parts interleaved: %s", j)
	}
}

// TestOutboxMergesAPileUp: while one answer holds a chat, three more
// pile up; they go out as one merged message, and every Send returns its
// outcome. Replies that may not be merged (alerts) never are.
func TestOutboxMergesAPileUp(t *testing.T) {
	for _, mergeable := range []bool{true, false} {
		w := &blockingWire{release: make(chan struct{}), entered: make(chan struct{}, 8)}
		ob := chat.NewOutbox("test", w, chat.OutboxOptions{MergeAt: 3})
		ctx := context.Background()
		o := chat.SendOptions{Mergeable: mergeable}
		errs := make(chan error, 4)
		go func() { errs <- ob.Send(ctx, "oc_1", chat.Reply{Lines: []string{"first"}}, o) }()
		<-w.entered // the first holds the chat
		for _, q := range []string{"q1", "q2", "q3"} {
			go func() { errs <- ob.Send(ctx, "oc_1", chat.Reply{Lines: []string{q}}, o) }()
		}
		time.Sleep(100 * time.Millisecond) // let them queue
		go func() {
			for range w.entered {
				w.release <- struct{}{}
			}
		}()
		w.release <- struct{}{}
		for range 4 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		close(w.entered)
		// The test wire posts a reply line by line, each part keyed
		// "<message key>#<i>": count messages by key.
		sent := w.sent()
		msgs := map[string]string{}
		var order []string
		for _, p := range sent {
			text, key, _ := strings.Cut(p, "@")
			key, _, _ = strings.Cut(key, "#")
			if _, ok := msgs[key]; !ok {
				order = append(order, key)
			}
			msgs[key] += text + " "
		}
		if mergeable {
			last := msgs[order[len(order)-1]]
			if len(msgs) != 2 || !strings.Contains(last, "q1") || !strings.Contains(last, "q2") || !strings.Contains(last, "q3") {
				t.Errorf("mergeable: messages %q, want the first and one merged message of q1–q3", msgs)
			}
		} else if len(msgs) != 4 {
			t.Errorf("not mergeable: %d messages, want 4", len(msgs))
		}
	}
}

// memLog is a DeliveryLog in memory, shared by the outboxes of one test
// as a store is by a process and its restart; broken fails every call.
type memLog struct {
	mu     sync.Mutex
	until  map[string]time.Time
	broken bool
}

func (l *memLog) Delivered(_ context.Context, key string) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.broken {
		return false, errors.New("store down")
	}
	u, ok := l.until[key]
	return ok && time.Now().Before(u), nil
}

func (l *memLog) MarkDelivered(_ context.Context, key string, ttl time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.broken {
		return errors.New("store down")
	}
	if l.until == nil {
		l.until = map[string]time.Time{}
	}
	l.until[key] = time.Now().Add(ttl)
	return nil
}

// TestOutboxDeliveryLogAcrossRestart: a keyed Send repeated by a new
// outbox over the same DeliveryLog (a restart, another replica) posts
// only the parts the first did not deliver, within the Send's Remember;
// a log that fails never stops a send.
func TestOutboxDeliveryLogAcrossRestart(t *testing.T) {
	r := chat.Reply{Lines: []string{"a", "b"}}
	cases := []struct {
		name     string
		first    []error // the first process's posts
		remember time.Duration
		wait     time.Duration
		broken   bool
		want     string // what the second process posts
	}{
		{"second part failed", []error{nil, refusedErr}, 0, 0, false, "b@digest:7#1"},
		{"all delivered", nil, 0, 0, false, ""},
		{"remembered for the send's time", nil, 40 * time.Millisecond, 0, false, ""},
		{"forgotten after it", nil, 40 * time.Millisecond, 80 * time.Millisecond, false, "a@digest:7#0 b@digest:7#1"},
		{"store down: sent again", nil, 0, 0, true, "a@digest:7#0 b@digest:7#1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := &memLog{broken: c.broken}
			o := chat.SendOptions{IdempotencyKey: "digest:7", Remember: c.remember}
			first := &scriptWire{script: c.first}
			_ = chat.NewOutbox("feishu", first, chat.OutboxOptions{Retry: retry.Policy{Tries: 1}, Delivered: log}).Send(context.Background(), "oc_1", r, o)
			time.Sleep(c.wait)
			second := &scriptWire{}
			if err := chat.NewOutbox("feishu", second, chat.OutboxOptions{Retry: retry.Policy{Tries: 1}, Delivered: log}).Send(context.Background(), "oc_1", r, o); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(second.sent(), " "); got != c.want {
				t.Errorf("after the restart posted %q, want %q", got, c.want)
			}
			// Another chat, or another scope, is another message.
			other := &scriptWire{}
			_ = chat.NewOutbox("webhook", other, chat.OutboxOptions{Delivered: log}).Send(context.Background(), "oc_1", r, o)
			if len(other.sent()) != 2 {
				t.Errorf("another scope posted %q", other.sent())
			}
		})
	}
}
