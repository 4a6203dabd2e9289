package commands

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/commands/storage"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/understand"
	"github.com/labgpu/bot/internal/workload"
)

// conversation is what the bot holds for a member's message in a chat:
// the member's frame, the frame the message continues (the member's, or
// the one of the bot message it replies to or quotes), and the action it
// asked back, taken from the store as the message came (a "确认" does it,
// anything else drops it).
type conversation struct {
	member *Frame
	frame  *Frame
	linked bool
	// edited: the message was answered as an edit of the frame.
	edited  bool
	pending *frame.Kept
}

// conversation loads the sender's conversation; nil for a message without
// a chat (the command line's AnswerQuery).
func (r *Router) conversation(ctx context.Context, msg chat.Message) *conversation {
	if msg.ChatID == "" {
		return nil
	}
	c := &conversation{member: r.loadFrame(ctx, memberKey(msg))}
	if c.member != nil && c.member.Pending {
		c.pending = r.takePending(ctx, msg)
	}
	if f := r.repliedFrame(ctx, msg); f != nil {
		c.frame, c.linked = f, true
	} else if c.member != nil && r.live(c.member.At, FrameTTL) {
		c.frame = c.member
	}
	return c
}

// takePending takes the sender's pending action from the store (nil when
// there is none or it expired).
func (r *Router) takePending(ctx context.Context, msg chat.Message) *frame.Kept {
	ctx, cancel := context.WithTimeout(ctx, frameTimeout)
	defer cancel()
	b, err := r.frames.TakeFrame(ctx, pendingKey(msg))
	if err != nil || len(b) == 0 {
		return nil
	}
	var q frame.Kept
	if json.Unmarshal(b, &q) != nil {
		return nil
	}
	return &q
}

// live reports whether at is within ttl of now.
func (r *Router) live(at time.Time, ttl time.Duration) bool {
	return !at.IsZero() && r.now().Sub(at) <= ttl
}

// recent reports whether at is within FollowUpWindow ("详情").
func (r *Router) recent(at time.Time) bool { return r.live(at, FollowUpWindow) }

// inContext reads q in the light of the conversation: "确认" of the action
// asked back, a pick after an ask-back, or a follow-up that edits the
// frame. edited is the frame's Query the answer edits (nil when q is not
// an edit).
func (r *Router) inContext(c *conversation, q Query) (Query, *Query) {
	if c.pending != nil && q.Confirm {
		p := c.pending.Restore()
		p.Confidence, p.Verbs = 1, []string{p.Intent}
		return p, nil
	}
	if q.Undo {
		if m, ok := r.undoOf(c, q); ok {
			return m, nil
		}
	}
	if q.ConfirmOnly {
		// "确认" with nothing waiting (or what waited expired, or another
		// message came in between): nothing is done, and the bot says so.
		q.Intent, q.Confidence, q.SmallTalk, q.Alternatives = IntentChitChat, 1, understand.SmallTalkNoAction, nil
		return q, nil
	}
	if cl := r.clarifyOf(c.member); cl != nil && q.Choice > 0 && q.Choice <= len(cl.Alternatives) {
		alt := cl.Alternatives[q.Choice-1]
		picked := *cl
		picked.Intent, picked.Topic, picked.Confidence, picked.Alternatives = alt.Intent, alt.Topic, 1, nil
		picked.Score = alt.Score
		return picked, nil
	}
	if m, ok := r.alertFollows(c, q); ok {
		return m, nil
	}
	if c.frame == nil {
		return frame.Alone(q), nil
	}
	if q.OutOfScope != "" && q.Intent == IntentUnknown {
		// "那帮我订一台4090": what the bot does not do, whatever it
		// follows.
		return q, nil
	}
	if m, ok := frame.CardAlert(c.frame, q); ok {
		return m, nil
	}
	if m, ok := frame.PickFollow(c.frame, q); ok {
		return m, nil
	}
	if m, ok := frame.WhichAgain(c.frame, q); ok {
		return m, nil
	}
	if m, ok := frame.HourAgain(c.frame, q); ok {
		return m, nil
	}
	if m, ok := whyFollow(c.frame, q); ok {
		return m, nil
	}
	if m, ok := r.factFollow(c.frame, q); ok {
		return m, nil
	}
	if m, ok := frame.DiskPriceFollow(c.frame, q); ok {
		return m, nil
	}
	if m, ok := frame.AdviceFollow(r.advice, c.frame, q); ok {
		return m, nil
	}
	if m, ok := frame.DigestExplain(c.frame, q); ok {
		return m, nil
	}
	if m, ok := storage.Follow(c.frame, q); ok && !(digestAsk(q) && c.frame.Query.Intent == IntentDigest) {
		return m, nil
	}
	if m, ok := r.jobBack(c.frame, q); ok {
		return m, nil
	}
	m, ok := r.editor().Follow(c.frame, q)
	if !ok {
		if t, ok := r.threadFollow(c.frame, m); ok {
			return t, nil
		}
		return m, nil
	}
	base := c.frame.Query.Restore()
	return m, &base
}

