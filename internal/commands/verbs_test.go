package commands_test

import (
	"slices"
	"testing"

	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/understand"
)

// minVerbShare is the least share of an action's own phrasings
// (configs/intents examples and scored) that must carry one of its verbs:
// its phrasings are commands, and a command without the verb would only
// be asked back.
const minVerbShare = 0.95

// TestActionVerbs: the intents that change state (those with verbs in
// configs/intents) are the expected ones; nearly every phrasing of one
// carries its verb; and no phrasing of another intent that reads as an
// action carries that action's verb (it would change state unasked).
func TestActionVerbs(t *testing.T) {
	_, _, in := corpus(t)
	r := newRouter(t)
	u := r.Understander()
	want := []string{commands.IntentDigestOff, commands.IntentDigestOn, commands.IntentMute, commands.IntentStorageAdd,
		commands.IntentStorageRemove, commands.IntentStorageResize, commands.IntentStorageStart, commands.IntentStorageStop,
		commands.IntentSubscribe, commands.IntentUnsubscribe}
	var actions []string
	for _, d := range in.Defs {
		if d.Action() {
			actions = append(actions, d.Intent)
		}
	}
	slices.Sort(actions)
	if !slices.Equal(actions, want) {
		t.Errorf("actions %v, want %v", actions, want)
	}
	for _, d := range in.Defs {
		phrasings := append(append([]string{}, d.Examples...), d.Scored...)
		with := 0
		for _, p := range phrasings {
			q := u.Understand(p)
			if d.Action() {
				if slices.Contains(q.Verbs, d.Intent) {
					with++
				} else if testing.Verbose() {
					t.Logf("%s without its verb: %q", d.Intent, p)
				}
				continue
			}
			if in.Def(q.Intent).Action() && slices.Contains(q.Verbs, q.Intent) && q.Confidence >= understand.ActionFloor {
				t.Errorf("%s phrasing %q reads as %s with its verb (confidence %.2f)", d.Intent, p, q.Intent, q.Confidence)
			}
		}
		if d.Action() && len(phrasings) > 0 {
			share := float64(with) / float64(len(phrasings))
			t.Logf("%s: %d of %d phrasings carry a verb (%.0f%%)", d.Intent, with, len(phrasings), 100*share)
			if share < minVerbShare {
				t.Errorf("%s: %.0f%% of its phrasings carry a verb, want at least %.0f%%", d.Intent, 100*share, 100*minVerbShare)
			}
		}
	}
}
