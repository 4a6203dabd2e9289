package webhook

import (
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/chat"
)

// WeCom group robot limits: text content at most 2048 bytes, markdown
// content at most 4096 bytes (UTF-8), an image at most 2 MB before base64
// encoding (JPG or PNG), 20 messages per minute per robot.
const (
	wecomMaxText     = 2048
	wecomMaxMarkdown = 4096
	wecomMaxImage    = 2 << 20
)

var wecomLimits = []limit{{20, time.Minute}}

// WeCom group robot answer codes with a known meaning.
const (
	WeComCodeSystemBusy  = -1    // retry later
	WeComCodeRateLimited = 45009 // over 20 messages a minute: retried
	WeComCodeInvalidURL  = 93000 // the key is wrong or the robot was removed
)

// WeCom posts to a WeCom (企业微信) group robot webhook. It is safe for
// concurrent use; concurrent Sends are serialised so that each reply's
// parts arrive together and in order.
type WeCom struct {
	s *sender
}

// NewWeCom returns a sender for the group robot webhook url
// (https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=<KEY>; plain http
// is accepted only for a loopback test server). The key is the secret.
func NewWeCom(url string, opts ...Option) (*WeCom, error) {
	u, err := parseWebhookURL("wecom", url)
	if err != nil {
		return nil, err
	}
	key := u.Query().Get("key")
	if key == "" {
		return nil, errors.New("wecom webhook: the URL has no key (…/cgi-bin/webhook/send?key=<KEY>)")
	}
	var secrets []string
	for _, vs := range u.Query() {
		secrets = append(secrets, vs...)
	}
	cf := newConfig(wecomLimits, opts)
	w := &WeCom{}
	w.s = newSender("wecom", u.String(), redactURL(u, false), secrets, cf, wecomCheck, w)
	return w, nil
}

// String is the webhook with its key masked.
func (w *WeCom) String() string { return w.s.redacted }

// Send posts a reply. A reply without a table goes as text, with its
// Mentions (WeCom userids; "all" for everyone) in mentioned_list. A reply
// with a table goes as markdown, which renders no tables: each row becomes
// a list item ("- **first** · header: value · …"), and mentions become
// <@userid> (a reply that mentions everyone goes as text instead, since
// only text documents @all). Content too long for one message is sent as
// several, in order; mentions go with the first. A reply with a chart is
// followed by an image message of it when the sender has WithChartPNG. An
// empty reply sends nothing.
func (w *WeCom) Send(ctx context.Context, r chat.Reply) error {
	return w.SendWith(ctx, r, chat.SendOptions{})
}

// SendWith is Send with options: a repeated o.IdempotencyKey skips the
// parts already posted (Sender).
func (w *WeCom) SendWith(ctx context.Context, r chat.Reply, o chat.SendOptions) error {
	return w.s.out.Send(ctx, "", r, o)
}

// parts renders r as request bodies: its text or markdown, then its chart
// as an optional image.
func (w *WeCom) parts(r chat.Reply) []chat.Part {
	msgs := w.render(r)
	out := make([]chat.Part, len(msgs), len(msgs)+1)
	for i, m := range msgs {
		out[i] = bodyPart(m.MsgType, func() ([]byte, error) { return marshal(m) })
	}
	if r.Chart != nil && w.s.cfg.chartPNG != nil && len(out) > 0 {
		img := sync.OnceValues(func() ([]byte, error) { return wecomImageMsg(w.s.cfg.chartPNG(r.Chart)) })
		p := bodyPart("image", img)
		p.Optional = true
		out = append(out, p)
	}
	return out
}

// wecomImageMsg is the body of an image message of a PNG (or JPG): its
// base64 and the hex MD5 of its bytes. It fails on an empty image or one
// over the robot's 2 MB.
func wecomImageMsg(png []byte, err error) ([]byte, error) {
	switch {
	case err != nil:
		return nil, fmt.Errorf("chart image: %w", err)
	case len(png) == 0:
		return nil, errors.New("chart image: empty")
	case len(png) > wecomMaxImage:
		return nil, fmt.Errorf("chart image: %d bytes, over the robot's %d", len(png), wecomMaxImage)
	}
	sum := md5.Sum(png)
	return marshal(wecomMsg{MsgType: "image", Image: &wecomImage{Base64: base64.StdEncoding.EncodeToString(png), MD5: hex.EncodeToString(sum[:])}})
}

