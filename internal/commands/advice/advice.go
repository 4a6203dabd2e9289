// Package advice answers troubleshooting and how-to questions from the
// knowledge base ("CUDA out of memory", "第一次租卡要注意什么", "微调 BERT
// 用什么卡"), with the lab's data a topic ties to (an estimate, disk and
// billing rules, stock), and checks claims against sourced figures ("文章说
// AutoDL 数据盘 0.1 元/GB/天，是真的吗"). Each intent registers from its
// file (advice.go, factcheck.go) and returns a payload of
// render/adviceview; areas.go holds the calls into the estimate and
// offers areas.
package advice

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/adviceview"
	"github.com/labgpu/bot/internal/understand"
)

func init() { answer.Register(answer.Intent{Name: understand.IntentAdvice, Answer: Advice}) }

// Advice answers intent advice: the topic the understanding chose
// (Query.Topic, the matcher's Query.KB), its causes and steps, what the
// lab's data adds for its tie, and related topics; or, without a topic,
// the closest ones.
func Advice(ctx context.Context, a *answer.Ask) answer.Out {
	q := a.Query
	en := q.English
	p := adviceview.Advice{Lang: i18n.Of(en), Advice: &adviceview.Entry{}}
	t, ok := topic(a.Env.KB, q.Topic)
	if !ok {
		if q.KB != nil && len(q.KB.Closest) > 0 {
			p.Advice.Score = render.Round2(q.KB.Closest[0].Score)
			p.Advice.Closest = refs(q.KB.Closest, en)
		}
		return answer.Out{Payload: p, Query: q}
	}
	if br := askedBranch(a.Env.KB, t, q); br > 0 {
		// "nvcc 11.8 vs nvidia-smi 12.2 有影响吗": a yes/no question about
		// a branch of the topic gets its verdict first.
		a.Query.AdviceBranch = br
		q = a.Query
	}
	if q.AdviceBranch > 0 || q.AdviceNext || q.AdviceWorked || q.AdviceFit || q.AdviceAsk != "" {
		return answer.Out{Payload: follow(a, t), Query: q}
	}
	m := topicHit(q.KB, t, q.Score)
	*p.Advice = adviceview.Entry{Topic: t.ID, Title: t.Title.Pick(en), Score: render.Round2(m.Best.Score), Matched: m.Best.Terms,
		Causes: leadCauses(t, q.Asked, en), Steps: t.Steps.Pick(en), Source: t.Source}
	p.Confidence = m.Best.Score
	// A how-to question ("第一次租卡要注意什么") gets the topic as advice,
	// not as a diagnosis with a confidence.
	p.HowTo = len(t.Errors) == 0 && !m.Problem && t.Tie != kb.TieCard
	if t.Tie == kb.TieCard && (t.ID == kb.TopicCardChoice || q.Model != "" || q.ParamsB > 0) {
		p.Card, p.CardTopic = cardChoice(ctx, a, &p), t.ID == kb.TopicCardChoice
	}
	tie(ctx, a, t, &p)
	p.Advice.Related = refs(m.Related, en)
	return answer.Out{Payload: p, Query: q}
}

// askedBranch is the branch of t with a verdict a yes/no question names
// without a paste of its own (0: none).
func askedBranch(base *kb.Base, t *kb.Topic, q understand.Query) int {
	if q.YesNo == nil && !q.YesNoAsked || q.OOM != nil || base == nil {
		return 0
	}
	br, n, ok := base.FindingOf(t.ID, q.Findings)
	if !ok || br.Verdict != kb.VerdictStated {
		return 0
	}
	return n
}

// leadCauses are t's causes, the one the message shows by itself first
// ("connection refused": the instance, not the password).
func leadCauses(t *kb.Topic, asked string, en bool) []string {
	causes := t.Causes.Pick(en)
	l := t.LeadOf(asked)
	if l == nil {
		return causes
	}
	return append([]string{l.Cause.Pick(en)}, causes...)
}

