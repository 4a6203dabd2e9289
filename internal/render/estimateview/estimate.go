// Package estimateview says the estimate answers: what an LLM job costs
// (Estimate: the cheapest run first, the VRAM, the cards that fit, at
// most five options, the assumptions; the VRAM breakdown, every option
// and the notes behind "详情"), what a job that is no language model
// costs (Workload), what a billing mode costs (Plan), and what an
// estimate question gets when it cannot be answered (AskSize,
// TooManyGPUs, Failed). Each is a render.Payload of plain values the
// answer in internal/commands/estimate found; the words are the message
// catalog's estimate.*, workload.* and plan.* keys.
package estimateview

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// maxOptionRows caps the full estimate's cost table.
const maxOptionRows = 10

// maxHiddenCostNotes caps the per-platform hidden-cost notes.
const maxHiddenCostNotes = 3

// Figures are an estimate's figures as `bot ask --format json` prints
// them: the estimate, and its main figures repeated at the top level
// (hours per GPU id: low / typical / high; the cost options, cheapest
// first). A workload estimate fills FLOPs, Hours and Options.
type Figures struct {
	Estimate      *estimator.Estimate        `json:"estimate,omitempty"`
	VRAMGB        *estimator.VRAM            `json:"vram_gb,omitempty"`
	Fits          []estimator.Fit            `json:"fits,omitempty"`
	TokensTrained float64                    `json:"tokens_trained,omitempty"`
	FLOPs         float64                    `json:"flops,omitempty"`
	Hours         map[string]estimator.Range `json:"hours,omitempty"`
	Options       []estimator.Option         `json:"options,omitempty"`
}

// EstimateFigures are the figures themselves (an Answer's).
func (f Figures) EstimateFigures() Figures { return f }

// Answer is the payload of an estimate question: an Estimate, a
// Workload, or an ask-back or refusal (whose Figures are empty).
type Answer interface {
	render.Payload
	EstimateFigures() Figures
}

// FiguresOf are an estimate's figures: the estimate, its VRAM, fits,
// tokens, FLOPs, options and, for training, the hours of each GPU that
// fits.
func FiguresOf(est *estimator.Estimate) Figures {
	f := Figures{Estimate: est, VRAMGB: &est.VRAM, Fits: est.Fits, TokensTrained: est.Tokens, FLOPs: est.FLOPs, Options: est.Options}
	if est.Method != estimator.MethodInference {
		f.Hours = map[string]estimator.Range{}
		for _, fit := range est.Fits {
			if fit.Fits {
				f.Hours[fit.GPU] = fit.Hours
			}
		}
	}
	return f
}

// Estimate is an LLM job's estimate ("7B LoRA 要多少钱") with what the
// question asked: the parser's problem lines, the model named but not in
// the catalog, the cards named, whether the question named GPUs at all,
// what would work when nothing fits (the answer runs the estimator for
// those) and the billing mode the cheapest option assumed.
type Estimate struct {
	Figures
	Lang         i18n.Lang     `json:"-"`
	Problems     []string      `json:"-"`
	UnknownModel string        `json:"-"`
	NamedGPUs    []string      `json:"-"`
	GPUsAsked    bool          `json:"-"`
	Alternatives []Alternative `json:"-"`
	// Plan is the billing mode of the cheapest option (nil when no
	// option has a price).
	Plan *PlanNote `json:"-"`
	// Period is the cheapest card over the period the question states
	// (nil: none); BudgetCNY the budget it states (0: none); USD: it asks
	// in US dollars. Each adds a line (conditionLines).
	Period    *PeriodNote `json:"-"`
	BudgetCNY float64     `json:"-"`
	// Runs is how many times the job runs when the question said so (0 or
	// 1: once): the options' costs and hours are of all of them; RunCNY
	// and RunHours are one run's (the cheapest option's).
	Runs int `json:"-"`
	// RunsPerWeek, Weeks, People: the runs were counted from a job run
	// every week ("每人每周跑一次"): that often, over Weeks (WeeksAssumed:
	// no period was said), by People members (0: one).
	RunsPerWeek  float64    `json:"-"`
	Weeks        float64    `json:"-"`
	WeeksAssumed bool       `json:"-"`
	People       int        `json:"-"`
	RunCNY       [2]float64 `json:"-"`
	RunHours     float64    `json:"-"`
	// WhyOnly: the member asked why the verdict is what it is; the short
	// form is the verdict and the figures that decided it.
	WhyOnly bool `json:"-"`
	// VRAMAsked: the question asked for the VRAM ("要多大显存"): the first
	// line states it, the price after.
	VRAMAsked bool `json:"-"`
	// SpeedAsked: of two cards named, the question asked which is faster
	// ("which is faster"): the verdict compares their hours first.
	SpeedAsked bool `json:"-"`
	USD        bool `json:"-"`
	// Scaling compares the cards asked with one of them (nil unless
	// several were asked).
	Scaling *Scaling `json:"-"`
	// Verdict answers the yes/no question asked about the job ("24G 跑
	// 7B QLoRA 够不够", "100块能搞定吗"; nil when none was asked): the
	// reply's first line.
	Verdict *Verdict `json:"verdict,omitempty"`
}

