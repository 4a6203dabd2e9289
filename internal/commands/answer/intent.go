package answer

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/understand"
)

// An Intent is one thing the bot answers: its name, as its definition in
// configs/intents/<name>.yaml gives it, and its answer. Each intent
// registers itself from the file that holds its answer (Register in an
// init), so adding one is that YAML, one Go file with the answer and its
// test, and the payload's renderer in internal/render.
type Intent struct {
	Name string
	// Answer answers an understood question from the Ask alone — the
	// Query, who asked where and the bot's services — never the message
	// text, and returns its typed payload.
	Answer func(ctx context.Context, a *Ask) Out
}

// Ask is one question to answer: the understood Query, who asked where,
// what the conversation holds, and the services (Env).
type Ask struct {
	understand.Query
	From Asker
	*Env
	// Last is the full form ("详情") of the asker's last answer, else of
	// the chat's last one, within the follow-up window; nil when there
	// is none (the router keeps the conversation).
	Last *chat.Reply
}

// Asker is who asked, where: the channel ("feishu", "wechat",
// "console", "cli"), the chat and the sender (ids as the channel gives
// them: Feishu chat_id and open_id), and the kind of chat.
type Asker struct {
	Channel, ChatID, SenderID, SenderName string
	ChatType                              chat.ChatType
}

// ChatKey is the chat as the stores key it: "<channel>/<chat id>".
func (a Asker) ChatKey() string { return a.Channel + "/" + a.ChatID }

// Out is an answer: its payload, which render turns into the reply, and
// the Query as the answer used it (an answer may widen it: "哪里还能租"
// drops the platform named).
type Out struct {
	Payload render.Payload
	Query   understand.Query
	// Uses say what the answer did with the Query's conditions (Use): the
	// router words the rest in one line. AskedBack: the answer asks for
	// what it needs first ("模型多大参数量？"), so it says nothing of the
	// conditions, which the answer to the reply applies.
	Uses      []Use
	AskedBack bool
}

var (
	registryMu sync.RWMutex
	registry   = map[string]Intent{}
)

// Register adds an intent; a second one of the same name panics (at
// start-up, in every test).
func Register(i Intent) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if i.Name == "" || i.Answer == nil {
		panic("answer: an intent without a name or an answer")
	}
	if _, dup := registry[i.Name]; dup {
		panic(fmt.Sprintf("answer: intent %q registered twice", i.Name))
	}
	registry[i.Name] = i
}

// Lookup returns the registered intent of a name.
func Lookup(name string) (Intent, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	i, ok := registry[name]
	return i, ok
}

// Names are the registered intents, sorted.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	var out []string
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
