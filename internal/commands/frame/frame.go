// Package frame is a conversation's frame: what a member's next message
// may continue — the last answer's intent and Query, an ask-back, an
// action asked first — how it is kept (Store: the bot's store, or Mem),
// how a follow-up edits it (Editor.Follow: the named values replaced, the
// rest kept) and the line an edited answer opens with (WithChange). It
// reads the Query only, never the text: the understanding marks how a
// message reads (Query.FollowUp, Bare, Cheaper …).
package frame

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/understand"
	"github.com/labgpu/bot/internal/understand/slots/oom"
)

// Query is an understood question (understand's).
type Query = understand.Query

// A conversation's frame is what a member's next message may continue:
// the last answer's intent and Query (as the answer used it), an ask-back
// waiting for a pick, an action waiting for "确认", and the first line the
// bot answered with. There is one per member per chat (another member's
// message is never my follow-up), and one per bot message that carried an
// answer (a reply to that message continues it, whoever replies).
// Frames live TTL (a replied-to message's LinkTTL) in a Store:
// the bot's store when it has one, so they survive a restart and are
// shared by replicas; else the process's memory.
type Frame struct {
	// Query is the last answer's reading (its Intent empty when there is
	// none to continue) and At when it was given.
	Query Kept      `json:"query"`
	At    time.Time `json:"at"`
	// Clarify is an ask-back waiting for a pick ("1", "第二个").
	Clarify *Kept `json:"clarify,omitempty"`
	// Pending: an action was asked back ("要把本群提醒静音 1 小时吗？") and
	// waits under the member's pending key for "确认".
	Pending bool `json:"pending,omitempty"`
	// Said is the first line of the answer, which a WeChat quote of it
	// is matched against; Cheapest the lowest price per GPU-hour of the
	// offers it showed (0: none), which "再便宜点的" goes below.
	Said     string  `json:"said,omitempty"`
	Cheapest float64 `json:"cheapest,omitempty"`
	// CheapestAt is the platform of that cheapest offer ("is that
	// cheaper than AutoDL?" after offers overseas sets it against it).
	CheapestAt string `json:"cheapest_at,omitempty"`
	// Alert is the member's last stock alert answer (one set, or the
	// question which card it is for) and AlertAt when it was given: a
	// card said next answers that question, and "A100 也要" adds one
	// more alert like it.
	Alert   *Kept     `json:"alert,omitempty"`
	AlertAt time.Time `json:"alert_at,omitzero"`
	// Seen are the platforms the thread of follow-ups named one after
	// another ("how much on autodl" → "and on vast?"): "which is cheaper"
	// compares them.
	Seen []string `json:"seen,omitempty"`
	// ClarifyAt is when the ask-back was asked.
	ClarifyAt time.Time `json:"clarify_at,omitzero"`
	// English is the language of the member's last answer, whatever it
	// was (advice and help too, which leave no Query to edit), and LangAt
	// when it was given: a next message that does not say its language
	// ("still not working" is English enough, "4090?" is not) keeps it.
	English bool      `json:"english,omitempty"`
	LangAt  time.Time `json:"lang_at,omitzero"`
	// DidSub is the subscription the member's last answer added (its
	// id; "" when the last answer did nothing), which an undo right after
	// it ("算了 不要了", "nvm") cancels.
	DidSub string `json:"did_sub,omitempty"`
	// DidSubGPUs are its cards: how the bot names it when it asks first.
	DidSubGPUs []string `json:"did_sub_gpus,omitempty"`
	// Before is the Query the last answer edited (nil when it was no
	// edit): "how much more?" after "what if I use 4 A100s" weighs the
	// new figure against the one before the change.
	Before *Kept `json:"before,omitempty"`
	// Job is the last job the conversation talked about (an estimate, an
	// OOM answer that read one, a card choice for a workload), kept
	// while other answers come in between: "要多少钱", "那要多久" naming no
	// job after a stock answer or a troubleshooting answer ask about it.
	Job *Kept `json:"job,omitempty"`
}

// Language is the conversation's language as f keeps it: the last
// answer's, given within ttl of now (false when there is none).
func (f *Frame) Language(now time.Time, ttl time.Duration) (en, ok bool) {
	if f == nil || f.LangAt.IsZero() || now.Sub(f.LangAt) > ttl {
		return false, false
	}
	return f.English, true
}

