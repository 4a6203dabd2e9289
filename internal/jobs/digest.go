package jobs

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
)

// DigestClaimTTL is how long a scheduled digest's delivered parts are
// remembered (a retry at a later run skips them).
const DigestClaimTTL = 30 * 24 * time.Hour

// DigestLease is how long one replica holds a chat's digest while it
// sends it; a replica that dies meanwhile leaves it to a run after that.
const DigestLease = 30 * time.Minute

// MaxDigestGap: a chat whose last scheduled digest ended longer ago than
// this (the digest turned off and on again, the bot down for weeks)
// starts over with the previous ISO week, and a period stuck that long
// is given up.
const MaxDigestGap = 35 * 24 * time.Hour

// DigestChats lists the chats that turned the scheduled digest on
// ("开启周报"), as chat keys.
type DigestChats interface {
	DigestChats(ctx context.Context) ([]string, error)
}

// DigestMarks keeps where each chat's scheduled digest stands, as an
// opaque text per chat changed only by compare and swap (old "" means
// none; new "" deletes). The embedded and Redis stores implement it.
type DigestMarks interface {
	DigestMark(ctx context.Context, chatKey string) (string, error)
	SwapDigestMark(ctx context.Context, chatKey, old, new string) (bool, error)
}

// ClaimReader tells whether a key is claimed without claiming it (the
// stores' ClaimOwner); a Claimer that is one lets Digest skip a week the
// bot sent before it kept marks.
type ClaimReader interface {
	ClaimOwner(ctx context.Context, key string) (owner string, held bool, err error)
}

// Period is a scheduled digest's span, [From, To).
type Period struct{ From, To time.Time }

// NextPeriod is the period a chat's next scheduled digest covers when its
// last one ended at last (zero: it has had none) and the schedule fires at
// now: from last to the start of now's day in loc, or, for the first
// digest (or after MaxDigestGap), the previous ISO week. ok is false when
// nothing has passed since last (a second run the same day).
//
// So the weekly schedule ("0 9 * * 1") sends ISO weeks, a daily one each
// day before, and a run that failed or was stopped leaves its period to
// the next run, which covers it (RunOnce resends the same period).
func NextPeriod(last, now time.Time, loc *time.Location) (p Period, ok bool) {
	l := now.In(loc)
	today := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
	if last.IsZero() || now.Sub(last) > MaxDigestGap {
		monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
		return Period{monday.AddDate(0, 0, -7), monday}, true
	}
	if !today.After(last) {
		return Period{}, false
	}
	return Period{last.In(loc), today}, true
}

// DigestKey is a scheduled digest's idempotency key: its kind, lab and
// period, "digest:<lab>:<from>/<to>" (RFC 3339). A chat's outbox keeps
// it per chat; `bot digest --send` and previews never use it.
func DigestKey(lab string, p Period) string {
	return "digest:" + lab + ":" + p.From.Format(time.RFC3339) + "/" + p.To.Format(time.RFC3339)
}

// digestMark is a chat's mark: where its last scheduled digest ended and
// the day (its start, in the configured zone) of the run that sent it,
// and the period being sent (From and To set) until it has been. A run
// on the day a digest went out sends nothing more that day: two replicas
// whose runs of one schedule follow each other send one digest, even
// when the first sent an older period (a first digest's previous ISO
// week, a failed run's period).
type digestMark struct {
	End  time.Time `json:"end,omitzero"`
	Day  time.Time `json:"day,omitzero"`
	From time.Time `json:"from,omitzero"`
	To   time.Time `json:"to,omitzero"`
}

// dayOf is the start of t's day in loc.
func dayOf(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
}

func (m digestMark) encode() string {
	b, _ := json.Marshal(m)
	return string(b)
}

// pending is the period being sent, if any.
func (m digestMark) pending() (Period, bool) {
	return Period{m.From, m.To}, !m.From.IsZero() && m.To.After(m.From)
}

// Digest posts the storage digest to every chat that turned it on: each
// run covers, per chat, the period since that chat's last scheduled
// digest (NextPeriod). The period is written in the chat's mark before it
// is sent and kept until it has been, so a run that failed, or a stop or
// crash mid-send, is followed by one that sends the same period under the
// same idempotency key (DigestKey): the outbox skips the parts that went
// out, Feishu drops a repeated part by its uuid. With several replicas
// one of them moves a chat's mark (compare and swap) and holds the chat's
// lease (a claim for DigestLease) while it sends.
type Digest struct {
	Chats  DigestChats
	Claims Claimer
	Marks  DigestMarks
	// Lab is the lab of a chat key, for the idempotency key (nil: the
	// chat key).
	Lab func(chatKey string) string
	// Render is the digest of the lab of chatKey over p, as of now.
	Render func(ctx context.Context, chatKey string, p Period, now time.Time) (chat.Reply, error)
	Send   SendFunc
	// Lease is how long a replica holds a chat's digest while sending
	// (default DigestLease).
	Lease time.Duration
	// Location is the time zone of the periods; Now the clock (default
	// time.Now).
	Location *time.Location
	Now      func() time.Time
	Log      *slog.Logger
}

// RunOnce posts each enabled chat's digest that is due. It returns how
// many were sent; errors of single chats are joined, the others still go
// out.
func (d *Digest) RunOnce(ctx context.Context) (int, error) {
	now := clock(d.Now)
	chats, err := d.Chats.DigestChats(ctx)
	if err != nil {
		return 0, err
	}
	sent := 0
	var errs []error
	for _, ck := range chats {
		ok, err := d.runChat(ctx, ck, now)
		if ok {
			sent++
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("digest to %s: %w", ck, err))
		}
	}
	return sent, errors.Join(errs...)
}