// topic is the knowledge base's topic of an id (none without a base).
func topic(base *kb.Base, id string) (*kb.Topic, bool) {
	if base == nil || id == "" {
		return nil, false
	}
	return base.Topic(id)
}

// tie adds the lab data a topic's tie asks for.
func tie(ctx context.Context, a *answer.Ask, t *kb.Topic, p *adviceview.Advice) {
	q := a.Query
	switch t.Tie {
	case kb.TieOOM:
		p.OOM = oomTie(a, p)
	case kb.TieDisk, kb.TieStorage:
		p.Disk = diskTie(a, t.Tie == kb.TieStorage)
	case kb.TieBilling:
		for _, pl := range a.MainPlatforms(q) {
			p.Billing = append(p.Billing, adviceview.BillingRow{Platform: pl.ID, Granularity: pl.Billing.Granularity, MinimumMinutes: pl.Billing.MinimumMinutes})
		}
	case kb.TieRetention:
		for _, pl := range a.MainPlatforms(q) {
			for _, rt := range pl.Retention {
				p.Retention = append(p.Retention, adviceview.RetentionRow{Platform: pl.ID, Text: rt.Text})
			}
		}
	case kb.TieStock:
		p.Stock = stockTie(ctx, a)
	case kb.TiePlatform:
		p.HiddenCosts = q.Platforms
	}
}

// oomTie reads what the error says about the card and, when the question
// names a job ("7B LoRA seq 4096 on 4090"), estimates that job and the
// usual ways out (QLoRA, half the sequence) and finds the cards that
// hold it.
func oomTie(a *answer.Ask, p *adviceview.Advice) *adviceview.OOM {
	q := a.Query
	o := &adviceview.OOM{}
	if e := q.OOM; e != nil {
		o.Error = &adviceview.OOMError{AllocGiB: e.AllocGiB, TotalGiB: e.TotalGiB, FreeGiB: e.FreeGiB}
	}
	if q.Model == "" && q.ParamsB == 0 {
		o.NoJob = true
		return o
	}
	job := oomJob(q)
	est, err := a.Est.Estimate(job, noQuotes)
	if err != nil {
		if !errors.Is(err, estimator.ErrUnknownModel) {
			o.EstimateErr = err.Error()
		}
		return o
	}
	p.Figures = adviceview.Figures{Estimate: est, VRAMGB: &est.VRAM, Fits: est.Fits}
	for _, id := range q.GPUs {
		if g, ok := a.Cat.GPU(id); ok {
			o.NeedCards = append(o.NeedCards, adviceview.NeedCard{ID: g.ID, MemoryGB: g.MemoryGB, CapacityGB: estimator.CapacityGB(g)})
		}
		if !q.GPUFamily {
			break // one named card; a family ("A100") lists its variants
		}
	}
	o.Count = max(1, q.GPUCount)
	o.NoFit = len(o.NeedCards) > 0 && est.VRAMMin > o.NeedCards[0].CapacityGB*float64(o.Count)
	o.Savings = oomSavings(a.Est, job, est)
	if len(q.GPUs) > 0 {
		o.Failed = q.GPUs[0]
	}
	oomFits(a, est, o)
	return o
}

// noQuotes prices nothing: the OOM answer is about VRAM only.
func noQuotes(string) []estimator.PriceQuote { return nil }

// oomJob is the job an OOM report describes, on any card (which cards
// would hold it, not only the one that failed); training unless it
// speaks of inference (Query.Serving), LoRA when no method is named.
func oomJob(q understand.Query) estimator.Job {
	job := jobOf(q)
	job.GPUs, job.Platform = nil, ""
	if job.Method == "" || job.Method == estimator.MethodInference && !q.Serving {
		job.Method = estimator.MethodLoRA
	}
	if job.Method == estimator.MethodQLoRA && job.Bits == 0 {
		job.Bits = 4
	}
	return job
}