// alertFollows reads q after the member's last alert answer (an alert
// set, a mute, the alerts listed): what it lets a short message do
// outright (frame/alertedit.go).
func (r *Router) alertFollows(c *conversation, q Query) (Query, bool) {
	a := r.alertOf(c.member)
	if a == nil {
		return q, false
	}
	readers := []func(a, q Query) (Query, bool){
		frame.AlertFollow, frame.ListedCancel,
		func(a, q Query) (Query, bool) { return frame.SetCancel(c.member, a, q) },
		frame.ListedCancelAll,
		func(a, q Query) (Query, bool) { return frame.AlertEdit(c.member, a, q) },
		frame.MuteEdit, frame.MuteEnd,
		func(a, q Query) (Query, bool) { return frame.AlertCovers(r.cat, a, q) },
	}
	for _, read := range readers {
		if s, ok := read(*a, q); ok {
			return s, true
		}
	}
	return q, false
}

// clarifyOf is the frame's ask-back while it may be picked from (nil
// otherwise).
func (r *Router) clarifyOf(f *Frame) *Query {
	if f == nil || f.Clarify == nil || !r.live(f.ClarifyAt, FrameTTL) {
		return nil
	}
	q := f.Clarify.Restore()
	return &q
}

// appendNewStrings is xs with those of ys it lacks added.
func appendNewStrings(xs []string, ys ...string) []string {
	out := slices.Clone(xs)
	for _, y := range ys {
		if !slices.Contains(out, y) {
			out = append(out, y)
		}
	}
	return out
}

// alertOf is the member's last stock alert answer while a next message
// may continue it (nil otherwise).
func (r *Router) alertOf(f *Frame) *Query {
	if f == nil || f.Alert == nil || !r.live(f.AlertAt, FrameTTL) {
		return nil
	}
	q := f.Alert.Restore()
	return &q
}

// jobBack reads an estimate question naming no job ("要多少钱", "那要多
// 久", "预算30够不够") after an answer that is no estimate (stock, a
// troubleshooting answer) as a question about the conversation's last
// job (Frame.Job): its estimate, edited as an estimate's follow-up is.
func (r *Router) jobBack(f *Frame, q Query) (Query, bool) {
	if f == nil || f.Job == nil || q.Intent != IntentEstimate || frame.HasJob(q) {
		return q, false
	}
	if cur := f.Query.Restore(); cur.Intent == IntentEstimate && frame.HasJob(cur) {
		return q, false // the estimate's own follow-ups
	}
	job := f.Job.Restore()
	if fq := r.jobFrame(&job); fq != nil {
		job = *fq
	}
	job.Intent, job.Topic, job.KB, job.Confidence, job.YesNo = IntentEstimate, "", nil, 1, nil
	job.Problems, job.Issues = nil, nil
	return r.followEstimate(job, q)
}

// sameWorkload reports whether the last estimate asked about the
// workload model named now ("resnet50 … 换4090呢" after a ResNet-50 job).
func sameWorkload(d *workload.Data, prev Query, model string) bool {
	m, _ := d.Find(prev.Asked)
	return m == model
}

