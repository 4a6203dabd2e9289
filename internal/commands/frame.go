package commands

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/understand"
)

// A conversation's frame is what a member's next message may continue:
// the last answer's intent and Query (as the answer used it), an ask-back
// waiting for a pick, an action waiting for "确认", and the first line the
// bot answered with. There is one per member per chat (another member's
// message is never my follow-up), and one per bot message that carried an
// answer (a reply to that message continues it, whoever replies).
// Frames live FrameTTL (a replied-to message's LinkTTL) in a FrameStore:
// the bot's store when it has one, so they survive a restart and are
// shared by replicas; else the process's memory.
type Frame struct {
	// Query is the last answer's reading (its Intent empty when there is
	// none to continue) and At when it was given.
	Query frameQuery `json:"query"`
	At    time.Time  `json:"at"`
	// Clarify is an ask-back waiting for a pick ("1", "第二个").
	Clarify *frameQuery `json:"clarify,omitempty"`
	// Pending: an action was asked back ("要把本群提醒静音 1 小时吗？") and
	// waits under the member's pending key for "确认".
	Pending bool `json:"pending,omitempty"`
	// Said is the first line of the answer, which a WeChat quote of it
	// is matched against; Cheapest the lowest price per GPU-hour of the
	// offers it showed (0: none), which "再便宜点的" goes below.
	Said     string  `json:"said,omitempty"`
	Cheapest float64 `json:"cheapest,omitempty"`
	// ClarifyAt is when the ask-back was asked.
	ClarifyAt time.Time `json:"clarify_at,omitzero"`
}

// frameQuery is a Query as a frame keeps it: its JSON fields and those
// left out of its JSON that a follow-up reads (the part of the week
// named, the knowledge base's workload, the job as written for a
// workload, whether it served inference, the explicit verbs an ask-back's
// pick needs).
type frameQuery struct {
	understand.Query
	When       *understand.WeekWindow `json:"when,omitempty"`
	KBWorkload string                 `json:"kb_workload,omitempty"`
	Asked      string                 `json:"asked,omitempty"`
	Serving    bool                   `json:"serving,omitempty"`
	Verbs      []string               `json:"verbs,omitempty"`
}

// keep is q as a frame keeps it.
func keep(q Query) frameQuery {
	return frameQuery{Query: q, When: q.When, KBWorkload: q.KBWorkload, Asked: q.Asked, Serving: q.Serving, Verbs: q.Verbs}
}

// query is the Query a frame kept.
func (f frameQuery) query() Query {
	q := f.Query
	q.When, q.KBWorkload, q.Asked, q.Serving, q.Verbs = f.When, f.KBWorkload, f.Asked, f.Serving, f.Verbs
	return q
}

// How long frames live: a member's FrameTTL after the answer (a
// follow-up comes within minutes or is a new question); the frame of a
// bot message LinkTTL (a reply to it names it outright) and the chat's
// list of recent answers, which WeChat quotes are matched against, as
// long, SaidKeep of them.
const (
	FrameTTL = 10 * time.Minute
	LinkTTL  = 24 * time.Hour
	SaidKeep = 20
)

// FrameStore keeps frames (JSON) beyond one message: under a key for a
// while (the member's frame, a bot message's frame, a pending action) and
// as a capped list (a chat's recent answers). The embedded and Redis
// stores implement it (storetest.Frames checks them); without one the
// router keeps them in memory (memFrames).
type FrameStore interface {
	// PutFrame keeps data under key for ttl, replacing what was there.
	PutFrame(ctx context.Context, key string, data []byte, ttl time.Duration) error
	// Frame is what is kept under key; nil when nothing is or it expired.
	Frame(ctx context.Context, key string) ([]byte, error)
	// TakeFrame is Frame and removes it in one step: of two callers at
	// once, one gets it.
	TakeFrame(ctx context.Context, key string) ([]byte, error)
	// PushFrame puts data first in the list under key, keeping the newest
	// keep; the list lives ttl after its last push.
	PushFrame(ctx context.Context, key string, data []byte, keep int, ttl time.Duration) error
	// Frames is the list under key, newest first; nil when there is none.
	Frames(ctx context.Context, key string) ([][]byte, error)
}

