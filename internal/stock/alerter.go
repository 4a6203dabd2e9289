package stock

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// AlertItem is one subscription's news in an alert.
type AlertItem struct {
	Subscription Subscription
	Reason       Reason
	// Offers are the satisfying offers, cheapest first (none for sold out).
	Offers []Offer
}

// Alert is everything one poll has to tell one chat: all its items go out
// as one message.
type Alert struct {
	Channel string
	ChatID  string
	// English is true when every subscription in it was made in English.
	English bool
	Items   []AlertItem
	// At is the poll time.
	At time.Time
	// Key identifies the alert's content across retries (its items' claim
	// keys): a channel uses it as the send's idempotency key, so a retry
	// of a send that did arrive is not posted twice.
	Key string
}

// Notifier delivers alerts to a chat (console, Feishu, WeChat).
type Notifier interface {
	// Notify sends one alert; an error means it was not delivered and the
	// items will be decided again at the next poll.
	Notify(ctx context.Context, a Alert) error
}

// NotifierFunc adapts a function to Notifier.
type NotifierFunc func(ctx context.Context, a Alert) error

// Notify calls f.
func (f NotifierFunc) Notify(ctx context.Context, a Alert) error { return f(ctx, a) }

// QuietHours reports whether a chat (ChatKey) is in its quiet hours at t.
type QuietHours func(chatKey string, t time.Time) bool

// Alerter turns snapshots into alerts for the stored subscriptions.
type Alerter struct {
	Subs     SubscriptionStore
	Log      AlertStore
	Notifier Notifier
	Policy   Policy
	Quiet    QuietHours
	Logger   *slog.Logger
	// ClaimTTL bounds how long an alert key blocks a duplicate send
	// (default 24 h).
	ClaimTTL time.Duration
	// SendTimeout bounds one chat's send, its retries included (default
	// DefaultSendTimeout); SendConcurrency is how many chats are sent to
	// at once (default DefaultSendConcurrency). An unreachable target
	// then delays neither other chats' alerts nor the poll past it.
	SendTimeout     time.Duration
	SendConcurrency int

	// mu serialises Process; it guards the buffers below, which are
	// reused from poll to poll so a pass allocates little beyond what it
	// sends (issue 19: a 100k-subscription pass).
	mu   sync.Mutex
	ix   *Index
	ids  []string
	recs []NotifyRecord
	// fire lists the subscriptions (indexes) with an alert to send.
	fire []int32
}

// NotifyRecordsReader is an optional AlertStore method, NotifyRecords
// into a caller's slice: it sets recs[i] to the record of ids[i] (leaving
// it zero when there is none), so the Alerter reuses one slice from poll
// to poll and looks no record up in a map. An error with partial true
// means some records did not decode (they are left zero); with partial
// false, nothing was read.
type NotifyRecordsReader interface {
	ReadNotifyRecords(ctx context.Context, ids []string, recs []NotifyRecord) (partial bool, err error)
}

// ProcessResult counts what one Process call did.
type ProcessResult struct {
	Subscriptions int `json:"subscriptions"`
	Alerts        int `json:"alerts"` // messages sent
	Items         int `json:"items"`  // subscription items in them
	Held          int `json:"held"`   // muted, quiet hours, claimed elsewhere, or failed
}

// Process decides every subscription against the snapshot at time now,
// sends one merged alert per chat, and stores the new notification
// records. An item is recorded as notified only after its message was
// sent; each item is claimed first (SET NX) so that two replicas never
// both send it.
func (a *Alerter) Process(ctx context.Context, snap Snapshot, now time.Time) (ProcessResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	defer clear(a.recs) // keep the buffer, not the records, between polls
	var res ProcessResult
	subs, recs, err := a.load(ctx)
	res.Subscriptions = len(subs)
	if err != nil || len(subs) == 0 {
		return res, err
	}
	if a.ix == nil {
		a.ix = &Index{}
	}
	a.ix.reset(snap)
	ps := &pass{a: a, now: now, res: &res, ttl: a.claimTTL(), ix: a.ix, subs: subs, recs: recs}
	a.fire = groupByChat(subs, ps.decide(a.fire[:0]))
	// Chats are sent to several at once, each send bounded: a chat whose
	// webhook hangs or fails holds its own alert (decided again at the
	// next poll), never another chat's.
	var g errgroup.Group
	g.SetLimit(a.sendConcurrency())
	for lo := 0; lo < len(a.fire); {
		hi := lo + 1
		for hi < len(a.fire) && cmpChat(&subs[a.fire[lo]], &subs[a.fire[hi]]) == 0 {
			hi++
		}
		chat, order := subs[a.fire[lo]].ChatKey(), a.fire[lo:hi]
		g.Go(func() error { ps.sendChat(ctx, chat, order); return nil })
		lo = hi
	}
	_ = g.Wait()
	if len(ps.updates) > 0 {
		if err := a.Log.PutNotifyRecords(ctx, ps.updates); err != nil {
			return res, fmt.Errorf("alerts: write notification log: %w", err)
		}
	}
	return res, nil
}