// PlanNote is the billing mode an estimate's cheapest option assumed: it
// runs Hours; Mode is "" when pay-as-you-go is the cheapest way to rent
// for them, else the plan that is cheaper on Platform, about CNY in all,
// its price's source said as Source.
type PlanNote struct {
	Hours    float64
	Platform string
	Mode     string
	CNY      float64
	Source   string
}

// AltKind is what an alternative changes about the job.
type AltKind int

// The alternatives when nothing asked for fits: the same job as QLoRA
// 4-bit, the same card in more GPUs, another card; a full fine-tune on
// the cards asked with 8-bit AdamW.
const (
	AltQLoRA AltKind = iota
	AltMoreGPUs
	AltOtherCard
	AltAdam8bit
)

// altKeys name the alternatives (AltKind).
var altKeys = [...]string{AltQLoRA: "estimate.alt.qlora", AltMoreGPUs: "estimate.alt.more_gpus", AltOtherCard: "estimate.alt.other_card", AltAdam8bit: "estimate.alt.adam_8bit"}

// Alternative is one way to run a job that does not fit: its cheapest
// known option (Option.Platform "" when no price is known) and its fit.
type Alternative struct {
	Kind   AltKind
	Option estimator.Option
	Fit    *estimator.Fit
}

// Reply is the short form with the full form (Full) behind "详情", and
// the billing mode the cheapest option assumed.
func (e Estimate) Reply(rd *render.Renderer) chat.Reply {
	fits := e.fitLines(rd)
	full := e.full(rd, fits)
	short := e.short(rd, full, fits)
	if e.WhyOnly && e.Verdict != nil {
		short = e.why(rd, full)
	}
	if lines := e.conditionLines(rd); len(lines) > 0 {
		short.Lines = append(lines, short.Lines...)
		full.Lines = append(append([]string(nil), lines...), full.Lines...)
	}
	if e.Plan != nil {
		short.Notes = append(short.Notes, e.planNote(rd))
		full.Notes = append(full.Notes, e.planNote(rd))
	}
	short.Full = &full
	return short
}

// planNote says which billing mode the estimate's cheapest option
// assumed: pay-as-you-go, or the plan that is cheaper for its hours.
func (e Estimate) planNote(rd *render.Renderer) string {
	l, p := e.Lang, e.Plan
	if p.Mode == "" {
		return l.T("estimate.plan_note.hourly", p.Hours)
	}
	return l.T("estimate.plan_note.plan", rd.PlatformName(p.Platform, l.English()), render.ModeName(p.Mode, l.English()), p.CNY, p.Source)
}

// short is the estimate's first screen: the verdict of a yes/no
// question, the cheapest run (or the named cards compared), the VRAM
// line, what fits, at most shortOptions options in a table narrow enough
// for a phone, and where the prices come from and what was assumed.
func (e Estimate) short(rd *render.Renderer, full chat.Reply, fits []fitLine) chat.Reply {
	l, est := e.Lang, e.Estimate
	rep := chat.Reply{Title: full.Title}
	head := e.verdict(rd)
	v := est.VRAM
	vramLine := l.T("estimate.short.vram", v.Total)
	if est.Method != estimator.MethodInference && est.VRAMMin < v.Total-0.05 {
		vramLine += l.T("estimate.short.vram_min", est.VRAMMin)
	}
	vramSaid := false
	switch {
	case e.Verdict == nil && e.VRAMAsked:
		// "要多大显存": the VRAM first, then the cheapest way.
		rep.Title, vramSaid = l.T("estimate.verdict.vram_first", e.shortJob(), vramLine), true
		if head != "" {
			rep.Lines = append(rep.Lines, head)
		}
	case e.Verdict != nil:
		rep.Title = e.verdictLine(rd)
		if head != "" {
			rep.Lines = append(rep.Lines, head)
		}
	case head != "":
		rep.Title = head
	}
	rep.Lines = append(rep.Lines, e.Problems...)
	if s := e.Scaling.line(l); s != "" {
		rep.Lines = append(rep.Lines, s)
	}
	if !vramSaid && (e.Verdict == nil || e.Verdict.Why != WhyVRAM) {
		rep.Lines = append(rep.Lines, vramLine+l.T("estimate.stop"))
	}
	for _, note := range []string{dpoNote(est, l), zeroNote(est, l)} {
		if note != "" {
			rep.Lines = append(rep.Lines, note)
		}
	}
	for _, f := range fits {
		switch {
		case !f.short || f.nofit && e.Verdict != nil && e.Verdict.Why == WhyVRAM:
			// The verdict already says it does not fit.
		case f.list:
			rep.Lines = append(rep.Lines, shortenList(f.text, shortListRunes, l))
		default:
			rep.Lines = append(rep.Lines, f.text)
		}
	}
	// What was assumed, and how to change it, before the options.
	rep.Lines = append(rep.Lines, shortAssumptions(est, l))
	if full.Table != nil {
		rep.Table = table(rd, est, l)
	}
	if note := optionSourcesNote(est.Options, l); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	if len(est.Options) > shortOptions {
		rep.Notes = append(rep.Notes, l.T("estimate.more_options", len(est.Options)-shortOptions))
	}
	return rep
}

