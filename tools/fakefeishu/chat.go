package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
)

// said is one chat line read.
type said struct {
	sender  string // an open_id; "" for the default member
	p2p     bool   // in a private chat with the bot
	mention bool   // in the group, @mentioning the bot
	text    string
	command string // a "!…" line, for the fake itself
}

// parseLine reads a chat line: "[ou_… ](p2p: |@bot )TEXT", or "!COMMAND".
// An empty line is a zero said.
func parseLine(line string) (said, error) {
	var s said
	rest := strings.TrimSpace(line)
	if strings.HasPrefix(rest, "!") {
		s.command = strings.TrimSpace(rest[1:])
		return s, nil
	}
	if first, after, _ := strings.Cut(rest, " "); strings.HasPrefix(first, "ou_") {
		if len(first) < 4 {
			return s, errors.New(`"ou_" names no one: write the member's whole open_id`)
		}
		s.sender, rest = first, strings.TrimSpace(after)
	}
	switch lower := strings.ToLower(rest); {
	case strings.HasPrefix(lower, "p2p:"):
		s.p2p, rest = true, strings.TrimSpace(rest[len("p2p:"):])
	case strings.HasPrefix(lower, "@bot"):
		s.mention, rest = true, strings.TrimSpace(rest[len("@bot"):])
	}
	s.text = rest
	if s.text == "" && (s.sender != "" || s.p2p || s.mention) {
		return s, errors.New("nothing to send: write the message after it")
	}
	return s, nil
}

// chat reads lines from in until it ends, sending each.
func (f *fake) chat(ctx context.Context, in io.Reader) {
	sc := bufio.NewScanner(in)
	for sc.Scan() && ctx.Err() == nil {
		s, err := parseLine(sc.Text())
		switch {
		case err != nil:
			f.out.say("%v", err)
		case s.command != "":
			f.command(s.command)
		case s.text != "":
			f.send(ctx, s)
		}
	}
}

// command runs a "!…" line.
func (f *fake) command(c string) {
	switch c {
	case "stock on", "stock off":
		if f.plat == nil {
			f.out.say("no fake platforms: start fakefeishu with -platforms")
			return
		}
		in := c == "stock on"
		state := map[bool]string{true: "in stock", false: "sold out"}[in]
		if !f.plat.stock.set(in) {
			f.out.say("the %s is already %s", stockGPU, state)
			return
		}
		f.out.say("vast.ai and RunPod now answer the %s %s (the bot sees it at its next poll, within 30 s)", stockGPU, state)
	case "help":
		f.out.say("%s", strings.TrimRight(f.helpText(), "\n"))
	default:
		f.out.say("unknown command %q: !help lists them", c)
	}
}

// send posts s to the bot as a message event and says what went wrong.
func (f *fake) send(ctx context.Context, s said) {
	n := f.seq.Add(1)
	m := feishutest.Message{EventID: fmt.Sprintf("ev_fake_%s_%06d", f.run, n), MessageID: fmt.Sprintf("om_fake_%s_%06d", f.run, n),
		ChatID: f.o.chat, P2P: s.p2p, Sender: s.sender, Text: s.text, Mention: s.mention, Token: f.o.token}
	if m.Sender == "" {
		m.Sender = f.o.user
	}
	if s.p2p {
		m.ChatID = f.private(m.Sender)
	}
	f.feishu.NoteChat(m.MessageID, m.ChatID)
	status, body, err := feishutest.Post(ctx, f.client, f.callback(), f.events.Message(m), f.o.key)
	switch {
	case err != nil:
		f.out.say("could not reach the bot at %s: %v\n(is bot serve running with the environment above? Start it, then type again)", f.callback(), err)
	case status == http.StatusUnauthorized || status == http.StatusBadRequest:
		f.out.say("the bot refused the event: HTTP %d %s\n(its FEISHU_VERIFICATION_TOKEN or FEISHU_ENCRYPT_KEY is not this fake's: restart it with %s)",
			status, strings.TrimSpace(string(body)), f.envFile())
	case status != http.StatusOK:
		f.out.say("the bot answered the event with HTTP %d %s (Feishu would deliver it again later)", status, strings.TrimSpace(string(body)))
	case !s.p2p && !s.mention:
		f.out.say("(sent to the group without @bot: the bot answers in a group only when @mentioned)")
	}
}

// private is the chat_id of the member's private chat with the bot
// (made from the open_id, the same each run).
func (f *fake) private(openID string) string {
	sum := sha256.Sum256([]byte("p2p:" + openID))
	id := "oc_" + hex.EncodeToString(sum[:16])
	f.mu.Lock()
	f.privates[id] = openID
	f.mu.Unlock()
	return id
}

// where names a chat for the terminal.
func (f *fake) where(chatID string) string {
	f.mu.Lock()
	member, private := f.privates[chatID]
	f.mu.Unlock()
	switch {
	case chatID == f.o.chat:
		return "the group"
	case private:
		return "private chat with " + member
	default:
		return "chat " + chatID
	}
}

// watchBot says once when bot serve answers /readyz, and its status.
func (f *fake) watchBot(ctx context.Context) {
	c := &http.Client{Timeout: time.Second}
	url := "http://" + f.o.bot + "/readyz"
	for {
		if resp, err := c.Get(url); err == nil {
			var r struct {
				Status string `json:"status"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&r)
			resp.Body.Close()
			f.out.say("[%s] bot serve is up at %s (/readyz: %s): type a message", stamp(time.Now()), f.o.bot, r.Status)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// stamp is a time as the terminal shows it.
func stamp(t time.Time) string { return t.Format("15:04:05") }
