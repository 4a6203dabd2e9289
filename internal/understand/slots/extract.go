package slots

import (
	"sort"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/textgate"
	"github.com/labgpu/bot/internal/understand/slots/language"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// Extraction is one message on its way through the slot extractors. Each
// extractor reads rest (the folded question with the spans earlier
// extractors used blanked out, so "4090" in a GPU name is not read again
// as a price), fills slots of q and marks what it used.
type Extraction struct {
	cat *catalog.Catalog
	q   *Query
	// s is the folded question part (see questionPart); rest is s with
	// used spans replaced by spaces (same byte offsets); whole is all of
	// the message folded (catalog.Fold of Query.Asked), which the
	// finishers of the advice, fact-check and availability slots read.
	s, rest, whole string
	// marks are the spans the scorer sees as placeholders ("§gpu").
	marks []mark
	// tags are slotTags of the extracted slots, computed once (tagged).
	tags   []string
	tagged bool
	// cut: the message was longer than MaxQuestion, and s holds only its
	// first and last parts.
	cut bool
	// spanAt is where in s the span of Query.SpanDays was read (nil:
	// none), usdAt where an amount in US dollars was (the conditions
	// read them: ConditionSlots).
	spanAt, usdAt []int
	// budgetPerCard: the budget read was said per card ("每张预算1000");
	// readBudgetPerCard multiplies it by the cards once they are counted.
	budgetPerCard bool
}

// Cut reports whether the message was longer than MaxQuestion, so that
// the extractors read only its first and last parts (a registration's
// note may then miss its middle).
func (x *Extraction) Cut() bool { return x.cut }

// Query is the slots found (the pipeline adds the intent and workload).
func (x *Extraction) Query() *Query { return x.q }

// Folded is the folded question part the extractors read (see
// MaxQuestion).
func (x *Extraction) Folded() string { return x.s }

// Rest is Folded with the spans the extractors used blanked out (same
// byte offsets): what no slot explains.
func (x *Extraction) Rest() string { return x.rest }

// SlotTags are the scorer's slot features of this extraction, computed
// once: the scorer and the rules both read them.
func (x *Extraction) SlotTags() []string {
	if !x.tagged {
		x.tags, x.tagged = slotTags(x.q, x.s), true
	}
	return x.tags
}

type mark struct {
	start, end int
	token      string
}

// Placeholders the scorer sees instead of names and figures, so that it
// learns "§gpu 有货吗" once for every card.
const (
	phGPU      = "§gpu"
	phPlatform = "§plat"
	phModel    = "§model"
	phMoney    = "§money"
	phParams   = "§params"
	phSize     = "§size"
	phMode     = "§mode"
)

// use blanks [a, b) of rest and, with a token, shows it to the scorer as
// that placeholder.
func (x *Extraction) use(a, b int, token string) {
	x.rest = blank(x.rest, a, b)
	if token != "" {
		x.marks = append(x.marks, mark{a, b, token})
	}
}

// ScorerText is the folded question part with the names and figures the
// extractors found replaced by their placeholders ("§gpu 有货吗"), what the
// intent scorer reads (an overlapping later mark is dropped).
func (x *Extraction) ScorerText() string {
	ms := append([]mark(nil), x.marks...)
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].start < ms[j].start })
	var b strings.Builder
	at := 0
	for _, m := range ms {
		if m.start < at {
			continue
		}
		b.WriteString(x.s[at:m.start])
		b.WriteString(" " + m.token + " ")
		at = m.end
	}
	b.WriteString(x.s[at:])
	return b.String()
}

// Extractors run in this order: names first (their sizes and numbers must
// not be read as prices or counts), then money, then the job's numbers,
// then words.
var extractors = []func(*Extraction){
	extractNames, extractGPUCount, extractPeople, extractMoney, extractSeqAndSample, extractDataSize, extractWorkload,
	extractBatchAndSwitches, extractMethod, extractParams, extractUsage, extractBillingMode, extractPeriod,
	extractSize, extractDiskRef,
}

// Extract fills the slots of a question. It never panics; English says
// whether the answer is in English (see AnswerEnglish). The returned
// Extraction keeps what the scorer and the intent patterns read.
func Extract(c *catalog.Catalog, text string, chatEnglish bool) *Extraction {
	whole := catalog.Fold(text)
	s := language.DropFrames(strings.ToValidUTF8(whole, " "))
	cut := len(s) > MaxQuestion
	s = correctNames(c, fixDigitTypos(questionPart(s)))
	q := &Query{Asked: text, CJK: language.HasCJK(text)}
	var said bool
	q.English, said = language.AnswerLanguage(text, chatEnglish)
	q.Langless = !said
	x := &Extraction{cat: c, q: q, whole: whole, s: s, rest: s, cut: cut}
	if strings.TrimSpace(s) == "" {
		return x
	}
	for _, f := range extractors {
		f(x)
	}
	if !q.English && language.HasCJK(s) && !language.HasCJK(x.rest) && language.EnglishChatLine(x.rest) {
		// Chinese only inside names ("how much is a 4090 on 恒源云"): the
		// words around them are English.
		q.English, q.Langless = true, false
	}
	q.SwitchTo = reSwitch.MatchString(s) && !words.ContainsAny(s, kwStockWord.List())
	q.OnlyParams = onlyParams(x)
	q.AboutMute = reMuteWord.MatchString(s)
	q.Choice = choiceOf(s)
	followUpSlots(x)
	return x
}

