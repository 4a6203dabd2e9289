// Package feishucard builds Feishu message cards (card JSON 2.0) for both
// of the bot's Feishu senders: the app bot (internal/chat/feishu) and the
// custom bot webhook (internal/chat/webhook). It owns the card's shape
// (schema, config, header, body elements), its elements (markdown, chart,
// collapsible panel), the @mention tag, the markdown table and how text is
// escaped in it; each sender keeps only how a reply is cut into cards
// under its own size limit.
//
// The two senders' cards differ in a few marks, each a field of Style:
// the app bot's cards can be updated in place and carry a summary and a
// blue header (App); the custom bot's are plain (Custom).
package feishucard

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/vchart"
)

// Card is a card in JSON 2.0. The SDK's larkcard package models only
// card 1.0, so it is built here.
type Card struct {
	Schema string  `json:"schema"`
	Config *Config `json:"config,omitempty"`
	Header *Header `json:"header,omitempty"`
	Body   Body    `json:"body"`
}

// Config is the card's config: update_multi lets the bot update a sent
// card in place (a late platform's answer); the summary is what the chat
// list shows.
type Config struct {
	UpdateMulti bool  `json:"update_multi"`
	Summary     *Text `json:"summary,omitempty"`
}

// Text is a text object ({"tag":"plain_text","content":…}; a summary has
// no tag).
type Text struct {
	Tag     string `json:"tag,omitempty"`
	Content string `json:"content"`
}

// Header is the card's title bar; Template is its colour ("blue").
type Header struct {
	Title    Text   `json:"title"`
	Template string `json:"template,omitempty"`
}

// Body holds the card's elements, top to bottom.
type Body struct {
	Elements []Element `json:"elements"`
}

// Element is a markdown element (Tag "markdown", Content), a chart (Tag
// "chart", ChartSpec: a VChart spec) or a collapsible panel (Tag
// "collapsible_panel", Expanded, Header, Elements).
type Element struct {
	Tag       string `json:"tag"`
	Content   string `json:"content,omitempty"`
	ChartSpec any    `json:"chart_spec,omitempty"`
	Expanded  *bool  `json:"expanded,omitempty"`
	// Header and Elements are a collapsible panel's.
	Header   *PanelHeader `json:"header,omitempty"`
	Elements []Element    `json:"elements,omitempty"`
}

// PanelHeader is a collapsible panel's title.
type PanelHeader struct {
	Title Text `json:"title"`
}

// Escaping is how text goes into a card's markdown.
type Escaping int

const (
	// EscapeTags writes "<" and ">" as &lt; and &gt; (no text reads as
	// a card tag) and a table cell's line breaks as spaces; an empty cell
	// is one space.
	EscapeTags Escaping = iota
	// OneLine keeps text as it is and puts a table cell on one line, its
	// runs of spaces as one; a blank cell is one space.
	OneLine
)

// Style is how one sender's cards look.
type Style struct {
	// Updatable sets config.update_multi, with the title as the summary.
	Updatable bool
	// Template is the header's colour; "" for none.
	Template string
	// Escaping is how lines, notes and cells are escaped.
	Escaping Escaping
}

// The two senders' styles.
var (
	// App is the app bot's: cards updated in place (a late platform's
	// answer), a blue header, tags escaped.
	App = Style{Updatable: true, Template: "blue", Escaping: EscapeTags}
	// Custom is the custom bot webhook's: plain cards (a custom bot
	// cannot update what it sent).
	Custom = Style{Escaping: OneLine}
)

// New is a card with a plain-text title (no header when empty) and els.
func (s Style) New(title string, els ...Element) *Card {
	c := &Card{Schema: "2.0", Body: Body{Elements: els}}
	if s.Updatable {
		c.Config = &Config{UpdateMulti: true}
	}
	if title != "" {
		c.Header = &Header{Title: Text{Tag: "plain_text", Content: title}, Template: s.Template}
		if s.Updatable {
			c.Config.Summary = &Text{Content: title}
		}
	}
	return c
}

// Markdown is a markdown element.
func Markdown(md string) Element { return Element{Tag: "markdown", Content: md} }

// Chart is a chart element with c's VChart spec: bars with value labels,
// or a heat map (vchart.Spec).
func Chart(c *chat.BarChart) Element { return Element{Tag: "chart", ChartSpec: vchart.Spec(c)} }

// Panel is a closed collapsible panel titled title holding md.
func Panel(title, md string) Element {
	closed := false
	return Element{Tag: "collapsible_panel", Expanded: &closed,
		Header:   &PanelHeader{Title: Text{Tag: "plain_text", Content: title}},
		Elements: []Element{Markdown(md)}}
}

// At is the markdown @mention of an open_id ("all": everyone).
func At(id string) string { return "<at id=" + id + "></at>" }

var tagReplacer = strings.NewReplacer("<", "&lt;", ">", "&gt;")

// Text is s escaped for card markdown.
func (s Style) Text(t string) string {
	if s.Escaping == EscapeTags {
		return tagReplacer.Replace(t)
	}
	return t
}

var cellReplacer = strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "<", "&lt;", ">", "&gt;")

// Cell is a table cell escaped: pipes would end it, line breaks the row.
func (s Style) Cell(c string) string {
	if s.Escaping == EscapeTags {
		if c == "" {
			return " "
		}
		return cellReplacer.Replace(c)
	}
	c = strings.ReplaceAll(oneLine(c), "|", `\|`)
	if strings.TrimSpace(c) == "" {
		return " "
	}
	return c
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("\r", " ", "\n", " ").Replace(s)), " ")
}

// Columns is how many columns t's markdown table has: its widest row.
func Columns(t *chat.Table) int {
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	return cols
}

// Table is a markdown table of cols columns (GitHub markdown, which
// card 2.0 markdown renders): head is the header row and its separator,
// lines one line per row.
func (s Style) Table(header []string, rows [][]string, cols int) (head, lines []string) {
	row := func(cells []string) string {
		var b strings.Builder
		b.WriteString("|")
		for i := range cols {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			b.WriteString(" ")
			b.WriteString(s.Cell(c))
			b.WriteString(" |")
		}
		return b.String()
	}
	head = []string{row(header), "|" + strings.Repeat(" --- |", cols)}
	for _, r := range rows {
		lines = append(lines, row(r))
	}
	return head, lines
}

// TableText is Table as one markdown block.
func (s Style) TableText(header []string, rows [][]string, cols int) string {
	head, lines := s.Table(header, rows, cols)
	return strings.Join(append(head, lines...), "\n")
}

// JSON encodes v (a card, a message holding one) without HTML escaping,
// so that "<at …>" and "&" stay as written and cost one byte each, and
// without a trailing newline.
func JSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
