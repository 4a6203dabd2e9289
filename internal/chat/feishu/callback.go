package feishu

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	larkcore "github.com/larksuite/oapi-sdk-go/v3/core"
	larkevent "github.com/larksuite/oapi-sdk-go/v3/event"
	larkim "github.com/larksuite/oapi-sdk-go/v3/service/im/v1"
	larkws "github.com/larksuite/oapi-sdk-go/v3/ws"
	segjson "github.com/segmentio/encoding/json"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/claim"
	"github.com/labgpu/bot/internal/i18n"
)

// job is one deduplicated event waiting for a worker, or an inbox entry
// taken over from a process gone (resumed, ev nil).
type job struct {
	ev       *larkim.P2MessageReceiveV1
	received time.Time
	claim    claim.Claim // of the event (claimKey)
	p        *parked     // the gated message (and its answer when resumed); nil: gated by the worker
	resumed  bool        // taken over from the inbox
	inboxed  bool        // kept in the inbox until answered (finish)
}

// claimKey is the one claim an event takes: "feishu:msg:<message_id>",
// which a redelivery of the event (same event_id) and the same message
// under another event_id both carry, so one claim deduplicates both;
// "feishu:event:<event_id>" for an event without a message id.
func claimKey(ev *larkim.P2MessageReceiveV1) string {
	if ev.Event != nil && ev.Event.Message != nil {
		if id := str(ev.Event.Message.MessageId); id != "" {
			return "feishu:msg:" + id
		}
	}
	return "feishu:event:" + ev.EventV2Base.Header.EventID
}

// reqState carries the outcome of the event handler back to HTTPHandler
// through the context the SDK passes along; it is absent in the
// long-connection mode.
type reqState struct {
	reached bool // the event handler ran (so the SDK's checks passed)
	status  int  // non-zero: answer with this status instead of the SDK's
	msg     string
}

type reqStateKey struct{}

var (
	errQueueFull = errors.New("feishu: event queue full")
	errClosed    = errors.New("feishu: bot is shutting down")
	errRejected  = errors.New("feishu: event rejected")
)

// HTTPHandler returns the handler for the event callback (mounted at
// /feishu/events). Before the SDK's dispatcher sees a request it checks:
// the method is POST (405), the body fits MaxBodyBytes (413),
// X-Lark-Request-Timestamp is present and within MaxSkew of Now (401
// "stale or missing timestamp"; only url_verification may come without
// it) and, when no Encrypt Key is set, that the body's token is the
// verification token (401). The dispatcher then decrypts, verifies
// X-Lark-Signature (a failure becomes 401) and answers url_verification
// with the challenge. For im.message.receive_v1 the handler compares
// header.token (401), takes the event's one claim (claimKey) and enqueues; a full queue answers
// 503 so that Feishu retries. The request never waits for the answer.
//
// In websocket mode it answers 404.
func (b *Bot) HTTPHandler() http.Handler {
	return http.HandlerFunc(b.serveHTTP)
}