// shortOptions are the options the short form's table shows;
// shortListRunes the length a list of cards is cut to there.
const (
	shortOptions   = 3
	shortListRunes = 24
)

// shortStackKeys name a stack other than the default in the short form's
// one line of assumptions.
var shortStackKeys = map[string]string{estimator.StackTuned: "estimate.stack.short_tuned", estimator.StackHF: "estimate.stack.short_hf"}

// shorten cuts a line to n runes with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// The Chinese separators a long list line is cut at: "、", "；", "，".
const (
	ideographicComma   = 0x3001
	fullwidthSemicolon = 0xFF1B
	fullwidthComma     = 0xFF0C
)

// shortenList cuts a list line to about n runes at the last separator
// ("、", "；", ", ") so that no name is cut in half: "放得下——单卡：A100
// 80GB、H100 SXM等".
func shortenList(s string, n int, l i18n.Lang) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	for i := n - 2; i > n/2; i-- {
		switch {
		case r[i] == ideographicComma || r[i] == fullwidthSemicolon || r[i] == fullwidthComma:
			return string(r[:i]) + l.T("estimate.list_cut")
		case (r[i] == ',' || r[i] == ';') && i+1 < len(r) && r[i+1] == ' ':
			return string(r[:i]) + l.T("estimate.list_cut")
		}
	}
	return shorten(s, n)
}

// verdict is the first line: the cheapest way to run the job (for
// inference, the cheapest hour), or with two cards named, which is the
// cheaper run.
func (e Estimate) verdict(rd *render.Renderer) string {
	l, est, en := e.Lang, e.Estimate, e.Lang.English()
	if len(est.Options) == 0 || est.Cheapest < 0 {
		return ""
	}
	what := e.shortJob()
	if e.UnknownModel != "" || est.Scaled {
		// A model not in the catalog, or a configuration scaled to its
		// size, is said up front.
		what = e.job()
	}
	c := est.Options[est.Cheapest]
	if est.Method == estimator.MethodInference {
		return l.T("estimate.verdict.inference", what, rd.PlatformName(c.Platform, en), c.GPU, c.GPUCount, render.Money(c.GPUCostCNY))
	}
	if len(e.NamedGPUs) >= 2 {
		if v := cardsVerdict(rd, est.Options, e.NamedGPUs, e.SpeedAsked, l); v != "" {
			return l.T("estimate.verdict.cards", what, v)
		}
	}
	return l.T("estimate.verdict.training", what, rd.PlatformName(c.Platform, en), c.GPU, c.GPUCount, render.Money(c.TotalCNY),
		render.Money(c.TotalLowCNY), render.Money(c.TotalHighCNY), c.Hours)
}

// cardsVerdict compares the cheapest option of each named card (a family
// name stands for its members): which is the cheaper run, or with speed
// asked, which is faster.
func cardsVerdict(rd *render.Renderer, options []estimator.Option, named []string, speed bool, l i18n.Lang) string {
	best := map[string]estimator.Option{}
	for _, o := range options {
		for _, n := range named {
			if o.GPU == n || slices.Contains(rd.Cat.FamilyMembers(n), o.GPU) {
				if b, ok := best[n]; !ok || o.TotalCNY < b.TotalCNY {
					best[n] = o
				}
			}
		}
	}
	if len(best) < 2 {
		return ""
	}
	var opts []estimator.Option
	for _, n := range named {
		if o, ok := best[n]; ok {
			opts = append(opts, o)
		}
	}
	if speed {
		// Which is faster: the one whose run takes fewer hours (about the
		// same within sameHours), the cost after.
		sort.SliceStable(opts, func(i, j int) bool { return opts[i].Hours < opts[j].Hours })
		a, b := opts[0], opts[1]
		key := "estimate.verdict.faster_card"
		if b.Hours <= a.Hours*sameHours {
			key = "estimate.verdict.same_speed"
		}
		return l.T(key, a.GPU, a.Hours, render.Money(a.TotalCNY), b.GPU, b.Hours, render.Money(b.TotalCNY))
	}
	sort.SliceStable(opts, func(i, j int) bool { return opts[i].TotalCNY < opts[j].TotalCNY })
	a, b := opts[0], opts[1]
	if b.TotalCNY <= a.TotalCNY*sameCost && a.Hours > b.Hours*sameHours {
		// About the same money: the faster run is the pick.
		return l.T("estimate.verdict.same_cost", b.GPU, b.Hours, a.GPU, a.Hours, render.Money(b.TotalCNY), render.Money(a.TotalCNY))
	}
	return l.T("estimate.verdict.cheaper_card", a.GPU, render.Money(a.TotalCNY), a.Hours, rd.PlatformName(a.Platform, l.English()),
		b.GPU, render.Money(b.TotalCNY), b.Hours)
}

// sameHours: two runs whose hours are within this ratio are about as
// fast.
const sameHours = 1.05

