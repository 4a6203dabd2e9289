package chat

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/retry"
)

// Part is one message as a channel posts it: a text, a card, an image.
// The outbox hands Payload back to the channel's Wire untouched.
type Part struct {
	// Kind names the message type for logs ("text", "card", "image").
	Kind string
	// Payload is the channel's own message value (a text under its limit,
	// a card's JSON, a request body).
	Payload any
	// Optional parts (a chart image after the text that already has it as
	// bars) are logged when they fail; the reply still counts as sent.
	Optional bool
}

// PostOptions go with one Part.
type PostOptions struct {
	// ReplyTo is the message being answered (SendOptions.ReplyTo).
	ReplyTo string
	// Key is the part's idempotency key: stable across retries of the
	// part and across a repeated Send with the same
	// SendOptions.IdempotencyKey; never empty.
	Key string
	// Sent, when set, is told the id of the message a successful post
	// made (SendOptions.Sent).
	Sent func(messageID string)
}

// Wire is a channel's side of sending: how a reply becomes parts for one
// chat (split under the channel's limit with Split) and how one part is
// posted and its failure judged. The Outbox does the rest.
type Wire interface {
	// Parts renders r for chatID.
	Parts(ctx context.Context, chatID string, r Reply, o SendOptions) ([]Part, error)
	// Post makes one attempt at posting p.
	Post(ctx context.Context, chatID string, p Part, o PostOptions) error
	// Retry says whether err (from Post) is worth another try, and how
	// long the far side asked to wait (a Retry-After).
	Retry(err error) retry.Verdict
}

// Fallback is a Wire that has a plainer form for a reply whose first part
// was refused for its content (a card the platform would not take).
type Fallback interface {
	Fallback(ctx context.Context, chatID string, r Reply, o SendOptions, err error) ([]Part, bool)
}

// DeliveryLog remembers, beyond the process, the keyed parts an outbox
// delivered, so that a Send repeated with the same
// SendOptions.IdempotencyKey after a restart or on another replica skips
// them. The embedded and Redis stores implement it. Keys are
// "<scope>/<chat>\x00<idempotency key>#<part>" (OutboxOptions.Scope).
type DeliveryLog interface {
	Delivered(ctx context.Context, key string) (bool, error)
	MarkDelivered(ctx context.Context, key string, ttl time.Duration) error
}

// logTimeout bounds one DeliveryLog call: a store that does not answer
// delays a part by this much at most (the part then counts as not
// delivered).
const logTimeout = 2 * time.Second

// Waiter rate-limits sends by key (a chat). Limiters implements it with
// x/time/rate token buckets; the push webhooks with their platforms'
// "n per window" rules.
type Waiter interface {
	Wait(ctx context.Context, key string) error
}

// OutboxOptions tune an Outbox; zero values are sensible.
type OutboxOptions struct {
	// Retry is the policy for one part (default retry's: 3 tries from
	// 200 ms).
	Retry retry.Policy
	// Limit rate-limits every attempt, keyed by chat id ("reply:<id>"
	// when only ReplyTo is set); nil for none.
	Limit Waiter
	// Clean takes secrets out of error texts (a webhook key, a session
	// URL); nil keeps them as they are.
	Clean func(string) string
	// Describe names a chat in errors and logs (default the chat id).
	Describe func(chatID string) string
	// Remember is how long delivered parts of a keyed Send are
	// remembered, so that a repeated Send skips them (default one hour;
	// SendOptions.Remember sets it per Send).
	Remember time.Duration
	// Delivered, when set, keeps that record beyond the process (the
	// bot's store), under Scope (default the outbox's name; a channel
	// with an outbox per destination, the webhooks, names each).
	Delivered DeliveryLog
	Scope     string
	// OnSend sees the outcome of every non-empty Send (metrics).
	OnSend func(error)
	// MergeAt: when this many Mergeable replies (or more) wait for one
	// chat, the one that gets the chat sends them all as one message
	// (MergeReplies), so a burst of questions is answered in seconds, not
	// one message per rate-limit interval; 0 never merges.
	MergeAt int
	Log     *slog.Logger
}

