package commands_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
)

// TestNoStateChangeWithoutAVerb (issue 28 item 2): every corpus message
// of an intent that changes nothing — the phrasings of configs/intents
// (examples and scored) and the knowledge base's topics, and every
// dialogue turn no action is expected of — sent alone and as a follow-up
// after each kind of answer, changes no state: not the subscriptions, the
// chat's mute, its storage ledger or its digest switch, read through the
// store after every message. The chat holds one of each to change (two
// alerts, a running and a stopped disk, the digest on), all the sender's,
// so an action that fired would show; it is unmuted after every other
// seed, so that any mute shows, and muted for a week after the rest, so
// that an unmute shows (the mute is compared exactly). One seed registers
// a disk (the answer names its number, which a resize or a removal could
// take), and "+1" and "同问" follow every seed, an action's too.
func TestNoStateChangeWithoutAVerb(t *testing.T) {
	if testing.Short() {
		t.Skip("answers every corpus phrasing thirteen times")
	}
	msgs := quietMessages(t)
	seeds := []string{"", "哪家有4090", "AutoDL 怎么收费", "3090 还是 4090", "3090 包月多少", "7B LoRA 要多少钱",
		"A100 80G 什么时候好抢", "which card for SDXL", "本周存储花费", "我的订阅", "帮我写个训练脚本",
		"登记存储 autodl 100G 放权重", "我的存储"}
	t.Logf("%d messages, alone and after each of %d answers", len(msgs), len(seeds)-1)
	for i, seed := range seeds {
		name := fmt.Sprintf("after %q", seed)
		if seed == "" {
			name = "alone"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			quietPass(t, fmt.Sprintf("quiet-%d", i), seed, raceSample(msgs, i), i%2 == 1)
		})
	}
}

// raceStride: under the race detector each seed answers every
// raceStride-th message (offset by the seed), so every message is still
// sent after some seeds; without it, after all of them.
const raceStride = 4

// raceSample is msgs as seed i's pass answers them (see raceStride).
func raceSample(msgs []quietMessage, i int) []quietMessage {
	if !raceOn {
		return msgs
	}
	var out []quietMessage
	for j, m := range msgs {
		if j%raceStride == i%raceStride {
			out = append(out, m)
		}
	}
	return out
}

// quietMessage is a corpus message and who sends it.
type quietMessage struct{ sender, text string }

// quietMessages are the corpus messages of the intents that change
// nothing, and the dialogue turns that may change nothing, each from its
// sender (another member's "删除存储 1" changes nothing of the default
// member's).
func quietMessages(t *testing.T) []quietMessage {
	_, _, in := corpus(t)
	var out []quietMessage
	add := func(texts ...string) {
		for _, text := range texts {
			out = append(out, quietMessage{defaultSender, text})
		}
	}
	for _, d := range in.Defs {
		if !d.Action() && d.Intent != commands.IntentSubscribe {
			add(d.Examples...)
			add(d.Scored...)
		}
	}
	for _, tc := range in.Topics {
		add(tc.Examples...)
		add(tc.Scored...)
	}
	for _, d := range loadDialogues(t) {
		for _, tn := range d.Turns {
			if tn.wantState() == "unchanged" {
				out = append(out, quietMessage{tn.sender(), tn.Say})
			}
		}
	}
	// Agreeing with the last answer, whatever it was (an action's too).
	add("+1", "同问")
	return out
}

// quietPass answers each message after seed's answer (its frame and the
// chat's last answers, which "+1" repeats, put back before every message;
// none for ""), failing on any change; after one,
// the pass goes on in a fresh chat, so that a change is never hidden by
// an earlier one.
func quietPass(t *testing.T, name, seed string, msgs []quietMessage, muted bool) {
	frames := &mapFrames{m: map[string][]byte{}}
	r, st := dialogueRouterWith(t, commands.WithFrames(frames))
	ctx := context.Background()
	chats := 0
	var chatID string
	var frame []byte
	var said [][]byte
	ask := func(m quietMessage) commands.Result {
		return r.Answer(ctx, chat.Message{Channel: "test", ChatID: chatID, SenderID: m.sender, SenderName: m.sender,
			Text: m.text, ChatType: chat.Group, Time: dialogueNow})
	}
	key := func(sender string) string { return "frame/test/" + chatID + "/" + sender }
	saidKey := func() string { return "frame-said/test/" + chatID + "/" }
	fresh := func() {
		chats++
		chatID = fmt.Sprintf("%s-%d", name, chats)
		mute := 0
		if muted {
			mute = 7 * 24 * 60
		}
		d := &dialogue{ID: chatID, Given: &given{Subscriptions: []string{"RTX 4090", "A100 80GB"}, MutedMinutes: mute, Digest: true,
			Disks: []givenDisk{{Platform: "autodl", SizeGB: 80}, {Platform: "hengyuan", SizeGB: 50, StoppedDaysAgo: 3}}}}
		if err := setGiven(ctx, st, d, chatID); err != nil {
			t.Fatal(err)
		}
		if seed != "" {
			ask(quietMessage{defaultSender, seed})
			frame = frames.get(key(defaultSender))
			said = frames.list(saidKey())
		}
	}
	fresh()
	for _, m := range msgs {
		frames.set(key(m.sender), frame)
		frames.setList(saidKey(), said)
		before := snapshotState(ctx, t, st, "test/"+chatID)
		res := ask(m)
		if changed := changes(before, snapshotState(ctx, t, st, "test/"+chatID)); len(changed) > 0 {
			t.Errorf("%s: %q changed %v (answered as %s, confidence %.2f)", m.sender, m.text, changed, res.Intent, res.Confidence)
			fresh()
		}
	}
}

// mapFrames is a commands.FrameStore in a map, without expiry (the test
// puts the frame back before every message).
type mapFrames struct {
	mu sync.Mutex
	m  map[string][]byte
	l  map[string][][]byte
}

func (f *mapFrames) get(key string) []byte { f.mu.Lock(); defer f.mu.Unlock(); return f.m[key] }

func (f *mapFrames) set(key string, b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b == nil {
		delete(f.m, key)
		return
	}
	f.m[key] = b
}

func (f *mapFrames) PutFrame(_ context.Context, key string, data []byte, _ time.Duration) error {
	f.set(key, append([]byte(nil), data...))
	return nil
}

func (f *mapFrames) Frame(_ context.Context, key string) ([]byte, error) { return f.get(key), nil }

func (f *mapFrames) TakeFrame(_ context.Context, key string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.m[key]
	delete(f.m, key)
	return b, nil
}

func (f *mapFrames) PushFrame(_ context.Context, key string, data []byte, keep int, _ time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.l == nil {
		f.l = map[string][][]byte{}
	}
	f.l[key] = append([][]byte{data}, f.l[key]...)
	if len(f.l[key]) > keep {
		f.l[key] = f.l[key][:keep]
	}
	return nil
}

func (f *mapFrames) list(key string) [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.l[key])
}

func (f *mapFrames) setList(key string, l [][]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.l == nil {
		f.l = map[string][][]byte{}
	}
	f.l[key] = slices.Clone(l)
}

func (f *mapFrames) Frames(_ context.Context, key string) ([][]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.l[key], nil
}
