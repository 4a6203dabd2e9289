package feishutest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Message is one member's message as Feishu's im.message.receive_v1
// event carries it (Events.Message builds the event).
type Message struct {
	// EventID and MessageID name the event and the message; each
	// delivery of a new message has its own.
	EventID, MessageID string
	// ChatID is the chat the message is in: a group's oc_…, or the
	// private chat's ("" keeps the fixture group's).
	ChatID string
	// P2P makes it a private-chat message (chat_type p2p, no mentions);
	// otherwise it is a group message.
	P2P bool
	// Sender is the sender's open_id ("" keeps the fixture's); its
	// union_id is derived from it and its user_id left empty, as an app
	// without the contact scope gets it.
	Sender string
	// Text is what the member typed, without the @mention.
	Text string
	// Mention makes a group message @mention the bot (the fixture's
	// @_user_1, written before Text) and no one else.
	Mention bool
	// Token is header.token, the app's verification token ("" keeps the
	// fixture's).
	Token string
	// Created is when it was sent (zero: now).
	Created time.Time
}

// Events builds message events from the fixture group message that
// @mentions the bot (testdata/feishu/event_im_message_receive_group_at_bot.json).
type Events struct{ template []byte }

// LoadEvents reads the fixture from fixtures (testdata/feishu).
func LoadEvents(fixtures string) (*Events, error) {
	b, err := os.ReadFile(filepath.Join(fixtures, "event_im_message_receive_group_at_bot.json"))
	if err != nil {
		return nil, err
	}
	var probe map[string]any
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, fmt.Errorf("feishutest: %s: %w", "event_im_message_receive_group_at_bot.json", err)
	}
	return &Events{template: b}, nil
}

// Message is m as the event Feishu posts (before sealing: Seal).
func (e *Events) Message(m Message) []byte {
	var ev map[string]any
	_ = json.Unmarshal(e.template, &ev) // checked by LoadEvents
	created := m.Created
	if created.IsZero() {
		created = time.Now()
	}
	stamp := strconv.FormatInt(created.UnixMilli(), 10)
	h := ev["header"].(map[string]any)
	h["event_id"], h["create_time"] = m.EventID, stamp
	if m.Token != "" {
		h["token"] = m.Token
	}
	body := ev["event"].(map[string]any)
	if m.Sender != "" {
		body["sender"].(map[string]any)["sender_id"] = map[string]any{
			"open_id": m.Sender, "union_id": "on_" + m.Sender[min(3, len(m.Sender)):], "user_id": ""}
	}
	msg := body["message"].(map[string]any)
	msg["message_id"], msg["create_time"], msg["update_time"] = m.MessageID, stamp, stamp
	if m.ChatID != "" {
		msg["chat_id"] = m.ChatID
	}
	text := m.Text
	switch {
	case m.P2P:
		msg["chat_type"] = "p2p"
		delete(msg, "mentions")
	case m.Mention:
		text = "@_user_1 " + text
		msg["mentions"] = msg["mentions"].([]any)[:1] // the bot only
	default:
		delete(msg, "mentions")
	}
	content, _ := json.Marshal(map[string]string{"text": text})
	msg["content"] = string(content)
	out, _ := json.Marshal(ev)
	return out
}

// Post seals plain with encryptKey (Seal) and posts it to url as Feishu
// pushes an event, returning the answer's status and up to 4 KiB of its
// body.
func Post(ctx context.Context, client *http.Client, url string, plain []byte, encryptKey string) (int, []byte, error) {
	body, hdr := Seal(plain, encryptKey, time.Now())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, b, nil
}