// Outbox is the one path a channel's messages take out: the channel's Wire
// renders and posts; the outbox keeps one Send at a time per chat (so a
// reply's parts stay together), waits for the chat's rate limit before
// every attempt, retries what the Wire calls recoverable with backoff
// (internal/retry, honouring Retry-After), falls back to the Wire's
// plainer form when a first part is refused, skips parts a keyed Send
// already delivered, and redacts its errors. It implements Channel; safe
// for concurrent use.
type Outbox struct {
	name string
	wire Wire
	o    OutboxOptions

	mu      sync.Mutex
	busy    map[string]chan struct{}
	waiting map[string][]*waiter
	sent    map[string]time.Time // delivered keyed parts → when forgotten
	swept   time.Time
}

// NewOutbox returns the outbox of the channel named name.
func NewOutbox(name string, w Wire, o OutboxOptions) *Outbox {
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Remember <= 0 {
		o.Remember = time.Hour
	}
	if o.Describe == nil {
		o.Describe = func(id string) string { return id }
	}
	if o.Scope == "" {
		o.Scope = name
	}
	return &Outbox{name: name, wire: w, o: o, busy: map[string]chan struct{}{}, waiting: map[string][]*waiter{}, sent: map[string]time.Time{}}
}

// Name is the channel's name.
func (ob *Outbox) Name() string { return ob.name }

// Send delivers r to chatID (Channel).
func (ob *Outbox) Send(ctx context.Context, chatID string, r Reply, o SendOptions) error {
	if r.Empty() {
		return nil
	}
	if o.Mergeable && ob.o.MergeAt > 1 {
		return ob.sendMergeable(ctx, chatID, r, o)
	}
	return ob.exclusive(ctx, chatID, o, true, func() error { return ob.render(ctx, chatID, r, o) })
}

// render renders r and delivers it.
func (ob *Outbox) render(ctx context.Context, chatID string, r Reply, o SendOptions) error {
	parts, err := ob.wire.Parts(ctx, chatID, r, o)
	if err != nil {
		return err
	}
	return ob.deliver(ctx, chatID, &r, parts, o)
}

// SendParts delivers parts the channel rendered itself (an answer whose
// chat the channel already resolved, the further cards of an answer put
// in place) on the same path as Send, without a fallback and without
// OnSend: the caller counts the reply it is part of.
func (ob *Outbox) SendParts(ctx context.Context, chatID string, parts []Part, o SendOptions) error {
	if len(parts) == 0 {
		return nil
	}
	return ob.exclusive(ctx, chatID, o, false, func() error { return ob.deliver(ctx, chatID, nil, parts, o) })
}

// exclusive runs send holding the chat's slot, reports the outcome to
// OnSend when count is set, and names and redacts its error. A Send
// within a Send to the same chat would wait for itself: Wires never send.
func (ob *Outbox) exclusive(ctx context.Context, chatID string, o SendOptions, count bool, send func() error) (err error) {
	if count && ob.o.OnSend != nil {
		defer func() { ob.o.OnSend(err) }()
	}
	key := limitKey(chatID, o.ReplyTo)
	if err := ob.lock(ctx, key); err != nil {
		return ob.fail(chatID, fmt.Errorf("waiting for the chat's previous message: %w", err))
	}
	defer ob.unlock(key)
	return ob.fail(chatID, send())
}

// deliver posts parts (rendered from r, when r is not nil), falling back
// to the Wire's plainer form when the first is refused.
func (ob *Outbox) deliver(ctx context.Context, chatID string, r *Reply, parts []Part, o SendOptions) error {
	idem, keyed := o.IdempotencyKey, o.IdempotencyKey != ""
	if !keyed {
		idem = freshKey()
	}
	err := ob.postAll(ctx, chatID, parts, o, idem, keyed)
	if err == nil || r == nil || !errors.Is(err, errFirstRefused) {
		return err
	}
	fb, ok := ob.wire.(Fallback)
	if !ok {
		return err
	}
	alt, ok := fb.Fallback(ctx, chatID, *r, o, err)
	if !ok {
		return err
	}
	ob.o.Log.Warn(ob.name+": first part refused, sending the plain form", "chat", ob.o.Describe(chatID), "err", ob.clean(err))
	if ferr := ob.postAll(ctx, chatID, alt, o, idem+"/plain", keyed); ferr != nil {
		return fmt.Errorf("%w (the plain form after the first was refused: %w)", ferr, err)
	}
	return nil
}