// groupByChat orders subscription indexes by chat key and, within a chat,
// in subscription order.
func groupByChat(subs []Subscription, fire []int32) []int32 {
	slices.SortStableFunc(fire, func(x, y int32) int { return cmpChat(&subs[x], &subs[y]) })
	return fire
}

// cmpChat orders subscriptions by ChatKey without building the keys when
// the channels are equal (the common case).
func cmpChat(a, b *Subscription) int {
	if a.Channel == b.Channel {
		return strings.Compare(a.ChatID, b.ChatID)
	}
	return strings.Compare(a.ChatKey(), b.ChatKey())
}

// load reads the subscriptions and their notification records (recs[i]
// is subs[i]'s, zero when it has none); entries that do not decode are
// skipped with a warning (their subscription starts afresh), not the
// whole list.
func (a *Alerter) load(ctx context.Context) ([]Subscription, []NotifyRecord, error) {
	subs, err := a.Subs.Subscriptions(ctx)
	if err != nil {
		if len(subs) == 0 {
			return nil, nil, fmt.Errorf("alerts: list subscriptions: %w", err)
		}
		a.logger().Warn("alerts: some subscriptions unreadable", "err", err)
	}
	if len(subs) == 0 {
		return subs, nil, nil
	}
	ids := a.ids[:0]
	for i := range subs {
		ids = append(ids, subs[i].ID)
	}
	a.ids = ids
	defer clear(a.ids) // keep no ids alive between polls
	a.recs = slices.Grow(a.recs[:0], len(ids))[:len(ids)]
	clear(a.recs)
	var partial bool
	if r, ok := a.Log.(NotifyRecordsReader); ok {
		partial, err = r.ReadNotifyRecords(ctx, ids, a.recs)
	} else {
		var m map[string]NotifyRecord
		m, err = a.Log.NotifyRecords(ctx, ids)
		partial = m != nil
		for i, id := range ids {
			a.recs[i] = m[id]
		}
	}
	if err != nil {
		if !partial {
			return subs, nil, fmt.Errorf("alerts: read notification log: %w", err)
		}
		a.logger().Warn("alerts: some notification records unreadable", "err", err)
	}
	return subs, a.recs, nil
}

// Defaults of Alerter.SendTimeout and SendConcurrency.
const (
	DefaultSendTimeout     = 30 * time.Second
	DefaultSendConcurrency = 8
)

func (a *Alerter) sendTimeout() time.Duration {
	if a.SendTimeout > 0 {
		return a.SendTimeout
	}
	return DefaultSendTimeout
}

func (a *Alerter) sendConcurrency() int {
	if a.SendConcurrency > 0 {
		return a.SendConcurrency
	}
	return DefaultSendConcurrency
}

// claimTTL is how long an alert's claim lasts: a day, at least the
// cooldown.
func (a *Alerter) claimTTL() time.Duration {
	ttl := a.ClaimTTL
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	return max(ttl, a.Policy.Cooldown)
}

// pass is one Process run: its result and the records to write (mu
// guards them once the chats' sends run at once).
type pass struct {
	a       *Alerter
	now     time.Time
	ttl     time.Duration
	mu      sync.Mutex
	res     *ProcessResult
	updates []NotifyRecord
	ix      *Index
	subs    []Subscription
	recs    []NotifyRecord // recs[i] is subs[i]'s
}

// pending is an alert item decided to go out, with its records before and
// after; sub points into the pass's subscription list and the offers stay
// in the index until the chat's alert is built.
type pending struct {
	sub    *Subscription
	obs    Observation
	reason Reason
	prev   NotifyRecord
	next   NotifyRecord
}

// item is the alert item of p.
func (p *pending) item() AlertItem {
	return AlertItem{Subscription: *p.sub, Reason: p.reason, Offers: p.obs.List()}
}

// decide observes every subscription and appends the indexes of those
// with an alert to send to fire (their items are decided again, alike,
// one chat at a time: no pass holds the items of every chat at once);
// records that changed without an alert are queued as updates.
func (ps *pass) decide(fire []int32) []int32 {
	for i := range ps.subs {
		p := ps.pending(i)
		if p.reason != "" {
			fire = append(fire, int32(i))
			continue
		}
		if p.next != p.prev {
			ps.updates = append(ps.updates, p.next)
		}
	}
	return fire
}

