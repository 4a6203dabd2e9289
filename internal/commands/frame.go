package commands

import (
	"context"
	"encoding/json"
	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/workload"
	"log/slog"
	"slices"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/understand"
)

// The conversation's frames (package frame): what a member's next
// message may continue, kept in a FrameStore — the bot's store when it
// has one (a follow-up after a restart or on another replica continues
// its frame), else the process's memory.
type (
	// Frame is one conversation's frame.
	Frame = frame.Frame
	// FrameStore keeps frames; the embedded and Redis stores implement it.
	FrameStore = frame.Store
)

// How long frames live (frame.TTL, LinkTTL, SaidKeep).
const (
	FrameTTL = frame.TTL
	LinkTTL  = frame.LinkTTL
	SaidKeep = frame.SaidKeep
)

// WithFrames keeps the conversation's frames in s (the bot's store), so
// a follow-up after a restart or on another replica continues its frame;
// without it they live in the process.
func WithFrames(s FrameStore) Option { return func(r *Router) { r.frames = s } }

// frameTimeout bounds one frame store call: a store that does not answer
// costs a message its context, never its answer.
const frameTimeout = 2 * time.Second

// Frame store keys: a member's frame and pending action, a bot message's
// frame, a chat's recent answers.
func memberKey(msg chat.Message) string  { return "frame/" + convKey(msg) }
func pendingKey(msg chat.Message) string { return "frame-pending/" + convKey(msg) }
func saidKey(msg chat.Message) string    { return "frame-said/" + chatKey(msg) }
func linkKey(msg chat.Message, botMsgID string) string {
	return "frame-link/" + chatKey(msg) + botMsgID
}

// loadFrame reads the frame under key (nil when there is none, it does
// not decode, or the store fails: logged).
func (r *Router) loadFrame(ctx context.Context, key string) *Frame {
	ctx, cancel := context.WithTimeout(ctx, frameTimeout)
	defer cancel()
	b, err := r.frames.Frame(ctx, key)
	if err != nil {
		slog.Warn("commands: reading a conversation frame failed; answering without it", "err", err)
		return nil
	}
	return frame.Decode(b)
}

// saveFrame writes f under key for ttl (a failure is logged: the next
// message then starts afresh).
func (r *Router) saveFrame(ctx context.Context, key string, f *Frame, ttl time.Duration) {
	b, err := json.Marshal(f)
	if err != nil {
		slog.Error("commands: a conversation frame does not encode", "err", err)
		return
	}
	r.putFrame(ctx, key, b, ttl)
}

// putFrame writes an encoded frame under key for ttl.
func (r *Router) putFrame(ctx context.Context, key string, b []byte, ttl time.Duration) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), frameTimeout)
	defer cancel()
	if err := r.frames.PutFrame(ctx, key, b, ttl); err != nil {
		slog.Warn("commands: keeping a conversation frame failed", "err", err)
	}
}

// fitsAsked reports whether q asks, yes or no, whether a card (a count
// of cards, a VRAM size) is enough, naming no job of its own ("3090够吗",
// "yes or no: 4090 enough?"): of an estimate, it asks about its job.
func fitsAsked(q Query) bool {
	y := q.YesNo
	if y == nil || y.Kind != understand.YesNoFits && y.Kind != understand.YesNoCan || y.WithinHours > 0 || q.PriceCNY > 0 {
		return false
	}
	if frame.HasJob(q) {
		return false
	}
	if len(q.GPUs) == 0 && y.VRAMGB <= 0 {
		return false
	}
	switch q.Intent {
	case IntentAdvice:
		return q.Topic == "" || q.Topic == kb.TopicCardChoice || q.Topic == kb.TopicOOM
	case IntentEstimate, IntentClarify, IntentUnknown, IntentStock, IntentPrices:
		return true
	}
	return false
}