func (b *Bot) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if b.opts.Mode != ModeWebhook {
		writeJSON(w, http.StatusNotFound, "callback disabled in websocket mode")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeJSON(w, http.StatusMethodNotAllowed, "POST only")
		return
	}
	if r.ContentLength > b.opts.MaxBodyBytes {
		b.log.Warn("feishu callback: body too large", "bytes", r.ContentLength, "limit", b.opts.MaxBodyBytes)
		writeJSON(w, http.StatusRequestEntityTooLarge, "body too large")
		return
	}
	body, err := readBody(http.MaxBytesReader(w, r.Body, b.opts.MaxBodyBytes), r.ContentLength)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			b.log.Warn("feishu callback: body too large", "limit", b.opts.MaxBodyBytes)
			writeJSON(w, http.StatusRequestEntityTooLarge, "body too large")
			return
		}
		writeJSON(w, http.StatusBadRequest, "cannot read body")
		return
	}

	if ts := r.Header.Get(larkevent.EventRequestTimestamp); ts != "" || !b.isChallenge(body) {
		if !b.freshTimestamp(ts) {
			b.rejected(RejectTimestamp, r.RemoteAddr)
			writeJSON(w, http.StatusUnauthorized, "stale or missing timestamp")
			return
		}
	}
	if b.opts.EncryptKey == "" && !b.plainTokenOK(body) {
		b.rejected(RejectToken, r.RemoteAddr)
		writeJSON(w, http.StatusUnauthorized, "wrong verification token")
		return
	}

	st := &reqState{}
	ctx := context.WithValue(r.Context(), reqStateKey{}, st)
	resp := b.handleEvent(ctx, &larkevent.EventReq{Header: r.Header, Body: body, RequestURI: r.RequestURI})
	switch {
	case st.status != 0:
		writeJSON(w, st.status, st.msg)
	case resp == nil:
		writeJSON(w, http.StatusInternalServerError, "no response")
	case resp.StatusCode >= 500 && !st.reached:
		// The dispatcher refused the request before any handler ran: it
		// did not decrypt or parse, the signature did not match, or a
		// url_verification carried the wrong token. The SDK's message was
		// logged (as a warning) by the SDK logger.
		b.rejected(b.sdkRejection(body), r.RemoteAddr)
		writeJSON(w, http.StatusUnauthorized, "rejected: signature, encryption or token mismatch")
	default:
		for k, vs := range resp.Header {
			for _, v := range vs {
				w.Header().Add(k, v)
			}
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(resp.Body)
	}
}