// runChat sends ck's due digest, if any, and reports whether it went out.
func (d *Digest) runChat(ctx context.Context, ck string, now time.Time) (bool, error) {
	raw, p, ok, err := d.period(ctx, ck, now)
	if err != nil || !ok {
		return false, err
	}
	key := DigestKey(d.lab(ck), p)
	lease := key + "@" + ck
	held, err := d.Claims.ClaimAlert(ctx, lease, cmp.Or(d.Lease, DigestLease))
	if err != nil {
		return false, fmt.Errorf("lease: %w", err)
	}
	if !held {
		return false, nil // being sent by another replica
	}
	r, err := d.Render(ctx, ck, p, now)
	if err == nil {
		err = d.Send(ctx, ck, r, chat.SendOptions{IdempotencyKey: key, Remember: DigestClaimTTL})
	}
	if err != nil {
		// The period stays in the mark: the next run sends it again.
		_ = d.Claims.ReleaseAlert(context.WithoutCancel(ctx), lease)
		return false, err
	}
	// Sent: the period is the chat's last. (Should this fail, the next run
	// after the lease resends it, and the outbox skips what went out.)
	done := digestMark{End: p.To, Day: dayOf(now, d.loc())}
	if _, err := d.Marks.SwapDigestMark(context.WithoutCancel(ctx), ck, raw, done.encode()); err != nil {
		return true, fmt.Errorf("sent, but the mark did not move: %w", err)
	}
	return true, nil
}

// period is the period ck's digest sends now: the one its mark holds as
// being sent, or the next one, written in the mark first (raw is the
// mark then). ok is false when nothing is due or another replica moved
// the mark first.
func (d *Digest) period(ctx context.Context, ck string, now time.Time) (raw string, p Period, ok bool, err error) {
	raw, err = d.Marks.DigestMark(ctx, ck)
	if err != nil {
		return "", p, false, fmt.Errorf("mark: %w", err)
	}
	var m digestMark
	if raw != "" {
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			logger(d.Log).Warn("digest: a chat's mark does not decode; starting over with last week", "chat", ck, "err", err)
			m = digestMark{}
		}
	}
	if p, ok := m.pending(); ok && now.Sub(p.To) <= MaxDigestGap {
		return raw, p, true, nil
	}
	if !m.Day.IsZero() && m.Day.Equal(dayOf(now, d.loc())) {
		return raw, p, false, nil // a digest went out today
	}
	p, ok = NextPeriod(m.End, now, d.loc())
	if cr, reads := d.Claims.(ClaimReader); ok && raw == "" && reads {
		// A chat's first scheduled digest: the bot before marks claimed
		// the previous week as digest:<chat>:<ISO week> when it sent it.
		_, sent, err := cr.ClaimOwner(ctx, "digest:"+ck+":"+ledger.WeekOf(p.From, d.loc()))
		if err != nil {
			return raw, p, false, fmt.Errorf("claim: %w", err)
		}
		if sent {
			done := digestMark{End: p.To}.encode()
			if swapped, err := d.Marks.SwapDigestMark(ctx, ck, raw, done); err != nil || !swapped {
				return raw, p, false, err
			}
			raw = done
			p, ok = NextPeriod(p.To, now, d.loc())
		}
	}
	if !ok {
		return raw, p, false, nil
	}
	next := digestMark{End: m.End, Day: m.Day, From: p.From, To: p.To}.encode()
	swapped, err := d.Marks.SwapDigestMark(ctx, ck, raw, next)
	if err != nil {
		return raw, p, false, fmt.Errorf("mark: %w", err)
	}
	return next, p, swapped, nil
}

// Due is the period ck's scheduled digest would send at a run at `at`,
// read without writing anything (a preview): the period its mark holds
// as being sent, or the next one (NextPeriod); ok is false when that run
// would send nothing (a digest went out that day, nothing has passed).
// It takes no claim and moves no mark, so the scheduled run after it
// sends as if it had not been asked.
func (d *Digest) Due(ctx context.Context, ck string, at time.Time) (p Period, ok bool, err error) {
	raw, err := d.Marks.DigestMark(ctx, ck)
	if err != nil {
		return p, false, fmt.Errorf("mark: %w", err)
	}
	var m digestMark
	if raw != "" && json.Unmarshal([]byte(raw), &m) != nil {
		m = digestMark{}
	}
	if p, ok := m.pending(); ok && at.Sub(p.To) <= MaxDigestGap {
		return p, true, nil
	}
	if !m.Day.IsZero() && m.Day.Equal(dayOf(at, d.loc())) {
		return p, false, nil
	}
	p, ok = NextPeriod(m.End, at, d.loc())
	if cr, reads := d.Claims.(ClaimReader); ok && raw == "" && reads {
		// As period does: a week the bot before marks sent is skipped.
		if _, sent, err := cr.ClaimOwner(ctx, "digest:"+ck+":"+ledger.WeekOf(p.From, d.loc())); err != nil {
			return p, false, fmt.Errorf("claim: %w", err)
		} else if sent {
			p, ok = NextPeriod(p.To, at, d.loc())
		}
	}
	return p, ok, nil
}

func (d *Digest) lab(ck string) string {
	if d.Lab == nil {
		return ck
	}
	return d.Lab(ck)
}

func (d *Digest) loc() *time.Location {
	if d.Location == nil {
		return time.Local
	}
	return d.Location
}

// Run is the scheduled digest: RunOnce, logged.
func (d *Digest) Run(ctx context.Context) {
	log := logger(d.Log)
	n, err := d.RunOnce(ctx)
	if err != nil {
		log.Error("storage digest", "sent", n, "err", err)
		return
	}
	log.Info("storage digest posted", "chats", n)
}