// sameCost: two runs whose totals are within this ratio cost about the
// same.
const sameCost = 1.05

// table is the short form's table, narrow enough for a phone: the first
// shortOptions options, each its platform, cards, and cost per hour
// (inference) or hours and total (training).
func table(rd *render.Renderer, est *estimator.Estimate, l i18n.Lang) *chat.Table {
	t := &chat.Table{}
	en := l.English()
	inference := est.Method == estimator.MethodInference
	if inference {
		t.Header = l.L("estimate.table.short_inference")
	} else {
		t.Header = l.L("estimate.table.short_training")
	}
	for i, o := range est.Options {
		if i == shortOptions {
			break
		}
		star := unverifiedMark(o.Verified)
		cards := fmt.Sprintf("%s×%d", o.GPU, o.GPUCount)
		if inference {
			t.Rows = append(t.Rows, []string{rd.ShortName(o.Platform, en), cards, render.Money(o.GPUCostCNY) + star})
			continue
		}
		t.Rows = append(t.Rows, []string{rd.ShortName(o.Platform, en), cards, strconv.FormatFloat(o.Hours, 'f', 1, 64), render.Money(o.TotalCNY) + star})
	}
	return t
}

// unverifiedMark is * for a price only the seed articles give.
func unverifiedMark(verified bool) string {
	if !verified {
		return render.MarkUnverified
	}
	return ""
}

// totalCell is an option's total with its range: "512* (400-650)".
func totalCell(o estimator.Option, star string) string {
	return render.Money(o.TotalCNY) + star + " (" + render.Money(o.TotalLowCNY) + "-" + render.Money(o.TotalHighCNY) + ")"
}

// optionSourcesNote says in one line where the prices of the first
// options come from and how old they are.
func optionSourcesNote(opts []estimator.Option, l i18n.Lang) string {
	live, unverified := false, false
	var dates []string
	for i, o := range opts {
		if i == shortOptions {
			break
		}
		if o.PriceSource != string(stock.SourceCatalog) {
			live = true
		}
		if !o.Verified {
			unverified = true
		}
		if !slices.Contains(dates, o.PriceAsOf) {
			dates = append(dates, o.PriceAsOf)
		}
	}
	if len(dates) == 0 {
		return "" // no option priced (the job fits no card): no price to date
	}
	mark := ""
	if unverified {
		mark = l.T("estimate.sources.unverified")
	}
	if live {
		return l.T("estimate.sources.live", strings.Join(dates, l.T("list.sep")), mark)
	}
	return l.T("estimate.sources.list", strings.Join(dates, l.T("list.sep")), mark)
}

// shortAssumptions is the assumptions in one line with the follow-ups.
func shortAssumptions(est *estimator.Estimate, l i18n.Lang) string {
	model := ""
	if est.Typical && !est.Scaled {
		// "7B" was estimated as a typical model of its size.
		model = l.T("estimate.short.typical", est.ModelID)
	}
	if est.Method == estimator.MethodInference {
		return model + l.T("estimate.short.assumed_inference", est.SeqLen, est.Batch, est.Bits)
	}
	stack := ""
	if est.Stack == estimator.StackTuned || est.Stack == estimator.StackHF {
		// The default stack goes unsaid here (详情 names it).
		stack = l.T("list.sep") + spaceAfterLatin(l.T(keyOr(shortStackKeys, est.Stack, "estimate.stack.short_hf")), l)
	}
	return model + l.T("estimate.short.assumed_training", est.SeqLen, est.Batch, dataText(est.Job, false, l), est.Epochs, stack)
}

// dataText is the job's data: "5万条×512 tokens" ("5万 条 × 512 tokens"
// spaced), or its tokens when no sample count is given.
func dataText(j estimator.Job, spaced bool, l i18n.Lang) string {
	if j.Samples == 0 {
		return l.T("estimate.data.tokens", HumanNum(j.Tokens, l))
	}
	if spaced {
		return l.T("estimate.data.samples_spaced", HumanNum(float64(j.Samples), l), j.TokensPerSample)
	}
	return l.T("estimate.data.samples", HumanNum(float64(j.Samples), l), j.TokensPerSample)
}

// job names the job: "7B 模型（按典型配置 Qwen2.5-7B） LoRA".
func (e Estimate) job() string {
	l, est := e.Lang, e.Estimate
	model := est.ModelID
	switch {
	case est.Scaled:
		model = l.T("estimate.model.scaled", est.ParamsB, est.ModelID, est.Layers)
	case est.Typical:
		model = l.T("estimate.model.typical", est.ParamsB, est.ModelID)
	}
	if e.UnknownModel != "" {
		model += l.T("estimate.model.unknown", e.UnknownModel)
	}
	return l.T("estimate.job", model, methodName(est, l))
}

// methodName names the estimate's method, DPO around it ("DPO（LoRA）").
func methodName(est *estimator.Estimate, l i18n.Lang) string {
	m := render.MethodName(est.Method, est.Bits, l.English())
	if est.Job.DPO {
		return l.T("estimate.method.dpo", m)
	}
	return m
}

