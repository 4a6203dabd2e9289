package feishu

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/gob"
	"encoding/hex"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// Inbox keeps every event the bot will answer from before Feishu gets its
// 200 until its answer is sent: Feishu does not deliver an event again
// once it had its 200, so a process killed in between (SIGKILL, OOM, a
// node lost) must not take the event with it. The embedded and Redis
// stores implement it.
//
// Each entry has an owner, the process answering it, which renews a
// lease while it runs (RenewInboxLease). A live process takes over, with
// ClaimInbox, the entries of no owner (answers the shutdown grace cut
// off) at once and those of an owner whose lease ended once it has been
// seen ended for a while; one taker gets each. The answer is sent under
// the idempotency key "reply:<message id>", so a part already delivered
// (the outbox's delivery log in the store, Feishu's uuid) is not sent
// twice.
type Inbox interface {
	// PutInbox writes the entry under key, owned by owner ("" for
	// nobody), for ttl, replacing one under the same key; it returns once
	// the entry is durable.
	PutInbox(ctx context.Context, key, owner string, data []byte, ttl time.Duration) error
	// DropInbox removes the entry under key: its answer was sent.
	DropInbox(ctx context.Context, key string) error
	// RenewInboxLease keeps owner's lease for ttl.
	RenewInboxLease(ctx context.Context, owner string, ttl time.Duration) error
	// ClaimInbox takes for taker, atomically, the entries under prefix of
	// no owner and those whose owner's lease has been seen ended for at
	// least confirm, and returns their bytes by key.
	ClaimInbox(ctx context.Context, prefix, taker string, confirm time.Duration) (map[string][]byte, error)
}

// InboxTTL is how long an entry waits for an answer; one older is
// dropped. The delivered parts of an answer are remembered as long.
const InboxTTL = 24 * time.Hour

// DefaultLeaseTTL is Options.LeaseTTL's default: a process SIGKILLed
// while answering has its events taken over 1 to 1⅔ leases later.
const DefaultLeaseTTL = 6 * time.Second

// inboxTimeout bounds writing an entry in the callback (Feishu waits 3 s
// for its answer, the claim takes up to 1 s), and each later write.
const inboxTimeout = 1500 * time.Millisecond

// maxAttempts: an entry whose answer failed this many times (Feishu
// refusing it each time, on whichever replica) is dropped.
const maxAttempts = 4

// staleAfter: an answer taken over and sent this long after it was made
// says so, with the time it was made (its figures are as of then).
const staleAfter = time.Minute

// parked is an inbox entry: the message (gated), and the answer when it
// had been made. A process taking it over sends the answer, under the
// same idempotency key ("reply:<message id>": the outbox skips the parts
// that went out, Feishu drops a part it took by its uuid), or, when it
// had not been made, answers the message then.
type parked struct {
	Msg         chat.Message
	Unsupported bool        // not text: answered with unsupportedText
	Reply       *chat.Reply // nil: not answered yet
	AnsweredAt  time.Time
	InterimID   string // the "查询中…" card posted for it, if any
	Received    time.Time
	Attempts    int // failed sends so far
}

func (p parked) encode() ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(p); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeParked(data []byte) (parked, error) {
	var p parked
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(&p)
	return p, err
}

// newOwner is a process's name in the inbox: the replica's, and a
// random part of its own, so that a restart is a new owner.
func newOwner(replica string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	if replica == "" {
		replica = "feishu"
	}
	return replica + "/" + hex.EncodeToString(b[:])
}

// Unkept is how many events were acknowledged while the store was down
// (their claims in the deduper's process window), so kept in memory
// only, not in the inbox.
func (b *Bot) Unkept() int64 { return b.unkept.Load() }

// inboxPrefix is where this app's inbox entries are kept in the store.
func (b *Bot) inboxPrefix() string { return "feishu/" + b.opts.AppID + "/" }

func (b *Bot) inboxKey(msgID string) string { return b.inboxPrefix() + msgID }