// errFirstRefused marks (through firstRefused, which keeps the text) a
// first part that did not go out, after which the Wire's Fallback may
// send a plainer form.
var errFirstRefused = errors.New("first part refused")

type firstRefused struct{ err error }

func (e firstRefused) Error() string        { return e.err.Error() }
func (e firstRefused) Unwrap() error        { return e.err }
func (e firstRefused) Is(target error) bool { return target == errFirstRefused }

// postAll posts the parts in order, stopping at the first required one
// that fails. Part i's key is "<idem>#<i>"; keyed parts already delivered
// to this chat are skipped.
func (ob *Outbox) postAll(ctx context.Context, chatID string, parts []Part, o SendOptions, idem string, keyed bool) error {
	chat := limitKey(chatID, o.ReplyTo) + "\x00"
	for i, p := range parts {
		pk := fmt.Sprintf("%s#%d", idem, i)
		if keyed && ob.delivered(ctx, chat+pk) {
			continue
		}
		tries, err := ob.post(ctx, chatID, p, PostOptions{ReplyTo: o.ReplyTo, Key: pk, Sent: o.Sent})
		switch {
		case err == nil:
			if keyed {
				ob.remember(ctx, chat+pk, o.Remember)
			}
			continue
		case p.Optional:
			ob.o.Log.Warn(ob.name+": optional part not sent", "chat", ob.o.Describe(chatID), "kind", p.Kind, "err", ob.clean(err))
			continue
		}
		if tries > 1 {
			err = fmt.Errorf("giving up after %d tries: %w", tries, err)
		}
		if len(parts) > 1 {
			err = fmt.Errorf("part %d of %d: %w", i+1, len(parts), err)
		}
		if i == 0 {
			// The Wire's Fallback judges whether the error blames the
			// content (a card refused, perhaps after a retried token).
			err = firstRefused{err}
		}
		return err
	}
	return nil
}

// post makes the attempts at one part; it returns how many were made.
func (ob *Outbox) post(ctx context.Context, chatID string, p Part, o PostOptions) (int, error) {
	return ob.attempts(ctx, limitKey(chatID, o.ReplyTo), ob.o.Describe(chatID), p.Kind, func(ctx context.Context) error {
		return ob.wire.Post(ctx, chatID, p, o)
	})
}

// attempts makes op under the rate limit of key, retried while the Wire
// calls its failure recoverable; it returns how many attempts were made.
func (ob *Outbox) attempts(ctx context.Context, key, chat, kind string, op func(ctx context.Context) error) (int, error) {
	tries := 0
	err := retry.Do(ctx, ob.o.Retry, func(ctx context.Context) error {
		if ob.o.Limit != nil {
			if err := ob.o.Limit.Wait(ctx, key); err != nil {
				return fmt.Errorf("rate limit: %w", err)
			}
		}
		if tries++; tries > 1 {
			ob.o.Log.Warn(ob.name+": retrying a send", "chat", chat, "kind", kind, "attempt", tries)
		}
		return op(ctx)
	}, func(err error) retry.Verdict {
		if ctx.Err() != nil {
			return retry.Verdict{}
		}
		return ob.wire.Retry(err)
	})
	return tries, err
}

// Call makes op, a call to the channel's service outside Send (a card
// updated in place), under chatID's rate limit and the retry policy,
// judged by the Wire's Retry; its error names the channel and is
// redacted.
func (ob *Outbox) Call(ctx context.Context, chatID, what string, op func(ctx context.Context) error) error {
	return ob.call(ctx, chatID, chatID, what, op)
}

// CallMessage is Call for a call about one message already sent (its
// card updated in place): rate-limited per message ("message:<id>"), as
// Feishu limits updates per message (5 QPS), not per chat — a burst of
// answers replacing their "查询中…" cards does not queue behind the
// chat's sends.
func (ob *Outbox) CallMessage(ctx context.Context, chatID, messageID, what string, op func(ctx context.Context) error) error {
	return ob.call(ctx, "message:"+messageID, chatID, what, op)
}

