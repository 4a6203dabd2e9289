package slots

import (
	"strings"

	"github.com/labgpu/bot/internal/understand/slots/words"
)

// What a yes/no question asks (YesNo.Kind).
const (
	// YesNoFits: is the card (or a VRAM size) enough for the job ("24G 跑
	// 7B QLoRA 够不够", "is an A6000 enough for 14b lora").
	YesNoFits = "fits"
	// YesNoWorth: is a plan or a card worth it ("3090包月值吗", "为了快一点上
	// H100值不值").
	YesNoWorth = "worth"
	// YesNoCan: can it be done within a budget or a time ("100块 7B LoRA
	// 能搞定吗", "两小时跑得完吗", "5块钱能跑一小时4090吗").
	YesNoCan = "can"
	// YesNoHave: is the card in stock ("恒源云有3090吗").
	YesNoHave = "have"
	// YesNoCheaper: is one cheaper (or dearer) than another ("恒源云3090比
	// AutoDL便宜吗", "5090 比 4090 贵很多吗").
	YesNoCheaper = "cheaper"
	// YesNoEasy: is the card easy to get ("A100 80G 周末好抢吗").
	YesNoEasy = "easy"
	// YesNoTrue: is a claim true ("AutoDL 数据盘 100G 一个月 15 块左右 是
	// 吗").
	YesNoTrue = "true"
)

// YesNo is what a yes/no question asks, so that its answer opens with the
// verdict and the figure that decides it (configs/slots/yesno.yaml).
type YesNo struct {
	// Kind is YesNoFits, YesNoWorth, YesNoCan, YesNoHave, YesNoCheaper
	// or YesNoEasy.
	Kind string `json:"kind"`
	// VRAMGB is a card size the question names instead of a card ("24G
	// 跑 7B 够不够": 24), GB; 0 when none.
	VRAMGB float64 `json:"vram_gb,omitempty"`
	// Dearer: a YesNoCheaper question asked the other way round ("5090
	// 比 4090 贵很多吗"): yes means dearer.
	Dearer bool `json:"dearer,omitempty"`
	// WithinHours is the time the job must be done in ("两小时跑得完吗" 2,
	// "一晚上" 10, "一周内" 168), hours; 0 when none.
	WithinHours float64 `json:"within_hours,omitempty"`
	// Enough: asked whether something is enough ("够不够", "够吗", "is it
	// enough"): a budget's verdict says 够 / 不够 rather than 能 / 不能.
	Enough bool `json:"enough,omitempty"`
	// Lesser: asked whether the lesser option will do ("do I need an
	// A100 or is a 4080 fine?", "two 4090s or is one enough?"): the
	// verdict is about one card, the smallest named.
	Lesser bool `json:"lesser,omitempty"`
}

// The yes/no words (configs/slots/yesno.yaml).
var (
	yesNoAsk       = words.NewExpr("yesno.ask")
	yesNoWh        = words.NewExpr("yesno.wh")
	yesNoWorth     = words.NewExpr("yesno.worth")
	yesNoCheaper   = words.NewExpr("yesno.cheaper")
	yesNoEasy      = words.NewExpr("yesno.easy")
	yesNoDearer    = words.NewExpr("yesno.dearer")
	yesNoCheap     = words.NewExpr("yesno.cheap")
	yesNoCan       = words.NewExpr("yesno.can")
	yesNoHave      = words.NewExpr("yesno.have")
	yesNoFits      = words.NewExpr("yesno.fits")
	yesNoVRAM      = words.NewExpr("yesno.vram")
	yesNoWithin    = words.NewExpr("yesno.within")
	yesNoOvernight = words.NewExpr("yesno.overnight")
	yesNoQuestion  = words.NewExpr("yesno.question")
	yesNoSaid      = words.NewExpr("yesno.said")
	yesNoOrFine    = words.NewExpr("yesno.or_fine")
	yesNoEnough    = words.NewExpr("yesno.enough")
	yesNoVRAMAsk   = words.NewExpr("yesno.vram_ask")
	yesNoCheapAsk  = words.NewExpr("yesno.cheap_ask")
	yesNoLead      = words.NewExpr("yesno.lead")
)