// editor edits frames with the router's catalog and its estimate rules.
func (r *Router) editor() frame.Editor {
	return frame.Editor{Cat: r.cat, Estimate: r.followEstimate}
}

// followEstimate edits the last estimate: an OOM or card question about
// it ("爆显存了"), its parameters ("seq 4096", "5万条"), its card or
// platform ("用4090", "在恒源云呢"), another size of model ("那14B呢");
// a question naming a job of its own starts afresh.
func (r *Router) followEstimate(f, q Query) (Query, bool) {
	if m, ok := r.editor().EstimateCompared(f, &q); ok {
		return m, true
	}
	if m, ok := r.loraOfModel(f, q); ok {
		return m, true
	}
	if fitsAsked(q) {
		// "3090够吗", "8张4090能跑吗", "is a 3090 enough": whether the
		// estimate's job fits the card named — the estimate, with the
		// question's verdict first.
		y := q.YesNo
		q.Intent = IntentEstimate
		if m, ok := mergeFollowUp(f, q); ok {
			m.YesNo, m.Question = y, true
			return m, true
		}
	}
	if cardsGapAsked(f, q) {
		// "差多少钱", "how much extra?" after the job on two cards: the
		// estimate again; its first line says by how much they differ.
		return frame.JobAgain(f, q), true
	}
	if m, ok := jobAsks(f, q); ok {
		return m, true
	}
	if q.Intent == IntentEstimate && !frame.HasJob(q) && !q.Bare && !frame.Valued(q) {
		// "要跑多久", "要多少钱" naming nothing: the estimate's job again.
		m := frame.JobAgain(f, q)
		m.YesNo, m.Question = q.YesNo, q.YesNo != nil
		return m, true
	}
	if jobAsked(q) {
		// "两周能跑完吗", "is that within a 5000 yuan budget?", "A100 80G
		// 的话要多少钱", "一个月挂着多少钱": the estimate's job, on the card,
		// term, time or budget asked, with the question's verdict first.
		q.Intent = IntentEstimate
		y := doneWithin(&q)
		if m, ok := mergeFollowUp(f, q); ok {
			if y != nil {
				m.YesNo, m.Question = y, true
			}
			return m, true
		}
	}
	if q.FollowUp && q.KBWorkload != "" && q.KBWorkload != f.KBWorkload && r.work != nil && r.work.Advice[q.Workload] != "" {
		// "那 SDXL 出1000张图呢" after another job: that job's estimate.
		q.Intent, q.Topic, q.Confidence = IntentEstimate, "", 1
		return q, true
	}
	if q.Intent == IntentAdvice && q.FollowUp && !frame.HasJob(q) && frame.JobParams(q) {
		// "那要是只跑10个epoch呢", "那用 zero3 两张呢": the job's figures
		// edited, though their words also name a troubleshooting topic.
		q.Intent, q.Topic, q.KB = IntentEstimate, "", nil
		if m, ok := mergeFollowUp(f, q); ok {
			return m, true
		}
	}
	if q.Intent == IntentAdvice && !q.Bare && !q.OnlyParams {
		// Answered as advice, about the estimate's job: no edit to name.
		adviceJob(r, f, &q)
		return q, false
	}
	return r.editJob(f, q)
}

