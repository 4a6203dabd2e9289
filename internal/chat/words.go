package chat

import (
	"bytes"
	"log/slog"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/labgpu/bot/configs"
)

// WordsFile is the embedded file of the words the channels read.
const WordsFile = "chatwords.yaml"

// Words are what the channels read in messages and in their platforms'
// answers (configs/chatwords.yaml); what the bot says is in the message
// catalog (internal/i18n).
type Words struct {
	// FeishuEveryone is Feishu's name for a mention of everyone.
	FeishuEveryone string `yaml:"feishu_everyone"`
	// WeChatEveryone are the mentions of everyone a WeChat message may
	// start with.
	WeChatEveryone []string `yaml:"wechat_everyone"`
	// ConsoleExit are the lines (lower case) that end the console.
	ConsoleExit []string `yaml:"console_exit"`
	// WeChatWebRefused are words of WeChat's refusal of a web login.
	WeChatWebRefused []string `yaml:"wechat_web_refused"`
	// WeChatQuote is how a message quoting another arrives as text.
	WeChatQuote Quote `yaml:"wechat_quote"`
}

// Quote is how a channel gives a quoted message in a reply's text: the
// quoted message between Open and Close ("「name：text」", the quoted
// sender's name ending at the first of Colons), then a line of Rule,
// then the reply.
type Quote struct {
	Open   string `yaml:"open"`
	Close  string `yaml:"close"`
	Rule   string `yaml:"rule"`
	Colons string `yaml:"colons"`
}

// ReadWords returns the embedded words, read once. A file that does not
// read (its test rules that out) gives no words and an error in the log:
// the channels keep working.
var ReadWords = sync.OnceValue(func() Words {
	w, err := LoadWords()
	if err != nil {
		slog.Error("chat: the channels' words do not load", "file", WordsFile, "err", err)
	}
	return w
})

// LoadWords reads configs/chatwords.yaml strictly (an unknown key is an
// error).
func LoadWords() (Words, error) {
	var w Words
	b, err := configs.FS.ReadFile(WordsFile)
	if err != nil {
		return w, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	err = dec.Decode(&w)
	return w, err
}