// zeroNote says what the ZeRO stage asked shards ("" when none was
// asked).
func zeroNote(est *estimator.Estimate, l i18n.Lang) string {
	switch est.Job.ZeRO {
	case 2:
		return l.T("estimate.short.zero_note", 2, l.T("estimate.short.zero2_parts"))
	case 3:
		return l.T("estimate.short.zero_note", 3, l.T("estimate.short.zero3_parts"))
	}
	return ""
}

// dpoNote says how a DPO job was costed ("" for any other job).
func dpoNote(est *estimator.Estimate, l i18n.Lang) string {
	if !est.Job.DPO {
		return ""
	}
	ref := l.T("estimate.short.dpo_ref_lora")
	if est.Method == estimator.MethodFull {
		ref = l.T("estimate.short.dpo_ref_full")
	}
	return l.T("estimate.short.dpo_note", est.Job.Batch, ref)
}

// Full is the full estimate: the VRAM breakdown, the cards that fit, the
// training volume, the options table (maxOptionRows) with the cheapest
// and faster-and-cheaper lines, then notes on hidden costs, sharding and
// assumptions.
func (e Estimate) Full(rd *render.Renderer) chat.Reply { return e.full(rd, e.fitLines(rd)) }

// full is Full with the lines on the cards that fit.
func (e Estimate) full(rd *render.Renderer, fits []fitLine) chat.Reply {
	l, est := e.Lang, e.Estimate
	rep := chat.Reply{Title: l.T("estimate.title", e.job())}
	rep.Lines = append(rep.Lines, e.Problems...)
	rep.Lines = append(rep.Lines, vramLine(est, l))
	for _, f := range fits {
		rep.Lines = append(rep.Lines, f.text)
	}
	if est.Method != estimator.MethodInference {
		rep.Lines = append(rep.Lines, l.T("estimate.training", HumanNum(est.Tokens, l), est.Epochs, est.FLOPs))
	}
	shown := est.Options
	if len(shown) > maxOptionRows {
		shown = shown[:maxOptionRows]
	}
	unknownDisk := false
	if len(shown) > 0 {
		rep.Table, unknownDisk = optionsTable(rd, est.Method == estimator.MethodInference, shown, l)
		if est.Method != estimator.MethodInference {
			rep.Lines = optionLines(rd, rep.Lines, est, l)
		}
	} else if AnyFits(est) {
		rep.Notes = append(rep.Notes, l.T("estimate.no_price"))
	}
	rep.Notes = append(rep.Notes, hiddenCostNotes(rd, shown, l)...)
	if unverifiedOptions(shown) {
		rep.Notes = append(rep.Notes, render.UnverifiedPriceNote(l.English()))
	}
	if unknownDisk {
		rep.Notes = append(rep.Notes, l.T("estimate.disk_unknown"))
	}
	rep.Notes = append(rep.Notes, estimateNotes(est, shown, l)...)
	return rep
}

// optionLines appends the training lines under the options: the cheapest
// (and fastest), a faster card that is the cheaper job, and a warning when
// the job runs for over a month.
func optionLines(rd *render.Renderer, lines []string, est *estimator.Estimate, l i18n.Lang) []string {
	lines = append(lines, cheapestLine(rd, est, l))
	if f := fasterCheaperLine(rd, est, l); f != "" {
		lines = append(lines, f)
	}
	if h := est.Options[est.Cheapest].Hours; h > 24*30 {
		lines = append(lines, l.T("estimate.long_job", h/24))
	}
	return lines
}

// vramLine is the VRAM one card needs, by part (GB = 1e9 bytes).
func vramLine(est *estimator.Estimate, l i18n.Lang) string {
	v := est.VRAM
	if est.Method == estimator.MethodInference {
		return l.T("estimate.vram.inference", v.Total, v.Weights, v.Activations, v.Overhead)
	}
	line := l.T("estimate.vram.training", v.Total, v.Weights, v.Gradients, v.Optimizer, v.Activations, v.Logits, v.Overhead)
	if est.VRAMMin < v.Total-0.05 {
		line += l.T("estimate.vram.min", est.VRAMMin)
	}
	return line
}

// optionsTable is the options as a table (inference: the cost per hour;
// training: hours, GPU, disk and total with its range); it reports
// whether a disk price was unknown.
func optionsTable(rd *render.Renderer, inference bool, shown []estimator.Option, l i18n.Lang) (*chat.Table, bool) {
	t := &chat.Table{}
	en := l.English()
	if inference {
		t.Header = l.L("estimate.table.inference")
	} else {
		t.Header = l.L("estimate.table.training")
	}
	unknownDisk := false
	for _, o := range shown {
		src := render.SourceLabel(o.PriceSource, en) + " " + o.PriceAsOf + unverifiedMark(o.Verified)
		price := strconv.FormatFloat(o.PriceCNY, 'f', 2, 64)
		if o.PriceHighCNY > o.PriceLowCNY {
			price = fmt.Sprintf("~%.2f (%.2f-%.2f)", o.PriceCNY, o.PriceLowCNY, o.PriceHighCNY)
		}
		if inference {
			t.Rows = append(t.Rows, []string{rd.PlatformName(o.Platform, en), o.GPU, strconv.Itoa(o.GPUCount), price, render.Money(o.GPUCostCNY), src})
			continue
		}
		disk := l.T("estimate.table.disk_unknown")
		if o.StorageCostCNY != nil {
			disk = render.Money(*o.StorageCostCNY)
		} else {
			unknownDisk = true
		}
		t.Rows = append(t.Rows, []string{rd.PlatformName(o.Platform, en), o.GPU, strconv.Itoa(o.GPUCount), price, strconv.FormatFloat(o.Hours, 'f', 1, 64),
			render.Money(o.GPUCostCNY), disk, totalCell(o, ""), src})
	}
	return t, unknownDisk
}