// pending decides subscription i; reason is empty when nothing is sent.
func (ps *pass) pending(i int) pending {
	s := &ps.subs[i]
	prev := ps.recs[i]
	prev.SubscriptionID = s.ID
	o := ps.ix.observe(s)
	d, next := Decide(prev, o, ps.now, ps.a.Policy)
	p := pending{sub: s, obs: o, prev: prev, next: next}
	if d.Notify {
		p.reason = d.Reason
	}
	return p
}

// hold keeps an item's observation but not its notification, so it is
// decided again at the next poll.
func (ps *pass) hold(p *pending) {
	r := p.next
	r.Active, r.NotifiedAt, r.NotifiedPrice, r.Seq = p.prev.Active, p.prev.NotifiedAt, p.prev.NotifiedPrice, p.prev.Seq
	ps.mu.Lock()
	ps.updates = append(ps.updates, r)
	ps.res.Held++
	ps.mu.Unlock()
}

// count adds to the pass's result.
func (ps *pass) count(alerts, items, held int) {
	ps.mu.Lock()
	ps.res.Alerts += alerts
	ps.res.Items += items
	ps.res.Held += held
	ps.mu.Unlock()
}

// sendChat claims a chat's items and sends them as one alert (held when
// the chat is muted or the send fails), recording what went out at once.
func (ps *pass) sendChat(ctx context.Context, chat string, order []int32) {
	a := ps.a
	all := make([]pending, len(order))
	items := make([]*pending, len(order))
	for i, k := range order {
		all[i] = ps.pending(int(k))
		items[i] = &all[i]
	}
	if a.muted(ctx, chat, ps.now) {
		for _, p := range items {
			ps.hold(p)
		}
		return
	}
	alert, sent, keys, already := ps.claim(ctx, items)
	done := make([]NotifyRecord, 0, len(items))
	for _, p := range already {
		done = append(done, p.next)
	}
	if len(alert.Items) > 0 {
		nctx, cancel := context.WithTimeout(ctx, a.sendTimeout())
		err := a.Notifier.Notify(nctx, alert)
		cancel()
		if err != nil {
			a.logger().Warn("alerts: send failed; will retry at the next poll", "chat", chat, "items", len(alert.Items), "err", err)
			for i, p := range sent {
				ps.hold(p)
				if err := a.Log.ReleaseAlert(ctx, keys[i]); err != nil {
					a.logger().Warn("alerts: release claim", "key", keys[i], "err", err)
				}
			}
			sent = nil
		} else {
			ps.count(1, len(sent), 0)
		}
	}
	for _, p := range sent {
		done = append(done, p.next)
	}
	if len(done) == 0 {
		return
	}
	if err := a.Log.PutNotifyRecords(ctx, done); err != nil {
		a.logger().Error("alerts: sent but not recorded; the claims stop a repeat", "chat", chat, "err", err)
	}
}

// claim takes one key per subscription and alert number (a second replica,
// or a retry after a failed log write, finds it taken; a failed send
// releases it) and builds the alert of the items claimed. Items whose key
// is already taken come back as already: with one replica polling at a
// time (the poll lock), a taken key means an earlier pass sent that alert
// and could not record it (it died, or the store failed in between), so
// the caller records it as sent; held instead, the subscription's record
// would never advance and its later alerts would be held as well until
// the claim expired.
func (ps *pass) claim(ctx context.Context, items []*pending) (alert Alert, sent []*pending, keys []string, already []*pending) {
	first := items[0].sub
	alert = Alert{Channel: first.Channel, ChatID: first.ChatID, English: true, At: ps.now, Items: make([]AlertItem, 0, len(items))}
	for _, p := range items {
		key := AlertClaimKey(p.sub.ID, p.next.Seq)
		ok, err := ps.a.Log.ClaimAlert(ctx, key, ps.ttl)
		if err != nil {
			ps.a.logger().Warn("alerts: claim failed", "subscription", p.sub.ID, "err", err)
			ps.hold(p)
			continue
		}
		if !ok {
			ps.a.logger().Info("alerts: already sent by an earlier pass; recording it", "subscription", p.sub.ID, "seq", p.next.Seq)
			ps.count(0, 0, 1)
			already = append(already, p)
			continue
		}
		alert.Items = append(alert.Items, p.item())
		alert.English = alert.English && p.sub.English
		sent = append(sent, p)
		keys = append(keys, key)
	}
	alert.Key = strings.Join(keys, ",")
	return alert, sent, keys, already
}

func (a *Alerter) muted(ctx context.Context, chat string, now time.Time) bool {
	if a.Quiet != nil && a.Quiet(chat, now) {
		return true
	}
	until, err := a.Log.MutedUntil(ctx, chat)
	if err != nil {
		a.logger().Warn("alerts: read mute", "chat", chat, "err", err)
		return false
	}
	return now.Before(until)
}

func (a *Alerter) logger() *slog.Logger {
	if a.Logger != nil {
		return a.Logger
	}
	return slog.Default()
}