// readBody reads r whole into a buffer sized by the request's
// Content-Length when it gives one (io.ReadAll would grow it from 512
// bytes).
func readBody(r io.Reader, length int64) ([]byte, error) {
	if length <= 0 {
		return io.ReadAll(r)
	}
	buf := bytes.NewBuffer(make([]byte, 0, length+1))
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

// msgReceiveType is the event type of a received message.
const msgReceiveType = "im.message.receive_v1"

// handleEvent answers req as the SDK's dispatcher does, decoding a
// received message once (decodeMessage: the envelope, the SDK's
// larkevent.EventDecrypt, one decode into the typed event, where Handle
// decodes it twice, first to find its type), the dispatcher's VerifySign,
// then onMessage. Every
// other request (url_verification, other event types, a body that does
// not decrypt or decode) goes to the dispatcher's Handle, which decides as
// before. A failed signature is a 500 before any handler ran, which
// serveHTTP answers 401 as for the dispatcher.
func (b *Bot) handleEvent(ctx context.Context, req *larkevent.EventReq) *larkevent.EventResp {
	ev := b.decodeMessage(req)
	if ev == nil {
		return b.disp.Handle(ctx, req)
	}
	if err := b.disp.VerifySign(ctx, req); err != nil {
		return sdkResp(http.StatusInternalServerError, err.Error())
	}
	if err := b.onMessage(ctx, ev); err != nil {
		return sdkResp(http.StatusInternalServerError, err.Error())
	}
	return &larkevent.EventResp{Header: successHeader, Body: successBody, StatusCode: http.StatusOK}
}

// decodeMessage returns req's im.message.receive_v1 event, decrypted with
// the app's Encrypt Key by the SDK's larkevent.EventDecrypt, or nil when
// req is anything else or does not decrypt or decode. It reads the
// envelope as the dispatcher's ParseReq does, without ParseReq's debug
// line (formatted for every request, logged or not) and without copying
// the plaintext into a string and back. JSON is decoded by
// github.com/segmentio/encoding/json, which fills the SDK's types as
// encoding/json does (FuzzDecodeMessage) in a third of the time.
func (b *Bot) decodeMessage(req *larkevent.EventReq) *larkim.P2MessageReceiveV1 {
	plain := req.Body
	if b.opts.EncryptKey != "" {
		var env larkevent.EventEncryptMsg
		if segjson.Unmarshal(req.Body, &env) != nil || env.Encrypt == "" {
			return nil
		}
		p, err := eventDecrypt(env.Encrypt, b.opts.EncryptKey)
		if err != nil {
			return nil
		}
		plain = p
	}
	ev := &larkim.P2MessageReceiveV1{}
	if segjson.Unmarshal(plain, ev) != nil || ev.EventV2Base == nil || ev.EventV2Base.Header == nil ||
		ev.EventV2Base.Header.EventType != msgReceiveType {
		return nil
	}
	ev.RawReq(req)
	return ev
}

// successBody and successHeader are the dispatcher's answer to a handled
// event: sdkResp(200, "success"), built once and only read.
var (
	successBody   = []byte(`{"msg":"success"}`)
	successHeader = http.Header{larkevent.ContentTypeHeader: {larkevent.DefaultContentType}}
)

// sdkResp is the dispatcher's answer: {"msg": msg} as JSON with status.
func sdkResp(status int, msg string) *larkevent.EventResp {
	body, _ := json.Marshal(map[string]string{"msg": msg})
	return &larkevent.EventResp{
		Header:     http.Header{larkevent.ContentTypeHeader: {larkevent.DefaultContentType}},
		Body:       body,
		StatusCode: status,
	}
}

// writeJSON answers {"msg": msg} with status.
func writeJSON(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	out, _ := json.Marshal(map[string]string{"msg": msg})
	_, _ = w.Write(out)
}

// freshTimestamp reports whether ts (Unix seconds) is within MaxSkew of Now.
func (b *Bot) freshTimestamp(ts string) bool {
	if ts == "" {
		return false
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	d := b.opts.Now().Sub(time.Unix(sec, 0))
	return d <= b.opts.MaxSkew && d >= -b.opts.MaxSkew
}

// isChallenge reports whether body is a url_verification request, which
// Feishu may send without the timestamp headers. It is called only when
// the timestamp header is missing, so the extra decryption costs nothing
// on the normal path. The dispatcher still checks the challenge's token.
func (b *Bot) isChallenge(body []byte) bool {
	plain := body
	if b.opts.EncryptKey != "" {
		var enc larkevent.EventEncryptMsg
		if json.Unmarshal(body, &enc) != nil || enc.Encrypt == "" {
			return false
		}
		p, err := eventDecrypt(enc.Encrypt, b.opts.EncryptKey)
		if err != nil {
			return false
		}
		plain = p
	}
	var v struct {
		Type   string          `json:"type"`
		Header json.RawMessage `json:"header"`
	}
	return json.Unmarshal(plain, &v) == nil && v.Type == string(larkevent.ReqTypeChallenge) && v.Header == nil
}

// plainTokenOK checks the verification token of an unencrypted body, for
// every event type (the SDK checks it only for url_verification).
func (b *Bot) plainTokenOK(body []byte) bool {
	var v struct {
		Token  string `json:"token"`
		Header *struct {
			Token string `json:"token"`
		} `json:"header"`
	}
	if json.Unmarshal(body, &v) != nil {
		return false
	}
	tok := v.Token
	if v.Header != nil {
		tok = v.Header.Token
	}
	return tokenEqual(tok, b.opts.VerificationToken)
}

func tokenEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// onMessage is the dispatcher's im.message.receive_v1 handler. It runs
// inside the callback request (or the long connection's frame handler),
// so it only checks the token, takes the event's one claim (claimKey:
// its message id, which covers its event id) and enqueues.
func (b *Bot) onMessage(ctx context.Context, ev *larkim.P2MessageReceiveV1) error {
	st, _ := ctx.Value(reqStateKey{}).(*reqState)
	if st != nil {
		st.reached = true
	}
	if err := b.admit(st, ev); err != nil {
		return err
	}
	hdr := ev.EventV2Base.Header
	c, err := b.claim(ctx, claimKey(ev))
	if err != nil {
		// Not claimed by this process (a claim of its own that lands
		// late is released by a claim.Claimer), so Feishu's retry is
		// answered.
		b.release()
		b.log.Warn("feishu event: dedup store failed, Feishu will retry", "event_id", hdr.EventID, "err", err)
		return b.rejectEvent(st, http.StatusServiceUnavailable, "dedup store unavailable", fmt.Errorf("feishu: claim event: %w", err))
	}
	if !c.Held {
		b.release()
		b.log.Debug("feishu event: duplicate delivery ignored", "event_id", hdr.EventID)
		return nil
	}
	j := job{ev: ev, received: b.opts.Now(), claim: c}
	if b.opts.Inbox != nil {
		if err := b.keepInInbox(ctx, st, &j); err != nil {
			return err
		}
	}
	if err := b.push(j); err != nil {
		b.release()
		b.finish(j)
		// Released, so that Feishu's retry is not taken for a duplicate.
		b.releaseClaims(c)
		b.log.Warn("feishu event refused: shutting down, Feishu will retry", "event_id", hdr.EventID)
		return b.rejectEvent(st, http.StatusServiceUnavailable, "shutting down", err)
	}
	b.intake.accepted()
	b.rejects.accepted()
	return nil
}

// rejectEvent refuses the event: st (nil in the long-connection mode)
// gets the status and message the callback answers with, a 503 is
// counted as a refusal of the intake, and err is returned for the
// dispatcher.
func (b *Bot) rejectEvent(st *reqState, status int, msg string, err error) error {
	if st != nil {
		st.status, st.msg = status, msg
	}
	if status == http.StatusServiceUnavailable {
		b.intake.refuse(b.opts.Now(), msg)
	}
	return err
}

// admit checks ev before it is claimed — a header with an event_id, the
// verification token (in the callback, st non-nil), the bot's open_id
// for a group message — and takes a queue slot; nil: ev goes on holding
// a slot, else the error to return, ev rejected (rejectEvent).
func (b *Bot) admit(st *reqState, ev *larkim.P2MessageReceiveV1) error {
	if ev == nil || ev.EventV2Base == nil || ev.EventV2Base.Header == nil || ev.EventV2Base.Header.EventID == "" {
		b.log.Warn("feishu event without header or event_id")
		return b.rejectEvent(st, http.StatusBadRequest, "event without header", errRejected)
	}
	if st != nil && !tokenEqual(ev.EventV2Base.Header.Token, b.opts.VerificationToken) {
		b.rejected(RejectToken, "")
		return b.rejectEvent(st, http.StatusUnauthorized, "wrong verification token", errRejected)
	}
	if b.BotOpenID() == "" && fromGroup(ev) {
		// Without its own open_id the bot cannot tell whether it was
		// @mentioned: Feishu redelivers once the bot info is back.
		b.refusals.note(b.log, "bot info not fetched yet")
		return b.rejectEvent(st, http.StatusServiceUnavailable, "bot info not fetched yet", errNoBotInfo)
	}
	if !b.reserve() {
		if b.closing() {
			b.refusals.note(b.log, "shutting down")
			return b.rejectEvent(st, http.StatusServiceUnavailable, "shutting down", errClosed)
		}
		b.refusals.note(b.log, "queue full")
		return b.rejectEvent(st, http.StatusServiceUnavailable, "queue full", errQueueFull)
	}
	return nil
}

// keepInInbox puts the claimed event of j in the inbox (Options.Inbox)
// when it is to be answered, and marks j as kept (j.p, j.inboxed). An
// event whose claim is local (the store down) is answered from memory,
// only counted. When the inbox fails, j's slot and claim are released
// and the error to return is that of rejectEvent.
func (b *Bot) keepInInbox(ctx context.Context, st *reqState, j *job) error {
	// Durable before the 200: Feishu does not deliver it again after.
	// While the store is down (the claim is in the process's window)
	// the bot keeps answering, from memory: an outage does not mute
	// it (a replica lost during the outage loses what it holds).
	if msg, v := Gate(j.ev, b.BotOpenID(), b.opts.Started); (v == Answer || v == Unsupported) && j.claim.Local {
		b.unkept.Add(1)
	} else if v == Answer || v == Unsupported {
		p := parked{Msg: msg, Unsupported: v == Unsupported, Received: j.received}
		if err := b.accept(ctx, p); err != nil {
			b.release()
			b.releaseClaims(j.claim)
			b.log.Warn("feishu event: could not keep it in the inbox, Feishu will retry", "event_id", j.ev.EventV2Base.Header.EventID, "err", err)
			return b.rejectEvent(st, http.StatusServiceUnavailable, "inbox unavailable", fmt.Errorf("feishu: keep event in the inbox: %w", err))
		}
		j.p, j.inboxed = &p, true
	}
	return nil
}

// reserve takes a queue slot without blocking. Slots are taken before
// event_id is claimed, so that a full queue never swallows a claimed event.
func (b *Bot) reserve() bool {
	if b.closing() {
		return false
	}
	select {
	case b.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

func (b *Bot) release() { <-b.slots }

func (b *Bot) closing() bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.closed || b.runCtx.Err() != nil
}

// push queues j; the caller holds a slot, so the send never blocks.
func (b *Bot) push(j job) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return errClosed
	}
	b.jobs <- j
	return nil
}

// jobTimeout bounds the handling of one message (answer and reply).
const jobTimeout = 2 * time.Minute

func (b *Bot) worker() {
	defer b.wg.Done()
	for j := range b.jobs {
		b.release()
		if b.cutOff() {
			// Past the shutdown grace: Feishu had its 200 and will not
			// deliver it again, so it goes back in the inbox
			// (Options.Inbox; counted, logged once by Close).
			b.parkQueued(j)
			continue
		}
		ctx, cancel := context.WithTimeout(b.runCtx, jobTimeout)
		b.process(ctx, j)
		cancel()
	}
}

// unsupportedText answers messages that are not text (Chinese: the
// message has no words to tell the language by).
func unsupportedText() string { return i18n.ZH.T("feishu.unsupported") }

// process gates one event (claimed by onMessage), asks the Handler and
// sends the reply; for an inbox entry taken over, it goes on where the
// process gone stopped. When the shutdown grace ends meanwhile, what is
// known of the answer goes back in the inbox.
func (b *Bot) process(ctx context.Context, j job) {
	var p parked
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("feishu: panic while handling a message", "message_id", p.Msg.ID, "panic", fmt.Sprint(r))
			b.finish(j) // not tried again: it would panic again
			if p.InterimID != "" {
				b.finishInterim(context.WithoutCancel(ctx), p.InterimID, p.Msg.ChatID, i18n.ZH.T("feishu.interim.failed"))
			}
		}
	}()
	if j.p != nil {
		p = *j.p
	} else {
		msg, v := Gate(j.ev, b.BotOpenID(), b.opts.Started)
		if v != Answer && v != Unsupported {
			b.log.Debug("feishu message ignored", "event_id", j.ev.EventV2Base.Header.EventID, "message_id", msg.ID, "chat_id", msg.ChatID, "reason", v.String())
			return
		}
		p = parked{Msg: msg, Unsupported: v == Unsupported, Received: j.received}
	}
	if p.Msg.ChatType == chat.P2P {
		b.chatTypes.Store(p.Msg.ChatID, chat.P2P)
	}
	var later chat.Later
	if p.Reply == nil {
		reply := chat.Reply{Lines: []string{unsupportedText()}}
		if !p.Unsupported {
			reply, later = b.answerMessage(ctx, p.Msg, &p.InterimID, b.noteInterim(j, p))
		}
		if b.cutOff() {
			// Cut off while answering: answered again at the next start.
			b.park(j, p)
			return
		}
		p.Reply, p.AnsweredAt = &reply, b.opts.Now()
	}
	b.deliver(ctx, j, p, later)
}