// oomSavings estimates the usual ways out of an OOM: QLoRA 4-bit for a
// LoRA or full run, half the sequence length for training; each at
// micro-batch 1 with accumulation.
func oomSavings(e *estimator.Estimator, job estimator.Job, est *estimator.Estimate) []adviceview.Saving {
	var outs []adviceview.Saving
	try := func(seq int, j estimator.Job) {
		x, err := e.Estimate(j, noQuotes)
		if err != nil {
			return
		}
		v := x.VRAM.Total
		if x.Method != estimator.MethodInference && x.VRAMMin < v {
			v = x.VRAMMin
		}
		outs = append(outs, adviceview.Saving{Seq: seq, GB: v})
	}
	if job.Method == estimator.MethodLoRA || job.Method == estimator.MethodFull {
		j := job
		j.Method, j.Bits = estimator.MethodQLoRA, 4
		try(0, j)
	}
	if est.SeqLen >= 1024 && job.Method != estimator.MethodInference {
		j := job
		j.SeqLen = est.SeqLen / 2
		try(j.SeqLen, j)
	}
	return outs
}

// oomFits sorts the estimate's fits on CUDA cards: single cards as
// described and only at micro-batch 1 with gradient accumulation (each
// smallest first, at most six), or, when no single card holds the job,
// the fewest cards per GPU that do; and how many of the first are the
// card that failed.
func oomFits(a *answer.Ask, est *estimator.Estimate, o *adviceview.OOM) {
	var asIs, accum []*estimator.Fit
	for i := range est.Fits {
		f := &est.Fits[i]
		switch {
		case !f.Fits || f.GPUCount != 1 || !a.CudaCard(f.GPU):
			// NPUs do not run a CUDA job as is (see ascend-compat).
		case est.Method == estimator.MethodInference || f.MicroBatch >= est.Batch:
			asIs = append(asIs, f)
			if f.GPU == o.Failed {
				o.FailedHolds++
			}
		default:
			accum = append(accum, f)
		}
	}
	o.AsIs, o.Accum = smallest(asIs), smallest(accum)
	if len(asIs) > 0 || len(accum) > 0 {
		return
	}
	best := map[string]int{}
	var order []string
	for _, f := range est.Fits {
		if !f.Fits || !a.CudaCard(f.GPU) {
			continue
		}
		if n, ok := best[f.GPU]; !ok || f.GPUCount < n {
			if !ok {
				order = append(order, f.GPU)
			}
			best[f.GPU] = f.GPUCount
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return best[order[i]] < best[order[j]] })
	for _, id := range order[:min(6, len(order))] {
		o.Multi = append(o.Multi, adviceview.MultiCard{GPU: id, Count: best[id]})
	}
}

// smallest names the first six fits, smallest memory first.
func smallest(fs []*estimator.Fit) []string {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].MemoryGB < fs[j].MemoryGB })
	var out []string
	for _, f := range fs[:min(6, len(fs))] {
		out = append(out, f.GPU)
	}
	return out
}

// diskTie is the data-disk prices (CNY per GB-day, beyond the free part)
// of the platforms asked about or the marketplaces, and with storage the
// no-GPU mode.
func diskTie(a *answer.Ask, noCard bool) *adviceview.Disk {
	d := &adviceview.Disk{NoCard: noCard, LedgerOn: a.LedgerOn}
	for _, p := range a.MainPlatforms(a.Query) {
		st := p.Storage
		d.Rows = append(d.Rows, adviceview.DiskRow{Platform: p.ID, FreeGB: st.DataDiskFreeGB, Price: st.DataDiskCNYPerGBDay,
			NoCard: st.NoCard.Available, NoCardPerHour: st.NoCard.CNYPerHour})
	}
	return d
}

