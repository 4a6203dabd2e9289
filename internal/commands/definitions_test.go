package commands_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
)

// TestExamplesMatchTheirCommand: every example in a command definition is
// parsed to that command's intent, and help lists every example, so the
// generated help never advertises a phrasing the bot does not understand.
func TestExamplesMatchTheirCommand(t *testing.T) {
	r := newRouter(t)
	help := chat.PlainText(ask(r, "帮助").Reply)
	helpEN := chat.PlainText(ask(r, "help").Reply)
	for _, d := range r.Definitions() {
		if !strings.Contains(help, d.Name.Zh) || !strings.Contains(helpEN, d.Name.En) || !strings.Contains(help, d.Description.Zh) {
			t.Errorf("help lacks the %q command", d.Name.En)
		}
		for _, ex := range d.Examples {
			if !strings.Contains(help, ex) {
				t.Errorf("help lacks example %q", ex)
			}
			if got := ask(r, ex).Intent; got != d.Intent && !slices.Contains(d.Also, got) {
				t.Errorf("example %q of %q parses as %q", ex, d.Name.En, got)
			}
		}
	}
}

// TestUnknownGetsShortHelp: anything else gets a short help with examples.
func TestUnknownGetsShortHelp(t *testing.T) {
	r := newRouter(t)
	for _, q := range []string{"今天天气怎么样", "lol", "🤖🤖🤖"} {
		res := ask(r, q)
		text := chat.PlainText(res.Reply)
		if res.Intent != commands.IntentUnknown || !strings.Contains(text, "哪家有4090") && !strings.Contains(text, "which platform") {
			t.Errorf("%q: intent %q, reply %q", q, res.Intent, text)
		}
	}
}
