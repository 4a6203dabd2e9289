package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/feishucard"
)

// Feishu custom bot limits. The request body is limited to 20 KB; 20,000
// bytes stays under it whichever K is meant. The rate limit is 100
// requests per minute and 5 per second per bot.
const (
	feishuMaxBody = 20000
	// feishuSlack covers what the overhead estimate does not: the part
	// counter in a card title, a longer timestamp.
	feishuSlack = 64
)

var feishuLimits = []limit{{5, time.Second}, {100, time.Minute}}

// Feishu custom bot answer codes with a known meaning.
const (
	FeishuCodeSignMismatch   = 19021 // bad signature, or timestamp more than 1 h off
	FeishuCodeIPNotAllowed   = 19022 // the IP allow-list rejects this host
	FeishuCodeKeywordMissing = 19024 // the message lacks the bot's keyword
	FeishuCodeBadRequest     = 9499  // malformed request body
	FeishuCodeRateLimited    = 11232 // too many requests: retried
)

// FeishuBot posts to a Feishu (or Lark) custom bot webhook
// (群机器人 → 自定义机器人). It is safe for concurrent use; concurrent Sends
// are serialised so that each reply's parts arrive together and in order.
type FeishuBot struct {
	s      *sender
	secret string
}

// NewFeishuBot returns a sender for the custom bot webhook url
// (https://open.feishu.cn/open-apis/bot/v2/hook/<hook_id>; plain http is
// accepted only for a loopback test server). secret is the bot's
// signature secret ("签名校验"), empty when the bot has none.
func NewFeishuBot(url, secret string, opts ...Option) (*FeishuBot, error) {
	u, err := parseWebhookURL("feishu", url)
	if err != nil {
		return nil, err
	}
	p := strings.TrimRight(u.Path, "/")
	hook := p[strings.LastIndex(p, "/")+1:]
	if hook == "" {
		return nil, errors.New("feishu webhook: the URL has no hook id (…/open-apis/bot/v2/hook/<hook_id>)")
	}
	cf := newConfig(feishuLimits, opts)
	secrets := []string{hook, secret}
	for _, vs := range u.Query() {
		secrets = append(secrets, vs...)
	}
	b := &FeishuBot{secret: secret}
	b.s = newSender("feishu", u.String(), redactURL(u, true), secrets, cf, feishuCheck, b)
	return b, nil
}

// String is the webhook with its hook id masked.
func (b *FeishuBot) String() string { return b.s.redacted }

// Send posts a reply: a text message, or, when the reply has a table or a
// chart, an interactive card (JSON 2.0) whose markdown renders the table
// and whose chart element (vchart.Spec) draws the chart after the
// reply's lines, as the Feishu app does. Mentions
// (open_ids, or "all") go at the start of the first part. Content too long
// for one message is sent as several, in order. When Feishu rejects the
// first card as invalid, the reply is sent as text instead. An empty reply
// sends nothing.
func (b *FeishuBot) Send(ctx context.Context, r chat.Reply) error {
	return b.SendWith(ctx, r, chat.SendOptions{})
}

// SendWith is Send with options: a repeated o.IdempotencyKey skips the
// parts already posted (Sender).
func (b *FeishuBot) SendWith(ctx context.Context, r chat.Reply, o chat.SendOptions) error {
	return b.s.out.Send(ctx, "", r, o)
}

// parts renders r as signed request bodies: a card when r has a table or
// a chart.
func (b *FeishuBot) parts(r chat.Reply) []chat.Part {
	return b.bodies(b.render(r, !b.s.cfg.plainText && wantsCard(r)))
}

// fallback: a first card Feishu refused for itself goes again as text
// (a chart then as text bars).
func (b *FeishuBot) fallback(r chat.Reply, err error) ([]chat.Part, bool) {
	if b.s.cfg.plainText || !wantsCard(r) || !cardRejected(err) {
		return nil, false
	}
	return b.bodies(b.render(r, false)), true
}

func (b *FeishuBot) bodies(msgs []feishuMsg) []chat.Part {
	out := make([]chat.Part, len(msgs))
	for i, m := range msgs {
		out[i] = bodyPart(m.MsgType, func() ([]byte, error) { return b.body(m) })
	}
	return out
}

// cardRejected reports whether err says the card itself was refused (so a
// text message may pass), rather than the webhook, its security settings
// or the network.
func cardRejected(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) || ae.Retryable || ae.Code == 0 {
		return false
	}
	switch ae.Code {
	case FeishuCodeSignMismatch, FeishuCodeIPNotAllowed, FeishuCodeKeywordMissing:
		return false
	}
	return true
}

