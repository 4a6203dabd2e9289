package commands

import (
	"context"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/render/offerview"
)

// A reply to one of the bot's answers continues that answer's frame,
// whoever replies and however long ago within LinkTTL: Feishu names the
// message replied to (chat.Message.ParentID, RootID), and the router
// keeps each answer's frame under the ids of the messages that carried it
// (LinkAnswer, told by the channel after sending); WeChat gives the
// quoted message as text (chat.Message.Quote), matched against the chat's
// recent answers (their first lines, SaidKeep of them).

// maxAnswered is how many answers' frames wait in the process for the
// channel to name the messages that carried them.
const maxAnswered = 256

// link keeps f as the frame of the answer to msg: in the process by the
// question's id (LinkAnswer stores it under the bot's messages' ids) and
// in the chat's recent answers; it returns f (without its ask-back and
// action) as kept, nil when it does not encode.
func (r *Router) link(ctx context.Context, msg chat.Message, f Frame) []byte {
	f.Clarify, f.Pending = nil, false
	b, err := json.Marshal(f)
	if err != nil {
		return nil
	}
	if msg.ID != "" {
		r.mu.Lock()
		if len(r.answered) >= maxAnswered {
			clear(r.answered)
		}
		r.answered[msg.ID] = b
		r.mu.Unlock()
	}
	if f.Said != "" {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), frameTimeout)
		defer cancel()
		_ = r.frames.PushFrame(ctx, saidKey(msg), b, SaidKeep, LinkTTL)
	}
	return b
}

// LinkAnswer keeps the frame of the answer to msg under the ids of the
// bot messages that carried it (chat.AnswerLinker), so that a reply to
// one of them continues it.
func (r *Router) LinkAnswer(ctx context.Context, msg chat.Message, sentIDs []string) {
	r.mu.Lock()
	b := r.answered[msg.ID]
	delete(r.answered, msg.ID)
	r.mu.Unlock()
	if b == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), frameTimeout)
	defer cancel()
	for _, id := range sentIDs {
		if id != "" {
			_ = r.frames.PutFrame(ctx, linkKey(msg, id), b, LinkTTL)
		}
	}
}

// repliedFrame is the frame of the bot's answer msg replies to or quotes
// (nil when it replies to none the bot keeps).
func (r *Router) repliedFrame(ctx context.Context, msg chat.Message) *Frame {
	for _, id := range []string{msg.ParentID, msg.RootID} {
		if id == "" {
			continue
		}
		if f := r.loadFrame(ctx, linkKey(msg, id)); f != nil && r.live(f.At, LinkTTL) {
			return f
		}
	}
	if msg.Quote == "" {
		return nil
	}
	return r.quotedFrame(ctx, msg)
}

// sameQuestion is the chat's last answered question, whoever asked it,
// while a follow-up may still continue it ("同问", "+1"); ok is false for
// none, and for an action (a change is done only on its own verb).
func (r *Router) sameQuestion(ctx context.Context, msg chat.Message) (Query, bool) {
	ctx, cancel := context.WithTimeout(ctx, frameTimeout)
	defer cancel()
	list, err := r.frames.Frames(ctx, saidKey(msg))
	if err != nil || len(list) == 0 {
		return Query{}, false
	}
	f := frame.Decode(list[0])
	if f == nil || !r.live(f.At, FrameTTL) {
		return Query{}, false
	}
	q := f.Query.Restore()
	if r.in.Def(q.Intent).Action() {
		// "+1" after "登记存储 autodl 100G": agreeing, not asking for
		// the action again.
		return Query{}, false
	}
	q.Confidence, q.Alternatives = 1, nil
	return q, true
}

// minQuote is the fewest characters of a quote matched against an
// answer: a shorter one could be any message.
const minQuote = 6

// quotedFrame is the frame of the chat's recent answer that msg quotes:
// the newest whose first line the quote begins with (or that begins with
// the quote, when the channel cut it short).
func (r *Router) quotedFrame(ctx context.Context, msg chat.Message) *Frame {
	quote := squeeze(msg.Quote)
	if utf8.RuneCountInString(quote) < minQuote {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, frameTimeout)
	defer cancel()
	list, err := r.frames.Frames(ctx, saidKey(msg))
	if err != nil {
		return nil
	}
	for _, b := range list {
		f := frame.Decode(b)
		if f == nil || !r.live(f.At, LinkTTL) {
			continue
		}
		said := squeeze(f.Said)
		if said != "" && (strings.HasPrefix(quote, said) || strings.HasPrefix(said, quote)) {
			return f
		}
	}
	return nil
}

// squeeze is s without spaces (a quote's line breaks and a channel's
// trimming differ from the answer's).
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// cheapest is the lowest price per GPU-hour among the offers a stock or
// prices answer showed, sold-out ones left out (0 when it showed none): "再便宜点的" asks below
// it.
func cheapest(res Result) (float64, string) {
	var offers []OfferRow
	switch p := res.Payload.(type) {
	case offerview.Stock:
		offers = p.Offers
	case offerview.Prices:
		offers = p.Offers
	}
	low, at := 0.0, ""
	for _, o := range offers {
		if o.PriceCNY == nil || o.Available != nil && !*o.Available {
			continue
		}
		if low == 0 || *o.PriceCNY < low {
			low, at = *o.PriceCNY, o.Platform
		}
	}
	return low, at
}