// yesNoKinds are the kinds in the order they are tried: the first whose
// words the question has.
var yesNoKinds = []struct {
	kind string
	expr *words.Expr
}{
	{YesNoWorth, yesNoWorth}, {YesNoCheaper, yesNoCheaper}, {YesNoEasy, yesNoEasy}, {YesNoCan, yesNoCan},
	{YesNoHave, yesNoHave}, {YesNoFits, yesNoFits}, {YesNoTrue, words.NewExpr("yesno.true")},
}

// YesNoSlots reads whether the message is a yes/no question and what it
// asks into Query.YesNo (nil when it is none), from the question part.
func (x *Extraction) YesNoSlots() {
	x.q.Question = yesNoAsk.MatchString(x.s) || yesNoWh.MatchString(x.s) || yesNoQuestion.MatchString(x.s)
	x.q.VRAMAsked = yesNoVRAMAsk.MatchString(x.s)
	x.q.CheapAsked = yesNoCheapAsk.MatchString(x.s) && !yesNoCheaper.MatchString(x.s)
	y := ReadYesNo(x.s)
	if y != nil && y.sizes() {
		y.VRAMGB = 0
		if m := yesNoVRAM.FindStringSubmatch(x.rest); m != nil {
			y.VRAMGB, _ = words.ParseNum(m[1])
		} else if x.q.SizeGB > 0 && x.q.SizeGB <= maxCardGB && len(x.q.GPUs) == 0 {
			// "24G 跑 7B 够不够": the size extractor read it as a size.
			y.VRAMGB = x.q.SizeGB
		}
	}
	x.q.YesNo = y
	x.q.YesNoAsked = y != nil || AsksYesNo(x.s)
}

// AsksYesNo reports whether folded text asks yes or no, of any kind: a
// yes/no form without a wh-word, or an English question its auxiliary
// opens (a "when" clause after it asks nothing of its own).
func AsksYesNo(s string) bool {
	if yesNoSaid.MatchString(s) || yesNoLead.MatchString(s) {
		return true
	}
	return yesNoAsk.MatchString(s) && !yesNoWh.MatchString(s)
}

// sizes reports whether the question may name a card by its memory
// ("24G 够不够"): whether it fits, or can be done.
func (y *YesNo) sizes() bool { return y.Kind == YesNoFits || y.Kind == YesNoCan }

// maxCardGB is the largest VRAM a card size in a question is read as.
const maxCardGB = 192

// ReadYesNo reads a yes/no question from folded text: nil for a message
// that asks no yes/no question (a wh-question, a statement, a command).
func ReadYesNo(s string) *YesNo {
	lesser := false
	if m := yesNoOrFine.FindStringSubmatch(s); m != nil {
		// "do I need an A100 or is a 4080 fine?": whether the second is.
		s, lesser = m[1], true
	}
	said := yesNoSaid.MatchString(s)
	if said {
		// "yes or no: 4090 enough?": the "or" asks for a verdict, not
		// between two things.
		s = yesNoSaid.ReplaceAllString(s, " ")
	}
	if !said && !yesNoAsk.MatchString(s) || yesNoWh.MatchString(s) {
		return nil
	}
	y := &YesNo{}
	for _, k := range yesNoKinds {
		if k.expr.MatchString(s) {
			y.Kind = k.kind
			break
		}
	}
	if y.Kind == "" {
		return nil
	}
	if m := yesNoVRAM.FindStringSubmatch(s); m != nil && y.sizes() {
		y.VRAMGB, _ = words.ParseNum(m[1])
	}
	y.Dearer = y.Kind == YesNoCheaper && yesNoDearer.MatchString(s) && !yesNoCheap.MatchString(s)
	y.Enough = yesNoEnough.MatchString(s)
	y.Lesser = lesser
	y.WithinHours = withinHours(s)
	if y.WithinHours > 0 && y.Kind == YesNoFits {
		// "两小时跑得完吗": a time, not the VRAM.
		y.Kind = YesNoCan
	}
	return y
}

// withinHours is the time limit a question states, hours (0: none).
func withinHours(s string) float64 {
	if m := yesNoWithin.FindStringSubmatch(s); m != nil {
		n, ok := words.ParseNum(m[1])
		unit, known := words.Number("yesno.within_unit_hours", strings.TrimSpace(m[2]))
		if ok && known && n > 0 {
			return n * unit
		}
	}
	if yesNoOvernight.MatchString(s) {
		h, _ := words.Number("yesno.overnight_hours", "night")
		return h
	}
	return 0
}
