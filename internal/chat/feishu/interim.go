package feishu

import (
	"context"
	"fmt"
	"time"

	larkcore "github.com/larksuite/oapi-sdk-go/v3/core"
	larkim "github.com/larksuite/oapi-sdk-go/v3/service/im/v1"

	"github.com/labgpu/bot/internal/chat"
)

// interimSendTimeout bounds sending the "查询中…" card, so a slow send
// never holds up the answer.
const interimSendTimeout = 3 * time.Second

// answerMessage runs the Handler for msg. When the answer is slow and the
// Handler has a "查询中…" (chat.Interimer), that goes out first as a card
// replying to msg and *interimID is set to its message_id, so the answer
// can replace it in place (Update), even when the Handler panics. A
// Handler that is a chat.Updater may also return how to answer again
// once the data it lacked has come (followUp).
func (b *Bot) answerMessage(ctx context.Context, msg chat.Message, interimID *string, posted func(id string)) (chat.Reply, chat.Later) {
	ir, ok := b.opts.Handler.(chat.Interimer)
	var interim func()
	if ok && *interimID == "" { // one taken over may have its card already
		interim = func() {
			cards, err := renderTableCards(ir.Interim(msg), nil, nil)
			if err != nil || len(cards) == 0 {
				return
			}
			ictx, cancel := context.WithTimeout(ctx, interimSendTimeout)
			defer cancel()
			var id string
			err = b.out.Call(ictx, msg.ChatID, "interim card", func(ctx context.Context) (err error) {
				id, err = b.postOnce(ctx, msg.ChatID, msg.ID, larkim.MsgTypeInteractive, cards[0], partUUID("interim:"+msg.ID))
				return err
			})
			if err != nil {
				b.log.Warn("feishu: interim message failed", "message_id", msg.ID, "err", err)
				return
			}
			*interimID = id
			if posted != nil {
				posted(id)
			}
		}
	}
	var later chat.Later
	handle := func() chat.Reply { return b.opts.Handler.Handle(ctx, msg) }
	if u, ok := b.opts.Handler.(chat.Updater); ok {
		handle = func() chat.Reply {
			var r chat.Reply
			r, later = u.HandleUpdatable(ctx, msg)
			return r
		}
	}
	return chat.AnswerWithInterim(ctx, b.opts.InterimAfter, handle, interim), later
}

// followUp replaces the answer card cardID with later's answer when it
// comes (a platform that was late has answered), in the background, so
// the worker is free meanwhile; bounded by jobTimeout, ended by Close.
// Only an answer that replaced a "查询中…" card is followed up: its
// message_id is known and it is one card. Best effort: the first answer
// stands when the update fails.
func (b *Bot) followUp(cardID string, msg chat.Message, later chat.Later) {
	if later == nil || cardID == "" {
		return
	}
	b.followers.Add(1)
	go func() {
		defer b.followers.Done()
		ctx, cancel := context.WithTimeout(b.runCtx, jobTimeout)
		defer cancel()
		r, ok := later(ctx)
		if !ok || ctx.Err() != nil {
			return
		}
		if err := b.replaceCard(ctx, cardID, msg.ChatID, r); err != nil {
			b.log.Warn("feishu: could not update the answer with fresh data; the first answer stands", "message_id", msg.ID, "chat_id", msg.ChatID, "err", err)
			return
		}
		b.log.Info("feishu: answer updated in place with fresh data", "message_id", msg.ID, "chat_id", msg.ChatID)
	}()
}

// postAnswerCard posts r, when it is one card, as the answer to msg and
// returns its message_id (a provisional answer, to be updated in place).
// Its uuid is the one the outbox would give the reply's first part, so
// Feishu deduplicates it with a Send of the same reply. An error (r is
// not one card, or the post failed) leaves the answer to Send.
func (b *Bot) postAnswerCard(ctx context.Context, msg chat.Message, r chat.Reply) (id string, err error) {
	cards, err := renderCards(r, b.mentionsFor(msg.ChatID, r))
	if err != nil {
		return "", err
	}
	if len(cards) != 1 {
		return "", fmt.Errorf("feishu: the answer needs %d cards", len(cards))
	}
	if b.opts.OnSend != nil {
		defer func() { b.opts.OnSend(err) }()
	}
	err = b.out.Call(ctx, msg.ChatID, "answer card", func(ctx context.Context) (err error) {
		id, err = b.postOnce(ctx, msg.ChatID, msg.ID, larkim.MsgTypeInteractive, cards[0], partUUID("reply:"+msg.ID+"#0"))
		return err
	})
	return id, err
}