// jobAsks reads what a short follow-up asks of the estimate f names
// nothing of its own for: the cost on a platform it names, a bare card
// count, the cheapest platform.
func jobAsks(f, q Query) (Query, bool) {
	if f.AudioHours > 0 && q.TotalHours > 0 && q.AudioHours == 0 && !frame.HasSubject(q) && q.HoursPerWeek == 0 && q.SpanDays == 0 {
		// "500小时呢" after transcribing 100 hours: the audio's hours.
		q.AudioHours, q.TotalHours, q.Intent = q.TotalHours, 0, IntentEstimate
		if m, ok := mergeFollowUp(f, q); ok {
			return m, true
		}
	}
	v := frame.ClearAsk(q)
	if v.BillingMode == understand.ModeHourly && !v.ModeNamed {
		v.BillingMode = "" // "per hour" asks the rate, no billing mode
	}
	if q.Intent == IntentPrices && q.Aspect == understand.AspectPrice && !frame.HasSubject(q) && !frame.Valued(v) &&
		q.UnknownGPU == "" && !q.NamesDisks && !q.NoCardMode && !q.Retention && len(q.Verbs) == 0 {
		// "总共多少钱", "cost per hour for that" after the estimate: its
		// figures again (the cost first, not a fit verdict), not every
		// platform's price list.
		m := frame.JobAgain(f, q)
		m.YesNo, m.Question = nil, false
		return m, true
	}
	if methodVs(q) {
		// "is it worth it vs LoRA": the job with that method.
		q.Intent, q.YesNo = IntentEstimate, nil
		if m, ok := mergeFollowUp(f, q); ok {
			return m, true
		}
	}
	if platformCostAsked(q) {
		// "runpod多少钱", "cost on RunPod" after the job's estimate: the
		// job there, not the platform's price list ("runpod怎么收费" is).
		q.Intent = IntentEstimate
		if m, ok := mergeFollowUp(f, q); ok {
			return m, true
		}
	}
	if n := q.BareAmount; f.GPUCount > 1 && n >= 1 && n <= 64 && n == float64(int(n)) && !frame.Valued(q) && !frame.HasSubject(q) {
		// "what if 4" after "8 H100s for …": that many cards.
		q.GPUCount, q.Intent = int(n), IntentEstimate
		if m, ok := mergeFollowUp(f, q); ok {
			return m, true
		}
	}
	if cheapestAsked(q) {
		// "最便宜的是哪家" after the job's estimate: where it runs
		// cheapest, not every card's stock.
		return frame.JobAgain(f, q), true
	}
	return q, false
}

// platformCostAsked reports whether q asks only what something costs on
// a platform it names ("runpod多少钱", "how much on vast"): no card, job,
// disk, billing mode or price of its own.
func platformCostAsked(q Query) bool {
	if len(q.Platforms) == 0 || len(q.GPUs) > 0 || frame.HasJob(q) || q.UnknownGPU != "" || q.NamesDisks || q.BillingMode != "" ||
		q.Aspect != understand.AspectPrice || q.PriceCNY > 0 || q.MaxPriceCNY > 0 || q.YesNo != nil || slices.Contains(q.Verbs, q.Intent) {
		return false
	}
	switch q.Intent {
	case IntentPrices, IntentStock, IntentEstimate:
		return true
	}
	return false
}

// cheapestAsked reports whether q asks only which platform is cheapest
// ("最便宜的是哪家", "which one is cheapest"), naming no card, platform or
// job, no price and no stock condition.
func cheapestAsked(q Query) bool {
	if !q.WhichPlatform && !q.FollowCheapest || q.Aspect != understand.AspectPrice || frame.HasSubject(q) || frame.Valued(frame.ClearAsk(q)) || q.YesNo != nil {
		return false
	}
	switch q.Intent {
	case IntentStock, IntentPrices, IntentCompare:
		return q.Confidence < 1 || q.FollowCheapest
	}
	return false
}

// cardsGapAsked reports whether q asks by how much the cards the estimate
// f compares differ, naming nothing of its own ("差多少钱").
func cardsGapAsked(f, q Query) bool {
	v := frame.ClearAsk(q) // "便宜多少" says which way, no value
	if len(q.NamedGPUs) > 0 && !slices.ContainsFunc(q.NamedGPUs, func(g string) bool { return !slices.Contains(f.NamedGPUs, g) }) {
		// "how much faster is the 4090": one of the cards compared.
		v.GPU, v.GPUs, v.NamedGPUs, v.GPUFamily = "", nil, nil, false
	}
	return q.FollowGap && len(f.NamedGPUs) >= 2 && !frame.HasSubject(v) && q.UnknownGPU == "" && !frame.Valued(v)
}

