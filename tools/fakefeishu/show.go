package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/mattn/go-runewidth"

	"github.com/labgpu/bot/internal/chat/feishucard"
	"github.com/labgpu/bot/tools/soak/fakes"
)

// showPost prints a message the bot sent or updated.
func (f *fake) showPost(p fakes.Post) {
	head := fmt.Sprintf("[%s] bot → %s", stamp(p.At), f.where(p.ChatID))
	switch {
	case p.Repeat:
		f.out.say("%s: the same message again (same uuid; Feishu shows it once)", head)
		return
	case p.Kind == "patch":
		head += " (updated)"
	}
	f.out.say("%s\n%s", head, strings.TrimRight(indent(messageText(p.Type, p.Text), "    "), "\n"))
}

// showWeCom prints a message the fake WeCom robot accepted.
func (f *fake) showWeCom(p fakes.WeComPost) {
	head := fmt.Sprintf("[%s] bot → WeCom robot %s (%s)", stamp(p.At), wecomName, p.MsgType)
	body := fontTag.ReplaceAllString(p.Content, "")
	switch {
	case p.MsgType == "image":
		body = fmt.Sprintf("(an image of %d bytes: the chart)", p.ImageBytes)
	case len(p.Mentioned) > 0:
		body = "@" + strings.Join(p.Mentioned, " @") + " " + body
	}
	f.out.say("%s\n%s", head, strings.TrimRight(indent(body, "    "), "\n"))
}

// fontTag is a WeCom markdown colour tag (<font color="comment">…</font>).
var fontTag = regexp.MustCompile(`</?font[^>]*>`)

// messageText is a message's content (its JSON string) as text: a text
// message's text, a card's title, lines, table, notes and panels.
func messageText(msgType, content string) string {
	switch msgType {
	case "text":
		var t struct {
			Text string `json:"text"`
		}
		if json.Unmarshal([]byte(content), &t) == nil {
			return atTag.ReplaceAllString(t.Text, "@$1")
		}
	case "interactive":
		var c feishucard.Card
		if json.Unmarshal([]byte(content), &c) == nil {
			return cardText(c)
		}
	}
	return fmt.Sprintf("(%s message) %s", msgType, content)
}

// atTag is an @mention in a text message (<at user_id="ou_…"></at>) or a
// card (<at id=ou_…></at>); group 1 is the id.
var atTag = regexp.MustCompile(`<at (?:user_)?id="?([^">]*)"?></at>`)

// cardText is a card as text: "# title", then its elements.
func cardText(c feishucard.Card) string {
	var out []string
	if c.Header != nil && c.Header.Title.Content != "" {
		out = append(out, "# "+c.Header.Title.Content)
	}
	for _, el := range c.Body.Elements {
		out = append(out, elementText(el)...)
	}
	return strings.Join(out, "\n")
}

// elementText is one card element's lines: markdown as text (its table
// aligned), a chart as a mark, a collapsible panel as its title and its
// elements indented.
func elementText(el feishucard.Element) []string {
	switch el.Tag {
	case "markdown":
		return markdownLines(el.Content)
	case "chart":
		return []string{"[chart]"}
	case "collapsible_panel":
		title := "(panel)"
		if el.Header != nil {
			title = el.Header.Title.Content
		}
		out := []string{"▸ " + title + " (folded; in Feishu a tap opens it):"}
		for _, inner := range el.Elements {
			for _, l := range elementText(inner) {
				out = append(out, "    "+l)
			}
		}
		return out
	}
	return []string{"[" + el.Tag + "]"}
}

// cardEscapes undoes what the card's markdown escapes.
var cardEscapes = strings.NewReplacer("&lt;", "<", "&gt;", ">")

// markdownLines is card markdown as lines: mentions as @id, escapes
// undone, runs of table rows aligned.
func markdownLines(md string) []string {
	var out, table []string
	flush := func() {
		out = append(out, alignTable(table)...)
		table = nil
	}
	for _, l := range strings.Split(strings.TrimSpace(md), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "|") {
			table = append(table, l)
			continue
		}
		flush()
		out = append(out, cardEscapes.Replace(atTag.ReplaceAllString(l, "@$1")))
	}
	flush()
	return out
}

// alignTable lays markdown table rows out in columns padded to their
// widest cell (in terminal cells: a Chinese character is two), without
// the separator row.
func alignTable(rows []string) []string {
	var cells [][]string
	var width []int
	for _, r := range rows {
		cs := tableCells(r)
		if isSeparator(cs) {
			continue
		}
		for i, c := range cs {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], runewidth.StringWidth(c))
		}
		cells = append(cells, cs)
	}
	out := make([]string, len(cells))
	for i, cs := range cells {
		for j, c := range cs {
			cs[j] = runewidth.FillRight(c, width[j])
		}
		out[i] = strings.TrimRight(strings.Join(cs, "  "), " ")
	}
	return out
}

// tableCells splits a markdown table row ("| a | b \| c |") into its
// cells, unescaped and trimmed.
func tableCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	const pipe = "\x00"
	parts := strings.Split(strings.ReplaceAll(row, `\|`, pipe), "|")
	for i, p := range parts {
		parts[i] = cardEscapes.Replace(strings.TrimSpace(strings.ReplaceAll(p, pipe, "|")))
	}
	return parts
}

// isSeparator: the row under a markdown table's header ("| --- | --- |").
func isSeparator(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, "-: ") != "" || c == "" {
			return false
		}
	}
	return len(cells) > 0
}