// WithFrames keeps the conversation's frames in s (the bot's store), so
// a follow-up after a restart or on another replica continues its frame;
// without it they live in the process.
func WithFrames(s FrameStore) Option { return func(r *Router) { r.frames = s } }

// frameTimeout bounds one frame store call: a store that does not answer
// costs a message its context, never its answer.
const frameTimeout = 2 * time.Second

// Frame store keys: a member's frame and pending action, a bot message's
// frame, a chat's recent answers.
func memberKey(msg chat.Message) string  { return "frame/" + convKey(msg) }
func pendingKey(msg chat.Message) string { return "frame-pending/" + convKey(msg) }
func saidKey(msg chat.Message) string    { return "frame-said/" + chatKey(msg) }
func linkKey(msg chat.Message, botMsgID string) string {
	return "frame-link/" + chatKey(msg) + botMsgID
}

// loadFrame reads the frame under key (nil when there is none, it does
// not decode, or the store fails: logged).
func (r *Router) loadFrame(ctx context.Context, key string) *Frame {
	ctx, cancel := context.WithTimeout(ctx, frameTimeout)
	defer cancel()
	b, err := r.frames.Frame(ctx, key)
	if err != nil {
		slog.Warn("commands: reading a conversation frame failed; answering without it", "err", err)
		return nil
	}
	return decodeFrame(b)
}

func decodeFrame(b []byte) *Frame {
	if len(b) == 0 {
		return nil
	}
	var f Frame
	if err := json.Unmarshal(b, &f); err != nil {
		return nil
	}
	return &f
}

// saveFrame writes f under key for ttl (a failure is logged: the next
// message then starts afresh).
func (r *Router) saveFrame(ctx context.Context, key string, f *Frame, ttl time.Duration) {
	b, err := json.Marshal(f)
	if err != nil {
		slog.Error("commands: a conversation frame does not encode", "err", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), frameTimeout)
	defer cancel()
	if err := r.frames.PutFrame(ctx, key, b, ttl); err != nil {
		slog.Warn("commands: keeping a conversation frame failed", "err", err)
	}
}

// memFrames is the FrameStore of a router without a store: the process's
// memory, at most maxConversations keys (the least recently written go
// first).
type memFrames struct {
	mu    sync.Mutex
	now   func() time.Time
	items map[string]memFrame
}

type memFrame struct {
	data  []byte
	list  [][]byte
	until time.Time
}

func newMemFrames(now func() time.Time) *memFrames {
	return &memFrames{now: now, items: map[string]memFrame{}}
}

func (m *memFrames) PutFrame(_ context.Context, key string, data []byte, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.prune()
	m.items[key] = memFrame{data: append([]byte(nil), data...), until: m.now().Add(ttl)}
	return nil
}

func (m *memFrames) Frame(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if it, ok := m.items[key]; ok && m.now().Before(it.until) {
		return it.data, nil
	}
	return nil, nil
}

func (m *memFrames) TakeFrame(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.items[key]
	delete(m.items, key)
	if ok && m.now().Before(it.until) {
		return it.data, nil
	}
	return nil, nil
}

func (m *memFrames) PushFrame(_ context.Context, key string, data []byte, keep int, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.prune()
	it := m.items[key]
	if !m.now().Before(it.until) {
		it.list = nil
	}
	it.list = append([][]byte{append([]byte(nil), data...)}, it.list...)
	if len(it.list) > keep {
		it.list = it.list[:keep]
	}
	it.until = m.now().Add(ttl)
	m.items[key] = it
	return nil
}

func (m *memFrames) Frames(_ context.Context, key string) ([][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if it, ok := m.items[key]; ok && m.now().Before(it.until) {
		return it.list, nil
	}
	return nil, nil
}

// prune drops expired keys, then the ones ending first, below
// maxConversations. Callers hold mu.
func (m *memFrames) prune() {
	if len(m.items) < maxConversations {
		return
	}
	now := m.now()
	for k, it := range m.items {
		if !now.Before(it.until) {
			delete(m.items, k)
		}
	}
	for len(m.items) >= maxConversations {
		first, at := "", time.Time{}
		for k, it := range m.items {
			if first == "" || it.until.Before(at) {
				first, at = k, it.until
			}
		}
		delete(m.items, first)
	}
}
