package commands_test

import (
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/understand"
)

// TestStateWords: what a message says about an action rather than asking
// for it (issue 28 round 2) — saying not to act, asking about the state,
// complaining about alerts — is read as no action, and card numbers with
// two digits swapped or an o for a zero are read as the card, noted.
func TestStateWords(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	r := commands.NewRouter(cat, nil)
	cases := []struct {
		text, intent, smallTalk, gpu, typo string
		noVerb                             bool
	}{
		{text: "别静音 我在等4090", intent: commands.IntentChitChat, smallTalk: understand.SmallTalkDecline, noVerb: true},
		{text: "3号盘先别删", intent: commands.IntentChitChat, smallTalk: understand.SmallTalkDecline, noVerb: true},
		{text: "我并不想退订A100", intent: commands.IntentChitChat, smallTalk: understand.SmallTalkDecline, noVerb: true},
		{text: "please don't unsubscribe me", intent: commands.IntentChitChat, smallTalk: understand.SmallTalkDecline, noVerb: true},
		{text: "别静音了 下课了", intent: commands.IntentMute},
		{text: "现在群里静音了吗", intent: commands.IntentSubscriptions, noVerb: true},
		{text: "is the bot muted right now?", intent: commands.IntentSubscriptions, noVerb: true},
		{text: "A100有货了还会通知我吗", intent: commands.IntentSubscriptions, noVerb: true},
		{text: "4090的提醒一晚上都在刷屏", intent: commands.IntentMute, noVerb: true},
		{text: "4900 多少钱", gpu: "RTX 4090", typo: "4900"},
		{text: "3900 哪家有货", gpu: "RTX 3090", typo: "3900"},
		{text: "预算4900 够吗"},
		{text: "h1oo 多少钱", gpu: "H100"},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			q := r.Understand(c.text)
			if c.intent != "" && q.Intent != c.intent {
				t.Errorf("intent %s, want %s", q.Intent, c.intent)
			}
			if q.SmallTalk != c.smallTalk {
				t.Errorf("small talk %q, want %q", q.SmallTalk, c.smallTalk)
			}
			if c.noVerb && len(q.Verbs) > 0 {
				t.Errorf("verbs %v, want none", q.Verbs)
			}
			if c.gpu != "" && q.GPU != c.gpu {
				t.Errorf("gpu %q, want %q", q.GPU, c.gpu)
			}
			if q.TypoGPU != c.typo {
				t.Errorf("typo %q, want %q", q.TypoGPU, c.typo)
			}
		})
	}
}
