package feishu

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	larkcore "github.com/larksuite/oapi-sdk-go/v3/core"
	larkim "github.com/larksuite/oapi-sdk-go/v3/service/im/v1"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/feishucard"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/retry"
)

// Size limits for one sent message. Feishu's own limits are 150 KB for a
// text request body and 30 KB for a card; these leave headroom.
const (
	// MaxTextRunes is the most runes in one text message (including the
	// @mention tags).
	MaxTextRunes = 4000
	// MaxTextBytes bounds one text message's content JSON.
	MaxTextBytes = 150 << 10
	// MaxCardBytes bounds one card's JSON.
	MaxCardBytes = 25 << 10
)

// maxTries is how often Send tries one part before giving up.
const maxTries = 3

// maxRetryAfter caps how long a send waits out Feishu's rate-limit reset.
const maxRetryAfter = time.Minute

// APIError is a non-zero answer from the open platform.
type APIError struct {
	// Status is the HTTP status, Code and Msg Feishu's error code and
	// message, LogID its request id (for support tickets).
	Status int
	Code   int
	Msg    string
	LogID  string
	// RetryAfter is how long Feishu asks to wait after a rate limit (its
	// x-ogw-ratelimit-reset header, seconds); 0 when it did not say.
	RetryAfter time.Duration
}

// Error implements error.
func (e *APIError) Error() string {
	s := fmt.Sprintf("feishu API: HTTP %d, code %d: %s", e.Status, e.Code, e.Msg)
	if e.LogID != "" {
		s += " (log id " + e.LogID + ")"
	}
	return s
}

// retryable: rate limits (HTTP 429, codes 99991400 and 230020), server
// errors and invalid tokens.
func (e *APIError) retryable() bool {
	return e.Status == 429 || e.Status >= 500 || e.Code == 99991400 || e.Code == 230020 || tokenInvalid(e.Code)
}

// contentError reports an error that blames the message content, after
// which a card is sent again as plain text.
func contentError(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.Code {
	case 230001, // invalid request parameter (content)
		230025, // content too long
		230099, // failed to create card content
		11310:  // card content invalid
		return true
	}
	return ae.Status == 400 && !ae.retryable()
}

// Name is "feishu" (chat.Channel).
func (b *Bot) Name() string { return "feishu" }

// Send delivers r to chatID through the channel's chat.Outbox: an
// interactive card (schema 2.0) when r has a table, text otherwise. Long
// replies are split at line boundaries into parts under
// MaxTextRunes/MaxTextBytes (text) or MaxCardBytes (cards, split between
// table rows). r.Mentions become <at> tags unless chatID is known to be a
// private chat.
//
// When o.ReplyTo (a message_id) is set the parts answer that message
// (Im.Message.Reply), otherwise they are created in chatID
// (Im.Message.Create, receive_id_type chat_id).
//
// Each part carries uuid = hash of its outbox key (o.IdempotencyKey and
// the part's index), so a Send repeated with the same key after a restart
// is deduplicated by Feishu (for an hour); within a run the outbox skips
// the parts already delivered. Sends wait for the per-chat rate limiter.
// A part is tried up to 3 times with exponential backoff on HTTP 429 (as
// long as x-ogw-ratelimit-reset asks), 5xx, network errors and
// token-invalid codes (the token is fetched again); other errors are
// returned at once. If the first card is refused for its content, the
// whole reply goes out as plain text (chat.PlainText).
func (b *Bot) Send(ctx context.Context, chatID string, r chat.Reply, o chat.SendOptions) error {
	if chatID == "" && o.ReplyTo == "" {
		return errors.New("feishu: send: no chat id and no message to reply to")
	}
	return b.out.Send(ctx, chatID, r, o)
}

// mergeAt: three or more answers waiting for one chat go out as one
// message (a burst of questions under the per-chat rate limit).
const mergeAt = 3

// newOutbox is the Bot's chat.Outbox.
func (b *Bot) newOutbox() *chat.Outbox {
	return chat.NewOutbox("feishu", wire{b}, chat.OutboxOptions{
		Retry: retry.Policy{Tries: maxTries, Initial: b.backoff}, Limit: b.limiters,
		OnSend: b.opts.OnSend, Log: b.log, MergeAt: mergeAt, Delivered: b.opts.Delivered,
	})
}

// feishuPart is a Feishu part's payload: a message type and its content
// JSON.
type feishuPart struct {
	msgType, content string
}

// wire is Feishu's chat.Wire.
type wire struct{ b *Bot }

