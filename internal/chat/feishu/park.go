package feishu

import (
	"bytes"
	"context"
	"encoding/gob"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// Parking keeps the answers the shutdown grace cut off until the next
// start: Feishu had its 200 for those events and will not deliver them
// again. The embedded and Redis stores implement it; TakeParkedReplies
// takes each entry once, whichever replica starts first.
type Parking interface {
	ParkReply(ctx context.Context, key string, data []byte, ttl time.Duration) error
	TakeParkedReplies(ctx context.Context, prefix string) (map[string][]byte, error)
}

// ParkTTL is how long a parked answer waits for a start; one older is
// dropped.
const ParkTTL = 24 * time.Hour

// parkTimeout bounds writing one parked answer at shutdown, and taking
// them at start.
const parkTimeout = 5 * time.Second

// staleAfter: a parked answer sent this long after it was made says so,
// with the time it was made (its figures are as of then).
const staleAfter = time.Minute

// parked is what is known of an event's answer when the grace ended: the
// message (gated), and the answer when it had been made. At the next start
// the answer is sent, under the same idempotency key ("reply:<message
// id>": the outbox skips the parts that went out, Feishu drops a part it
// took by its uuid), or, when it had not been made, the message is
// answered then.
type parked struct {
	Msg         chat.Message
	Unsupported bool        // not text: answered with unsupportedText
	Reply       *chat.Reply // nil: not answered yet
	AnsweredAt  time.Time
	InterimID   string // the "查询中…" card posted for it, if any
	Received    time.Time
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

// parkPrefix is where this app's parked answers are kept in the store.
func (b *Bot) parkPrefix() string { return "feishu/" + b.opts.AppID + "/" }

// cutOff reports whether the shutdown grace has ended (Close cancelled
// the workers' context).
func (b *Bot) cutOff() bool { return b.runCtx.Err() != nil }

// park keeps p for the next start; without Parking, or when the store
// fails, the event is handed back as before (its claim released: a
// redelivery, should Feishu send one, is answered).
func (b *Bot) park(j job, p parked) {
	if b.opts.Parking == nil {
		b.handBack(j)
		return
	}
	data, err := p.encode()
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), parkTimeout)
		err = b.opts.Parking.ParkReply(ctx, b.parkPrefix()+p.Msg.ID, data, ParkTTL)
		cancel()
	}
	if err != nil {
		b.log.Error("feishu: could not keep an unanswered message for the next start", "message_id", p.Msg.ID, "err", err)
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
	if j.parked != nil {
		b.park(j, *j.parked)
		return
	}
	msg, v := Gate(j.ev, b.BotOpenID(), b.opts.Started)
	if v != Answer && v != Unsupported {
		return
	}
	b.park(j, parked{Msg: msg, Unsupported: v == Unsupported, Received: j.received})
}

// unpark takes the answers the last shutdown parked (this replica's or
// another's) and queues them; it runs once, at start.
func (b *Bot) unpark(ctx context.Context) {
	if b.opts.Parking == nil {
		return
	}
	tctx, cancel := context.WithTimeout(ctx, parkTimeout)
	got, err := b.opts.Parking.TakeParkedReplies(tctx, b.parkPrefix())
	cancel()
	if err != nil {
		b.log.Error("feishu: could not read the messages the last shutdown left unanswered; they wait for the next start", "err", err)
		return
	}
	n := 0
	for key, data := range got {
		p, err := decodeParked(data)
		if err != nil {
			b.log.Error("feishu: a parked answer does not decode; dropped", "key", key, "err", err)
			continue
		}
		if !b.reserve() {
			b.park(job{}, p) // closing or full: it waits for the next start
			continue
		}
		if err := b.push(job{parked: &p, received: p.Received}); err != nil {
			b.release()
			b.park(job{}, p)
			continue
		}
		n++
	}
	if n > 0 {
		b.log.Info("feishu: answering the messages the last shutdown left unanswered", "messages", n)
	}
}

// staleNote marks an answer sent well after it was made: its figures are
// as of then.
func staleNote(r chat.Reply, at time.Time) chat.Reply {
	r.Notes = append(append([]string(nil), r.Notes...), i18n.Of(r.English).T("feishu.parked_note", at.Format("15:04")))
	return r
}