// doneWithin returns the verdict q asks for about the estimate's job
// (nil: none), its span read as the time to be done in, and drops q's
// rental term when it asks for a time to be done in.
func doneWithin(q *Query) *understand.YesNo {
	y := q.YesNo
	if y != nil && y.WithinHours == 0 && q.SpanDays > 0 {
		// "半天能跑完吗", "can it finish within a day?": the span
		// said is the time to be done in.
		yc := *y
		yc.WithinHours = q.SpanDays * 24
		y = &yc
	}
	if y != nil && y.WithinHours > 0 {
		// A time to be done in is no rental term.
		q.BillingMode, q.ModeNamed, q.SpanDays, q.PeriodDays, q.Conditions = "", false, 0, 0, nil
	}
	return y
}

// editJob reads q as an edit of the last estimate f — its parameters,
// card or platform, another size of model — unless q names a model of
// its own (a workload: "yolov8n coco 100轮", "bert-base 微调"): that
// starts a new job, even when only its numbers are read as slots; said
// as a follow-up ("那 SDXL 呢") it asks that job's estimate instead.
func (r *Router) editJob(f, q Query) (Query, bool) {
	if model, _ := r.work.Find(q.Asked); model != "" && !sameWorkload(r.work, f, model) {
		if q.FollowUp && q.Intent != IntentEstimate {
			q.Intent, q.Confidence = IntentEstimate, 1
			return q, true
		}
		return q, false
	}
	return mergeFollowUp(f, q)
}

// jobAsked reports whether q asks about the last estimate's job: it names
// no job of its own and asks whether the job is done within a time or a
// budget, what it costs over a rental term, or — said as a follow-up —
// what it costs on the card named.
func jobAsked(q Query) bool {
	if frame.HasJob(q) || slices.Contains(q.Verbs, q.Intent) {
		return false
	}
	y := q.YesNo
	switch {
	case y != nil && y.Kind == understand.YesNoCan && (y.WithinHours > 0 || q.SpanDays > 0):
		return true
	case q.BudgetTotalCNY > 0 && (y == nil || y.Kind == understand.YesNoCan || y.Kind == understand.YesNoFits):
		return true
	case q.Intent == IntentPlan && len(q.GPUs) == 0 && (q.BillingMode != "" || q.Continuous || q.SpanDays > 0):
		return true
	case q.Intent == IntentPrices && q.FollowUp && len(q.GPUs) > 0:
		return true
	case cardFigureAsked(q):
		return true
	}
	return false
}

// cardFigureAsked reports whether q names a card and asks a time
// but no job ("4090要多久" after an estimate): the estimate's job on that
// card, not when the card is usually free.
func cardFigureAsked(q Query) bool {
	switch q.Intent {
	case IntentAvailability, IntentPrices, IntentStock, IntentClarify, IntentUnknown:
	default:
		return false
	}
	return len(q.GPUs) > 0 && len(q.Platforms) == 0 && q.AsksHours
}

// loraOfModel reads "换成sdxl" after a LoRA training estimate (SD 1.5
// LoRA): the LoRA of the model named, on the same figures, not that
// model's image generation.
func (r *Router) loraOfModel(f, q Query) (Query, bool) {
	if r.work == nil || f.WorkloadModel == "" || q.WorkloadModel == "" || !(q.FollowUp || q.SwitchTo || q.Bare) {
		return q, false
	}
	was, ok := r.work.Model(f.WorkloadModel)
	if !ok || was.Kind != workload.KindLoRA {
		return q, false
	}
	now, ok := r.work.Model(q.WorkloadModel)
	if !ok || now.LoRA == "" || now.LoRA == f.WorkloadModel {
		return q, false
	}
	m := frame.JobAgain(f, q)
	m.WorkloadModel, m.Asked = now.LoRA, now.LoRA
	return m, true
}