// mergeFollowUp merges q into the last estimate question when q only
// changes its parameters ("seq 4096", "5万条", "7B"), switches its card
// or platform ("用4090", "在恒源云呢") or its model ("那14B呢", "32b?").
func mergeFollowUp(m, q Query) (Query, bool) {
	noJob := q.Model == "" && q.ParamsB == 0 && q.ModelText == ""
	switch {
	case q.OnlyParams:
	case q.SwitchTo && noJob && q.Intent != IntentSubscribe && q.Intent != IntentUnsubscribe && q.Intent != IntentMute:
	case noJob && (q.Intent == IntentEstimate || q.Intent == IntentClarify || q.Intent == IntentUnknown):
	case q.FollowUp && (q.Bare || !frame.OwnQuestion(q, IntentEstimate)):
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
	set(!noJob && (q.FollowUp || q.Bare), func() {
		m.Model, m.ParamsB, m.ModelText = q.Model, q.ParamsB, q.ModelText
	})
	frame.MergeParams(&m, q, set)
	vram := max(q.SizeGB, q.FollowSizeGB)
	set(noJob && vram >= minVRAMFollow && vram <= maxVRAMFollow && len(q.Platforms) == 0 && len(q.GPUs) == 0, func() {
		// "16G呢" after "24G够不够": a card size (VRAM), never a disk.
		yn := understand.YesNo{Kind: understand.YesNoFits}
		if m.YesNo != nil {
			yn = *m.YesNo
			yn.Kind = understand.YesNoFits
		}
		yn.VRAMGB = vram
		m.YesNo = &yn
		m.SizeGB, m.SizeText, m.Note = 0, "", ""
	})
	set(len(frame.Others(q)) > 0, func() { f := m; m = frame.Overlay(m, q); frame.AddSchedule(&m, f, q) })
	set(q.PlatformGroup != "" && len(q.Platforms) == 0 && len(m.Platforms) > 0, func() { m.Platform, m.Platforms = "", nil })
	set(q.BillingMode != "", func() { estimateMode(&m, q) })
	if !changed {
		return q, false
	}
	if q.Method == "lora" && q.Bits == 0 && m.Bits > 0 && m.Bits < 16 {
		// "那lora呢" after a QLoRA answer: 16-bit LoRA, not 4-bit again.
		m.Bits = 0
	}
	if m.Method == "qlora" && m.Bits == 16 {
		m.Method = "lora"
	}
	if m.Method == "lora" && m.Bits > 0 && m.Bits < 16 {
		m.Method = "qlora"
	}
	m.Intent, m.Confidence, m.Alternatives, m.Problems = IntentEstimate, q.Confidence, nil, q.Problems
	m.English = frame.Language(m, q)
	return m, true
}

// A size a follow-up of an estimate names alone is a card's memory
// within these GB ("16G呢"); larger ones are not read as one.
const (
	minVRAMFollow = 4
	maxVRAMFollow = 200
)

// estimateMode carries a billing mode into an estimate ("换成包月呢"): a
// plan's mode prices the card over its term (the estimate's period line,
// unless the question gave a period of its own); pay-as-you-go drops the
// term a mode set.
func estimateMode(m *Query, q Query) {
	was := catalog.PlanModes[m.BillingMode] / 24
	if m.BillingMode != "" && m.BillingMode != understand.ModeSpot && m.PeriodDays == was {
		m.PeriodDays = 0
	}
	m.BillingMode, m.ModeNamed = q.BillingMode, q.ModeNamed
	if days := catalog.PlanModes[q.BillingMode] / 24; q.PeriodDays == 0 && m.PeriodDays == 0 && q.BillingMode != understand.ModeSpot && days >= 1 {
		m.PeriodDays = days
	}
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

// frameOf is the Query a follow-up of an answer edits (nil when the
// answer is none a follow-up edits): an OOM or card answer with an
// estimate is followed up ("seq 2048") as an estimate; a workload job
// keeps the model and dataset the answer used.
func frameOf(res Result) *Query {
	fq := res.Query
	switch {
	case res.Intent == IntentEstimate || res.Intent == IntentAdvice && adviceEstimated(res):
		fq.Intent, fq.KB, fq.Asked, fq.Topic, fq.Score = IntentEstimate, nil, "", "", 0
		fq.WorkloadModel, fq.WorkloadDataset = "", ""
		if w, ok := res.Payload.(estimateview.Workload); ok {
			// Named in Asked, which sameWorkload reads.
			fq.Asked = strings.TrimSpace(w.Est.Job.Model + " " + w.Est.Job.Dataset)
			fq.WorkloadModel, fq.WorkloadDataset = w.Est.Job.Model, w.Est.Job.Dataset
		}
	case fq.Intent == IntentDigestOn || fq.Intent == IntentDigestOff:
		// "what does it include" after the digest was switched: asked of
		// the digest.
		fq.Intent, fq.KB, fq.Asked = IntentDigest, nil, ""
	case storage.Frames[fq.Intent]:
		// What a ledger follow-up continues (storage_follow.go).
		fq.KB, fq.Asked = nil, ""
	case fq.Intent == IntentFactCheck:
		// The claim, read again for another platform (factfollow.go).
		fq.KB = nil
	case !frame.Editable(fq) && (fq.Intent != IntentAdvice || fq.Topic == ""):
		return nil
	default:
		fq.KB, fq.Asked = nil, ""
	}
	fq.Verbs = nil
	return &fq
}

// jobFrame is the frame of a card choice for a job the workload
// estimator knows ("SDXL 出图用什么卡"): that job's estimate, so that a
// follow-up asking its cost, time or fit ("要是1000张图呢，多少钱", "3090
// 够吗", "要跑多久") is answered for it; any other frame as it is.
func (r *Router) jobFrame(fq *Query) *Query {
	if fq == nil || fq.Intent != IntentAdvice || fq.Topic != kb.TopicCardChoice || fq.Workload == "" || r.work == nil || r.work.Advice[fq.Workload] == "" {
		return fq
	}
	if fq.Model != "" || fq.ParamsB > 0 {
		return fq
	}
	fq.Intent, fq.Topic, fq.Score = IntentEstimate, "", 0
	return fq
}

// remember keeps what the sender's next messages may continue: the
// frame of an answer a follow-up may edit, an ask-back, an action asked
// back; the frame of each answer also under the question's id (for the
// bot messages that carried it: LinkAnswer) and in the chat's recent
// answers (for a WeChat quote); and the answer's full form ("详情").
func (r *Router) remember(ctx context.Context, msg chat.Message, c *conversation, res Result) {
	now := r.now()
	f, changed := Frame{}, false
	if c.member != nil {
		f = *c.member
	}
	if f.English != res.English || now.Sub(f.LangAt) > langRefresh {
		f.English, f.LangAt, changed = res.English, now, true
	}
	keepAlert := askedOfAlert(f, res)
	if did, gpus := didSubscription(res); f.DidSub != did && !keepAlert {
		// Before the frame is linked: the linked copy is the member's too.
		f.DidSub, f.DidSubGPUs, changed = did, gpus, true
	}
	var linked []byte
	if fq := r.jobFrame(frameOf(res)); fq != nil {
		f.Before = nil
		if c.edited && f.Query.Intent != "" {
			before := f.Query
			f.Before = &before
		}
		f.Query, f.At, f.Said, changed = frame.Keep(*fq), now, firstLine(res.Text), true
		f.Cheapest, f.CheapestAt = cheapest(res)
		if frame.HasJob(*fq) {
			job := f.Query
			f.Job = &job
		}
		f.Query.AdviceTopic, f.Query.AdviceShown = r.adviceShown(c, res)
		if c.edited {
			f.Seen = appendNewStrings(f.Seen, fq.Platforms...)
		} else {
			f.Seen = slices.Clone(fq.Platforms)
		}
		linked = r.link(ctx, msg, f)
	}
	switch {
	case res.Intent == IntentClarify:
		cq := frame.Keep(res.Query)
		f.Clarify, f.ClarifyAt, changed = &cq, now, true
	case f.Clarify != nil:
		f.Clarify, changed = nil, true
	}
	switch {
	case keepAlert:
		// "海外的也算吗" about the alert just set: "改成2块以下" next still
		// edits it.
	case res.Intent == IntentSubscribe && !res.Confirm:
		aq := frame.Keep(res.Query)
		f.Alert, f.AlertAt, changed = &aq, now, true
	case res.Intent == IntentMute && !res.Confirm && (res.Query.MuteMinutes > 0 || res.Query.MuteUntil != ""):
		// "actually make it 9pm" moves it (muteEdit).
		aq := frame.Keep(res.Query)
		f.Alert, f.AlertAt, changed = &aq, now, true
	case res.Intent == IntentSubscriptions:
		// "A100也帮我订一个" after the member's alerts were listed.
		aq := frame.Keep(Query{Intent: IntentSubscriptions, English: res.English, SubRef: onlyListed(res)})
		f.Alert, f.AlertAt, changed = &aq, now, true
	case f.Alert != nil:
		f.Alert, changed = nil, true
	}
	if f.Pending != res.Confirm {
		f.Pending, changed = res.Confirm, true
	}
	if res.Confirm {
		r.putPending(ctx, msg, res.Query)
	}
	switch {
	case changed && linked != nil && f.Clarify == nil && !f.Pending:
		r.putFrame(ctx, memberKey(msg), linked, FrameTTL) // the same frame: encoded once
	case changed:
		r.saveFrame(ctx, memberKey(msg), &f, FrameTTL)
	}
	r.rememberFull(msg, res, now)
}

// langRefresh is how old the kept language may get before an answer in
// the same language writes it again (the frame's TTL counts from the
// last write).
const langRefresh = time.Minute

// threadLanguage is the language of the conversation a message continues:
// the replied-to answer's, else the member's last answer's (ok false when
// there is none).
func (r *Router) threadLanguage(c *conversation) (en, ok bool) {
	if c.linked && c.frame != nil {
		return c.frame.Query.English, true
	}
	if en, ok := c.member.Language(r.now(), FrameTTL); ok {
		return en, true
	}
	if c.frame != nil {
		return c.frame.Query.English, true
	}
	return false, false
}

// firstLine is the first non-empty line of text.
func firstLine(text string) string {
	for line := range strings.Lines(text) {
		if l := strings.TrimSpace(line); l != "" {
			return l
		}
	}
	return ""
}

// putPending keeps the action asked back for the sender's "确认".
func (r *Router) putPending(ctx context.Context, msg chat.Message, q Query) {
	b, err := json.Marshal(frame.Keep(q))
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), frameTimeout)
	defer cancel()
	_ = r.frames.PutFrame(ctx, pendingKey(msg), b, FrameTTL)
}