// stockTie counts the offers available now for the GPUs named (none
// named: nothing to say).
func stockTie(ctx context.Context, a *answer.Ask) *adviceview.Stock {
	q := a.Query
	if len(q.GPUs) == 0 {
		return nil
	}
	s := &adviceview.Stock{GPU: q.GPU, Alerts: a.Alerts != nil}
	for _, row := range liveRows(ctx, a) {
		if row.Available != nil && *row.Available && row.Source != "catalog" {
			s.Live++
			s.Where = append(s.Where, row.Platform)
		}
	}
	return s
}

// cardChoice answers "用什么卡": with an LLM job, the estimate (cards that
// fit, cheapest first); with a known workload (Query.KBWorkload), the
// cards whose VRAM holds it at their cheapest known price; with two or
// more cards named, their figures side by side; otherwise the payload
// asks for the task.
func cardChoice(ctx context.Context, a *answer.Ask, p *adviceview.Advice) *adviceview.CardChoice {
	q := a.Query
	c := &adviceview.CardChoice{}
	if q.Model != "" || q.ParamsB > 0 {
		c.Estimate, p.Figures, c.Estimated = estimateJob(ctx, a)
		return c
	}
	w := workload(a.Env.KB, q.KBWorkload)
	if w != nil && w.Kind == "training" && len(q.NamedGPUs) >= 2 {
		// "3090还是4090跑SDXL LoRA": which of the cards named runs the
		// job for less (or as fast for the same money), from its estimate.
		if est, f, _ := estimateJob(ctx, a); len(f.Options) > 0 {
			c.Estimate, p.Figures, c.Estimated = est, f, true
			return c
		}
	}
	if w == nil {
		if len(q.GPUs) >= 2 {
			c.Compared = compared(ctx, a)
			for _, cd := range c.Compared {
				p.Advice.Cards = append(p.Advice.Cards, cd.Card)
			}
		}
		return c
	}
	c.Workload, c.OneNamed = w, len(q.GPUs) == 1
	for _, id := range q.GPUs {
		if g, ok := a.Cat.GPU(id); ok {
			c.Named = append(c.Named, adviceview.NamedCard{ID: g.ID, MemoryGB: g.MemoryGB})
		}
	}
	c.Cards = workloadCards(ctx, a, w)
	p.Advice.Workload, p.Advice.Cards = w, c.Cards
	if q.YesNo != nil && c.OneNamed && len(c.Named) == 1 {
		// "SDXL 出图 3090 够吗": the card's memory against the job's least.
		c.Verdict = &render.Verdict{Kind: render.AskFits, Answer: render.VerdictNo}
		if c.Named[0].MemoryGB >= w.VRAMGB.Low {
			c.Verdict.Answer = render.VerdictYes
		}
	}
	return c
}

// workload is the knowledge base's workload of an id (nil: none).
func workload(base *kb.Base, id string) *kb.Workload {
	if base == nil || id == "" {
		return nil
	}
	for i := range base.Workloads {
		if base.Workloads[i].ID == id {
			return &base.Workloads[i]
		}
	}
	return nil
}

// workloadCards are the CUDA cards whose nominal memory holds a workload
// at its smallest setting, each at its cheapest known quote, cheapest
// first (the larger card first at one price).
func workloadCards(ctx context.Context, a *answer.Ask, w *kb.Workload) []adviceview.Card {
	method := estimator.MethodInference
	if w.Kind == "training" {
		method = estimator.MethodFull
	}
	q := a.Query
	quotes := a.Quotes(a.Offers.Snapshot(ctx), q, method, a.Now(), q.English)
	var cards []adviceview.Card
	for i := range a.Cat.GPUs {
		g := &a.Cat.GPUs[i]
		// Workload figures are in the cards' own terms ("24G 的 3090"):
		// compared with the nominal memory.
		if g.MemoryGB < w.VRAMGB.Low || !a.CudaCard(g.ID) {
			continue
		}
		c := cardOf(g, quotes)
		c.Comfortable = g.MemoryGB >= w.VRAMGB.High
		if c.Platform == "" {
			continue
		}
		cards = append(cards, c)
	}
	sort.SliceStable(cards, func(i, j int) bool {
		if cards[i].PriceCNY != cards[j].PriceCNY {
			return cards[i].PriceCNY < cards[j].PriceCNY
		}
		return cards[i].MemoryGB > cards[j].MemoryGB
	})
	return cards
}