// Parts renders r as cards (when it has a table, chart or full form and
// they fit) or text.
func (w wire) Parts(_ context.Context, chatID string, r chat.Reply, _ chat.SendOptions) ([]chat.Part, error) {
	mentions := w.b.mentionsFor(chatID, r)
	if r.Table != nil || r.Chart != nil || r.Full != nil {
		cards, err := renderCards(r, mentions)
		if err == nil {
			return parts(larkim.MsgTypeInteractive, cards), nil
		}
		w.b.log.Warn("feishu: reply does not fit in cards, sending text", "chat_id", chatID, "err", err)
	}
	return parts(larkim.MsgTypeText, renderTexts(r, mentions)), nil
}

// Fallback: a first card refused for its content goes again as text (a
// reply that went as text has no plainer form).
func (w wire) Fallback(_ context.Context, chatID string, r chat.Reply, _ chat.SendOptions, err error) ([]chat.Part, bool) {
	mentions := w.b.mentionsFor(chatID, r)
	if !contentError(err) || (r.Table == nil && r.Chart == nil && r.Full == nil) {
		return nil, false
	}
	if _, cerr := renderCards(r, mentions); cerr != nil {
		return nil, false
	}
	return parts(larkim.MsgTypeText, renderTexts(r, mentions)), true
}

// Post makes one Create or Reply call and tells o.Sent the message_id.
func (w wire) Post(ctx context.Context, chatID string, p chat.Part, o chat.PostOptions) error {
	fp := p.Payload.(feishuPart)
	id, err := w.b.postOnce(ctx, chatID, o.ReplyTo, fp.msgType, fp.content, partUUID(o.Key))
	if err == nil && id != "" && o.Sent != nil {
		o.Sent(id)
	}
	return err
}

// Retry: rate limits (after x-ogw-ratelimit-reset), server errors,
// invalid tokens and calls that got no answer are tried again.
func (wire) Retry(err error) retry.Verdict {
	var ae *APIError
	if errors.As(err, &ae) {
		return retry.Verdict{Retry: ae.retryable(), After: ae.RetryAfter}
	}
	var te *transientError
	return retry.Verdict{Retry: errors.As(err, &te)}
}

// transientError is a call that got no usable answer (network, 429 or
// 5xx without a body the SDK could read, a token that could not be had).
type transientError struct{ err error }

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

// transient wraps err as worth retrying when retry is set.
func transient(err error, retry bool) error {
	if err == nil || !retry {
		return err
	}
	return &transientError{err}
}

func parts(msgType string, contents []string) []chat.Part {
	out := make([]chat.Part, len(contents))
	for i, c := range contents {
		out[i] = chat.Part{Kind: msgType, Payload: feishuPart{msgType, c}}
	}
	return out
}

// mentionsFor is r.Mentions, or none in a chat known to be private.
func (b *Bot) mentionsFor(chatID string, r chat.Reply) []string {
	if t, ok := b.chatTypes.Load(chatID); ok && t == chat.P2P {
		return nil
	}
	return r.Mentions
}

// partUUID is the Feishu uuid of a part's outbox key: 32 hex digits
// (Feishu allows 50 characters).
func partUUID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16])
}

// postOnce makes one Create or Reply call; a failure worth retrying is an
// *APIError that says so or a *transientError.
func (b *Bot) postOnce(ctx context.Context, chatID, replyTo, msgType, content, uuid string) (id string, err error) {
	tok, err := b.token(ctx)
	if err != nil {
		return "", transient(err, ctx.Err() == nil)
	}
	cs := &callStatus{}
	cctx := context.WithValue(ctx, callStatusKey{}, cs)
	var (
		apiResp *larkcore.ApiResp
		code    int
		msg     string
	)
	if replyTo != "" {
		resp, err := b.client.Im.Message.Reply(cctx, larkim.NewReplyMessageReqBuilder().
			MessageId(replyTo).
			Body(larkim.NewReplyMessageReqBodyBuilder().MsgType(msgType).Content(content).Uuid(uuid).Build()).
			Build(), larkcore.WithTenantAccessToken(tok))
		if err != nil {
			return "", transient(fmt.Errorf("reply to %s: %w", replyTo, err), transportRetry(ctx, cs))
		}
		apiResp, code, msg = resp.ApiResp, resp.Code, resp.Msg
		if resp.Data != nil && resp.Data.MessageId != nil {
			id = *resp.Data.MessageId
		}
	} else {
		resp, err := b.client.Im.Message.Create(cctx, larkim.NewCreateMessageReqBuilder().
			ReceiveIdType(larkim.ReceiveIdTypeChatId).
			Body(larkim.NewCreateMessageReqBodyBuilder().ReceiveId(chatID).MsgType(msgType).Content(content).Uuid(uuid).Build()).
			Build(), larkcore.WithTenantAccessToken(tok))
		if err != nil {
			return "", transient(fmt.Errorf("create in %s: %w", chatID, err), transportRetry(ctx, cs))
		}
		apiResp, code, msg = resp.ApiResp, resp.Code, resp.Msg
		if resp.Data != nil && resp.Data.MessageId != nil {
			id = *resp.Data.MessageId
		}
	}
	status := cs.status
	if apiResp != nil {
		status = apiResp.StatusCode
	}
	return id, b.callError(tok, apiResp, status, code, msg)
}