type wecomMsg struct {
	MsgType  string         `json:"msgtype"`
	Text     *wecomText     `json:"text,omitempty"`
	Markdown *wecomMarkdown `json:"markdown,omitempty"`
	Image    *wecomImage    `json:"image,omitempty"`
}

// wecomImage is an image message's content: the image in base64 and the
// MD5 of the image bytes (before encoding), in lower-case hex.
type wecomImage struct {
	Base64 string `json:"base64"`
	MD5    string `json:"md5"`
}

type wecomText struct {
	Content       string   `json:"content"`
	MentionedList []string `json:"mentioned_list,omitempty"`
}

type wecomMarkdown struct {
	Content string `json:"content"`
}

func (w *WeCom) render(r chat.Reply) []wecomMsg {
	ids := mentionIDs(r.Mentions)
	all := slices.ContainsFunc(ids, isAll)
	if w.s.cfg.plainText || !hasTable(r) || all {
		var mentioned []string
		for _, id := range ids {
			if isAll(id) {
				id = "@all"
			}
			mentioned = append(mentioned, id)
		}
		parts := chat.SplitText(chat.PlainText(r), chat.SplitOptions{Budget: wecomMaxText, Cost: chat.ByteCost})
		out := make([]wecomMsg, len(parts))
		for i, p := range parts {
			out[i] = wecomMsg{MsgType: "text", Text: &wecomText{Content: p}}
			if i == 0 {
				out[i].Text.MentionedList = mentioned
			}
		}
		return out
	}
	var segs []chat.Segment
	if len(ids) > 0 {
		tags := make([]string, len(ids))
		for i, id := range ids {
			tags[i] = "<@" + id + ">"
		}
		segs = append(segs, chat.Segment{Lines: []string{strings.Join(tags, " ")}})
	}
	if t := oneLine(r.Title); t != "" {
		segs = append(segs, chat.Segment{Lines: []string{"**" + t + "**"}})
	}
	if len(r.Lines) > 0 {
		segs = append(segs, chat.TextSegment(strings.Join(r.Lines, "\n")))
	}
	segs = append(segs, wecomTableList(r.Table))
	if len(r.Notes) > 0 {
		var sg chat.Segment
		for _, n := range r.Notes {
			for _, l := range strings.Split(strings.TrimRight(n, "\n"), "\n") {
				sg.Lines = append(sg.Lines, `<font color="comment">`+l+`</font>`)
			}
		}
		segs = append(segs, sg)
	}
	parts := chat.Split(segs, chat.SplitOptions{Budget: wecomMaxMarkdown, Cost: chat.ByteCost, Gap: true})
	out := make([]wecomMsg, len(parts))
	for i, p := range parts {
		out[i] = wecomMsg{MsgType: "markdown", Markdown: &wecomMarkdown{Content: p}}
	}
	return out
}

// wecomTableList renders a table as a markdown list, one row an item: the
// first cell in bold, then "header: value" for the other non-empty cells.
func wecomTableList(t *chat.Table) chat.Segment {
	var sg chat.Segment
	for _, row := range t.Rows {
		var cells []string
		for i, c := range row {
			c = oneLine(c)
			if c == "" {
				continue
			}
			switch {
			case i == 0:
				cells = append(cells, "**"+c+"**")
			case i < len(t.Header) && oneLine(t.Header[i]) != "":
				cells = append(cells, oneLine(t.Header[i])+": "+c)
			default:
				cells = append(cells, c)
			}
		}
		if len(cells) > 0 {
			sg.Lines = append(sg.Lines, "- "+strings.Join(cells, " · "))
		}
	}
	return sg
}

// wecomCheck reads a robot answer: {"errcode":0,"errmsg":"ok"}.
func wecomCheck(status int, _ http.Header, body []byte) error {
	var v struct {
		ErrCode *int   `json:"errcode"`
		ErrMsg  string `json:"errmsg"`
	}
	has := json.Unmarshal(body, &v) == nil && v.ErrCode != nil
	code := 0
	if has {
		code = *v.ErrCode
	}
	if status/100 == 2 && has && code == 0 {
		return nil
	}
	e := &APIError{Platform: "wecom", HTTPStatus: status, Code: code, Msg: v.ErrMsg}
	if !has {
		e.Msg = "unexpected response: " + snippet(body)
	}
	e.Retryable = status == http.StatusTooManyRequests || status >= 500 ||
		code == WeComCodeRateLimited || code == WeComCodeSystemBusy
	return e
}