// compared are the named cards the catalog knows, each at its cheapest
// known price, with their BF16 tensor TFLOPS and bandwidth.
func compared(ctx context.Context, a *answer.Ask) []adviceview.ComparedCard {
	q := a.Query
	quotes := a.Quotes(a.Offers.Snapshot(ctx), q, estimator.MethodFull, a.Now(), q.English)
	var out []adviceview.ComparedCard
	for _, id := range q.GPUs {
		if g, ok := a.Cat.GPU(id); ok {
			out = append(out, adviceview.ComparedCard{Card: cardOf(g, quotes), TensorTFLOPS: g.TensorTFLOPS, BandwidthGBs: g.BandwidthGBs})
		}
	}
	return out
}

// refs names the topics of hits.
func refs(hs []kb.Hit, en bool) []adviceview.Ref {
	var out []adviceview.Ref
	for _, h := range hs {
		out = append(out, adviceview.Ref{Topic: h.Topic.ID, Title: h.Topic.Title.Pick(en), Score: render.Round2(h.Score)})
	}
	return out
}

// topicHit is the match of the topic the understanding chose: the
// matcher's own when it chose the same, else a hit at the scorer's
// confidence with the terms the matcher found for it, and as related the
// matcher's pick and the topic's declared related topics.
func topicHit(m *kb.Result, t *kb.Topic, score float64) *kb.Result {
	if m != nil && m.Best != nil && m.Best.Topic.ID == t.ID {
		return m
	}
	out := &kb.Result{Best: &kb.Hit{Topic: t, Score: score}}
	if m != nil {
		out.Problem = m.Problem
		for _, h := range slices.Concat(m.Related, m.Closest) {
			if h.Topic.ID == t.ID {
				out.Best.Terms = h.Terms
			}
		}
		if m.Best != nil && m.Best.Score >= kb.RelatedMin {
			out.Related = append(out.Related, *m.Best)
		}
	}
	return out
}

// maxStepsAfterBranch is how many steps a branch's answer lists after it
// when the fix it names did not help.
const maxStepsAfterBranch = 3

// oomFit answers whether the OOM answer's job fits at the settings a
// follow-up names ("batch改成1还会爆吗"): its verdict against the card the
// error or the question gave, then the steps not yet given; false when
// the job cannot be estimated.
func oomFit(a *answer.Ask, t *kb.Topic, p *adviceview.Follow) bool {
	q := a.Query
	est, err := a.Est.Estimate(oomJob(q), noQuotes)
	if err != nil {
		return false
	}
	l, need, card := i18n.Of(q.English), est.VRAM.Total, oomCardGB(a)
	switch {
	case card == 0:
		p.Text = l.T("advice.follow.oom_need", fitSettings(q), need)
	case need > card:
		p.Text = l.T("advice.follow.oom_fails", fitSettings(q), need, card)
	default:
		p.Text = l.T("advice.follow.oom_fits", fitSettings(q), need, card)
	}
	p.Verdict = kb.VerdictStated
	p.Steps = leftSteps(t, q.AdviceShown, q.English)
	p.Steps = p.Steps[:min(len(p.Steps), maxStepsAfterBranch)]
	return true
}