// callError turns an answer's status and code into nil or an *APIError
// (and drops a token the platform called invalid).
func (b *Bot) callError(tok string, apiResp *larkcore.ApiResp, status, code int, msg string) error {
	if code == 0 && status < 300 {
		return nil
	}
	ae := &APIError{Status: status, Code: code, Msg: msg}
	if apiResp != nil {
		ae.LogID = apiResp.RequestId()
		if s, err := strconv.Atoi(strings.TrimSpace(apiResp.Header.Get("x-ogw-ratelimit-reset"))); err == nil && s > 0 {
			// At most a minute: a longer wait would hold an alert (and the
			// poll behind it); the send then fails and is retried later.
			ae.RetryAfter = min(time.Duration(s)*time.Second, maxRetryAfter)
		}
	}
	if tokenInvalid(code) {
		b.invalidateToken(tok)
	}
	return ae
}

// transportRetry: an error without a parsed answer is retried when there
// was no HTTP answer at all (network) or it was 429 or 5xx.
func transportRetry(ctx context.Context, cs *callStatus) bool {
	if ctx.Err() != nil {
		return false
	}
	return cs.status == 0 || cs.status == 429 || cs.status >= 500
}

// marshal is feishucard.JSON as a string: no HTML escaping (so
// "<at ...>" stays readable), no trailing newline.
func marshal(v any) string {
	b, err := feishucard.JSON(v)
	if err != nil {
		// Only maps, slices and strings are encoded here.
		panic("feishu: marshal: " + err.Error())
	}
	return string(b)
}

// renderTexts renders r as plain text message contents ({"text": ...}),
// split under the text limits, with @mentions at the start of the first.
func renderTexts(r chat.Reply, mentions []string) []string {
	var prefix strings.Builder
	for _, id := range mentions {
		if id == "" {
			continue
		}
		prefix.WriteString(`<at user_id="` + id + `"></at> `)
	}
	body := strings.TrimRight(chat.PlainText(r), "\n")
	// The first part keeps room for the @mentions. A part of MaxTextRunes
	// runes is at most 16 KB, well under MaxTextBytes.
	first := max(MaxTextRunes-utf8.RuneCountInString(prefix.String()), 200)
	parts := chat.SplitText(body, chat.SplitOptions{Budget: MaxTextRunes, First: first, Cost: chat.RuneCost})
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		if i == 0 {
			p = prefix.String() + p
		}
		out = append(out, marshal(map[string]string{"text": p}))
	}
	return out
}

// panelElement is a closed collapsible panel titled "详情" / "More",
// holding a reply's full form as markdown.
func panelElement(full *chat.Reply) feishucard.Element {
	var parts []string
	for _, l := range full.Lines {
		parts = append(parts, style.Text(l))
	}
	if full.Table != nil && len(full.Table.Rows) > 0 {
		parts = append(parts, style.TableText(full.Table.Header, full.Table.Rows, feishucard.Columns(full.Table)))
	}
	for _, n := range full.Notes {
		parts = append(parts, style.Text(n))
	}
	body := strings.Join(parts, "\n")
	if strings.TrimSpace(body) == "" {
		body = " "
	}
	return feishucard.Panel(chat.MoreTitle(full.English), body)
}

// style is the app bot's card style.
var style = feishucard.App

// buildCard marshals one card: a header with title (when there is one)
// and markdown elements.
func buildCard(title string, blocks []string) string { return buildChartCard(title, blocks, nil) }

// buildChartCard is buildCard with a chart after the first block.
func buildChartCard(title string, blocks []string, chart *chat.BarChart) string {
	return buildPanelCard(title, blocks, chart, nil)
}

// buildPanelCard is buildChartCard with extra elements (a collapsible
// panel) at the end; blank blocks are left out, and a card left empty
// holds one blank markdown element.
func buildPanelCard(title string, blocks []string, chart *chat.BarChart, extra []feishucard.Element) string {
	var els []feishucard.Element
	for i, b := range blocks {
		if strings.TrimSpace(b) != "" {
			els = append(els, feishucard.Markdown(b))
		}
		if i == 0 && chart != nil {
			els = append(els, feishucard.Chart(chart))
		}
	}
	if len(blocks) == 0 && chart != nil {
		els = append(els, feishucard.Chart(chart))
	}
	els = append(els, extra...)
	if len(els) == 0 {
		els = []feishucard.Element{feishucard.Markdown(" ")}
	}
	return marshal(style.New(title, els...))
}