// replaceCard replaces the card messageID with r when r is one card (a
// longer r would need further messages: the card is left as it was).
func (b *Bot) replaceCard(ctx context.Context, messageID, chatID string, r chat.Reply) (err error) {
	cards, err := renderCards(r, b.mentionsFor(chatID, r))
	if err != nil {
		return fmt.Errorf("feishu: update %s: %w", messageID, err)
	}
	if len(cards) != 1 {
		return fmt.Errorf("feishu: update %s: the fresh answer needs %d cards", messageID, len(cards))
	}
	if b.opts.OnSend != nil {
		defer func() { b.opts.OnSend(err) }()
	}
	return b.out.CallMessage(ctx, chatID, messageID, "card update", func(ctx context.Context) error {
		return b.patchOnce(ctx, messageID, cards[0])
	})
}

// finishInterim replaces a "查询中…" card that will not become the answer
// with a final line (best effort: one try), so it never promises a reply
// that is not coming.
func (b *Bot) finishInterim(ctx context.Context, messageID, chatID, text string) {
	cards, err := renderTableCards(chat.Reply{Lines: []string{text}}, nil, nil)
	if err != nil {
		return
	}
	if err := b.patchOnce(ctx, messageID, cards[0]); err != nil {
		b.log.Warn("feishu: could not close the interim card", "message_id", messageID, "chat_id", chatID, "err", err)
	}
}

// Update replaces the card messageID (one the bot sent, such as a
// "查询中…") with r: the first card of r in place, any further cards as
// replies to replyTo. patched reports whether the card was replaced: when
// it was, an error concerns only the further cards, and sending r again
// would show its first card twice.
func (b *Bot) Update(ctx context.Context, messageID, chatID string, r chat.Reply, replyTo, idemKey string) (patched bool, err error) {
	if b.opts.OnSend != nil {
		defer func() { b.opts.OnSend(err) }()
	}
	cards, err := renderCards(r, b.mentionsFor(chatID, r))
	if err != nil {
		return false, fmt.Errorf("feishu: update %s: %w", messageID, err)
	}
	if err := b.out.CallMessage(ctx, chatID, messageID, "card update", func(ctx context.Context) error {
		return b.patchOnce(ctx, messageID, cards[0])
	}); err != nil {
		return false, fmt.Errorf("feishu: %w", err)
	}
	// The further cards go on the outbox's path, keyed after the first.
	more := parts(larkim.MsgTypeInteractive, cards[1:])
	return true, b.out.SendParts(ctx, chatID, more, chat.SendOptions{ReplyTo: replyTo, IdempotencyKey: idemKey + "/more"})
}

// patchOnce makes one PATCH /open-apis/im/v1/messages/:message_id call.
func (b *Bot) patchOnce(ctx context.Context, messageID, content string) error {
	tok, err := b.token(ctx)
	if err != nil {
		return transient(err, ctx.Err() == nil)
	}
	cs := &callStatus{}
	cctx := context.WithValue(ctx, callStatusKey{}, cs)
	resp, err := b.client.Im.Message.Patch(cctx, larkim.NewPatchMessageReqBuilder().
		MessageId(messageID).
		Body(larkim.NewPatchMessageReqBodyBuilder().Content(content).Build()).
		Build(), larkcore.WithTenantAccessToken(tok))
	if err != nil {
		return transient(fmt.Errorf("patch %s: %w", messageID, err), transportRetry(ctx, cs))
	}
	status := cs.status
	if resp.ApiResp != nil {
		status = resp.ApiResp.StatusCode
	}
	return b.callError(tok, resp.ApiResp, status, resp.Code, resp.Msg)
}