func (ob *Outbox) call(ctx context.Context, key, chatID, what string, op func(ctx context.Context) error) error {
	tries, err := ob.attempts(ctx, key, ob.o.Describe(chatID), what, op)
	if err != nil && tries > 1 {
		err = fmt.Errorf("giving up after %d tries: %w", tries, err)
	}
	if err != nil {
		err = fmt.Errorf("%s: %s: %w", what, ob.o.Describe(chatID), err)
		if ob.o.Clean != nil {
			err = Redact(err, ob.o.Clean)
		}
	}
	return err
}

// fail names the channel and chat in err and redacts it; nil stays nil.
func (ob *Outbox) fail(chatID string, err error) error {
	if err == nil {
		return nil
	}
	err = fmt.Errorf("%s: send to %s: %w", ob.name, ob.o.Describe(chatID), err)
	ob.o.Log.Warn(ob.name+": send failed", "chat", ob.o.Describe(chatID), "err", ob.clean(err))
	if ob.o.Clean == nil {
		return err
	}
	return Redact(err, ob.o.Clean)
}

func (ob *Outbox) clean(err error) string {
	if ob.o.Clean == nil {
		return err.Error()
	}
	return ob.o.Clean(err.Error())
}

// freshKey is a random idempotency key for a Send that brought none.
func freshKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// waiter is a Mergeable reply waiting for its chat.
type waiter struct {
	r     Reply
	key   string        // its idempotency key
	taken chan struct{} // closed when another Send took it into a merge
	err   error         // the merged send's outcome, set before taken closes
}

// sendMergeable is Send for a Mergeable reply: it waits for the chat like
// any Send, but when it gets the chat and MergeAt−1 or more others are
// waiting, it sends them all as one message; the others return its
// outcome.
func (ob *Outbox) sendMergeable(ctx context.Context, chatID string, r Reply, o SendOptions) (err error) {
	key := limitKey(chatID, o.ReplyTo)
	if chatID != "" {
		key = chatID // merged answers go to the chat, whatever they reply to
	}
	w := &waiter{r: r, key: o.IdempotencyKey, taken: make(chan struct{})}
	ob.mu.Lock()
	ob.waiting[key] = append(ob.waiting[key], w)
	ob.mu.Unlock()
	batch, err := ob.acquire(ctx, key, w)
	switch {
	case errors.Is(err, errTaken):
		return w.err
	case err != nil:
		return ob.fail(chatID, fmt.Errorf("waiting for the chat's previous message: %w", err))
	}
	if ob.o.OnSend != nil {
		defer func() { ob.o.OnSend(err) }()
	}
	defer ob.unlock(key)
	if len(batch) == 0 {
		return ob.fail(chatID, ob.render(ctx, chatID, r, o))
	}
	rs, keys := []Reply{r}, []string{o.IdempotencyKey}
	for _, b := range batch {
		rs, keys = append(rs, b.r), append(keys, b.key)
	}
	ob.o.Log.Info(ob.name+": replies piled up; sending them as one message", "chat", ob.o.Describe(chatID), "replies", len(rs))
	// Keyed by its answers' keys: a retried merge is not posted twice.
	sum := sha256.Sum256([]byte(strings.Join(keys, "\x00")))
	merged := SendOptions{IdempotencyKey: "merged:" + hex.EncodeToString(sum[:12])}
	err = ob.fail(chatID, ob.render(ctx, chatID, MergeReplies(rs), merged))
	for _, b := range batch {
		b.err = err
		close(b.taken)
	}
	return err
}

// errTaken: the waiter was merged into another Send.
var errTaken = errors.New("merged into another reply")