// deliver sends p's answer: in place of its "查询中…" card when it has
// one, else as a reply. An answer made from older data (later set) is
// posted as a card of known id and updated again when the late platform
// answers. Cut off by the shutdown grace, what is left is parked.
func (b *Bot) deliver(ctx context.Context, j job, p parked, later chat.Later) {
	msg, reply := p.Msg, *p.Reply
	if reply.Empty() {
		if p.InterimID != "" {
			b.finishInterim(ctx, p.InterimID, msg.ChatID, i18n.ZH.T("feishu.interim.nothing"))
		}
		b.finish(j)
		return
	}
	if j.resumed && b.opts.Now().Sub(p.AnsweredAt) > staleAfter {
		reply = staleNote(reply, p.AnsweredAt)
	}
	// Answered at once from older data (a platform late beyond the
	// budget already): posted as a card of known id, so that it can
	// be updated when the data comes.
	if p.InterimID == "" && later != nil && b.postToUpdate(ctx, j, p, reply, later) {
		return
	}
	if p.InterimID != "" {
		// The "查询中…" card becomes the answer.
		if b.answerInPlace(ctx, j, p, reply, later) {
			return
		}
		defer func() {
			if !b.cutOff() {
				b.finishInterim(ctx, p.InterimID, msg.ChatID, i18n.ZH.T("feishu.interim.next"))
			}
		}()
	}
	b.sendAnswer(ctx, j, p, reply)
}