// Multi-GPU training's scaling efficiency within one machine, in percent
// (billing's scaling for three GPUs and more: low, high, typical).
const (
	scalingLowPct     = 70
	scalingHighPct    = 92
	scalingTypicalPct = 80
)

// estimateNotes state how the estimate was made: sharding, the assumed
// job, and what the hours and totals include.
func estimateNotes(est *estimator.Estimate, shown []estimator.Option, l i18n.Lang) []string {
	var notes []string
	if est.Sharded && est.Method == estimator.MethodInference {
		notes = append(notes, l.T("estimate.notes.sharded_inference"))
	} else if est.Sharded {
		notes = append(notes, l.T("estimate.notes.sharded_training", scalingLowPct, scalingHighPct, scalingTypicalPct))
	}
	notes = append(notes, assumptionLine(est, l))
	if est.Method != estimator.MethodInference {
		notes = append(notes, stackNote(est, l), tokenNote(est, l))
	}
	if est.Method == estimator.MethodInference {
		notes = append(notes, l.T("estimate.notes.inference_cost", est.DiskGB))
	} else if len(shown) > 0 {
		lo, hi := mfuSpan(est, shown)
		notes = append(notes, l.T("estimate.notes.hours", estimator.SetupHours*60, lo, hi, est.DiskGB))
	}
	return notes
}

// fitLine is a line on the cards that fit, and whether the short form
// shows it too.
type fitLine struct {
	text  string
	short bool
	// list: a list of cards, cut short in the short form; nofit: a line
	// saying the cards asked do not hold the job.
	list, nofit bool
}

// fitLines list the GPUs that fit, grouped by layout, and those that do
// not; when none fits, what would work instead. The short form shows them
// all but, in English, the lines that no card or none asked for holds
// the job (as the answers have always read).
func (e Estimate) fitLines(rd *render.Renderer) []fitLine {
	l, est := e.Lang, e.Estimate
	var lines []fitLine
	fit, nofit := fitGroups(est, e.GPUsAsked, l)
	if len(fit) > 0 {
		lines = append(lines, fitLine{text: l.T("estimate.fit.fits", strings.Join(fit, l.T("estimate.sep"))), short: true, list: true})
		if len(nofit) > 0 && e.GPUsAsked {
			lines = append(lines, fitLine{text: l.T("estimate.fit.nofit", strings.Join(nofit, l.T("list.sep"))), short: true, nofit: true})
		}
		return lines
	}
	switch {
	case est.Job.GPUCount > 0:
		lines = append(lines, fitLine{text: l.T("estimate.fit.not_on", est.Job.GPUCount, strings.Join(est.Job.GPUs, "/")), short: true, nofit: true})
	case !e.GPUsAsked:
		lines = append(lines, fitLine{text: l.T("estimate.fit.no_card"), short: !l.English()})
	default:
		lines = append(lines, fitLine{text: l.T("estimate.fit.none_asked"), short: !l.English(), nofit: true})
	}
	if alt := alternativesLine(rd, e.Alternatives, l); alt != "" {
		lines = append(lines, fitLine{text: alt, short: true})
	}
	return lines
}

// layoutKey is a fit's layout: GPUs and micro-batch (0: the full batch).
type layoutKey struct{ n, mb int }

// label names a layout: "单卡", "2 卡（batch 4+梯度累积）".
func (k layoutKey) label(l i18n.Lang) string {
	label := l.T("estimate.layout.one")
	if k.n != 1 {
		label = l.T("estimate.layout.many", k.n)
	}
	if k.mb > 0 {
		label += l.T("estimate.layout.micro_batch", k.mb)
	}
	return label
}

// fitGroups lists the GPUs that fit, one entry per layout ("单卡：A100
// 80GB、H100 SXM"), and those that do not.
func fitGroups(est *estimator.Estimate, gpusAsked bool, l i18n.Lang) (fit, nofit []string) {
	// Chat answers list the cards someone rents out (a price is known);
	// the JSON has every GPU.
	rented := map[string]bool{}
	for _, o := range est.Options {
		rented[o.GPU] = true
	}
	var order []layoutKey
	groups := map[layoutKey][]string{}
	extraFit := 0
	for _, f := range est.Fits {
		if !f.Fits {
			nofit = append(nofit, f.GPU)
			continue
		}
		if len(rented) > 0 && !rented[f.GPU] && !gpusAsked {
			extraFit++
			continue
		}
		k := layoutKey{f.GPUCount, f.MicroBatch}
		if est.Method == estimator.MethodInference || f.MicroBatch == est.Batch {
			k.mb = 0
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f.GPU)
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].n != order[j].n {
			return order[i].n < order[j].n
		}
		a, b := order[i].mb, order[j].mb
		if (a == 0) != (b == 0) {
			return a == 0
		}
		return a > b
	})
	for _, k := range order {
		fit = append(fit, l.T("estimate.fit.group", k.label(l), strings.Join(groups[k], l.T("list.sep"))))
	}
	if extraFit > 0 {
		fit = append(fit, l.T("estimate.fit.unpriced", extraFit))
	}
	return fit, nofit
}

