package advice

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/commands/estimate"
	"github.com/labgpu/bot/internal/commands/offers"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/textgate"
	"github.com/labgpu/bot/internal/understand"
)

// AdviceResult is the advice behind an answer (intent advice).
type AdviceResult struct {
	// Topic is the entry id, empty when no entry matched well enough.
	Topic string `json:"topic,omitempty"`
	Title string `json:"title,omitempty"`
	// Score is the confidence in [0, 1) (kb.Threshold picks a topic).
	Score float64 `json:"score"`
	// Matched are the terms found in the text, strongest first.
	Matched []string `json:"matched,omitempty"`
	Causes  []string `json:"causes,omitempty"`
	Steps   []string `json:"steps,omitempty"`
	Source  string   `json:"source,omitempty"`
	// Related are further entries worth reading; Closest the nearest
	// entries when none matched.
	Related []AdviceRef `json:"related,omitempty"`
	Closest []AdviceRef `json:"closest,omitempty"`
	// Workload is the non-LLM job a card-choice question named.
	Workload *kb.Workload `json:"workload,omitempty"`
	// Cards are the cards that fit a card-choice question, cheapest first.
	Cards []offers.CardRow `json:"cards,omitempty"`
}

// AdviceRef names another entry.
type AdviceRef struct {
	Topic string  `json:"topic"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
}

// Topics returns the knowledge base's topics (nil without one).
func (r *Answers) Topics() []kb.Topic {
	if r.kb == nil {
		return nil
	}
	return r.kb.Topics
}

// adviceTitle is an advice answer's first line: the topic, as a
// diagnosis with its confidence ("很可能是：…（把握 86%）" at 0.75 or more)
// unless the question asks how to do something.
func adviceTitle(title string, score float64, howTo, en bool) string {
	conf := int(math.Round(score * 100))
	switch {
	case howTo:
		return title
	case score >= 0.75:
		return fmt.Sprintf(answer.Pick(en, "很可能是：%s（把握 %d%%）", "Most likely: %s (confidence %d%%)"), title, conf)
	}
	return fmt.Sprintf(answer.Pick(en, "可能是：%s（把握 %d%%）", "Possibly: %s (confidence %d%%)"), title, conf)
}

// bullets marks each line with "• "; numbered numbers them "1. ".
func bullets(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "• " + l
	}
	return out
}

func numbered(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = fmt.Sprintf("%d. %s", i+1, l)
	}
	return out
}

// Advice answers intent advice: the topic's causes and numbered
// steps, the lab data its tie adds, related topics and the source.
func (r *Answers) Advice(ctx context.Context, res *Result) {
	q := res.Query
	en := q.English
	t, ok := r.Topic(q.Topic)
	if !ok {
		m := kb.Result{}
		if q.KB != nil {
			m = *q.KB
		}
		r.adviceUnknown(res, &m)
		return
	}
	m := topicHit(q.KB, t, q.Score)
	ar := &AdviceResult{Topic: t.ID, Title: t.Title.Pick(en), Score: render.Round2(m.Best.Score), Matched: m.Best.Terms,
		Causes: t.Causes.Pick(en), Steps: t.Steps.Pick(en), Source: t.Source}
	res.Advice = ar
	// A how-to question ("第一次租卡要注意什么") gets the topic as advice,
	// not as a diagnosis with a confidence.
	howTo := len(t.Errors) == 0 && !m.Problem && t.Tie != kb.TieCard
	rep := chat.Reply{Title: adviceTitle(ar.Title, m.Best.Score, howTo, en)}
	causes, steps := answer.Pick(en, "可能的原因：", "Likely causes:"), answer.Pick(en, "怎么做：", "What to do:")
	if howTo {
		causes = answer.Pick(en, "要点：", "Key points:")
	}
	showSteps := true
	// tie holds what the lab's data adds (estimate, prices, stock), kept
	// apart so the short form can take its first lines.
	tie := chat.Reply{}
	cardQuestion := t.Tie == kb.TieCard && (t.ID == "card-choice" || q.Model != "" || q.ParamsB > 0)
	if cardQuestion {
		// A card question: the cards first, then the general logic; the
		// rough tiers only when no job was named.
		tie.Title = answer.Pick(en, "选卡", "Choosing a GPU")
		showSteps = !r.cardChoice(ctx, res, &tie)
		rep.Title, tie.Title = tie.Title, ""
		if rep.Title == "" {
			rep.Title = answer.Pick(en, "选卡", "Choosing a GPU")
		}
		causes, steps = answer.Pick(en, "选卡思路：", "How to choose:"), answer.Pick(en, "分档参考：", "Rough tiers:")
		if t.ID != "card-choice" {
			// Another topic that lists cards (multi-GPU scaling): its own
			// title, causes and steps, with the cards for the job.
			rep.Title, showSteps = adviceTitle(ar.Title, m.Best.Score, false, en), true
			causes, steps = answer.Pick(en, "可能的原因：", "Likely causes:"), answer.Pick(en, "怎么做：", "What to do:")
		}
	}
	causeLines, stepLines := bullets(ar.Causes), []string(nil)
	if showSteps {
		stepLines = numbered(ar.Steps)
	}
	r.adviceTie(ctx, res, t, &tie)
	rep.Lines = append(append(append(append(rep.Lines, causes), causeLines...), tie.Lines...), stepsBlock(steps, stepLines)...)
	rep.Table, rep.Notes = tie.Table, tie.Notes
	short := chat.Reply{Title: rep.Title, Table: answer.ShortTable(tie.Table)}
	if len(causeLines) > 0 {
		lead := answer.Pick(en, "最常见的原因：", "Most common cause: ")
		if howTo {
			lead = answer.Pick(en, "要点：", "Key point: ")
		}
		if cardQuestion {
			lead = causes
		}
		short.Lines = append(short.Lines, lead+strings.TrimPrefix(causeLines[0], "• "))
	}
	short.Lines = append(short.Lines, firstN(tie.Lines, 2)...)
	short.Lines = append(short.Lines, stepsBlock(steps, firstN(stepLines, 3))...)
	ar.Related = adviceRefs(m.Related, en)
	rep.Notes = append(rep.Notes, sourceNotes(ar, en)...)
	short.Notes = append(short.Notes, firstN(tie.Notes, 1)...)
	short.Notes = append(short.Notes, starNote(short.Table, tie.Notes[min(1, len(tie.Notes)):])...)
	if len(ar.Related) > 0 {
		short.Notes = append(short.Notes, answer.Pick(en, "相关：", "Related: ")+refTitles(firstRefs(ar.Related, 2), en))
	}
	short.Full = &rep
	res.Reply = short
}

// sourceNotes are the notes under a topic's full answer: related
// topics, the terms it matched on and its source.
func sourceNotes(ar *AdviceResult, en bool) []string {
	var notes []string
	if len(ar.Related) > 0 {
		notes = append(notes, answer.Pick(en, "相关：", "Related: ")+refTitles(ar.Related, en))
	}
	if len(ar.Matched) > 0 {
		notes = append(notes, answer.Pick(en, "依据：文字里有 ", "Matched on: ")+quoteList(ar.Matched, 4, en))
	}
	return append(notes, answer.Pick(en, "来源：", "Source: ")+answer.SourceText(ar.Source, en))
}

// adviceTie adds the lab data a topic's tie asks for.
func (r *Answers) adviceTie(ctx context.Context, res *Result, t *kb.Topic, tie *chat.Reply) {
	switch t.Tie {
	case kb.TieOOM:
		r.oomTie(ctx, res, tie)
	case kb.TieDisk, kb.TieStorage:
		r.diskTie(res, tie, t.Tie == kb.TieStorage)
	case kb.TieBilling:
		r.billingTie(res, tie)
	case kb.TieRetention:
		r.retentionTie(res, tie)
	case kb.TieStock:
		r.stockTie(ctx, res, tie)
	case kb.TiePlatform:
		for _, p := range res.Platforms {
			if l := r.Rd.HiddenCostNote(p, res.English); l != "" {
				tie.Lines = append(tie.Lines, l)
			}
		}
	}
}

// stepsBlock is a heading and its numbered steps (nothing without steps).
func stepsBlock(heading string, steps []string) []string {
	if len(steps) == 0 {
		return nil
	}
	return append([]string{heading}, steps...)
}

func firstN(xs []string, n int) []string {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}

func firstRefs(xs []AdviceRef, n int) []AdviceRef {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}

// starNote is the note that explains a * in a table's cells (a figure
// only the seed articles give), when a cell has one.
func starNote(t *chat.Table, notes []string) []string {
	if t == nil {
		return nil
	}
	for _, row := range t.Rows {
		for _, c := range row {
			if !strings.HasSuffix(c, "*") {
				continue
			}
			for _, n := range notes {
				if strings.HasPrefix(n, "* ") {
					return []string{n}
				}
			}
			return nil
		}
	}
	return nil
}

// adviceUnknown says no topic matched and names the closest ones.
func (r *Answers) adviceUnknown(res *Result, m *kb.Result) {
	en := res.English
	ar := &AdviceResult{}
	res.Advice = ar
	rep := chat.Reply{Title: answer.Pick(en, "这个问题我不认识，没把握给出排查步骤。", "I don't know this one well enough to give steps.")}
	if len(m.Closest) > 0 {
		ar.Score = render.Round2(m.Closest[0].Score)
		ar.Closest = adviceRefs(m.Closest, en)
		rep.Lines = append(rep.Lines, answer.Pick(en, "最接近的话题：", "Closest topics: ")+refTitles(ar.Closest, en))
		rep.Lines = append(rep.Lines, answer.Pick(en, "如果是其中之一，把完整报错（最后几行）贴上来，或者用话题里的说法再问一次。",
			"If it is one of these, paste the full error (its last lines) or ask again in those words."))
	} else {
		rep.Lines = append(rep.Lines, answer.Pick(en, "把完整报错的最后几行贴上来会更好认；我认识的话题见“帮助”。",
			"Pasting the last lines of the full error helps; “help” lists the topics I know."))
	}
	res.Reply = rep
}

// adviceRefs names the topics of hits.
func adviceRefs(hs []kb.Hit, en bool) []AdviceRef {
	var out []AdviceRef
	for _, h := range hs {
		out = append(out, AdviceRef{Topic: h.Topic.ID, Title: h.Topic.Title.Pick(en), Score: render.Round2(h.Score)})
	}
	return out
}

// refTitles joins the titles of refs for a line of text.
func refTitles(refs []AdviceRef, en bool) string {
	var names []string
	for _, x := range refs {
		names = append(names, x.Title)
	}
	return strings.Join(names, answer.Pick(en, "；", "; "))
}

// Topic is the knowledge base's topic id (none without a base).
func (r *Answers) Topic(id string) (*kb.Topic, bool) {
	if r.kb == nil || id == "" {
		return nil, false
	}
	return r.kb.Topic(id)
}

// quoteList quotes up to n terms.
func quoteList(xs []string, n int, en bool) string {
	if len(xs) > n {
		xs = xs[:n]
	}
	var out []string
	for _, x := range xs {
		out = append(out, "“"+x+"”")
	}
	return strings.Join(out, answer.Pick(en, "、", ", "))
}

// OOM figures PyTorch prints: "Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB
// total capacity; 21.40 GiB already allocated; ...)" (1.x) and "GPU 0 has a
// total capacity of 23.65 GiB of which 1.06 GiB is free" (2.x).
var (
	reOOMAlloc = textgate.MustCompile(`tried to allocate ([\d.]+) (gib|mib)`)
	reOOMTotal = textgate.MustCompile(`([\d.]+) gib total capacity|total capacity of ([\d.]+) gib`)
	reOOMFree  = textgate.MustCompile(`([\d.]+) (gib|mib) free|of which ([\d.]+) (gib|mib) is free`)
)

// gib reads a PyTorch memory figure as GiB; -1 when it is not a
// plausible number (the error text is pasted by users).
func gib(num, unit string) float64 {
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 || v > 1e6 {
		return -1
	}
	if unit == "mib" {
		v /= 1024
	}
	return v
}

// oomTie adds what the error says about the card and, when the question
// names a job ("7B LoRA seq 4096 on 4090"), the estimate of that job and
// of the usual ways out (QLoRA, half the sequence).
func (r *Answers) oomTie(ctx context.Context, res *Result, rep *chat.Reply) {
	q := res.Query
	en := q.English
	if line := oomErrorLine(q.Asked, en); line != "" {
		rep.Lines = append(rep.Lines, line)
	}
	if q.Model == "" && q.ParamsB == 0 {
		rep.Lines = append(rep.Lines, answer.Pick(en, "告诉我模型、方法和序列长度（如“7B LoRA seq 4096 用4090 OOM”），我算一下要多少显存、哪些卡放得下。",
			"Tell me the model, method and sequence length (e.g. “7B LoRA seq 4096 on a 4090 OOM”) and I will work out the VRAM and which cards fit."))
		return
	}
	job := oomJob(q)
	est, err := r.est.Estimate(job, noQuotes)
	if err != nil {
		if !errors.Is(err, estimator.ErrUnknownModel) {
			rep.Lines = append(rep.Lines, answer.Pick(en, "无法估算这个任务：", "Cannot estimate this job: ")+err.Error())
		}
		return
	}
	res.Estimate, res.VRAMGB, res.Fits = est, &est.VRAM, est.Fits
	gpu := ""
	if len(q.GPUs) > 0 {
		gpu = q.GPUs[0]
	}
	rep.Lines = append(rep.Lines, r.oomNeedLine(q, est))
	if outs := r.oomSavings(job, est); len(outs) > 0 {
		rep.Lines = append(rep.Lines, answer.Pick(en, "省显存的做法估一下：", "The usual savings, estimated: ")+strings.Join(outs, answer.Pick(en, "；", "; "))+
			answer.Pick(en, "（batch 1 + 梯度累积时）", " (at micro-batch 1 with gradient accumulation)"))
	}
	rep.Lines = append(rep.Lines, r.oomFitLines(est, gpu, en)...)
	rep.Lines = append(rep.Lines, answer.Pick(en, "问“这个任务要多少钱”看各平台费用。", "Ask what it costs for per-platform totals."))
}

// oomTail is text from the line of its last "Tried to allocate" (as
// PyTorch writes it, or in lower or upper case) on, or all of it when it
// has none written so (the pattern then decides on the folded text).
func oomTail(text string) string {
	i := -1
	for _, s := range []string{"ried to allocate", "RIED TO ALLOCATE"} {
		i = max(i, strings.LastIndex(text, s))
	}
	if i < 0 {
		return text
	}
	return text[strings.LastIndexByte(text[:i], '\n')+1:]
}

// noQuotes prices nothing: the OOM answer is about VRAM only.
func noQuotes(string) []estimator.PriceQuote { return nil }

// oomErrorLine reads the figures of a pasted CUDA OOM error ("Tried to
// allocate 2.00 GiB … 23.65 GiB total capacity … 1.02 GiB free"); "" when
// the text has none. It reads the last such error from its line on
// (PyTorch prints the capacity and the free memory after the request, on
// the same line), so a traceback's frames before it are not folded
// again; when that line has no request (the asker's words), the whole
// text.
func oomErrorLine(text string, en bool) string {
	tail := oomTail(text)
	folded := string(kb.Normalize(tail))
	m := reOOMAlloc.FindStringSubmatch(folded)
	if m == nil && len(tail) < len(text) {
		// The last "tried to allocate" was the asker's, or the error's
		// was wrapped: the whole paste.
		folded = string(kb.Normalize(text))
		m = reOOMAlloc.FindStringSubmatch(folded)
	}
	if m == nil || gib(m[1], m[2]) < 0 {
		return ""
	}
	line := fmt.Sprintf(answer.Pick(en, "报错里：这一步还要 %.2f GiB", "From the error: this step wanted %.2f GiB more"), gib(m[1], m[2]))
	if t := reOOMTotal.FindStringSubmatch(folded); t != nil {
		if v := gib(t[1]+t[2], "gib"); v >= 0 {
			line += fmt.Sprintf(answer.Pick(en, "，卡总共 %.2f GiB", " on a %.2f GiB card"), v)
		}
	}
	if f := reOOMFree.FindStringSubmatch(folded); f != nil {
		free, unit := f[1], f[2]
		if free == "" {
			free, unit = f[3], f[4]
		}
		if v := gib(free, unit); v >= 0 {
			line += fmt.Sprintf(answer.Pick(en, "，只剩 %.2f GiB 空闲", ", %.2f GiB free"), v)
		}
	}
	return line + answer.Pick(en, "。", ".")
}

// oomJob is the job an OOM report describes, on any card (which cards
// would hold it, not only the one that failed); training unless it says
// inference, LoRA when no method is named.
func oomJob(q understand.Query) estimator.Job {
	job := estimate.JobFromQuery(q)
	job.GPUs, job.Platform = nil, ""
	if job.Method == "" || job.Method == estimator.MethodInference && !understand.ContainsAny(catalog.Fold(q.Asked), []string{"推理", "inference", "部署", "serve", "serving", "vllm", "generate"}) {
		job.Method = estimator.MethodLoRA
	}
	if job.Method == estimator.MethodQLoRA && job.Bits == 0 {
		job.Bits = 4
	}
	return job
}

// oomNeedLine is the job's VRAM on one card beside the named card's size.
func (r *Answers) oomNeedLine(q understand.Query, est *estimator.Estimate) string {
	en := q.English
	need := est.VRAM.Total
	line := fmt.Sprintf(answer.Pick(en, "按你说的任务（%s，%s，seq %d，batch %d）：单卡约需 %.1f GB",
		"For the job you describe (%s, %s, seq %d, batch %d): ~%.1f GB on one GPU"),
		est.ModelID, render.MethodName(est.Method, est.Bits, en), est.SeqLen, est.Batch, need)
	if est.Method != estimator.MethodInference && est.VRAMMin < need-0.05 {
		line += fmt.Sprintf(answer.Pick(en, "（batch 1 + 梯度累积约 %.1f GB）", " (~%.1f GB at micro-batch 1 with gradient accumulation)"), est.VRAMMin)
	}
	var cards []string
	for _, id := range q.GPUs {
		if g, ok := r.Cat.GPU(id); ok {
			cards = append(cards, fmt.Sprintf(answer.Pick(en, "%s 是 %gG 卡（约 %.1f GB）", "a %s is a %g GiB card (%.1f GB)"), g.ID, g.MemoryGB, estimator.CapacityGB(g)))
		}
		if !q.GPUFamily {
			break // one named card; a family ("A100") lists its variants
		}
	}
	if len(cards) > 0 {
		line += answer.Pick(en, "；", "; ") + strings.Join(cards, answer.Pick(en, "，", ", "))
	}
	return line + answer.Pick(en, "。", ".")
}

// oomSavings estimates the usual ways out of an OOM: QLoRA 4-bit for a
// LoRA or full run, half the sequence length for training; each at
// micro-batch 1 with accumulation ("QLoRA 4-bit ~9.8 GB").
func (r *Answers) oomSavings(job estimator.Job, est *estimator.Estimate) []string {
	var outs []string
	try := func(label string, j estimator.Job) {
		e, err := r.est.Estimate(j, noQuotes)
		if err != nil {
			return
		}
		v := e.VRAM.Total
		if e.Method != estimator.MethodInference && e.VRAMMin < v {
			v = e.VRAMMin
		}
		outs = append(outs, fmt.Sprintf("%s ~%.1f GB", label, v))
	}
	if job.Method == estimator.MethodLoRA || job.Method == estimator.MethodFull {
		j := job
		j.Method, j.Bits = estimator.MethodQLoRA, 4
		try("QLoRA 4-bit", j)
	}
	if est.SeqLen >= 1024 && job.Method != estimator.MethodInference {
		j := job
		j.SeqLen = est.SeqLen / 2
		try(fmt.Sprintf("seq %d", j.SeqLen), j)
	}
	return outs
}

// oomFitLines lists the cards that hold an estimated job, smallest first:
// single cards as described, then only at micro-batch 1 with gradient
// accumulation, or the fewest GPUs when no single card does; and the usual
// reasons when gpu (the card that failed) should have held it.
func (r *Answers) oomFitLines(est *estimator.Estimate, gpu string, en bool) []string {
	var lines []string
	// Single cards that hold the job, smallest first: as described, and
	// only at micro-batch 1 with gradient accumulation.
	var asIs, accum []*estimator.Fit
	for i := range est.Fits {
		f := &est.Fits[i]
		switch {
		case !f.Fits || f.GPUCount != 1 || !r.CudaCard(f.GPU):
			// NPUs do not run a CUDA job as is (see ascend-compat).
		case est.Method == estimator.MethodInference || f.MicroBatch >= est.Batch:
			asIs = append(asIs, f)
		default:
			accum = append(accum, f)
		}
	}
	names := func(fs []*estimator.Fit) string {
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].MemoryGB < fs[j].MemoryGB })
		var out []string
		for i, f := range fs {
			if i == 6 {
				break
			}
			out = append(out, f.GPU)
		}
		return strings.Join(out, answer.Pick(en, "、", ", "))
	}
	for _, f := range asIs {
		if f.GPU == gpu {
			lines = append(lines, fmt.Sprintf(answer.Pick(en,
				"按估算 %s 放得下这个任务；还是 OOM 的话，多半是实际的 batch 或序列比写的长、别的进程占着显存，或推理框架预留了显存（vLLM 调 `--gpu-memory-utilization`、`--max-model-len`）。",
				"By the estimate a %s holds this job; an OOM anyway usually means a longer batch or sequence than stated, another process on the GPU, or memory reserved by the serving framework (vLLM: `--gpu-memory-utilization`, `--max-model-len`)."), gpu))
		}
	}
	if len(asIs) > 0 {
		lines = append(lines, answer.Pick(en, "原样放得下的单卡（小的在前）：", "Single cards that hold it as is (smallest first): ")+names(asIs))
	}
	if len(asIs) == 0 && len(accum) == 0 {
		// No single card: the fewest cards per GPU that hold it (ZeRO-3 or
		// tensor parallel).
		best := map[string]int{}
		var order []string
		for _, f := range est.Fits {
			if !f.Fits || !r.CudaCard(f.GPU) {
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
		var multi []string
		for i, id := range order {
			if i == 6 {
				break
			}
			multi = append(multi, fmt.Sprintf("%s×%d", id, best[id]))
		}
		if len(multi) > 0 {
			how := answer.Pick(en, "（按 ZeRO-3 切分）", " (ZeRO-3 sharding)")
			if est.Method == estimator.MethodInference {
				how = answer.Pick(en, "（按张量并行）", " (tensor parallel)")
			}
			lines = append(lines, answer.Pick(en, "单卡放不下；多卡放得下的最少卡数", "No single card holds it; fewest GPUs that do")+how+answer.Pick(en, "：", ": ")+strings.Join(multi, answer.Pick(en, "、", ", ")))
		}
	}
	if len(accum) > 0 {
		lines = append(lines, answer.Pick(en, "batch 1 + 梯度累积才放得下的单卡：", "Single cards that hold it only at micro-batch 1 with accumulation: ")+names(accum))
	}
	return lines
}

// diskTie shows data-disk prices (CNY per GB-day, beyond the free part)
// with their dates, a 100 GB month, and with storage the no-GPU mode.
func (r *Answers) diskTie(res *Result, rep *chat.Reply, noCard bool) {
	en := res.English
	t := &chat.Table{Header: answer.Picks(en, []string{"平台", "免费数据盘", "数据盘 元/GB·天", "100GB 一个月", "价格日期"},
		[]string{"platform", "free data disk", "CNY/GB-day", "100 GB for a month", "as of"})}
	if noCard {
		t.Header = append(t.Header, answer.Pick(en, "无卡模式", "no-GPU mode"))
	}
	unverified := false
	for _, p := range r.MainPlatforms(res.Query) {
		f := p.Storage.DataDiskCNYPerGBDay
		price, month, asOf := answer.Pick(en, "未知", "unknown"), answer.Pick(en, "未知", "unknown"), ""
		if f != nil {
			price = render.FigureText(*f)
			mid := (f.Low + f.High) / 2
			month = fmt.Sprintf("~%.0f", mid*100*30)
			asOf = f.AsOf
			if !f.Verified {
				asOf += "*"
				unverified = true
			}
		}
		row := []string{p.DisplayName(en), fmt.Sprintf("%g GB", p.Storage.DataDiskFreeGB), price, month, asOf}
		if noCard {
			nc := answer.Pick(en, "无", "none")
			if p.Storage.NoCard.Available {
				nc = answer.Pick(en, "有", "yes")
				if p.Storage.NoCard.CNYPerHour != nil {
					nc = render.FigureText(*p.Storage.NoCard.CNYPerHour) + answer.Pick(en, " 元/时", " CNY/h")
				}
			}
			row = append(row, nc)
		}
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) == 0 {
		return
	}
	rep.Table = t
	rep.Notes = append(rep.Notes, answer.Pick(en, "数据盘价格来自目录（非实时）；100GB 一个月按区间中值、不扣免费额度。",
		"Disk prices are catalog list prices (not live); the month column uses the range midpoint, before the free part."))
	if unverified {
		rep.Notes = append(rep.Notes, render.UnverifiedFigureNote(en))
	}
	if r.storage {
		rep.Notes = append(rep.Notes, answer.Pick(en, "在本群“登记存储 平台 大小”记下这块盘，周报会算它每周花多少。",
			"Register the disk here (“storage add <platform> <size>”) and the weekly digest will cost it."))
	}
}

// billingTie shows each platform's billing granularity and minimum.
func (r *Answers) billingTie(res *Result, rep *chat.Reply) {
	en := res.English
	var parts []string
	for _, p := range r.MainPlatforms(res.Query) {
		s := p.DisplayName(en) + " " + answer.GranularityText(p.Billing.Granularity, en)
		if p.Billing.MinimumMinutes > 0 {
			s += fmt.Sprintf(answer.Pick(en, "，每次最少 %g 分钟", ", minimum %g min per run"), p.Billing.MinimumMinutes)
		}
		parts = append(parts, s)
	}
	if len(parts) > 0 {
		rep.Lines = append(rep.Lines, answer.Pick(en, "各平台计费（目录）：", "Billing per platform (catalog): ")+strings.Join(parts, answer.Pick(en, "；", "; ")))
	}
}

// retentionTie shows when platforms release stopped instances and data.
func (r *Answers) retentionTie(res *Result, rep *chat.Reply) {
	en := res.English
	for _, p := range r.MainPlatforms(res.Query) {
		for _, rt := range p.Retention {
			rep.Lines = append(rep.Lines, p.DisplayName(en)+answer.Pick(en, "：", ": ")+strings.TrimRight(rt.Text.Pick(en), "。. "))
		}
	}
}

// stockTie counts the offers available now for the GPUs named and offers
// the subscription.
func (r *Answers) stockTie(ctx context.Context, res *Result, rep *chat.Reply) {
	q := res.Query
	en := q.English
	gpu := ""
	if len(q.GPUs) > 0 {
		snap := r.Offers.Snapshot(ctx)
		rows, _ := r.offers.RowsFor(snap, q, r.Now())
		live := 0
		var where []string
		for _, row := range rows {
			if row.Available != nil && *row.Available && row.Source != "catalog" {
				live++
				if !slices.Contains(where, r.Rd.PlatformName(row.Platform, en)) {
					where = append(where, r.Rd.PlatformName(row.Platform, en))
				}
			}
		}
		gpu = q.GPU
		if live > 0 {
			rep.Lines = append(rep.Lines, fmt.Sprintf(answer.Pick(en, "现在 %s 有货的报价 %d 条：%s（问“哪家有%s”看价格和数据时间）。",
				"%s is available in %d offers right now: %s (ask “which platform has a %s” for prices and ages)."), q.GPU, live, strings.Join(where, answer.Pick(en, "、", ", ")), q.GPU))
		} else {
			rep.Lines = append(rep.Lines, fmt.Sprintf(answer.Pick(en, "现在没有看到 %s 有货的实时报价。", "No live offer shows %s available right now."), q.GPU))
		}
	}
	if r.alerts && len(q.GPUs) > 0 {
		rep.Lines = append(rep.Lines, fmt.Sprintf(answer.Pick(en, "发“%s 有货了提醒我”，有货时在本群 @你（每次变化只提醒一次）。",
			"Say “notify me when a %s is available” and I will @mention you here once it is (once per change)."), gpu))
	}
}

// cardChoice answers "用什么卡": with an LLM job, the estimate (cards that
// fit, cheapest first); with a known workload, the cards whose VRAM holds
// it at their cheapest known price; with two or more cards named, their
// figures side by side; otherwise it asks for the task. It reports whether
// it named a job (and the card list replaces the general tiers).
func (r *Answers) cardChoice(ctx context.Context, res *Result, rep *chat.Reply) bool {
	q := res.Query
	en := q.English
	if q.Model != "" || q.ParamsB > 0 {
		return r.cardChoiceEstimate(ctx, res, rep)
	}
	w := r.kb.WorkloadIn(q.Asked)
	if w == nil {
		compared := len(q.GPUs) >= 2 && r.compareCards(ctx, res, rep)
		rep.Lines = append(rep.Lines, answer.Pick(en, "什么任务？比如“微调 BERT 用什么卡”“跑 SD 出图用什么卡”“7B 推理用什么卡”“Qwen2.5-7B LoRA 用什么卡”，我按显存列出放得下的卡、最便宜的在前。",
			"What is the job? E.g. “which GPU for fine-tuning BERT”, “which GPU for SDXL images”, “which GPU for 7B inference”; I list the cards that fit, cheapest first."))
		return compared
	}
	res.Advice.Workload = w
	cards := r.workloadCards(ctx, q, w)
	res.Advice.Cards = cards
	rep.Title += answer.Pick(en, "：", ": ") + w.Name.Pick(en)
	rep.Lines = append(rep.Lines, fmt.Sprintf(answer.Pick(en, "单卡显存约 %g–%g GB。%s", "About %g–%g GB on one card. %s"),
		w.VRAMGB.Low, w.VRAMGB.High, w.Note.Pick(en)))
	r.namedCardVerdicts(q, w, rep)
	if len(cards) == 0 {
		rep.Lines = append(rep.Lines, answer.Pick(en, "没有已知价格的卡放得下。", "No card with a known price fits."))
		return true
	}
	unverified := r.cardTable(cards, en, rep)
	if w.Kind == "training" {
		rep.Lines = append(rep.Lines, answer.Pick(en, "训练按总费用比：更快的卡每小时贵，但常常是更便宜的一次训练（如 4090 对 3090）。",
			"For training compare the total: a faster card costs more per hour but is often the cheaper run (e.g. a 4090 against a 3090)."))
	}
	rep.Notes = append(rep.Notes, answer.Pick(en, "显存需求来源：", "VRAM figure from: ")+answer.SourceText(w.Source, en))
	rep.Notes = append(rep.Notes, answer.Pick(en, "“够用”：放得下最低设置；“宽裕”：放得下舒服的设置。价格是各卡已知最低的一条（实时或目录标价，见来源列）。",
		"“enough” holds the smallest setting, “comfortable” a roomy one. Each price is the lowest known for the card (live or catalog list price, see the source column)."))
	if unverified {
		rep.Notes = append(rep.Notes, render.UnverifiedPriceNote(en))
	}
	return true
}

// cardChoiceEstimate answers a card question about an LLM job with the
// estimate: the cards that fit and what the run costs, cheapest first.
func (r *Answers) cardChoiceEstimate(ctx context.Context, res *Result, rep *chat.Reply) bool {
	en := res.Query.English
	sub := estimate.Result{Query: res.Query}
	sub.Query.Intent = understand.IntentEstimate
	r.estimates.Estimate(ctx, &sub)
	res.Figures = sub.Figures
	if sub.Estimate != nil {
		rep.Title += answer.Pick(en, "：", ": ") + strings.TrimPrefix(strings.TrimPrefix(sub.Reply.Title, "估算："), "Estimate: ")
		rep.Lines = append(rep.Lines, answer.Pick(en, "放得下的卡和费用（最便宜的在前）：", "Cards that fit and what they cost (cheapest first):"))
	} else {
		rep.Lines = append(rep.Lines, sub.Reply.Title)
	}
	rep.Lines = append(rep.Lines, sub.Reply.Lines...)
	rep.Table = sub.Reply.Table
	rep.Notes = append(rep.Notes, sub.Reply.Notes...)
	return sub.Estimate != nil
}

// workloadCards are the CUDA cards whose nominal memory holds a workload
// at its smallest setting, each at its cheapest known quote, cheapest
// first (the larger card first at one price).
func (r *Answers) workloadCards(ctx context.Context, q understand.Query, w *kb.Workload) []offers.CardRow {
	method := estimator.MethodInference
	if w.Kind == "training" {
		method = estimator.MethodFull
	}
	quotes := r.Quotes(r.Offers.Snapshot(ctx), q, method, r.Now(), q.English)
	var cards []offers.CardRow
	for i := range r.Cat.GPUs {
		g := &r.Cat.GPUs[i]
		// Workload figures are in the cards' own terms ("24G 的 3090"):
		// compared with the nominal memory.
		if g.MemoryGB < w.VRAMGB.Low || !r.CudaCard(g.ID) {
			continue
		}
		row := offers.CardOf(g, quotes)
		row.Comfortable = g.MemoryGB >= w.VRAMGB.High
		if row.Platform == "" {
			continue
		}
		cards = append(cards, row)
	}
	sort.SliceStable(cards, func(i, j int) bool {
		if cards[i].PriceCNY != cards[j].PriceCNY {
			return cards[i].PriceCNY < cards[j].PriceCNY
		}
		return cards[i].MemoryGB > cards[j].MemoryGB
	})
	return cards
}

// namedCardVerdicts says, for each card the question names ("SDXL 用 3090
// 够吗"), whether it holds the workload; one named card's verdict is the
// title.
func (r *Answers) namedCardVerdicts(q understand.Query, w *kb.Workload, rep *chat.Reply) {
	en := q.English
	for _, id := range q.GPUs {
		g, ok := r.Cat.GPU(id)
		if !ok {
			continue
		}
		var verdict string
		switch {
		case g.MemoryGB >= w.VRAMGB.High:
			verdict = answer.Pick(en, "够，而且宽裕", "yes, comfortably")
		case g.MemoryGB >= w.VRAMGB.Low:
			verdict = answer.Pick(en, "够，但只够较省显存的设置", "yes, but only with memory-saving settings")
		default:
			verdict = fmt.Sprintf(answer.Pick(en, "不够（至少要约 %g GB）", "no (it needs about %g GB at least)"), w.VRAMGB.Low)
		}
		rep.Lines = append(rep.Lines, fmt.Sprintf(answer.Pick(en, "%s（%gG）：%s。", "%s (%g GiB): %s."), g.ID, g.MemoryGB, verdict))
		if len(q.GPUs) == 1 {
			rep.Title = fmt.Sprintf(answer.Pick(en, "%s 跑%s：%s。", "%s for %s: %s."), g.ID, w.Name.Pick(en), verdict)
		}
	}
}

// cardTable is the first maxCardRows cards as a table; it reports whether
// a price in it is seed-only (marked *).
func (r *Answers) cardTable(cards []offers.CardRow, en bool, rep *chat.Reply) (unverified bool) {
	t := &chat.Table{Header: answer.Picks(en, []string{"GPU", "显存（标称）", "余量", "元/卡时", "平台", "价格来源"},
		[]string{"GPU", "VRAM (nominal)", "headroom", "CNY/GPU-h", "platform", "price source"})}
	shown := cards
	if len(shown) > maxCardRows {
		shown = shown[:maxCardRows]
	}
	for _, c := range shown {
		head := answer.Pick(en, "够用", "enough")
		if c.Comfortable {
			head = answer.Pick(en, "宽裕", "comfortable")
		}
		src := render.SourceLabel(c.Source, en) + " " + c.AsOf
		if !c.Verified {
			src += "*"
			unverified = true
		}
		nominal := c.MemoryGB
		if g, ok := r.Cat.GPU(c.GPU); ok {
			nominal = g.MemoryGB
		}
		t.Rows = append(t.Rows, []string{c.GPU, fmt.Sprintf("%gG", nominal), head, c.PriceText(), r.Rd.PlatformName(c.Platform, en), src})
	}
	rep.Table = t
	return unverified
}

// maxCardRows is the most cards a card-choice table shows.
const maxCardRows = 6

// compareCards puts the named cards side by side: memory, BF16 tensor
// TFLOPS (dense), memory bandwidth and the cheapest known price.
func (r *Answers) compareCards(ctx context.Context, res *Result, rep *chat.Reply) bool {
	en := res.English
	quotes := r.Quotes(r.Offers.Snapshot(ctx), res.Query, estimator.MethodFull, r.Now(), en)
	t := &chat.Table{Header: answer.Picks(en, []string{"GPU", "显存", "BF16 TFLOPS", "带宽 GB/s", "元/卡时", "平台", "价格来源"},
		[]string{"GPU", "VRAM", "BF16 TFLOPS", "bandwidth GB/s", "CNY/GPU-h", "platform", "price source"})}
	for _, id := range res.GPUs {
		g, ok := r.Cat.GPU(id)
		if !ok {
			continue
		}
		row := offers.CardOf(g, quotes)
		res.Advice.Cards = append(res.Advice.Cards, row)
		price, plat, src := "-", "-", "-"
		if row.Platform != "" {
			price, plat, src = row.PriceText(), r.Rd.PlatformName(row.Platform, en), render.SourceLabel(row.Source, en)+" "+row.AsOf
		}
		t.Rows = append(t.Rows, []string{g.ID, fmt.Sprintf("%gG", g.MemoryGB), fmt.Sprintf("%g", g.TensorTFLOPS), fmt.Sprintf("%g", g.BandwidthGBs), price, plat, src})
	}
	if len(t.Rows) < 2 {
		return false
	}
	rep.Table = t
	rep.Lines = append(rep.Lines, answer.Pick(en, "训练看算力（TFLOPS）和总费用，LLM 推理生成看显存带宽，两者都先看显存够不够。",
		"Training follows compute (TFLOPS) and the total cost; LLM generation follows memory bandwidth; memory comes first for both."))
	rep.Notes = append(rep.Notes, answer.Pick(en, "规格来自目录（gpus.yaml）；价格是各卡已知最低的一条。", "Specs from the catalog (gpus.yaml); each price is the lowest known for the card."))
	return true
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
		for _, h := range append(append([]kb.Hit{}, m.Related...), m.Closest...) {
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
