// Package metaview renders the answers about the bot itself and the
// conversation: the help menu and an area's help, "详情" (the last
// answer's full form), small talk, the ask-back between two readings,
// "not something I do", the answer that failed, and "查询中…".
package metaview

import (
	"fmt"
	"strings"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// Help is the menu: one line per area with up to three phrasings.
type Help struct {
	Lang  i18n.Lang  `json:"-"`
	Areas []HelpArea `json:"-"`
}

// HelpArea is one area of the menu: its name and phrasings.
type HelpArea struct {
	Name     string
	Examples []string
}

// Reply is the menu, with how answers come and how to ask for an area:
// one phrasing an area on the first screen, all of them behind 详情.
func (h Help) Reply(*render.Renderer) chat.Reply {
	l := h.Lang
	full := chat.Reply{Title: l.T("help.title")}
	short := full
	for _, a := range h.Areas {
		full.Lines = append(full.Lines, l.T("help.area", a.Name, quoted(a.Examples, l)))
		short.Lines = append(short.Lines, l.T("help.area", a.Name, quoted(a.Examples[:min(1, len(a.Examples))], l)))
	}
	full.Notes = append(full.Notes, l.T("help.short_first"), l.T("help.areas_hint"))
	short.Notes = append(short.Notes, l.T("help.areas_hint"))
	short.Full = &full
	return short
}

// quoted are phrasings in quotes, one after the other.
func quoted(examples []string, l i18n.Lang) string {
	q := make([]string, len(examples))
	for i, e := range examples {
		q[i] = "“" + e + "”"
	}
	return strings.Join(q, l.T("help.join"))
}

// AreaHelp is one area in full ("帮助 存储"): each intent with its
// description and phrasings; the troubleshooting area also names the
// knowledge base's topics (Topics, KB: there is a knowledge base).
type AreaHelp struct {
	Lang    i18n.Lang    `json:"-"`
	Title   string       `json:"-"`
	Intents []HelpIntent `json:"-"`
	KB      bool         `json:"-"`
	Topics  []string     `json:"-"`
}

// HelpIntent is one intent of an area's help.
type HelpIntent struct {
	Name, Description string
	Examples          []string
}

// Reply lists the intents; the topics go behind "详情".
func (h AreaHelp) Reply(*render.Renderer) chat.Reply {
	l := h.Lang
	rep := chat.Reply{Title: h.Title}
	for _, in := range h.Intents {
		rep.Lines = append(rep.Lines, fmt.Sprintf("• %s — %s", in.Name, in.Description))
		if len(in.Examples) > 0 {
			rep.Lines = append(rep.Lines, l.T("help.eg", quoted(in.Examples, l)))
		}
	}
	if h.KB {
		full := rep
		full.Lines = append(append([]string{}, rep.Lines...), l.T("help.topics", strings.Join(h.Topics, l.T("meta.semi"))))
		rep.Notes = append(rep.Notes, l.T("help.topics_note", len(h.Topics)))
		rep.Full = &full
	}
	return rep
}

// More is "详情": the full form of the last answer (Full), as it was.
type More struct {
	Full chat.Reply `json:"-"`
}

// Reply is the full form itself.
func (m More) Reply(*render.Renderer) chat.Reply { return m.Full }

// NothingMore: there is no recent answer with more to show.
type NothingMore struct {
	Lang i18n.Lang `json:"-"`
}

// Reply says so.
func (n NothingMore) Reply(*render.Renderer) chat.Reply {
	return chat.Reply{Title: n.Lang.T("more.none")}
}

// Kinds of small talk (SmallTalk.Kind; understand's).
const (
	Thanks   = "thanks"
	Greeting = "greeting"
	// Decline: the member said not to do an action ("别静音").
	Decline = "decline"
	// NoAction: a "确认" when nothing waits for one.
	NoAction = "no_action"
)

// SmallTalk answers thanks and greetings with one line, never the menu.
type SmallTalk struct {
	Lang i18n.Lang `json:"-"`
	Kind string    `json:"-"`
}

// Reply is the one line.
func (s SmallTalk) Reply(*render.Renderer) chat.Reply {
	switch s.Kind {
	case Thanks:
		return chat.Reply{Title: s.Lang.T("meta.chitchat.thanks")}
	case Greeting:
		return chat.Reply{Title: s.Lang.T("meta.chitchat.greeting")}
	case Decline:
		return chat.Reply{Title: s.Lang.T("meta.chitchat.decline")}
	case NoAction:
		return chat.Reply{Title: s.Lang.T("meta.chitchat.no_action")}
	}
	return chat.Reply{Title: s.Lang.T("meta.chitchat.ok")}
}

// Clarify asks back between the two likeliest readings that fit, or
// whether the one that fits is meant.
type Clarify struct {
	Lang     i18n.Lang `json:"-"`
	Readings []Reading `json:"-"`
}

// Reading is one reading of a question, named as help names its intent,
// or a troubleshooting topic's title.
type Reading struct {
	Name            string
	Troubleshooting bool
}

// Reply asks which, and how to answer.
func (c Clarify) Reply(*render.Renderer) chat.Reply {
	l := c.Lang
	name := func(r Reading) string {
		if r.Troubleshooting {
			return l.T("meta.clarify.troubleshooting", r.Name)
		}
		return r.Name
	}
	if len(c.Readings) == 1 {
		return chat.Reply{Title: l.T("meta.clarify.one", name(c.Readings[0])), Lines: []string{l.T("meta.clarify.how_one")}}
	}
	return chat.Reply{Title: l.T("meta.clarify.title", name(c.Readings[0]), name(c.Readings[1])), Lines: []string{l.T("meta.clarify.how")}}
}

// Unknown: the question is outside what the bot does; Kind is what it
// asked that the bot does not do (understand's Scope* kinds: code, text,
// act, llm_api, image; "" when it does not say).
type Unknown struct {
	Lang i18n.Lang `json:"-"`
	Kind string    `json:"-"`
}

// Unclear is the Unknown kind of a message read several ways, none of
// which fits it: not understood, rather than not done.
const Unclear = "unclear"

// unknownKeys say, for what was asked, what the bot does not do and the
// nearest thing it does (or, Unclear, how to ask).
var unknownKeys = map[string]string{"code": "meta.unknown.code", "text": "meta.unknown.text", "act": "meta.unknown.act", "pay": "meta.unknown.pay", "operate": "meta.unknown.operate",
	"llm_api": "meta.unknown.llm_api", "image": "meta.unknown.image", "account": "meta.unknown.account", "email": "meta.unknown.email", "wipe": "meta.unknown.wipe", Unclear: "meta.unknown.unclear"}

// Reply says plainly what the bot does not do and the nearest thing it
// does, or what it does.
func (u Unknown) Reply(*render.Renderer) chat.Reply {
	if k, ok := unknownKeys[u.Kind]; ok {
		return chat.Reply{Title: u.Lang.T(k)}
	}
	return chat.Reply{Title: u.Lang.T("meta.unknown.title"), Lines: []string{u.Lang.T("meta.unknown.help")}}
}

// Failed: answering failed on the bot's side (logged).
type Failed struct {
	Lang i18n.Lang `json:"-"`
}

// Reply says so and what to do.
func (f Failed) Reply(*render.Renderer) chat.Reply {
	return chat.Reply{English: f.Lang.English(), Title: f.Lang.T("meta.failed")}
}

// Interim is "查询中…": what a chat gets at once when an answer is slow
// (fresh figures being fetched).
func Interim(l i18n.Lang) chat.Reply {
	return chat.Reply{Title: l.T("meta.interim.title"), Lines: []string{l.T("meta.interim.line")}, English: l.English()}
}

// Confirm asks before doing an action nobody clearly asked for (no
// explicit verb, or an unsure reading): what it would do (Do, a clause
// in Lang: "把本群的库存提醒静音 1 小时"), what to know first (Lines), and
// that "确认" does it while anything else leaves it.
type Confirm struct {
	Lang  i18n.Lang `json:"-"`
	Do    string    `json:"-"`
	Lines []string  `json:"-"`
}

// Reply asks.
func (c Confirm) Reply(*render.Renderer) chat.Reply {
	return chat.Reply{Title: c.Lang.T("router.confirm.ask", c.Do), Lines: c.Lines, Notes: []string{c.Lang.T("router.confirm.how")}}
}