func hasTable(r chat.Reply) bool { return r.Table != nil && len(r.Table.Rows) > 0 }

// wantsCard: a Feishu reply goes as a card when it has a table or a chart.
func wantsCard(r chat.Reply) bool { return hasTable(r) || r.Chart != nil }

// FeishuSign is the custom bot signature: base64 of HMAC-SHA256 keyed with
// "<timestamp>\n<secret>" over empty data, timestamp in Unix seconds.
func FeishuSign(secret string, timestamp int64) string {
	h := hmac.New(sha256.New, []byte(strconv.FormatInt(timestamp, 10)+"\n"+secret))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// feishuMsg is one message to post: text or a card, unsigned.
type feishuMsg struct {
	MsgType string           `json:"msg_type"`
	Content *feishuText      `json:"content,omitempty"`
	Card    *feishucard.Card `json:"card,omitempty"`
}

type feishuText struct {
	Text string `json:"text"`
}

// feishuSigned is the request body: the message plus, with a secret, the
// timestamp and signature at the top level.
type feishuSigned struct {
	Timestamp string `json:"timestamp,omitempty"`
	Sign      string `json:"sign,omitempty"`
	feishuMsg
}

// body signs and encodes one message, with the current time.
func (b *FeishuBot) body(m feishuMsg) ([]byte, error) {
	v := feishuSigned{feishuMsg: m}
	if b.secret != "" {
		ts := b.s.cfg.now().Unix()
		v.Timestamp = strconv.FormatInt(ts, 10)
		v.Sign = FeishuSign(b.secret, ts)
	}
	return marshal(v)
}

// overhead is the encoded size of a message with empty content.
func (b *FeishuBot) overhead(m feishuMsg) int {
	v := feishuSigned{feishuMsg: m}
	if b.secret != "" {
		v.Timestamp = "1700000000"
		v.Sign = FeishuSign("x", 1700000000)
	}
	data, err := marshal(v)
	if err != nil {
		return feishuMaxBody / 2
	}
	return len(data) + feishuSlack
}

// render turns a reply into messages, each under the body limit.
func (b *FeishuBot) render(r chat.Reply, card bool) []feishuMsg {
	if !card {
		var segs []chat.Segment
		if m := feishuTextMentions(r.Mentions); m != "" {
			segs = append(segs, chat.Segment{Lines: []string{m}})
		}
		segs = append(segs, chat.TextSegment(chat.PlainText(r)))
		budget := feishuMaxBody - b.overhead(feishuMsg{MsgType: "text", Content: &feishuText{}})
		var out []feishuMsg
		for _, p := range chat.Split(segs, chat.SplitOptions{Budget: budget, Cost: jsonCost}) {
			out = append(out, feishuMsg{MsgType: "text", Content: &feishuText{Text: p}})
		}
		return out
	}
	return b.renderCard(r)
}

// renderCard turns a reply with a table or a chart into cards under the
// body limit: mentions and lines, the chart, then the table and the
// notes, split between lines over as many cards as needed (the title
// numbered "(i/n)"); the chart is in the first card.
func (b *FeishuBot) renderCard(r chat.Reply) []feishuMsg {
	var head, tail []chat.Segment
	if m := feishuCardMentions(r.Mentions); m != "" {
		head = append(head, chat.Segment{Lines: []string{m}})
	}
	if len(r.Lines) > 0 {
		head = append(head, chat.TextSegment(strings.Join(r.Lines, "\n")))
	}
	if hasTable(r) {
		tail = append(tail, markdownTable(r.Table))
	}
	if len(r.Notes) > 0 {
		tail = append(tail, chat.TextSegment(strings.Join(r.Notes, "\n")))
	}
	title := truncate(oneLine(r.Title), maxCardTitle)
	budget := feishuMaxBody - b.overhead(feishuMsg{MsgType: "interactive", Card: cardStyle.New(title, feishucard.Markdown(""))})
	opts := chat.SplitOptions{Budget: budget, Cost: jsonCost, Gap: true}
	var parts [][]feishucard.Element
	chart, first := chartFirst(r.Chart, head, budget)
	if chart == nil {
		for _, p := range chat.Split(append(append([]chat.Segment{}, head...), tail...), opts) {
			parts = append(parts, []feishucard.Element{feishucard.Markdown(p)})
		}
		if r.Chart != nil {
			// Lines too long to share a card with the chart: it follows
			// them in a card of its own.
			parts = append(parts, []feishucard.Element{feishucard.Chart(r.Chart)})
		}
	} else {
		opts.First = first
		rest := chat.Split(tail, opts)
		if len(rest) > 0 {
			chart = append(chart, feishucard.Markdown(rest[0]))
			rest = rest[1:]
		}
		parts = append(parts, chart)
		for _, p := range rest {
			parts = append(parts, []feishucard.Element{feishucard.Markdown(p)})
		}
	}
	out := make([]feishuMsg, len(parts))
	for i, els := range parts {
		t := title
		if t != "" && len(parts) > 1 {
			t = fmt.Sprintf("%s (%d/%d)", title, i+1, len(parts))
		}
		out[i] = feishuMsg{MsgType: "interactive", Card: cardStyle.New(t, els...)}
	}
	return out
}

// chartFirst is the start of a first card that carries chart: the head
// (mentions and lines) as markdown and the chart element, and what is
// left of budget for the rest of that card. nil when there is no chart,
// or when the head and chart leave less than a quarter of the card.
func chartFirst(chart *chat.BarChart, head []chat.Segment, budget int) ([]feishucard.Element, int) {
	if chart == nil {
		return nil, 0
	}
	el := feishucard.Chart(chart)
	data, err := marshal(el)
	if err != nil {
		return nil, 0
	}
	// The chart, a comma before it, and a markdown element after it.
	left := budget - len(data) - 1 - len(`,{"tag":"markdown","content":""}`)
	var els []feishucard.Element
	if len(head) > 0 {
		md := strings.Join(chat.Split(head, chat.SplitOptions{Budget: feishuMaxBody, Cost: jsonCost, Gap: true}), "\n")
		left -= jsonCost(md)
		els = append(els, feishucard.Markdown(md))
	}
	if left < budget/4 {
		return nil, 0
	}
	return append(els, el), left
}

// cardStyle is the custom bot's card style.
var cardStyle = feishucard.Custom

// markdownTable renders a table in markdown, its header rows repeated in
// every part.
func markdownTable(t *chat.Table) chat.Segment {
	head, lines := cardStyle.Table(t.Header, t.Rows, feishucard.Columns(t))
	return chat.Segment{Head: head, Lines: lines}
}

// maxCardTitle bounds a card header title, in runes, so that a huge title
// cannot leave no room for the content under the body limit.
const maxCardTitle = 100

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("\r", " ", "\n", " ").Replace(s)), " ")
}