// alternativesLine says what would work when nothing asked for fits, each
// with its cheapest known cost ("" when there is no alternative).
func alternativesLine(rd *render.Renderer, alts []Alternative, l i18n.Lang) string {
	var tries []string
	for _, a := range alts {
		label, o, f := l.T(altKeys[a.Kind]), a.Option, a.Fit
		if o.Platform == "" {
			tries = append(tries, l.T("estimate.alt.unpriced", label, f.GPU, f.GPUCount, f.VRAMPerGPU))
			continue
		}
		tries = append(tries, l.T("estimate.alt.priced", label, rd.PlatformName(o.Platform, l.English()), o.GPU, o.GPUCount, render.Money(o.TotalCNY), o.Hours))
	}
	if len(tries) == 0 {
		return ""
	}
	return l.T("estimate.alt.line", strings.Join(tries, l.T("estimate.sep")))
}

// cheapestLine names the cheapest option and, when another is faster,
// the fastest.
func cheapestLine(rd *render.Renderer, est *estimator.Estimate, l i18n.Lang) string {
	en := l.English()
	c, f := est.Options[est.Cheapest], est.Options[est.Fastest]
	if est.Cheapest == est.Fastest || f.Hours >= c.Hours {
		return l.T("estimate.cheapest.both", rd.PlatformName(c.Platform, en), c.GPU, c.GPUCount, render.Money(c.TotalCNY), unverifiedMark(c.Verified), c.Hours)
	}
	return l.T("estimate.cheapest.each",
		rd.PlatformName(c.Platform, en), c.GPU, c.GPUCount, render.Money(c.TotalCNY), unverifiedMark(c.Verified), c.Hours,
		rd.PlatformName(f.Platform, en), f.GPU, f.GPUCount, f.Hours, render.Money(f.TotalCNY), unverifiedMark(f.Verified))
}

// mfuSpan is the lowest and highest MFU behind the rows shown.
func mfuSpan(est *estimator.Estimate, shown []estimator.Option) (lo, hi float64) {
	in := map[string]bool{}
	for _, o := range shown {
		in[o.GPU] = true
	}
	lo, hi = math.Inf(1), 0
	for _, f := range est.Fits {
		if f.Fits && (len(in) == 0 || in[f.GPU]) && f.MFU.High > 0 {
			lo, hi = math.Min(lo, f.MFU.Low), math.Max(hi, f.MFU.High)
		}
	}
	if hi == 0 {
		return 0, 0
	}
	return lo, hi
}

func unverifiedOptions(os []estimator.Option) bool {
	for _, o := range os {
		if !o.Verified {
			return true
		}
	}
	return false
}

// assumptionLine states the assumptions and how to change them.
func assumptionLine(est *estimator.Estimate, l i18n.Lang) string {
	if est.Method == estimator.MethodInference {
		return l.T("estimate.assumed.inference", est.SeqLen, est.Batch, est.Bits)
	}
	parts := append(jobParts(est, l), l.T("estimate.assumed.data", dataText(est.Job, true, l)), l.T("estimate.assumed.epochs", est.Epochs))
	return l.T("estimate.assumed.training", strings.Join(parts, l.T("list.sep")))
}

// loraTargetKeys and optimizerKeys name the job's LoRA targets and
// optimizer (billing's TargetsAll, OptimizerAdamW8bit …).
var (
	loraTargetKeys = map[string]string{estimator.TargetsAll: "estimate.lora_targets.all", estimator.TargetsQV: "estimate.lora_targets.qv",
		estimator.TargetsAttention: "estimate.lora_targets.attn"}
	optimizerKeys = map[string]string{estimator.OptimizerAdamW8bit: "estimate.optimizer.adamw8bit", estimator.OptimizerPureBF16: "estimate.optimizer.bf16"}
)

// keyOr is m's key for k, or fallback's.
func keyOr(m map[string]string, k, fallback string) string {
	if key, ok := m[k]; ok {
		return key
	}
	return fallback
}