// renderCards renders r as cards: with a full form, one card whose last
// element is a closed collapsible panel holding it (when that card is
// too big, the short form alone with a "发“详情”" note); otherwise
// renderTableCards.
func renderCards(r chat.Reply, mentions []string) ([]string, error) {
	if r.Full == nil {
		return renderTableCards(r, mentions, nil)
	}
	full := r.Full
	short := r
	short.Full = nil
	if cards, err := renderTableCards(short, mentions, full); err == nil && len(cards) == 1 {
		return cards, nil
	}
	short.Notes = append(append([]string{}, short.Notes...), chat.MoreHint(r.English))
	return renderTableCards(short, mentions, nil)
}

// renderTableCards renders r (a table or a chart) as one card or, when
// that is over MaxCardBytes, several, split between table rows: lines in
// the first, notes in the last; panel, when set, ends the only card. It
// fails when a single row or the lines alone do not fit.
func renderTableCards(r chat.Reply, mentions []string, panel *chat.Reply) ([]string, error) {
	var head []string
	var at strings.Builder
	for _, id := range mentions {
		if id != "" {
			at.WriteString(feishucard.At(id) + " ")
		}
	}
	lines := make([]string, 0, len(r.Lines))
	for _, l := range r.Lines {
		lines = append(lines, style.Text(l))
	}
	if s := strings.TrimSpace(at.String() + strings.Join(lines, "\n")); s != "" {
		head = append(head, s)
	}
	notes := make([]string, 0, len(r.Notes))
	for _, n := range r.Notes {
		notes = append(notes, style.Text(n))
	}
	tail := strings.Join(notes, "\n")
	var extra []feishucard.Element
	if panel != nil {
		extra = append(extra, panelElement(panel))
	}
	if r.Table == nil {
		one := buildPanelCard(r.Title, append(append([]string{}, strings.Join(head, "\n")), tail), r.Chart, extra)
		if len(one) > MaxCardBytes {
			return nil, fmt.Errorf("card of %d bytes over %d", len(one), MaxCardBytes)
		}
		return []string{one}, nil
	}
	cols := feishucard.Columns(r.Table)
	one := buildPanelCard(r.Title, append(append(append([]string{}, strings.Join(head, "\n")), style.TableText(r.Table.Header, r.Table.Rows, cols)), tail), r.Chart, extra)
	if len(one) <= MaxCardBytes {
		return []string{one}, nil
	}
	if panel != nil {
		return nil, fmt.Errorf("card with its panel of %d bytes over %d", len(one), MaxCardBytes)
	}

	return splitTableCards(r, head, tail, cols)
}

// splitTableCards renders r's table over several cards between rows: head
// (lines and mentions) and the chart in the first, tail (notes) in the
// last, the title marked "（续）" after the first.
func splitTableCards(r chat.Reply, head []string, tail string, cols int) ([]string, error) {
	cont := r.Title
	if cont != "" {
		// Chinese whatever the reply's language, as it always was.
		cont += i18n.ZH.T("feishu.card_continued")
	}
	var cards []string
	var rows [][]string
	title, blocks := r.Title, head
	first := true // the first card carries the chart
	build := func(rs [][]string, extra ...string) string {
		bs := append(append([]string{}, strings.Join(blocks, "\n")), style.TableText(r.Table.Header, rs, cols))
		if first {
			return buildChartCard(title, append(bs, extra...), r.Chart)
		}
		return buildCard(title, append(bs, extra...))
	}
	for _, row := range r.Table.Rows {
		if len(rows) > 0 && len(build(append(rows, row))) > MaxCardBytes {
			c := build(rows)
			if len(c) > MaxCardBytes {
				return nil, fmt.Errorf("card of %d bytes over %d", len(c), MaxCardBytes)
			}
			cards = append(cards, c)
			rows, title, blocks, first = nil, cont, nil, false
		}
		rows = append(rows, row)
	}
	last := build(rows, tail)
	if len(last) > MaxCardBytes {
		c := build(rows)
		if len(c) > MaxCardBytes {
			return nil, fmt.Errorf("card of %d bytes over %d", len(c), MaxCardBytes)
		}
		cards = append(cards, c)
		last = buildCard(cont, []string{tail})
		if len(last) > MaxCardBytes {
			return nil, fmt.Errorf("notes card of %d bytes over %d", len(last), MaxCardBytes)
		}
	}
	return append(cards, last), nil
}