// cutOff reports whether the shutdown grace has ended (Close cancelled
// the workers' context).
func (b *Bot) cutOff() bool { return b.runCtx.Err() != nil }

// accept writes p in the inbox, owned by this process, before the
// callback answers 200.
func (b *Bot) accept(ctx context.Context, p parked) error {
	data, err := p.encode()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), inboxTimeout)
	defer cancel()
	return b.opts.Inbox.PutInbox(ctx, b.inboxKey(p.Msg.ID), b.owner, data, InboxTTL)
}

// finish removes j's entry from the inbox: its answer went out (or there
// was none to send).
func (b *Bot) finish(j job) {
	if !j.inboxed || b.opts.Inbox == nil || j.p == nil {
		return
	}
	key := b.inboxKey(j.p.Msg.ID)
	ctx, cancel := context.WithTimeout(context.Background(), inboxTimeout)
	defer cancel()
	if err := b.opts.Inbox.DropInbox(ctx, key); err != nil {
		// Left, it would be taken over once this process is gone and
		// answered again (the store was down: the delivered parts may
		// not be marked either), so it is cleared as soon as the store
		// answers (dropPending).
		b.log.Warn("feishu: could not clear an answered message from the inbox; retrying", "message_id", j.p.Msg.ID, "err", err)
		b.dropMu.Lock()
		if b.toDrop == nil {
			b.toDrop = map[string]bool{}
		}
		b.toDrop[key] = true
		b.dropMu.Unlock()
	}
}

// dropPending clears the inbox entries of answers sent while the store
// was down, once it answers again.
func (b *Bot) dropPending(ctx context.Context) {
	b.dropMu.Lock()
	keys := make([]string, 0, len(b.toDrop))
	for k := range b.toDrop {
		keys = append(keys, k)
	}
	b.dropMu.Unlock()
	for _, k := range keys {
		dctx, cancel := context.WithTimeout(ctx, inboxTimeout)
		err := b.opts.Inbox.DropInbox(dctx, k)
		cancel()
		if err != nil {
			return // the store is still down: the next tick tries again
		}
		b.dropMu.Lock()
		delete(b.toDrop, k)
		b.dropMu.Unlock()
	}
}

// retry puts an answer that failed back in the inbox, of no owner, for
// a replica to send again, or, after maxAttempts, drops it (its claim
// released, should Feishu deliver it again).
func (b *Bot) retry(j job, p parked) {
	p.Attempts++
	if b.opts.Inbox == nil || p.Attempts >= maxAttempts {
		j.inboxed, j.p = true, &p
		b.finish(j)
		b.releaseClaims(j.claim)
		return
	}
	if err := b.put(p, ""); err != nil {
		b.log.Error("feishu: could not keep a failed answer for another try", "message_id", p.Msg.ID, "err", err)
		b.releaseClaims(j.claim)
	}
}

// noteInterim is what records in j's inbox entry the "查询中…" card posted
// for it, so that a replica taking it over turns that card into the
// answer instead of leaving it; nil when j is not in the inbox.
func (b *Bot) noteInterim(j job, p parked) func(id string) {
	if !j.inboxed || b.opts.Inbox == nil {
		return nil
	}
	return func(id string) {
		q := p
		q.InterimID = id
		data, err := q.encode()
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), inboxTimeout)
			err = b.opts.Inbox.PutInbox(ctx, b.inboxKey(p.Msg.ID), b.owner, data, InboxTTL)
			cancel()
		}
		if err != nil {
			b.log.Warn("feishu: could not note the interim card in the inbox", "message_id", p.Msg.ID, "err", err)
		}
	}
}

// put writes p in the inbox owned by owner.
func (b *Bot) put(p parked, owner string) error {
	data, err := p.encode()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return b.opts.Inbox.PutInbox(ctx, b.inboxKey(p.Msg.ID), owner, data, InboxTTL)
}