// oomCardGB is the failing card's memory, GB: the error's total
// capacity, else the card named (0: neither says).
func oomCardGB(a *answer.Ask) float64 {
	q := a.Query
	if q.OOM != nil && q.OOM.TotalGiB > 0 {
		return q.OOM.TotalGiB * (1 << 30) / 1e9
	}
	if len(q.GPUs) > 0 {
		if g, ok := a.Cat.GPU(q.GPUs[0]); ok {
			return estimator.CapacityGB(g)
		}
	}
	return 0
}

// fitSettings names the settings a fit question asked about ("batch 1,
// seq 4096").
func fitSettings(q understand.Query) string {
	var parts []string
	if q.Batch > 0 {
		parts = append(parts, fmt.Sprintf("batch %d", q.Batch))
	}
	if q.SeqLen > 0 {
		parts = append(parts, fmt.Sprintf("seq %d", q.SeqLen))
	}
	if q.Bits > 0 {
		parts = append(parts, fmt.Sprintf("%d-bit", q.Bits))
	}
	return strings.Join(parts, ", ")
}

// leftSteps are topic t's steps after the first shown, then its
// alternatives.
func leftSteps(t *kb.Topic, shown int, en bool) []string {
	steps := t.Steps.Pick(en)
	return append(slices.Clone(steps[min(shown, len(steps)):]), t.Next.Pick(en)...)
}

// askedStep is the index of the step most of the question's words
// (Query.AskWords) are in, the first on a tie or when none is.
func askedStep(steps []string, asked []string) int {
	best, bestN := 0, 0
	for i, s := range steps {
		s = strings.ToLower(s)
		n := 0
		for _, w := range asked {
			if strings.Contains(s, w) {
				n += len([]rune(w))
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	return best
}

// follow answers a follow-up of topic t's answer (Query.AdviceBranch,
// AdviceNext): the branch it names, or the steps the last answer did not
// show (Query.AdviceShown of them were) and the topic's alternatives; with
// none left, the first related topic to check next.
func follow(a *answer.Ask, t *kb.Topic) adviceview.Follow {
	q := a.Query
	en := q.English
	p := adviceview.Follow{Lang: i18n.Of(en), Topic: t.ID, Title: t.Title.Pick(en)}
	if q.AdviceBranch > 0 && q.AdviceBranch <= len(t.Follow) {
		br := t.Follow[q.AdviceBranch-1]
		p.Verdict, p.Text = br.Verdict, br.Text.Pick(en)
		if q.AdviceNext {
			// It did not help ("开了fp16也不行"): what the fix does, as a
			// finding (no "yes" to a fix that failed), then the steps
			// not yet given.
			p.Verdict = ""
			p.Steps = leftSteps(t, q.AdviceShown, en)
			p.Steps = p.Steps[:min(len(p.Steps), maxStepsAfterBranch)]
		}
		return p
	}
	if q.AdviceFit && oomFit(a, t, &p) {
		return p
	}
	if q.AdviceAsk != "" {
		// "怎么定位是哪一行": the step the question's words name (the
		// first when none does), then the others.
		steps := append(slices.Clone(t.Steps.Pick(en)), t.Next.Pick(en)...)
		if len(steps) > 0 {
			i := askedStep(steps, q.AskWords)
			p.Text, p.Verdict = steps[i], kb.VerdictStated
			p.Steps = slices.Delete(steps, i, i+1)
			p.Steps = p.Steps[:min(len(p.Steps), maxStepsAfterBranch)]
			return p
		}
	}
	if q.AdviceWorked {
		p.Text = i18n.Of(en).T("advice.follow.worked_before")
		p.Steps = leftSteps(t, q.AdviceShown, en)
		p.Steps = p.Steps[:min(len(p.Steps), maxStepsAfterBranch)]
		return p
	}
	p.Next = true
	p.Steps = leftSteps(t, q.AdviceShown, en)
	if len(p.Steps) == 0 {
		for _, id := range t.Related {
			if r, ok := a.Env.KB.Topic(id); ok {
				p.Check = r.Title.Pick(en)
				break
			}
		}
	}
	return p
}