// postToUpdate posts reply, made from older data, as a card of known id
// and has it updated when the late platform answers (later). False: it
// could not be posted, and reply is yet to be sent.
func (b *Bot) postToUpdate(ctx context.Context, j job, p parked, reply chat.Reply, later chat.Later) bool {
	msg := p.Msg
	id, err := b.postAnswerCard(ctx, msg, reply)
	if err != nil {
		return false
	}
	b.logAnswered(p)
	b.finish(j)
	b.linkAnswer(ctx, msg, []string{id})
	b.followUp(id, msg, later)
	return true
}

// answerInPlace makes p's "查询中…" card the answer, reply. True: done
// with j (answered, parked for whoever takes it, or given up with part
// of the answer in place); false: the card could not be updated, and
// reply is yet to be sent.
func (b *Bot) answerInPlace(ctx context.Context, j job, p parked, reply chat.Reply, later chat.Later) bool {
	msg := p.Msg
	patched, err := b.Update(ctx, p.InterimID, msg.ChatID, reply, msg.ID, "reply:"+msg.ID)
	switch {
	case err == nil:
		b.log.Info("feishu: answered in place", "message_id", msg.ID, "chat_id", msg.ChatID, "latency_ms", b.opts.Now().Sub(p.Received).Milliseconds())
		b.finish(j)
		b.linkAnswer(ctx, msg, []string{p.InterimID})
		// Answered from older data: the card is updated again when the
		// late platform answers.
		b.followUp(p.InterimID, msg, later)
		return true
	case b.cutOff():
		b.park(j, p) // the update is made again (the same content) by whoever takes it
		return true
	case patched:
		// The answer's first card is in place; sending it all again
		// would show it twice.
		b.log.Error("feishu: answered in place, but a further card failed", "message_id", msg.ID, "chat_id", msg.ChatID, "err", err)
		b.finish(j)
		return true
	}
	b.log.Warn("feishu: could not update the interim card; sending the answer", "message_id", msg.ID, "err", err)
	return false
}