// reDigitTypo is a card number typed with a letter o for a zero ("4o90",
// "3o90", "5o9o", "a1oo", "h8oo").
var reDigitTypo = textgate.MustCompile(`(?:^|[^a-z0-9])(?:[1-9][0o][0-9o]0|[abhv][1-9][0o][0o])(?:[^a-z0-9]|$)`)

// fixDigitTypos turns the o of "4o90" into 0, keeping byte offsets.
func fixDigitTypos(s string) string {
	locs := reDigitTypo.FindAllStringIndex(s, -1)
	if locs == nil {
		return s
	}
	b := []byte(s)
	for _, l := range locs {
		for i := l[0]; i < l[1]; i++ {
			if b[i] == 'o' && i > l[0] && b[i-1] >= '0' && b[i-1] <= '9' {
				b[i] = '0'
			} else if b[i] == 'o' && i+1 < l[1] && b[i+1] >= '0' && b[i+1] <= '9' {
				b[i] = '0'
			}
		}
	}
	return string(b)
}

// mult is what a count's or size's unit multiplies it by ("万" 1e4, "k"
// 1e3, "b" 1e9: numbers.multipliers), 1 for none.
func mult(unit string) float64 {
	if v, ok := words.Number("numbers.multipliers", unit); ok {
		return v
	}
	return 1
}

// englishNumber is an English number word ("two", "a couple of":
// numbers.english).
func englishNumber(w string) (float64, bool) { return words.Number("numbers.english", w) }

// isHalf reports whether w is a word for half ("半": numbers.half);
// halfIn is the half a text has ("两半": 0.5).
func isHalf(w string) bool {
	_, ok := words.Number("numbers.half", w)
	return ok
}

func halfIn(s string) (float64, bool) {
	for w, v := range words.Numbers("numbers.half") {
		if strings.Contains(s, w) {
			return v, true
		}
	}
	return 0, false
}

// blank replaces the byte span [a,b) of s with spaces, keeping offsets.
func blank(s string, a, b int) string {
	return s[:a] + strings.Repeat(" ", b-a) + s[b:]
}

// MaxQuestion is how much of a long message the slot extractors read,
// bytes: the first and last halves of this. A longer message is a paste (a
// traceback, a log) with the question before or after it; the advice
// matcher reads all of it and the scorer scorer.MaxText of it.
const MaxQuestion = 320

// questionPart is the text the extractors read (see MaxQuestion).
func questionPart(text string) string {
	if len(text) <= MaxQuestion {
		return text
	}
	head := strings.ToValidUTF8(text[:MaxQuestion/2], "")
	tail := strings.ToValidUTF8(text[len(text)-MaxQuestion/2:], "")
	return head + "\n" + tail
}

// slotTags are the scorer's features for slots: which kinds were found
// and how many.
func slotTags(q *Query, s string) []string {
	var tags []string
	add := func(cond bool, tag string) {
		if cond {
			tags = append(tags, tag)
		}
	}
	add(len(q.NamedGPUs) >= 2, "two_gpus")
	add(len(q.Platforms) >= 2, "two_platforms")
	add(q.Model != "" || q.ParamsB > 0 || q.ModelText != "", "job")
	add(q.Method != "", "method")
	add(q.BillingMode != "" && q.BillingMode != ModeHourly, "mode")
	add(q.MaxPriceCNY > 0, "ceiling")
	add(q.Period != "", "period")
	add(q.SizeGB != 0, "size")
	add(q.DiskRef != "", "disk")
	add(q.Workload != "", "workload")
	add(strings.Count(strings.TrimSpace(q.Asked), "\n") >= 2, "paste")
	add(language.ErrorLine(s), "error_line")
	add(reOffWords.MatchString(s), "off")
	add(reOnWords.MatchString(s), "on")
	domain := len(q.GPUs) > 0 || len(q.Platforms) > 0 || q.Model != "" || q.ParamsB > 0 || q.MaxPriceCNY > 0 || q.PriceCNY > 0 || q.SizeGB != 0 || reDomain.MatchString(s)
	add(!domain, "no_domain")
	if n := len([]rune(strings.TrimSpace(s))); n <= 6 {
		tags = append(tags, "short")
	}
	return tags
}

var (
	// reOffWords and reOnWords say which way a switch goes ("关掉周报",
	// "digest on", "实例又开机了").
	reOffWords = words.NewExpr("extract.off_words")
	reOnWords  = words.NewExpr("extract.on_words")
	// reDomain are words of the bot's world: cards, rental, training,
	// errors, storage, alerts; a message with none (and no name or figure)
	// is small talk or outside what the bot does.
	reDomain = words.NewExpr("extract.domain")
)