// recentFull is an answer's full form as "详情" shows it, kept in the
// process for FollowUpWindow.
type recentFull struct {
	full    *chat.Reply
	at      time.Time
	touched time.Time
}

// rememberFull keeps the answer's full form for the sender and the chat.
func (r *Router) rememberFull(msg chat.Message, res Result, now time.Time) {
	if res.Reply.Full == nil || res.Intent == IntentMore {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prune(now)
	for _, k := range []string{convKey(msg), chatKey(msg)} {
		r.fulls[k] = &recentFull{full: res.Reply.Full, at: now, touched: now}
	}
}

func convKey(msg chat.Message) string { return msg.Channel + "/" + msg.ChatID + "/" + msg.SenderID }
func chatKey(msg chat.Message) string { return msg.Channel + "/" + msg.ChatID + "/" }

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
		if c := r.fulls[k]; c != nil && c.full == old {
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
	f := full
	f.Full = nil
	r.fulls[chatKey+"/"] = &recentFull{full: &f, at: now, touched: now}
}

// prune drops the least recently used full forms beyond
// maxConversations. Callers hold r.mu.
func (r *Router) prune(now time.Time) {
	for len(r.fulls) >= maxConversations {
		oldest, at := "", now
		for k, v := range r.fulls {
			if v.touched.Before(at) || oldest == "" {
				oldest, at = k, v.touched
			}
		}
		delete(r.fulls, oldest)
	}
}

// lastFull is the full form of the sender's last answer, else of the
// chat's, within FollowUpWindow (nil when none): what "详情" shows.
func (r *Router) lastFull(msg chat.Message) *chat.Reply {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range []string{convKey(msg), chatKey(msg)} {
		if c := r.fulls[k]; c != nil && c.full != nil && r.recent(c.at) {
			return c.full
		}
	}
	return nil
}

// digestAsk reports whether q is read as a question or a switch of the
// weekly digest ("周报别发了吧？"): after an answer about the digest, its
// own, not a ledger follow-up.
func digestAsk(q Query) bool {
	switch q.Intent {
	case IntentDigest, IntentDigestOn, IntentDigestOff:
		return true
	}
	return false
}

// undoOf reads "取消吧", "算了", "cancel": after the member's one alert was
// listed, the cancel verb cancels it ("算了不用" only declines); right
// after a mute, it is lifted; else what undo makes of it.
func (r *Router) undoOf(c *conversation, q Query) (Query, bool) {
	if a := r.alertOf(c.member); a != nil && a.Intent == IntentSubscriptions && a.SubRef != "" && q.UndoSure && q.CancelWord {
		m := q
		m.Intent, m.Topic, m.Confidence, m.Alternatives = IntentUnsubscribe, "", 1, nil
		m.SubRef, m.All, m.Verbs = a.SubRef, false, []string{IntentUnsubscribe}
		m.English = frame.Language(*a, q)
		return m, true
	}
	if a := r.alertOf(c.member); a != nil && a.Intent == IntentMute && q.UndoSure {
		// "actually cancel that", "算了" right after a mute: unmuted.
		m := q
		m.Intent, m.Topic, m.Confidence, m.Alternatives, m.Verbs = IntentMute, "", 1, nil, []string{IntentMute}
		m.MuteMinutes, m.MuteUntil, m.MuteTomorrow, m.MuteWeekday = 0, "", false, 0
		m.English = frame.Language(*a, q)
		return m, true
	}
	return undo(c, q)
}
