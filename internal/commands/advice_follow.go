package commands

import (
	"fmt"
	kb "github.com/labgpu/bot/internal/advice"
	"strings"

	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/render/adviceview"
)

// A troubleshooting answer keeps its frame (frame.Kept.AdviceTopic: the
// topic, the job, card and figures read from the paste, the language),
// and a follow-up that does not start a question of its own continues it
// in its topic:
//   - a branch of the topic it names (advice.Topic.Follow: "换bf16行吗",
//     "nvidia-smi能看到卡", "单卡没问题"): its verdict or what it means;
//   - a card question ("那换什么卡", "what card then"): the card choice for
//     the job the paste gave;
//   - what was tried did not help, or other ways ("还是不行", "batch改成1还
//     是爆", "有没有别的办法"), or the same topic again without a paste of
//     its own: the steps not yet shown and the topic's alternatives.

// adviceFollow reads q as a follow-up of the troubleshooting answer f
// keeps; false when it is none (a question of its own, or f is no
// troubleshooting answer).
func (r *Router) adviceFollow(f *Frame, q Query) (Query, bool) {
	if f == nil || f.Query.AdviceTopic == "" || r.advice == nil {
		return q, false
	}
	if f.Query.AdviceTopic == kb.TopicCardChoice {
		return cardFollow(f, q)
	}
	topic := f.Query.AdviceTopic
	if _, ok := r.advice.Topic(topic); !ok {
		return q, false
	}
	_, branch, named := r.advice.FindingOf(topic, q.Findings)
	if !named && ownQuestion(q, topic) {
		return q, false
	}
	m := f.Query.Restore()
	m.Intent, m.Topic, m.Confidence, m.Alternatives, m.Score = IntentAdvice, topic, 1, nil, max(f.Query.Score, q.Score)
	m.Problems, m.Issues, m.Conditions, m.YesNo = q.Problems, q.Issues, nil, q.YesNo
	m.English = frame.Language(m, q)
	m.Verbs = nil
	switch {
	case named:
		m.AdviceBranch = branch
	case q.Intent == IntentAdvice && q.Topic == kb.TopicCardChoice:
		// "那换什么卡": the cards for the job the paste gave (a card it
		// names kept: "3090够吗").
		m.Topic, m.KB = kb.TopicCardChoice, nil
		if len(q.GPUs) > 0 {
			m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily
		} else {
			m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = "", nil, nil, false
		}
	case q.Still || q.OtherWays || q.Intent == IntentAdvice && q.Topic == topic:
		m.AdviceNext, m.AdviceShown = true, f.Query.AdviceShown
	default:
		return q, false
	}
	return m, true
}

// ownQuestion reports whether q, after a troubleshooting answer about
// topic, starts a question of its own: a paste of its own (an error that
// names another topic, an OOM report), or a sure reading of another
// answer about a subject it names.
func ownQuestion(q Query, topic string) bool {
	if q.OOM != nil && topic != kb.TopicOOM {
		return true
	}
	if b := q.KB; b != nil && b.Best != nil && b.Best.Topic.ID != topic && b.Best.Topic.ID != kb.TopicCardChoice && b.Best.Strong && !q.Still && !q.OtherWays {
		return true
	}
	switch q.Intent {
	case IntentAdvice, IntentMore, IntentUnknown, IntentClarify, IntentHelp, IntentChitChat:
		return false
	}
	return q.Confidence >= acceptSure && (frame.HasSubject(q) || !q.Still && !q.OtherWays)
}

// acceptSure is the confidence at which another intent's reading wins
// over continuing the topic.
const acceptSure = 0.5

// adviceShown is the troubleshooting topic an answer keeps for its
// follow-ups and how many of its steps and alternatives the member has
// seen: an advice answer's steps its short text shows; a follow-up's next
// steps all; a branch what the frame had.
func (r *Router) adviceShown(c *conversation, res Result) (string, int) {
	prev := 0
	if c != nil && c.frame != nil {
		prev = c.frame.Query.AdviceShown
	}
	switch p := res.Payload.(type) {
	case adviceview.Follow:
		if !p.Next {
			return p.Topic, prev
		}
		if t, ok := r.adviceTopic(p.Topic); ok {
			return p.Topic, len(t.Steps.Zh) + len(t.Next.Zh)
		}
		return p.Topic, prev
	case adviceview.Advice:
		if p.Advice == nil || p.Advice.Topic == "" {
			return "", 0
		}
		n := 0
		for i, s := range p.Advice.Steps {
			if !strings.Contains(res.Text, fmt.Sprintf("%d. %s", i+1, prefix(s, 6))) {
				break
			}
			n = i + 1
		}
		return p.Advice.Topic, n
	}
	return "", 0
}

// prefix is the first n runes of s.
func prefix(s string, n int) string {
	rs := []rune(s)
	return string(rs[:min(n, len(rs))])
}

// cardFollow reads a card question after a card choice for a workload
// ("SDXL LoRA 训练用啥卡" → "3090够吗", "is a 3090 enough"): the card asked
// about, for that workload (its verdict on the workload's memory).
func cardFollow(f *Frame, q Query) (Query, bool) {
	w := f.Query.KBWorkload
	if w == "" || q.Intent != IntentAdvice || q.Topic != kb.TopicCardChoice || frame.HasJob(q) || len(q.GPUs) == 0 {
		return q, false
	}
	m := q
	m.KBWorkload, m.Workload, m.Asked = w, f.Query.Workload, f.Query.Asked
	m.English = frame.Language(f.Query.Restore(), q)
	return m, true
}