// Kept is a Query as a frame keeps it: its JSON fields and those
// left out of its JSON that a follow-up reads (the part of the week
// named, the knowledge base's workload, the job as written for a
// workload, whether it served inference, the explicit verbs an ask-back's
// pick needs).
type Kept struct {
	understand.Query
	When       *understand.WeekWindow `json:"when,omitempty"`
	KBWorkload string                 `json:"kb_workload,omitempty"`
	Asked      string                 `json:"asked,omitempty"`
	Serving    bool                   `json:"serving,omitempty"`
	Verbs      []string               `json:"verbs,omitempty"`
	// NamesDisks: the question named a data disk or storage ("恒源云数据盘
	// 多少钱一个G"), which a size follow-up prices.
	NamesDisks bool `json:"names_disks,omitempty"`
	// AdviceTopic is the troubleshooting topic the answer was (also when
	// it is kept as the estimate of the job it read), which a follow-up
	// ("还是不行", "换bf16行吗") continues; AdviceShown how many of its
	// steps and alternatives the member has seen.
	AdviceTopic string `json:"advice_topic,omitempty"`
	AdviceShown int    `json:"advice_shown,omitempty"`
	// OOM is what a pasted OOM error said (the card's capacity), which a
	// fit question ("batch改成1还会爆吗") is decided against.
	OOM *oom.Error `json:"oom,omitempty"`
}

// Keep is q as a frame keeps it.
func Keep(q Query) Kept {
	return Kept{Query: q, When: q.When, KBWorkload: q.KBWorkload, Asked: q.Asked, Serving: q.Serving, Verbs: q.Verbs, OOM: q.OOM, NamesDisks: q.NamesDisks}
}

// Restore is the Query a frame kept.
func (f Kept) Restore() Query {
	q := f.Query
	q.When, q.KBWorkload, q.Asked, q.Serving, q.Verbs, q.OOM = f.When, f.KBWorkload, f.Asked, f.Serving, f.Verbs, f.OOM
	q.NamesDisks = f.NamesDisks
	return q
}

// How long frames live: a member's TTL after the answer (a
// follow-up comes within minutes or is a new question); the frame of a
// bot message LinkTTL (a reply to it names it outright) and the chat's
// list of recent answers, which WeChat quotes are matched against, as
// long, SaidKeep of them.
const (
	TTL      = 10 * time.Minute
	LinkTTL  = 24 * time.Hour
	SaidKeep = 20
)

// Store keeps frames (JSON) beyond one message: under a key for a
// while (the member's frame, a bot message's frame, a pending action) and
// as a capped list (a chat's recent answers). The embedded and Redis
// stores implement it (storetest.Frames checks them); without one the
// router keeps them in memory (Mem).
type Store interface {
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

// Decode reads a frame a Store kept (nil when b is empty or no frame).
func Decode(b []byte) *Frame {
	if len(b) == 0 {
		return nil
	}
	var f Frame
	if err := json.Unmarshal(b, &f); err != nil {
		return nil
	}
	return &f
}

// Mem is the Store of a router without a store: the process's
// memory, at most max keys (those ending first go first).
type Mem struct {
	mu    sync.Mutex
	now   func() time.Time
	max   int
	items map[string]memItem
}

type memItem struct {
	data  []byte
	list  [][]byte
	until time.Time
}

func NewMem(now func() time.Time, max int) *Mem {
	return &Mem{now: now, max: max, items: map[string]memItem{}}
}

func (m *Mem) PutFrame(_ context.Context, key string, data []byte, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.prune()
	m.items[key] = memItem{data: append([]byte(nil), data...), until: m.now().Add(ttl)}
	return nil
}

func (m *Mem) Frame(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if it, ok := m.items[key]; ok && m.now().Before(it.until) {
		return it.data, nil
	}
	return nil, nil
}

func (m *Mem) TakeFrame(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.items[key]
	delete(m.items, key)
	if ok && m.now().Before(it.until) {
		return it.data, nil
	}
	return nil, nil
}

func (m *Mem) PushFrame(_ context.Context, key string, data []byte, keep int, ttl time.Duration) error {
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

func (m *Mem) Frames(_ context.Context, key string) ([][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if it, ok := m.items[key]; ok && m.now().Before(it.until) {
		return it.list, nil
	}
	return nil, nil
}

// prune drops expired keys, then the ones ending first, below
// max. Callers hold mu.
func (m *Mem) prune() {
	if len(m.items) < m.max {
		return
	}
	now := m.now()
	for k, it := range m.items {
		if !now.Before(it.until) {
			delete(m.items, k)
		}
	}
	for len(m.items) >= m.max {
		first, at := "", time.Time{}
		for k, it := range m.items {
			if first == "" || it.until.Before(at) {
				first, at = k, it.until
			}
		}
		delete(m.items, first)
	}
}