// acquire waits until w's Send holds the chat key (then it takes the
// others waiting when they are MergeAt−1 or more) or another Send took w.
func (ob *Outbox) acquire(ctx context.Context, key string, w *waiter) ([]*waiter, error) {
	for {
		ob.mu.Lock()
		select {
		case <-w.taken:
			ob.mu.Unlock()
			return nil, errTaken
		default:
		}
		ch, held := ob.busy[key]
		if !held {
			ob.busy[key] = make(chan struct{})
			var batch []*waiter
			rest := ob.waiting[key][:0]
			for _, x := range ob.waiting[key] {
				if x != w {
					rest = append(rest, x)
				}
			}
			if len(rest)+1 >= ob.o.MergeAt {
				batch, rest = append([]*waiter(nil), rest...), nil
			}
			ob.setWaiting(key, rest)
			ob.mu.Unlock()
			return batch, nil
		}
		ob.mu.Unlock()
		select {
		case <-ch:
		case <-w.taken:
		case <-ctx.Done():
			ob.mu.Lock()
			defer ob.mu.Unlock()
			select {
			case <-w.taken: // merged meanwhile: its outcome stands
				return nil, errTaken
			default:
			}
			var rest []*waiter
			for _, x := range ob.waiting[key] {
				if x != w {
					rest = append(rest, x)
				}
			}
			ob.setWaiting(key, rest)
			return nil, ctx.Err()
		}
	}
}

// setWaiting records the chat's waiters; the caller holds mu.
func (ob *Outbox) setWaiting(key string, ws []*waiter) {
	if len(ws) == 0 {
		delete(ob.waiting, key)
		return
	}
	ob.waiting[key] = ws
}

// limitKey is the chat a send is limited and serialised under.
func limitKey(chatID, replyTo string) string {
	if chatID == "" && replyTo != "" {
		return "reply:" + replyTo
	}
	return chatID
}

// lock takes the chat's send slot, or fails when ctx ends first.
func (ob *Outbox) lock(ctx context.Context, key string) error {
	for {
		ob.mu.Lock()
		ch, held := ob.busy[key]
		if !held {
			ob.busy[key] = make(chan struct{})
			ob.mu.Unlock()
			return nil
		}
		ob.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (ob *Outbox) unlock(key string) {
	ob.mu.Lock()
	ch := ob.busy[key]
	delete(ob.busy, key)
	ob.mu.Unlock()
	close(ch)
}

// delivered reports whether the keyed part went out: in this process,
// or in the DeliveryLog (a store that fails counts as "not delivered",
// logged: the part is then sent).
func (ob *Outbox) delivered(ctx context.Context, pk string) bool {
	ob.mu.Lock()
	until, ok := ob.sent[pk]
	ob.mu.Unlock()
	if ok && time.Now().Before(until) {
		return true
	}
	if ob.o.Delivered == nil {
		return false
	}
	lctx, cancel := context.WithTimeout(ctx, logTimeout)
	defer cancel()
	found, err := ob.o.Delivered.Delivered(lctx, ob.logKey(pk))
	if err != nil {
		ob.o.Log.Warn(ob.name+": delivered parts: the store did not answer; sending the part", "err", ob.clean(err))
		return false
	}
	return found
}

// remember records a delivered keyed part for ttl (the outbox's Remember
// when not positive), in the DeliveryLog and in the process (there at
// most Remember when the log keeps it), forgetting old ones now and then.
func (ob *Outbox) remember(ctx context.Context, pk string, ttl time.Duration) {
	if ttl <= 0 {
		ttl = ob.o.Remember
	}
	local := ttl
	if ob.o.Delivered != nil {
		local = min(ttl, ob.o.Remember)
	}
	ob.mu.Lock()
	now := time.Now()
	ob.sent[pk] = now.Add(local)
	if now.Sub(ob.swept) > ob.o.Remember {
		for k, until := range ob.sent {
			if !now.Before(until) {
				delete(ob.sent, k)
			}
		}
		ob.swept = now
	}
	ob.mu.Unlock()
	if ob.o.Delivered == nil {
		return
	}
	// Recorded even when the send's ctx just ended: the part went out.
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), logTimeout)
	defer cancel()
	if err := ob.o.Delivered.MarkDelivered(lctx, ob.logKey(pk), ttl); err != nil {
		ob.o.Log.Warn(ob.name+": delivered parts: could not record a part in the store", "err", ob.clean(err))
	}
}

// logKey is a part's key in the DeliveryLog.
func (ob *Outbox) logKey(pk string) string { return ob.o.Scope + "/" + pk }

var _ Sender = (*Outbox)(nil)
