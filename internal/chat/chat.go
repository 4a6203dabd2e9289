// Package chat defines what channel adapters (console, Feishu, WeChat) and
// the command router exchange: an inbound Message and an outbound Reply.
// It knows nothing of any channel SDK.
package chat

import (
	"context"
	"time"

	"github.com/labgpu/bot/internal/i18n"
)

// ChatType is the kind of conversation a message arrived in.
type ChatType string

const (
	// P2P is a private (one-to-one) chat with the bot.
	P2P ChatType = "p2p"
	// Group is a group chat; the bot answers there only when @mentioned.
	Group ChatType = "group"
)

// Message is one inbound message, already verified, deduplicated and
// stripped of the bot's @mention by the channel adapter.
type Message struct {
	// Channel names the adapter: "console", "feishu", "wechat".
	Channel string
	// ID is the channel's message id (Feishu message_id).
	ID string
	// ChatID identifies the conversation (Feishu chat_id).
	ChatID   string
	ChatType ChatType
	// SenderID identifies the sender (Feishu open_id); SenderName is for
	// display and @mentions.
	SenderID   string
	SenderName string
	// Text is the message text with the bot's mention removed.
	Text string
	// Time is when the message was created.
	Time time.Time
	// ParentID and RootID are the messages this one replies to (Feishu
	// parent_id: the message quoted; root_id: the first of its thread),
	// "" when it is no reply; Quote is the text of a message it quotes
	// when the channel gives quotes as text only (WeChat: "「name：text」"
	// above the reply). A reply to one of the bot's answers continues
	// that answer's conversation (AnswerLinker).
	ParentID, RootID string
	Quote            string
}

// AnswerLinker is a Handler that keeps what each answer was about, so
// that a reply to the bot's message continues it (commands.Router: the
// conversation's frame). A channel whose sends return message ids
// (Feishu) tells it, after sending the answer to msg, the ids of the
// messages that carried it.
type AnswerLinker interface {
	LinkAnswer(ctx context.Context, msg Message, sentIDs []string)
}

// Table is a small table: a header row and data rows of equal length.
type Table struct {
	Header []string
	Rows   [][]string
}

// Reply is what the bot answers. Adapters render it for their channel:
// a card in Feishu, aligned plain text in WeChat and the console.
type Reply struct {
	// Title is a one-line summary ("RTX 4090 报价（按价格从低到高）").
	Title string
	// Lines are paragraphs shown before the table.
	Lines []string
	// Table is optional.
	Table *Table
	// Notes are shown after the table: sources, freshness, caveats.
	Notes []string
	// Mentions are sender ids to @mention in group replies.
	Mentions []string
	// Chart is an optional bar chart: a chart element in Feishu cards,
	// text bars in plain text.
	Chart *BarChart
	// Full is the long form of this answer when this one is its short
	// form (nil when the short form is all of it). Feishu shows it in a
	// collapsible panel of the same card; plain-text channels end the
	// short form with MoreHint and answer "详情" / "more" with it.
	Full *Reply
	// English is the reply's language, for the channel's own words
	// (MoreHint, the panel's title).
	English bool
	// Keep is how many of the first Lines a short form keeps whatever it
	// cuts (the line naming the conditions an answer did not use): they
	// say what the rest of the reply assumed.
	Keep int `json:"-"`
}

// MoreHint is the last line of a short form in plain text.
func MoreHint(en bool) string { return i18n.Of(en).T("chat.more_hint") }

// MoreTitle is the title of the collapsible panel that holds the full form.
func MoreTitle(en bool) string { return i18n.Of(en).T("chat.more_title") }

// BarChart is a small bar chart: one bar per label; or, with Heat set,
// a heat map instead (Labels and Values then unused).
type BarChart struct {
	Title  string
	Labels []string
	Values []float64
	// Unit follows each value in text ("元").
	Unit string
	// Heat, when set, makes the chart a heat map: a chart element in
	// Feishu, shaded text in plain text, a PNG in WeChat.
	Heat *HeatMap
}

// HeatMap is a grid of shares: Rows × Cols values from 0 to 1, NaN where
// unknown (7 days × 24 hours for stock availability).
type HeatMap struct {
	Rows, Cols []string
	Values     [][]float64
	// Legend explains the shades in text ("░ 少 … █ 多，· 无数据").
	Legend string
}

// Empty reports whether the reply has nothing to show.
func (r Reply) Empty() bool {
	return r.Title == "" && len(r.Lines) == 0 && r.Table == nil && len(r.Notes) == 0 && r.Chart == nil && r.Full == nil
}
