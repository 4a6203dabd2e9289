package commands

import (
	"strings"
	"time"

	"github.com/labgpu/bot/internal/workload"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/render/estimateview"
)

// conversation is what the bot remembers of one member in one chat, for
// FollowUpWindow: the last estimate (so "seq 4096" changes it), the last
// ask-back (so "1" picks a reading) and the last answer's full form (so
// "详情" shows it). The chat as a whole (key "channel/chat/") keeps the
// last full form too.
type conversation struct {
	estimate   *Query
	estimateAt time.Time
	clarify    *Query
	clarifyAt  time.Time
	full       *chat.Reply
	fullAt     time.Time
	touched    time.Time
}

func convKey(msg chat.Message) string { return msg.Channel + "/" + msg.ChatID + "/" + msg.SenderID }
func chatKey(msg chat.Message) string { return msg.Channel + "/" + msg.ChatID + "/" }

// conversation returns a copy of the sender's state, nil for a message
// without a chat (the command line's AnswerQuery).
func (r *Router) conversation(msg chat.Message) *conversation {
	if msg.ChatID == "" {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.convs[convKey(msg)]; ok {
		cp := *c
		return &cp
	}
	return &conversation{}
}

// recent reports whether at is within FollowUpWindow.
func (r *Router) recent(at time.Time) bool { return !at.IsZero() && r.now().Sub(at) <= FollowUpWindow }

// inContext reads q in the light of the conversation: a pick after an
// ask-back, a change to the last estimate, or an OOM or card question
// about the job just estimated.
func (r *Router) inContext(c *conversation, q Query) Query {
	if c.clarify != nil && r.recent(c.clarifyAt) && q.Choice > 0 && q.Choice <= len(c.clarify.Alternatives) {
		alt := c.clarify.Alternatives[q.Choice-1]
		picked := *c.clarify
		picked.Intent, picked.Topic, picked.Confidence, picked.Alternatives = alt.Intent, alt.Topic, 1, nil
		picked.Score = alt.Score
		return picked
	}
	if c.estimate != nil && r.recent(c.estimateAt) {
		if q.Intent == IntentAdvice {
			adviceJob(r, *c.estimate, &q)
			return q
		}
		// A question naming a model of its own (a workload: "yolov8n coco
		// 100轮", "bert-base 微调") starts a new job, even when only its
		// numbers are read as slots.
		if model, _ := r.work.Find(q.Asked); model != "" && !sameWorkload(r.work, *c.estimate, model) {
			return q
		}
		if m, ok := mergeFollowUp(*c.estimate, q); ok {
			return m
		}
	}
	return q
}

// sameWorkload reports whether the last estimate asked about the
// workload model named now ("resnet50 … 换4090呢" after a ResNet-50 job).
func sameWorkload(d *workload.Data, prev Query, model string) bool {
	m, _ := d.Find(prev.Asked)
	return m == model
}

// mergeFollowUp merges q into the last estimate question when q only
// changes its parameters ("seq 4096", "5万条", "7B"), or switches its card
// or platform ("用4090", "在恒源云呢").
func mergeFollowUp(m, q Query) (Query, bool) {
	noJob := q.Model == "" && q.ParamsB == 0 && q.ModelText == ""
	switch {
	case q.OnlyParams:
	case q.SwitchTo && noJob && q.Intent != IntentSubscribe && q.Intent != IntentUnsubscribe && q.Intent != IntentMute:
	case noJob && (q.Intent == IntentEstimate || q.Intent == IntentClarify || q.Intent == IntentUnknown):
	default:
		return q, false
	}
	changed := false
	set := func(cond bool, f func()) {
		if cond {
			f()
			changed = true
		}
	}
	size := q.SizeB + q.ParamsB
	set(size > 0 && m.Model == "" && m.ParamsB == 0, func() { m.ParamsB = size })
	set(q.SeqLen > 0, func() { m.SeqLen = q.SeqLen })
	set(q.Batch > 0, func() { m.Batch = q.Batch })
	set(q.Samples > 0, func() { m.Samples = q.Samples; m.Tokens = 0 })
	set(q.Tokens > 0, func() { m.Tokens = q.Tokens })
	set(q.TokensPerSample > 0, func() { m.TokensPerSample = q.TokensPerSample })
	set(q.Epochs > 0, func() { m.Epochs = q.Epochs })
	set(q.Images > 0, func() { m.Images = q.Images })
	set(q.Steps > 0, func() { m.Steps = q.Steps })
	set(q.Resolution > 0, func() { m.Resolution = q.Resolution })
	set(q.DataPercent > 0, func() { m.DataPercent = q.DataPercent })
	set(q.Bits > 0, func() { m.Bits = q.Bits })
	set(q.LoRARank > 0, func() { m.LoRARank = q.LoRARank })
	set(q.LoRATargets != "", func() { m.LoRATargets = q.LoRATargets })
	set(q.Optimizer != "", func() { m.Optimizer = q.Optimizer })
	set(q.Stack != "", func() { m.Stack = q.Stack })
	set(q.NoGradCkpt, func() { m.NoGradCkpt = true })
	set(q.NoFlashAttn, func() { m.NoFlashAttn = true })
	set(q.ZeRO > 0, func() { m.ZeRO = q.ZeRO })
	set(q.Method != "", func() { m.Method = q.Method })
	set(q.GPUCount > 0, func() { m.GPUCount = q.GPUCount })
	set(len(q.GPUs) > 0, func() { m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily })
	set(len(q.Platforms) > 0, func() { m.Platform, m.Platforms = q.Platform, q.Platforms })
	if !changed {
		return q, false
	}
	if m.Method == "qlora" && m.Bits == 16 {
		m.Method = "lora"
	}
	if m.Method == "lora" && m.Bits > 0 && m.Bits < 16 {
		m.Method = "qlora"
	}
	m.Intent, m.Confidence, m.Alternatives, m.Problems = IntentEstimate, q.Confidence, nil, q.Problems
	if q.CJK {
		m.English = false
	}
	return m, true
}

// adviceJob gives an OOM or card question that names no job ("爆显存了")
// the job of the conversation's last estimate.
func adviceJob(r *Router, prev Query, q *Query) {
	t, ok := r.adviceTopic(q.Topic)
	if !ok || q.Model != "" || q.ParamsB > 0 || t.Tie != kb.TieOOM && t.Tie != kb.TieCard {
		return
	}
	// The question keeps what makes it advice (topic, match, language, a
	// card it names); the job comes from the estimate.
	p := prev
	p.Intent, p.Topic, p.Score, p.Confidence, p.Alternatives = q.Intent, q.Topic, q.Score, q.Confidence, q.Alternatives
	p.KB, p.Asked, p.English, p.Problems, p.Workload = q.KB, q.Asked, q.English, q.Problems, q.Workload
	p.WorkloadModel, p.WorkloadDataset = q.WorkloadModel, q.WorkloadDataset
	p.KBWorkload, p.OOM, p.Serving = q.KBWorkload, q.OOM, q.Serving
	p.Platform, p.Platforms = q.Platform, q.Platforms
	if len(q.GPUs) > 0 {
		p.GPU, p.GPUs, p.NamedGPUs, p.GPUFamily, p.GPUCount = q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily, q.GPUCount
	}
	*q = p
}

// remember keeps what later messages of the conversation may refer to.
func (r *Router) remember(msg chat.Message, res Result) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prune(now)
	k := convKey(msg)
	c := r.convs[k]
	if c == nil {
		c = &conversation{}
		r.convs[k] = c
	}
	c.touched = now
	if res.Intent == IntentEstimate || res.Intent == IntentAdvice && adviceEstimated(res) {
		// An OOM or card answer with an estimate can be followed up
		// ("seq 2048") like an estimate.
		fq := res.Query
		fq.Intent, fq.KB, fq.Asked, fq.Topic, fq.Score = IntentEstimate, nil, "", "", 0
		fq.WorkloadModel, fq.WorkloadDataset = "", ""
		if w, ok := res.Payload.(estimateview.Workload); ok {
			// A workload job: keep the model and dataset the answer used
			// (and name them in Asked, which sameWorkload reads).
			fq.Asked = strings.TrimSpace(w.Est.Job.Model + " " + w.Est.Job.Dataset)
			fq.WorkloadModel, fq.WorkloadDataset = w.Est.Job.Model, w.Est.Job.Dataset
		}
		c.estimate, c.estimateAt = &fq, now
	}
	c.clarify = nil
	if res.Intent == IntentClarify {
		cq := res.Query
		c.clarify, c.clarifyAt = &cq, now
	}
	if res.Reply.Full != nil && res.Intent != IntentMore {
		c.full, c.fullAt = res.Reply.Full, now
		ck := chatKey(msg)
		if r.convs[ck] == nil {
			r.convs[ck] = &conversation{}
		}
		r.convs[ck].full, r.convs[ck].fullAt, r.convs[ck].touched = res.Reply.Full, now, now
	}
}