// mentionIDs drops ids that cannot be put in a tag attribute.
func mentionIDs(ids []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || seen[id] || strings.ContainsAny(id, "\"'<> \t\r\n&") {
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return out
}

func isAll(id string) bool { return id == "all" || id == "@all" }

// feishuTextMentions renders mentions for a text message:
// <at user_id="ou_…"></at>, <at user_id="all">所有人</at> for everyone.
func feishuTextMentions(ids []string) string {
	var tags []string
	for _, id := range mentionIDs(ids) {
		if isAll(id) {
			tags = append(tags, `<at user_id="all">`+chat.ReadWords().FeishuEveryone+`</at>`)
			continue
		}
		tags = append(tags, `<at user_id="`+id+`"></at>`)
	}
	return strings.Join(tags, " ")
}

// feishuCardMentions renders mentions for card markdown: <at id=ou_…></at>.
func feishuCardMentions(ids []string) string {
	var tags []string
	for _, id := range mentionIDs(ids) {
		if isAll(id) {
			id = "all"
		}
		tags = append(tags, feishucard.At(id))
	}
	return strings.Join(tags, " ")
}

// feishuCheck reads a custom bot answer: {"code":0,"msg":"success"}, or the
// legacy {"StatusCode":0,"StatusMessage":"success"}.
func feishuCheck(status int, _ http.Header, body []byte) error {
	var v struct {
		Code          *int   `json:"code"`
		Msg           string `json:"msg"`
		StatusCode    *int   `json:"StatusCode"`
		StatusMessage string `json:"StatusMessage"`
	}
	has, code, msg := false, 0, ""
	if json.Unmarshal(body, &v) == nil {
		switch {
		case v.Code != nil:
			has, code, msg = true, *v.Code, v.Msg
		case v.StatusCode != nil:
			has, code, msg = true, *v.StatusCode, v.StatusMessage
		}
	}
	if status/100 == 2 && has && code == 0 {
		return nil
	}
	e := &APIError{Platform: "feishu", HTTPStatus: status, Code: code, Msg: msg}
	if !has {
		e.Msg = "unexpected response: " + snippet(body)
	}
	e.Retryable = status == http.StatusTooManyRequests || status >= 500 || code == FeishuCodeRateLimited
	return e
}