// jobParts are the training settings assumed: seq, batch, checkpointing,
// attention, LoRA rank, optimizer and sharding.
func jobParts(est *estimator.Estimate, l i18n.Lang) []string {
	j := est.Job
	ck := l.T("estimate.assumed.ckpt_on")
	if j.NoGradCkpt {
		ck = l.T("estimate.assumed.ckpt_off")
	}
	parts := []string{fmt.Sprintf("seq %d", est.SeqLen), l.T("estimate.assumed.batch", est.Batch), ck}
	switch {
	case j.NoFlashAttn && est.Stack != estimator.StackHF:
		parts = append(parts, l.T("estimate.assumed.no_flash"))
	case est.Stack == estimator.StackFA2:
		parts = append(parts, l.T("estimate.assumed.fa2"))
	default:
		parts = append(parts, stackName(est.Stack, l))
	}
	if est.LoRARank > 0 {
		targets := l.T(keyOr(loraTargetKeys, j.LoRATargets, "estimate.lora_targets.all"))
		parts = append(parts, l.T("estimate.assumed.lora", est.LoRARank, targets))
	}
	if est.Method == estimator.MethodFull {
		parts = append(parts, l.T(keyOr(optimizerKeys, j.Optimizer, "estimate.optimizer.mixed")))
	}
	if est.Sharded {
		if j.ZeRO == 2 {
			parts = append(parts, "ZeRO-2")
		} else {
			parts = append(parts, "ZeRO-3")
		}
	}
	return parts
}

// hiddenCostNotes names the storage and retention traps of the platforms
// in the rows shown (at most maxHiddenCostNotes platforms).
func hiddenCostNotes(rd *render.Renderer, shown []estimator.Option, l i18n.Lang) []string {
	var notes []string
	seen := map[string]bool{}
	for _, o := range shown {
		if seen[o.Platform] || len(notes) >= maxHiddenCostNotes {
			continue
		}
		seen[o.Platform] = true
		if h := rd.HiddenCostNote(o.Platform, l.English()); h != "" {
			notes = append(notes, h)
		}
	}
	return notes
}

// numUnits are the sizes of the units of a large count each language
// names (estimate.num_units): 1e12 "万亿", 1e8 "亿", 1e4 "万"; 1e9 "B",
// 1e6 "M", 1e3 "k".
var numUnits = [2][3]float64{{1e12, 1e8, 1e4}, {1e9, 1e6, 1e3}}

// HumanNum formats 50000 as "5万" (or "50k" in English), 1.5e8 as "1.5亿".
func HumanNum(x float64, l i18n.Lang) string {
	sizes := numUnits[0]
	if l.English() {
		if x >= 1e12 {
			return fmt.Sprintf("%.3g", x)
		}
		sizes = numUnits[1]
	}
	names := l.L("estimate.num_units")
	for i, size := range sizes {
		if x >= size && i < len(names) {
			return render.TrimF(x/size) + names[i]
		}
	}
	return render.TrimF(x)
}

// fasterCheaperLine points out, on the cheapest option's platform, a faster
// card that is also the cheaper job (the seeds' 3090 vs 4090 example), at
// typical speed.
func fasterCheaperLine(rd *render.Renderer, est *estimator.Estimate, l i18n.Lang) string {
	if est.Cheapest < 0 {
		return ""
	}
	plat := est.Options[est.Cheapest].Platform
	var best [2]estimator.Option
	saving := 0.0
	for _, fast := range est.Options {
		for _, slow := range est.Options {
			if fast.Platform != plat || slow.Platform != plat || fast.GPU == slow.GPU {
				continue
			}
			if fast.Hours < slow.Hours && fast.PriceCNY*float64(fast.GPUCount) > slow.PriceCNY*float64(slow.GPUCount) &&
				fast.TotalCNY < slow.TotalCNY && slow.TotalCNY-fast.TotalCNY > saving {
				best, saving = [2]estimator.Option{fast, slow}, slow.TotalCNY-fast.TotalCNY
			}
		}
	}
	if saving == 0 {
		return ""
	}
	f, sl := best[0], best[1]
	return l.T("estimate.faster_cheaper", rd.PlatformName(plat, l.English()), f.GPU, f.GPUCount, f.PriceCNY, f.Hours, render.Money(f.TotalCNY),
		sl.GPU, sl.GPUCount, sl.PriceCNY, sl.Hours, render.Money(sl.TotalCNY), RatioText(fitRatio(est, f, sl)), render.Money(saving))
}

// AnyFits reports whether the job fits on any GPU.
func AnyFits(est *estimator.Estimate) bool {
	for _, f := range est.Fits {
		if f.Fits {
			return true
		}
	}
	return false
}

// why is the short form of "为什么不够" after a verdict: the verdict line
// and what decided it — the VRAM one card needs by part against the
// card's, else the run the verdict weighed (its cost and hours) — with
// the rest behind "详情".
func (e Estimate) why(rd *render.Renderer, full chat.Reply) chat.Reply {
	rep := chat.Reply{Title: e.verdictLine(rd)}
	if e.Verdict.Why == WhyVRAM {
		rep.Lines = append(rep.Lines, vramLine(e.Estimate, e.Lang)+e.Lang.T("estimate.stop"))
	}
	if head := e.verdict(rd); head != "" && e.Verdict.Why != WhyVRAM {
		rep.Lines = append(rep.Lines, head)
	}
	rep.Lines = append(rep.Lines, shortAssumptions(e.Estimate, e.Lang))
	return rep
}