// park keeps p, cut off by the shutdown grace, in the inbox, of no owner:
// another replica takes it at once, or this one at its next start.
// Without an Inbox, or when the store fails, the event is handed back as
// before (its claim released: a redelivery, should Feishu send one, is
// answered).
func (b *Bot) park(j job, p parked) {
	if b.opts.Inbox == nil {
		b.handBack(j)
		return
	}
	if err := b.put(p, ""); err != nil {
		b.log.Error("feishu: could not keep an unanswered message in the inbox", "message_id", p.Msg.ID, "err", err)
		b.handBack(j)
		return
	}
	b.parked.Add(1)
}

// handBack releases j's claim unanswered (counted, logged once by Close).
func (b *Bot) handBack(j job) {
	b.handedBack.Add(1)
	b.releaseClaims(j.claim)
}

// parkQueued parks a job the workers never started: its message gated
// now (one the bot would not answer is dropped).
func (b *Bot) parkQueued(j job) {
	if j.p != nil {
		b.park(j, *j.p)
		return
	}
	msg, v := Gate(j.ev, b.BotOpenID(), b.opts.Started)
	if v != Answer && v != Unsupported {
		return
	}
	b.park(j, parked{Msg: msg, Unsupported: v == Unsupported, Received: j.received})
}

// tendInbox renews this process's lease and takes over the inbox entries
// left by processes gone (or of no owner), every third of the lease,
// until Close has ended (ctx, of runCtx, ends with it).
func (b *Bot) tendInbox(ctx context.Context) {
	if b.opts.Inbox == nil {
		return
	}
	lease := b.opts.LeaseTTL
	t := time.NewTicker(lease / 3)
	defer t.Stop()
	// The lease is renewed through the shutdown grace (the answers under
	// way are this process's), until Close ends; taking over stops with
	// the shutdown (takeOver).
	defer b.dropPending(context.Background()) // a last try at Close
	failing := false
	for {
		rctx, cancel := context.WithTimeout(ctx, inboxTimeout)
		err := b.opts.Inbox.RenewInboxLease(rctx, b.owner, lease)
		cancel()
		switch {
		case err == nil:
			failing = false
			b.dropPending(ctx)
			b.takeOver(ctx, lease*2/3)
		case !failing && ctx.Err() == nil:
			failing = true
			b.log.Warn("feishu: could not renew the inbox lease; not taking over until it is renewed", "err", err)
		}
		select {
		case <-ctx.Done(): // Close ended
			return
		case <-t.C:
		}
	}
}

// takeOver takes the entries of processes gone and queues them.
func (b *Bot) takeOver(ctx context.Context, confirm time.Duration) {
	if b.closing() {
		return
	}
	tctx, cancel := context.WithTimeout(ctx, inboxTimeout)
	got, err := b.opts.Inbox.ClaimInbox(tctx, b.inboxPrefix(), b.owner, confirm)
	cancel()
	if err != nil {
		if ctx.Err() == nil {
			b.log.Warn("feishu: could not read the inbox for messages left unanswered", "err", err)
		}
		return
	}
	n := 0
	for key, data := range got {
		p, err := decodeParked(data)
		if err != nil {
			b.log.Error("feishu: an inbox entry does not decode; dropped", "key", key, "err", err)
			dctx, cancel := context.WithTimeout(ctx, inboxTimeout)
			_ = b.opts.Inbox.DropInbox(dctx, key)
			cancel()
			continue
		}
		if !b.reserve() {
			b.park(job{}, p) // closing or full: of no owner again
			continue
		}
		if err := b.push(job{p: &p, resumed: true, inboxed: true, received: p.Received}); err != nil {
			b.release()
			b.park(job{}, p)
			continue
		}
		n++
	}
	if n > 0 {
		b.log.Info("feishu: answering messages a stopped or lost process left unanswered", "messages", n)
	}
}

// staleNote marks an answer sent well after it was made: its figures are
// as of then.
func staleNote(r chat.Reply, at time.Time) chat.Reply {
	r.Notes = append(append([]string(nil), r.Notes...), i18n.Of(r.English).T("feishu.parked_note", at.Format("15:04")))
	return r
}