// replaceFull puts full in place of old as the full form "详情" shows,
// where old is still the last one (an answer given again with fresher
// data; a newer answer in between is kept).
func (r *Router) replaceFull(msg chat.Message, old, full *chat.Reply) {
	if old == nil || full == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range []string{convKey(msg), chatKey(msg)} {
		if c := r.convs[k]; c != nil && c.full == old {
			c.full = full
		}
	}
}

// RememberPosted keeps the full form of a message the bot posted on its
// own (the weekly digest) as the last answer in chatKey ("channel/chat"),
// so that "详情" there shows it within FollowUpWindow.
func (r *Router) RememberPosted(chatKey string, full chat.Reply) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prune(now)
	k := chatKey + "/"
	if r.convs[k] == nil {
		r.convs[k] = &conversation{}
	}
	f := full
	f.Full = nil
	r.convs[k].full, r.convs[k].fullAt, r.convs[k].touched = &f, now, now
}

// prune drops the least recently used conversations beyond
// maxConversations. Callers hold r.mu.
func (r *Router) prune(now time.Time) {
	for len(r.convs) >= maxConversations {
		oldest, at := "", now
		for k, v := range r.convs {
			if v.touched.Before(at) || oldest == "" {
				oldest, at = k, v.touched
			}
		}
		delete(r.convs, oldest)
	}
}

// lastFull is the full form of the sender's last answer, else of the
// chat's, within FollowUpWindow (nil when none): what "详情" shows.
func (r *Router) lastFull(msg chat.Message) *chat.Reply {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range []string{convKey(msg), chatKey(msg)} {
		if c := r.convs[k]; c != nil && c.full != nil && r.recent(c.fullAt) {
			return c.full
		}
	}
	return nil
}