// sendAnswer sends reply as a reply to p's message, then finishes j; a
// send that fails goes back in the inbox (parked when cut off by the
// shutdown grace, else for another try).
func (b *Bot) sendAnswer(ctx context.Context, j job, p parked, reply chat.Reply) {
	msg := p.Msg
	// Its delivered parts are remembered as long as an inbox entry waits:
	// one cut off between parts goes on where it stopped.
	var sent []string
	var sentMu sync.Mutex
	o := chat.SendOptions{ReplyTo: msg.ID, IdempotencyKey: "reply:" + msg.ID, Mergeable: !j.resumed, Remember: InboxTTL,
		Sent: func(id string) { sentMu.Lock(); sent = append(sent, id); sentMu.Unlock() }}
	if err := b.Send(ctx, msg.ChatID, reply, o); err != nil {
		if b.cutOff() {
			// The grace ended mid-send: the rest goes from the inbox,
			// under the same key.
			b.park(j, p)
			return
		}
		// Back in the inbox for another try (after maxAttempts dropped,
		// its claim released should Feishu deliver it again).
		b.log.Error("feishu: reply failed; kept in the inbox for another try", "message_id", msg.ID, "chat_id", msg.ChatID, "attempts", p.Attempts+1, "err", err)
		b.retry(j, p)
		return
	}
	b.finish(j)
	b.logAnswered(p)
	sentMu.Lock()
	ids := slices.Clone(sent)
	sentMu.Unlock()
	b.linkAnswer(ctx, msg, ids)
}

// logAnswered logs that p's message was answered, with the time since
// it was received.
func (b *Bot) logAnswered(p parked) {
	msg := p.Msg
	b.log.Info("feishu: answered", "message_id", msg.ID, "chat_id", msg.ChatID, "chat_type", string(msg.ChatType),
		"latency_ms", b.opts.Now().Sub(p.Received).Milliseconds())
}

// linkAnswer tells a Handler that keeps what its answers were about
// (chat.AnswerLinker) which messages carried the answer to msg, so that
// a reply to one of them continues it.
func (b *Bot) linkAnswer(ctx context.Context, msg chat.Message, ids []string) {
	if l, ok := b.opts.Handler.(chat.AnswerLinker); ok && len(ids) > 0 {
		l.LinkAnswer(context.WithoutCancel(ctx), msg, ids)
	}
}

// RunWebsocket receives events over the SDK's long connection (larkws)
// until ctx ends; no public URL is needed. The SDK's Client.Start blocks
// forever and ignores ctx, and v3.5.4 has no Stop or Close, so Start runs
// in a goroutine: RunWebsocket returns nil when ctx ends (the connection
// lives on until the process exits) or Start's error when it gives up
// (for example *larkws.ClientError on bad credentials). Events are the
// same plain JSON as the callback's and go through the same handler,
// minus the HTTP checks (the connection is authenticated by the app
// secret).
func (b *Bot) RunWebsocket(ctx context.Context) error {
	if b.opts.Mode != ModeWebsocket {
		return fmt.Errorf("feishu: RunWebsocket needs FEISHU_MODE=%s, have %q", ModeWebsocket, b.opts.Mode)
	}
	cli := larkws.NewClient(b.opts.AppID, b.opts.AppSecret,
		larkws.WithEventHandler(b.disp),
		larkws.WithDomain(b.opts.BaseURL),
		// The connection's state is read from the SDK's lines (wsLogger),
		// which never logs the connection URL: it carries a ticket.
		larkws.WithLogger(wsLogger{l: b.log.With("component", "lark-ws"), st: &b.ws, now: b.opts.Now}),
		larkws.WithLogLevel(larkcore.LogLevelWarn),
	)
	errc := make(chan error, 1)
	go func() { errc <- cli.Start(ctx) }()
	select {
	case <-ctx.Done():
		return nil
	case err := <-errc:
		b.ws.set(b.opts.Now(), false, err.Error(), true)
		return fmt.Errorf("feishu: long connection: %w", err)
	}
}

// Run receives events until ctx ends (chat.Channel): over the long
// connection in websocket mode; in webhook mode they arrive on the
// callback (Routes), so Run only waits.
func (b *Bot) Run(ctx context.Context) error {
	if b.opts.Mode == ModeWebsocket {
		return b.RunWebsocket(ctx)
	}
	<-ctx.Done()
	return nil
}

// Routes is the event callback at /feishu/events in webhook mode
// (chat.Router); none in websocket mode.
func (b *Bot) Routes() map[string]http.Handler {
	if b.opts.Mode != ModeWebhook {
		return nil
	}
	return map[string]http.Handler{"/feishu/events": b.HTTPHandler()}
}

var (
	_ chat.Channel = (*Bot)(nil)
	_ chat.Router  = (*Bot)(nil)
)

// errNoBotInfo refuses a group event while the bot's open_id is unknown.
var errNoBotInfo = errors.New("feishu: bot info not fetched yet")

// fromGroup reports whether ev comes from a group (not a p2p chat).
func fromGroup(ev *larkim.P2MessageReceiveV1) bool {
	return ev.Event != nil && ev.Event.Message != nil && str(ev.Event.Message.ChatType) != string(chat.P2P)
}

// rateLogEvery is how often refused events are summed up in the log.
const rateLogEvery = 10 * time.Second

// rateLog sums up events refused under load (queue full, shutting down,
// no bot info) in one warning per reason every rateLogEvery, instead of a
// line per event: at thousands of refusals a second the log stays
// readable.
type rateLog struct {
	mu    sync.Mutex
	count map[string]int
	since time.Time
}

func (r *rateLog) note(log *slog.Logger, reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if r.count == nil {
		r.count, r.since = map[string]int{}, now
	}
	r.count[reason]++
	if now.Sub(r.since) < rateLogEvery && r.count[reason] > 1 {
		return
	}
	for why, n := range r.count {
		log.Warn("feishu events refused, Feishu will retry them", "reason", why, "count", n, "in", now.Sub(r.since).Round(time.Second))
	}
	r.count, r.since = map[string]int{}, now
}
