package understand

import (
	"math"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/scorer"
	"github.com/labgpu/bot/internal/understand/slots"
	"github.com/labgpu/bot/internal/understand/slots/language"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// Understanding a message is a small pipeline (Understand):
//
//  1. extract: the slot extractors (package slots) fill the slots (GPUs,
//     platforms, money, sizes, the job, billing mode, period …) and mark
//     names and figures as placeholders for the scorer;
//  2. patterns: an intent whose high-precision pattern matches is taken
//     outright (explicit commands such as "登记存储 …", "取消全部订阅");
//  3. score: the naive Bayes scorer, trained on the corpus, rates every
//     intent and every knowledge-base topic; the knowledge base's own
//     matcher adds its evidence for the topics (a pasted error);
//  4. decide: the best reading when it is clear enough, the two likeliest
//     readings to ask back when it is not;
//  5. finish: the chosen intent's own slots (mute duration, disk note …),
//     read by the slot package's finishers.

// Decision thresholds on the scorer's calibrated posteriors, chosen on
// the corpus's k-fold run (TestCorpus prints the figures): a reading of
// Accept or more is answered; below it, one with a lead of Lead over the
// runner-up still is; otherwise the bot asks back.
// A message whose best reading is "outside what the bot does" at
// OutOfScope or more gets that answer instead of an ask-back. An advice
// question whose best topic has less than TopicAccept of advice's
// probability gets "I don't know this one" with the closest topics.
const (
	Accept      = 0.5
	Lead        = 0.3
	OutOfScope  = 0.4
	TopicAccept = 0.3
)

// adviceWeight scales the knowledge-base matcher's raw score (the sum of
// its term weights: 1 for a printed error) into log-odds for its topic.
const adviceWeight = 14.0

// topicLabel is the scorer's label for a knowledge-base topic.
func topicLabel(id string) string { return IntentAdvice + "/" + id }

// Understander turns text into a Query. Build it with NewUnderstander; it
// is read-only and safe for concurrent use.
type Understander struct {
	cat  *catalog.Catalog
	base *advice.Base
	in   *Intents
	// model rates every intent and every knowledge-base topic (labels
	// "stock", "advice/cuda-oom" …).
	model  *scorer.Model
	chatEn bool
	kbW    float64
	// work finds the workload estimator's names (WithWorkloads; nil:
	// none).
	work slots.WorkloadNames
}

// WithWorkloads is u finding the workload estimator's model and dataset
// names (workload.Data) in estimate, advice and ask-back questions
// (Query.WorkloadModel, WorkloadDataset). u itself is unchanged: the
// copy shares its trained scorer.
func (u *Understander) WithWorkloads(names slots.WorkloadNames) *Understander {
	c := *u
	c.work = names
	return &c
}

// UnderstanderOptions tune NewUnderstander.
type UnderstanderOptions struct {
	// ChatEnglish answers bare pastes in English (the chat's language).
	ChatEnglish bool
	// Exclude leaves these phrasings out of training (the corpus test's
	// held-out fold).
	Exclude map[string]bool
	// Scorer tunes the naive Bayes model.
	Scorer scorer.Options
	// AdviceWeight overrides adviceWeight (tests tune it).
	AdviceWeight float64
}

// NewUnderstander trains the scorer on the intents' examples and keywords
// and on the knowledge base's topics (their examples in advice.yaml and
// their phrasings in configs/intents). base may be nil.
func NewUnderstander(cat *catalog.Catalog, base *advice.Base, in *Intents, o UnderstanderOptions) *Understander {
	u := &Understander{cat: cat, base: base, in: in, chatEn: o.ChatEnglish, kbW: adviceWeight}
	if o.AdviceWeight > 0 {
		u.kbW = o.AdviceWeight
	}
	var train []Labelled
	for _, t := range u.Training() {
		if !o.Exclude[t.Text] {
			train = append(train, t)
		}
	}
	ex := scorerExamples(cat, base, in.Lexicon, train)
	if o.Scorer.Prior == nil {
		o.Scorer.Prior = intentPrior(ex)
	}
	u.model = scorer.Train(ex, o.Scorer)
	return u
}

// scorerExamples runs the slot extractors over the training phrasings
// (in parallel: they are most of the start-up time) and returns what the
// scorer reads of each.
func scorerExamples(cat *catalog.Catalog, base *advice.Base, lx *Lexicon, train []Labelled) []scorer.Example {
	ex := make([]scorer.Example, len(train))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(train); i += workers {
				x := read(cat, base, lx, train[i].Text, false)
				text, tags := x.scorerInput()
				ex[i] = scorer.Example{Text: text, Tags: tags, Label: train[i].Label}
			}
		}(w)
	}
	wg.Wait()
	return ex
}

// intentPrior gives every intent the same prior and splits advice's among
// its topics, so that forty topics do not make advice the default reading
// of any text.
func intentPrior(ex []scorer.Example) func(string) float64 {
	topics := map[string]bool{}
	for _, e := range ex {
		if _, t := splitLabel(e.Label); t != "" {
			topics[t] = true
		}
	}
	return func(label string) float64 {
		if _, t := splitLabel(label); t != "" {
			return 1 / float64(len(topics))
		}
		return 1
	}
}

// extraction is a message after the slot extractors (slots.Extract) with
// what the pipeline adds: the knowledge base's match and the lexicon's
// concepts.
type extraction struct {
	*slots.Extraction
	// kb is what the knowledge base's matcher found in the text (nil
	// without a knowledge base); concepts are the lexicon's tags.
	kb       *advice.Result
	concepts []string
}

// read runs the slot extractors and the knowledge base's matcher over a
// text: what the scorer reads, the same in training and in use. Common
// traditional characters are read as simplified first (toSimplified), so
// "50小時" is 50 hours to the extractors and the commands (Query.Asked).
func read(cat *catalog.Catalog, base *advice.Base, lx *Lexicon, text string, chatEn bool) extraction {
	text = toSimplified(text)
	x := extraction{Extraction: slots.Extract(cat, text, chatEn)}
	x.concepts = conceptTags(lx, x.Folded())
	q := x.Query()
	jobConcepts(q, x.concepts)
	m := advice.Result{}
	if base != nil {
		var w *advice.Workload
		m, w = base.MatchWorkload(text)
		if w != nil {
			q.KBWorkload = w.ID
		}
		if w != nil && q.Model == "" && q.ParamsB == 0 {
			q.Workload = w.ID
		}
	}
	x.kb = &m
	return x
}

// scorerInput is the text and tags the intent scorer reads: the folded
// text with names and figures as placeholders (the whole paste up to
// scorer.MaxText, not only the question part) and tags for the slots.
func (x *extraction) scorerInput() (string, []string) {
	q := x.Query()
	text := x.ScorerText()
	if len(q.Asked) > slots.MaxQuestion {
		// The placeholders were found in the question part only; the
		// scorer also reads the rest of a long paste.
		full := strings.ToValidUTF8(catalog.Fold(q.Asked), " ")
		if len(full) > scorer.MaxText {
			full = full[:scorer.MaxText/2] + "\n" + full[len(full)-scorer.MaxText/2:]
		}
		text = strings.ToValidUTF8(full, " ")
	}
	tags := slices.Clone(x.SlotTags())
	if x.kb != nil && x.kb.Best != nil {
		tags = append(tags, "kb_hit")
	} else if x.kb != nil && len(x.kb.Closest) > 0 {
		tags = append(tags, "kb_near")
	}
	if len(q.Platforms) == 1 {
		tags = append(tags, "one_platform")
	}
	return text, append(tags, x.concepts...)
}

// Labelled is a phrasing with its label: an intent, or "advice/<topic>".
// Keyword marks an intent's keyword (trained on, never scored).
type Labelled struct {
	Text, Label string
	Keyword     bool
}

// Training returns the phrasings the scorer trains on.
func (u *Understander) Training() []Labelled {
	var out []Labelled
	for _, d := range u.in.Defs {
		out = labelAll(out, d.Examples, d.Intent, false)
		out = labelAll(out, d.Keywords, d.Intent, true)
	}
	if u.base == nil {
		return out
	}
	ids := make([]string, 0, len(u.in.Topics))
	for id := range u.in.Topics {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if _, ok := u.base.Topic(id); !ok {
			continue
		}
		out = labelAll(out, u.in.Topics[id].Examples, topicLabel(id), false)
	}
	for _, t := range u.base.Topics {
		out = labelAll(out, t.Examples, topicLabel(t.ID), false)
	}
	for _, w := range u.base.Workloads {
		out = labelAll(out, w.Examples, topicLabel(advice.TopicCardChoice), false)
	}
	return out
}

// Scored returns the held-out phrasings: never trained on, only scored.
func (u *Understander) Scored() []Labelled {
	var out []Labelled
	for _, d := range u.in.Defs {
		out = labelAll(out, d.Scored, d.Intent, false)
	}
	for id, tc := range u.in.Topics {
		out = labelAll(out, tc.Scored, topicLabel(id), false)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

// labelAll appends texts to out, each with the label (an intent's keyword
// when keyword is set).
func labelAll(out []Labelled, texts []string, label string, keyword bool) []Labelled {
	for _, e := range texts {
		out = append(out, Labelled{Text: e, Label: label, Keyword: keyword})
	}
	return out
}

// Understand reads a message. It never panics and always returns an
// intent.
func (u *Understander) Understand(text string) Query {
	x := read(u.cat, u.base, u.in.Lexicon, text, u.chatEn)
	q := x.Query()
	if strings.TrimSpace(x.Folded()) == "" {
		q.Intent, q.Confidence = IntentHelp, 1
		return *q
	}
	m := *x.kb
	q.KB = &m
	if u.base != nil {
		q.Findings = u.base.Findings(text)
	}
	ranked := u.rank(&x, &m)
	// The stated conditions, read once the scorer has read the rest (they
	// change nothing it sees).
	x.ConditionSlots()
	x.YesNoSlots()
	x.ScopeSlots()
	if d := u.pattern(&x); d != "" {
		q.Intent, q.Confidence = d, 1
		q.Alternatives = alternatives(ranked, d, "")
	} else {
		u.decide(q, ranked)
		applyRules(q, &m, &x, ranked)
		yesNoRule(q)
	}
	diskCostRule(q, &x)
	sightingRule(q)
	scopeRule(q)
	q.LedgerAsk = reLedgerFollow.MatchString(x.Folded())
	u.finish(&x, &m, text)
	q.Verbs = u.verbs(&x)
	q.NamesAlerts = reAlertWord.MatchString(x.Folded())
	q.NamesDisks = slices.Contains(x.concepts, "@disk")
	u.declined(&x)
	u.unnamed(&x)
	u.askedAbout(&x)
	u.complained(&x)
	u.explained(&x)
	alertHow(&x)
	digestAsked(&x)
	u.stateAsked(&x)
	ledgerAsked(&x)
	return *q
}

// The words of what a message says about an action rather than asking
// for it (configs/slots/pipeline.yaml).
var (
	// reDecline says not to do an action ("别静音", "先不要删2号盘");
	// reDeclineUnless are the same words asking to end one ("别静音了").
	reDecline       = words.NewExpr("pipeline.decline")
	reDeclineUnless = words.NewExpr("pipeline.decline_unless")
	// reAlertComplaint complains about alerts ("提醒刷屏了").
	reAlertComplaint = words.NewExpr("pipeline.alert_complaint")
	// reLedgerFollow asks what a ledger answer's disk costs or saves, or
	// names it ("它", "that disk").
	reLedgerFollow = words.NewExpr("pipeline.ledger_follow")
)

// declined answers a message that says not to do an action ("别静音，等
// 4090呢", "我不想取消订阅", "2号盘先不要删") as small talk that changes
// nothing: no action's verb counts, and an action reading becomes a short
// acknowledgement (the action kept as the first alternative).
func (u *Understander) declined(x *extraction) {
	q := x.Query()
	f := x.Folded()
	if !reDecline.MatchString(f) || reDeclineUnless.MatchString(f) {
		return
	}
	q.Verbs = nil
	if d := u.in.Def(q.Intent); (d == nil || !d.Action()) && q.Intent != IntentSubscribe && q.Intent != IntentClarify {
		return
	}
	q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	q.Intent, q.Confidence, q.SmallTalk = IntentChitChat, 1, SmallTalkDecline
}

// complained answers a complaint about alerts read as a change to the
// member's subscriptions without its verb ("昨晚4090的通知刷了一晚上屏") with
// the offer to mute the chat (asked first: it has no verb either), never
// a cancellation or a new subscription (a complaint naming the alerts,
// "通知刷屏了", is no request for one).
func (u *Understander) complained(x *extraction) {
	q := x.Query()
	if !complainable(q) || !reAlertComplaint.MatchString(x.Folded()) {
		return
	}
	q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	q.Intent, q.Verbs, q.MuteMinutes, q.MuteUntil = IntentMute, nil, 0, ""
	x.MuteSlots()
}

// complainable reports whether q may be a complaint about alerts: read
// as a subscription, the member's alerts or a cancellation without its
// verb, or unsure with one of them first ("提醒太多了 烦").
func complainable(q *Query) bool {
	intent := q.Intent
	if intent == IntentClarify && len(q.Alternatives) > 0 {
		intent = q.Alternatives[0].Intent
	}
	switch intent {
	case IntentSubscribe, IntentSubscriptions:
		return true
	case IntentUnsubscribe:
		// "stop pinging me so much": a cancel verb naming no alert.
		return !slices.Contains(q.Verbs, intent) || len(q.GPUs) == 0 && q.UnknownGPU == "" && !q.All && q.SubRef == ""
	case IntentMute:
		return !slices.Contains(q.Verbs, intent)
	}
	return false
}

// unnamed answers an action read without its verb in a message that does
// not name what its verbs must be said of ("这块存储不用了", "花费不要算了"
// read as the digest switched off): the first other action among the
// readings ("这块存储不用了": the disk's removal, asked first), else the
// action's question (the digest); the action kept as an alternative.
func (u *Understander) unnamed(x *extraction) {
	q := x.Query()
	d := u.in.Def(q.Intent)
	if !d.Action() || d.Question == "" || slices.Contains(q.Verbs, q.Intent) || d.named(x.Folded()) {
		return
	}
	to := d.Question
	for _, a := range q.Alternatives {
		if ad := u.in.Def(a.Intent); ad.Action() && ad.Question != d.Question {
			to = a.Intent
			break
		}
	}
	q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	q.Intent = to
}

// reQuestion is a message that asks rather than tells.
var reQuestion = words.NewExpr("pipeline.question")

// reRequest is a polite request shaped as a question ("周报能开吗").
var reRequest = words.NewExpr("pipeline.request")

// reShowNow asks to see something now ("发一下周报", "周报发我看看").
var reShowNow = words.NewExpr("pipeline.show_now")

// askedAbout answers an action read without its verb, in a message that
// asks or asks to see it now, with the intent its definition names for questions about it
// (Definition.Question): the action is kept as the first alternative.
func (u *Understander) askedAbout(x *extraction) {
	q := x.Query()
	d := u.in.Def(q.Intent)
	f := x.Folded()
	if !d.Action() || d.Question == "" || slices.Contains(q.Verbs, q.Intent) || reRequest.MatchString(f) || !reQuestion.MatchString(f) && !reShowNow.MatchString(f) {
		return
	}
	q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	q.AskedAbout, q.Intent = q.Intent, d.Question
}

// The words of questions about the chat's settings and about what an
// action would mean (configs/slots/pipeline.yaml).
var (
	reStateAsk    = words.NewExpr("pipeline.state_ask")
	reStateDigest = words.NewExpr("pipeline.state_digest")
	reStateMute   = words.NewExpr("pipeline.state_mute")
	reStateAlerts = words.NewExpr("pipeline.state_alerts")
	reConsequence = words.NewExpr("pipeline.consequence")
	// reExplainMute and reExplainUnsubscribe name muting and cancelling in
	// a question about what they would do.
	reExplainMute        = words.NewExpr("pipeline.explain_mute")
	reExplainUnsubscribe = words.NewExpr("pipeline.explain_unsubscribe")
	reLedgerTotal        = words.NewExpr("pipeline.ledger_total")
	reLedgerStop         = words.NewExpr("pipeline.ledger_stopped")
	reLedgerDrop         = words.NewExpr("pipeline.ledger_drop")
	reLedgerDropNot      = words.NewExpr("pipeline.ledger_drop_not")
	reLedgerOwner        = words.NewExpr("pipeline.ledger_owner")
	reReportStop         = words.NewExpr("pipeline.disk_report_stop")
	reReportStart        = words.NewExpr("pipeline.disk_report_start")
	reLedgerThis         = words.NewExpr("pipeline.ledger_this")
	reLedgerPerOwner     = words.NewExpr("pipeline.ledger_per_owner")
	reLedgerOver         = words.NewExpr("pipeline.ledger_over")
	reLedgerWords        = words.NewExpr("pipeline.ledger_words")
	reLedgerBackup       = words.NewExpr("pipeline.ledger_backup")
	reLedgerStateAsk     = words.NewExpr("pipeline.ledger_state_ask")
	reLedgerCostAsk      = words.NewExpr("pipeline.ledger_cost_ask")
	reNoteOwner          = words.NewExpr("pipeline.note_owner")
	notOwners            = words.NewWords("pipeline.not_owners")
)

// AsksCost reports whether folded text asks what something costs
// ("多少钱", "how much").
func AsksCost(folded string) bool { return reLedgerCostAsk.MatchString(folded) }

// NoteOwner is the member a disk's note names as holding it ("张三的模型"
// is 张三's; "": none).
func NoteOwner(note string) string {
	m := reNoteOwner.FindStringSubmatch(strings.TrimSpace(note))
	if m == nil || notOwners.Has(strings.ToLower(m[1])) {
		return ""
	}
	return m[1]
}

// explainedBy is the intent that answers a question about what an
// action would mean, beside the explanation: the state the action
// would change.
var explainedBy = map[string]string{
	IntentMute: IntentSubscriptions, IntentSubscribe: IntentSubscriptions, IntentUnsubscribe: IntentSubscriptions,
	IntentDigestOn: IntentDigest, IntentDigestOff: IntentDigest,
	IntentStorageAdd: IntentStorageList, IntentStorageRemove: IntentStorageList, IntentStorageResize: IntentStorageList,
	IntentStorageStop: IntentStorageList, IntentStorageStart: IntentStorageList,
}

// explained answers a message that asks what an action would mean or
// leave ("取消订阅会怎样", "静音之后还能收到提醒吗", "what happens if I mute
// the chat?") with the explanation and the state it is about: the action
// is neither done nor offered. Only without the action's own verb: "静音
// 2小时" is done.
func (u *Understander) explained(x *extraction) {
	q := x.Query()
	action := q.Intent
	if q.AskedAbout != "" {
		action = q.AskedAbout
	}
	f := x.Folded()
	nothing := action == IntentCompare && len(q.GPUs) < 2 && len(q.Platforms) < 2 || action == IntentAdvice && !kbBacked(q)
	if (action == IntentSubscriptions || nothing) && reConsequence.MatchString(f) {
		// Read as the subscriptions (or a comparison of nothing, advice
		// the knowledge base does not back: "静音一般设多久比较好"), the question may still name what muting or
		// unsubscribing would do ("does muting mean my subscriptions get
		// deleted?").
		switch {
		case reExplainMute.MatchString(f):
			action = IntentMute
		case reExplainUnsubscribe.MatchString(f):
			action = IntentUnsubscribe
		}
	}
	host, ok := explainedBy[action]
	if !ok || slices.Contains(q.Verbs, action) || !reConsequence.MatchString(f) {
		return
	}
	if q.Intent != host {
		q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	}
	q.Explain, q.Intent, q.AskedAbout, q.Confidence, q.Verbs = action, host, "", 1, nil
}

// The words of questions about how the alerts work
// (configs/slots/pipeline.yaml): what they must name, and each topic.
var (
	reAlertHowAbout = words.NewExpr("pipeline.alert_how_about")
	alertTopics     = []struct {
		explain string
		re      *words.Expr
	}{
		{ExplainAlertInterval, words.NewExpr("pipeline.alert_interval")},
		{ExplainAlertMention, words.NewExpr("pipeline.alert_mention")},
		{ExplainAlertRepeat, words.NewExpr("pipeline.alert_repeat")},
		{ExplainAlertNight, words.NewExpr("pipeline.alert_night")},
		{ExplainAlertInStock, words.NewExpr("pipeline.alert_instock")},
		{ExplainAlertOptions, words.NewExpr("pipeline.alert_options")},
	}
)

// The Explain values of questions about how the alerts work, beside the
// actions' names.
const (
	ExplainAlertInterval = "alerts.interval"
	ExplainAlertNight    = "alerts.night"
	ExplainAlertMention  = "alerts.mention"
	ExplainAlertRepeat   = "alerts.repeat"
	ExplainAlertInStock  = "alerts.instock"
	ExplainAlertOptions  = "alerts.options"
)

// alertHow answers a question about how the alerts work ("提醒多久检查一
// 次", "会不会半夜@我", "有货了会@所有人吗", "同一张卡会提醒几次", "what
// happens when a card comes back in stock?") with what the bot does, and
// the asker's subscriptions: nothing is done or offered. Only a message
// with no action's verb that asks (how often is a question of its own),
// names alerting and one topic.
func alertHow(x *extraction) {
	q := x.Query()
	f := x.Folded()
	// What muting or cancelling would do is answered as such; what a
	// subscription does in general gives way to the topic asked.
	if len(q.Verbs) > 0 || q.Explain != "" && q.Explain != IntentSubscribe || !reAlertHowAbout.MatchString(f) {
		return
	}
	for _, t := range alertTopics {
		asks := t.explain == ExplainAlertInterval || t.explain == ExplainAlertInStock // their words ask
		if !t.re.MatchString(f) || !asks && !reQuestion.MatchString(f) || t.explain == ExplainAlertOptions && !reAlertWord.MatchString(f) {
			continue
		}
		if q.Intent != IntentSubscriptions {
			q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
		}
		q.Explain, q.Intent, q.AskedAbout, q.Confidence = t.explain, IntentSubscriptions, "", 1
		return
	}
}

// The Explain values of questions about the digest: when it goes out
// (its schedule, set in the config) and what it is.
const (
	ExplainDigestSchedule = "digest.schedule"
	ExplainDigestWhat     = "digest.what"
)

var (
	reDigestSchedule = words.NewExpr("pipeline.digest_schedule")
	reDigestWhat     = words.NewExpr("pipeline.digest_what")
)

// DigestExplainOf is the explanation of the digest a folded follow-up
// asks for after an answer about it ("里面都有啥", "what does it include",
// "什么时候发"): ExplainDigestSchedule, ExplainDigestWhat or "".
func DigestExplainOf(folded string) string {
	switch {
	case reDigestSchedule.MatchString(folded):
		return ExplainDigestSchedule
	case reDigestWhat.MatchString(folded):
		return ExplainDigestWhat
	}
	return ""
}

// digestAsked answers a message about the digest that asks to move it to
// another day or time ("周报改成每天发", "周报能不能改到周五发") or what it is
// ("周报有啥用") with that explanation and its state: the schedule is the
// config's, so nothing is done or offered, whatever switch its words
// share.
func digestAsked(x *extraction) {
	q := x.Query()
	f := x.Folded()
	if q.Explain != "" || !reStateDigest.MatchString(f) || len(q.GPUs) > 0 {
		return
	}
	if q.Explain = DigestExplainOf(f); q.Explain == "" {
		return
	}
	if q.Intent != IntentDigest {
		q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	}
	q.Intent, q.AskedAbout, q.Confidence, q.Verbs, q.BillingMode = IntentDigest, "", 1, nil, ""
}

// stateAsked answers a question about how the chat's digest, mute or
// alerts are now ("周报现在是开着的吗", "我们群开了周报没", "are alerts muted
// here?", "我订了哪些提醒") with that state, whatever action its words
// share with a request: nothing changes. A polite request shaped as a
// question ("周报能开吗") is a request.
func (u *Understander) stateAsked(x *extraction) {
	q := x.Query()
	f := x.Folded()
	if q.Explain != "" || !reStateAsk.MatchString(f) || reRequest.MatchString(f) {
		return
	}
	var to string
	switch {
	case reStateDigest.MatchString(f):
		q.StateAsk, to = "digest", IntentDigest
	case reStateMute.MatchString(f):
		q.StateAsk, to = "mute", IntentSubscriptions
		q.AboutMute = true
	case reStateAlerts.MatchString(f) && (q.Intent == IntentSubscriptions || explainedBy[q.Intent] == IntentSubscriptions || !u.in.Def(q.Intent).Action()):
		q.StateAsk, to = "alerts", IntentSubscriptions
	default:
		return
	}
	if q.Intent != to {
		q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	}
	q.Intent, q.AskedAbout, q.Confidence, q.Verbs = to, "", 1, nil
}

// maxLedgerAsk is the longest folded message (bytes) read for a question
// about the ledger's disks ("加起来一个月多少", "每个人占多少").
const maxLedgerAsk = 600

// ledgerAsked reads what a question about the ledger's disks picks:
// all of them added up ("加起来一个月多少"), the stopped one ("停机的那块呢"),
// or which to drop to get under a monthly budget ("每月存储预算只有100，该删
// 哪块盘": LedgerBudget, from the budget or price ceiling it states).
func ledgerAsked(x *extraction) {
	q := x.Query()
	f := x.Folded()
	if len(f) > maxLedgerAsk {
		return // a paste or an essay: no short question about the ledger
	}
	switch {
	case reReportStop.MatchString(f):
		q.DiskReport = IntentStorageStop
	case reReportStart.MatchString(f):
		q.DiskReport = IntentStorageStart
	}
	switch {
	case reLedgerPerOwner.MatchString(f) && q.DiskRef == "":
		q.LedgerPick = "per_owner"
	case reLedgerTotal.MatchString(f):
		q.LedgerPick = "total"
	case reLedgerStop.MatchString(f):
		q.LedgerPick = "stopped"
	case reLedgerOwner.MatchString(f):
		q.LedgerPick = "owners"
	case reLedgerThis.MatchString(f):
		q.LedgerPick = "this"
	}
	if ledgerQuestion(x) || !reLedgerDrop.MatchString(f) || len(q.GPUs) > 0 {
		return
	}
	budget := q.BudgetTotalCNY
	if budget <= 0 {
		budget = q.MaxPriceCNY
	}
	ledgerish := q.NamesDisks || strings.HasPrefix(q.Intent, "storage")
	switch {
	case budget > 0 && ledgerish:
		q.LedgerBudget = budget
	case budget <= 0 && ledgerish && !reLedgerDropNot.MatchString(f):
		// "哪块盘可以删", "which disks can I delete": the idle disks and
		// what deleting each saves.
		q.LedgerPick = "drop"
	default:
		return
	}
	// Advice from the ledger, whatever removal its words share.
	if q.Intent != IntentStorageList {
		q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	}
	q.Intent, q.Confidence, q.Verbs = IntentStorageList, 1, nil
}

// ledgerQuestion reads a question about the ledger that changes nothing
// and is answered from it (false: none): GB and CNY a month per member
// ("谁的盘最多"), whether the monthly cost is over a budget ("每月预算500，
// 现在超了吗"), and about one disk its cost at another size ("存储1扩容到
// 300G要多少钱"), whether to back it up before removing it, or its state
// ("存储1关机了吗").
func ledgerQuestion(x *extraction) bool {
	q := x.Query()
	f := x.Folded()
	ledgerish := q.NamesDisks || strings.HasPrefix(q.Intent, "storage") || q.Intent == IntentDigest || reLedgerWords.MatchString(f)
	budget := max(q.BudgetTotalCNY, q.MaxPriceCNY)
	switch {
	case len(q.GPUs) > 0 || q.OutOfScope != "" || !ledgerish:
		return false
	case q.DiskRef == "" && (len(q.Verbs) > 0 || q.Period != "" || q.Week != ""):
		// A registration, or the digest's spend of a period ("上周存储费
		// 按人拆一下": its shares per member).
		return false
	case q.DiskRef == "" && budget > 0 && reLedgerOver.MatchString(f):
		q.LedgerBudget, q.LedgerPick = budget, "over"
	case q.LedgerPick == "per_owner":
	case q.DiskRef == "":
		return false
	case reLedgerBackup.MatchString(f):
		q.LedgerPick = "backup"
	case reLedgerStateAsk.MatchString(f) && q.SizeGB <= 0:
		q.LedgerPick = "state"
	case q.SizeGB > 0 && reLedgerCostAsk.MatchString(f):
		q.FollowSizeGB, q.SizeGB = q.SizeGB, 0
	default:
		return false
	}
	if q.Intent != IntentStorageList {
		q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	}
	q.Intent, q.Confidence, q.Verbs, q.AskedAbout = IntentStorageList, 1, nil, ""
	return true
}

// ActionFloor is the least confidence at which an intent that changes
// state (Definition.Action) is done on its explicit verb; below it, or
// without the verb, the bot asks first ("要把本群提醒静音 1 小时吗？").
// A pattern's reading has confidence 1.
const ActionFloor = 0.6

// reHedge is a hedge ("好像", "I think"): no action is done on its verb.
var reHedge = words.NewExpr("pipeline.hedge")

// verbs are the actions whose explicit verb the message has (none in a
// hedged message: "I think disk 1 was deleted already" is asked first).
func (u *Understander) verbs(x *extraction) []string {
	if reHedge.MatchString(x.Folded()) {
		return nil
	}
	var out []string
	for _, d := range u.in.Defs {
		if d.Action() && d.hasVerb(x.Folded(), x.Query()) {
			out = append(out, d.Intent)
		}
	}
	return out
}

// Ranked returns every reading of a text with its probability, best
// first, and the intent a pattern recognises ("" when none): what decide
// chooses from (the corpus test reads it).
func (u *Understander) Ranked(text string) ([]scorer.Scored, string) {
	x := read(u.cat, u.base, u.in.Lexicon, text, u.chatEn)
	return u.rank(&x, x.kb), u.pattern(&x)
}

// reBare is what may surround a bare name ("3090?", "AutoDL 呢").
var reBare = words.NewExpr("pipeline.bare")

// pattern returns the first intent (by Order) whose pattern matches; a
// message that is only a name asks about it: a card its offers (on the
// platform it names too), a platform its prices, a model its estimate.
func (u *Understander) pattern(x *extraction) string {
	if reBare.MatchString(x.Rest()) {
		switch q := x.Query(); {
		case q.Model != "":
			return IntentEstimate
		case len(q.GPUs) > 0 && len(q.Platforms) == 0:
			return IntentStock
		case len(q.Platforms) > 0 && len(q.GPUs) == 0:
			return IntentPrices
		case len(q.Platforms) > 0 && len(q.GPUs) > 0:
			// "恒源 4090", "vastai 4090?": the card's offers there.
			return IntentStock
		}
	}
	for _, d := range u.in.Defs {
		for i := range d.Patterns {
			if d.Patterns[i].matches(x.Folded(), x.Query()) {
				return d.Intent
			}
		}
	}
	return ""
}

// rank scores every label: the scorer's posterior, the knowledge base's
// matcher adding its evidence to its topics (a printed error is strong
// evidence), readings the message rules out dropped (slotsAllow).
func (u *Understander) rank(x *extraction, m *advice.Result) []scorer.Scored {
	text, tags := x.scorerInput()
	raw := map[string]float64{}
	for _, h := range append(append([]advice.Hit{}, m.Closest...), m.Related...) {
		raw[h.Topic.ID] = rawScore(h.Score)
	}
	if m.Best != nil {
		raw[m.Best.Topic.ID] = rawScore(m.Best.Score)
	}
	return adjust(u.model.Score(text, tags), func(s scorer.Scored) float64 {
		i, t := splitLabel(s.Label)
		if !slotsAllow(i, x) {
			return math.Inf(-1)
		}
		return u.kbW * raw[t]
	})
}

// adjust adds log-odds to each reading's probability and renormalises.
func adjust(ranked []scorer.Scored, add func(scorer.Scored) float64) []scorer.Scored {
	top := math.Inf(-1)
	for i := range ranked {
		ranked[i].P = math.Log(math.Max(ranked[i].P, 1e-300)) + add(ranked[i])
		top = math.Max(top, ranked[i].P)
	}
	sum := 0.0
	for i := range ranked {
		ranked[i].P = math.Exp(ranked[i].P - top)
		sum += ranked[i].P
	}
	for i := range ranked {
		ranked[i].P /= sum
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].P > ranked[j].P })
	return ranked
}

// rawScore inverts advice's confidence 1 − e^(−raw).
func rawScore(conf float64) float64 {
	if conf <= 0 {
		return 0
	}
	return -math.Log(math.Max(1-conf, 1e-9))
}

// slotsAllow drops readings the message rules out: a plan needs a
// billing mode other than hourly; a subscription is never made unless
// the message asks to be told (an alert word: 提醒, 通知, 订阅, notify …);
// an estimate needs a job when a card is named; a disk command a disk.
func slotsAllow(label string, x *extraction) bool {
	q := x.Query()
	switch label {
	case IntentPlan:
		return q.BillingMode != "" && q.BillingMode != ModeHourly
	case IntentCompare:
		// Two names, or comparison words ("国内和国外哪个划算").
		return len(q.NamedGPUs) >= 2 || len(q.Platforms) >= 2 || slices.Contains(x.concepts, "@compare")
	case IntentSubscribe:
		return slices.Contains(x.concepts, "@alert")
	case IntentAvailability:
		// When a card is usually free needs the card.
		return len(q.GPUs) > 0
	case IntentEstimate:
		// A card and a price with no job is the card's price, not an
		// estimate ("AutoDL 4090 要排队吗，多少钱").
		return len(q.GPUs) == 0 || q.Model != "" || q.ParamsB > 0 || q.ModelText != "" || q.Method != "" || q.Workload != ""
	case IntentDigest:
		// Storage spend names storage, a week or a month ("昇腾 910B 多少钱"
		// is not a digest question); with a platform named, a time or
		// spend word ("AutoDL 存储费多少" is the platform's price).
		when := q.Period != "" || q.Week != "" || slices.Contains(x.concepts, "@weekly")
		if len(q.Platforms) > 0 {
			return when || slices.Contains(x.concepts, "@spend")
		}
		return when || slices.Contains(x.concepts, "@disk")
	case IntentStorageRisk:
		// The lab's disks, not a platform's rule ("关机后数据会被删吗" is
		// advice): which of them, or the asker's own.
		return reOurDisks.MatchString(x.Folded()) || reMine.MatchString(x.Folded())
	case IntentStorageResize, IntentStorageStop, IntentStorageStart, IntentStorageRemove:
		// A disk command names a disk ("offer 被释放了" is not one).
		return q.DiskRef != "" || slices.Contains(x.concepts, "@disk")
	}
	return true
}

// decide picks the reading from the ranked labels, or asks back. The
// intent is decided first, on its best label's probability (advice on
// its best topic's); the topic then is advice's best.
func (u *Understander) decide(q *Query, ranked []scorer.Scored) {
	ranked = calibrate(ranked)
	intents := byIntent(ranked)
	best := intents[0]
	second := scorer.Scored{}
	if len(intents) > 1 {
		second = intents[1]
	}
	topic := ""
	if best.Label == IntentAdvice {
		_, topic = splitLabel(topLabel(ranked, IntentAdvice))
		if share := labelP(ranked, topicLabel(topic)) / intentP(ranked, IntentAdvice); share < TopicAccept || !u.evidence(q) && (share < 0.95 || unknownLine(q, topic)) {
			// Advice, but no topic stands out: "I don't know this one"
			// with the closest topics, not a wrong topic's steps.
			q.Alternatives = alternatives(ranked, "", "")
			topic = ""
		}
	}
	q.Confidence = round2(best.P)
	q.Alternatives = alternatives(ranked, best.Label, topic)
	switch {
	case best.P >= Accept || best.P-second.P >= Lead:
		q.Intent, q.Topic = best.Label, topic
	case best.Label == IntentUnknown && best.P >= OutOfScope:
		q.Intent = IntentUnknown
	default:
		q.Intent = IntentClarify
		q.Alternatives = alternatives(ranked, "", "")
	}
}

// Rules decide outright (confidence 1), as patterns do; the scorer's own
// reading is kept as the first alternative.

// applyRules runs the rules on the chosen reading, or, when the scorer
// was unsure (an ask-back), on its best reading: a rule that settles the
// question answers it instead of asking.
func applyRules(q *Query, m *advice.Result, x *extraction, ranked []scorer.Scored) {
	rules := func(t *Query) {
		symptomRule(t, m, x.Folded())
		commandRule(t, m, x.Folded(), ranked)
		boundaryRules(t, m, x, ranked)
		conditionRule(t, x.Folded())
	}
	if q.Intent != IntentClarify {
		rules(q)
		return
	}
	if len(q.Alternatives) == 0 {
		return
	}
	top := *q
	top.Intent, top.Topic = q.Alternatives[0].Intent, q.Alternatives[0].Topic
	before := top.Intent + "/" + top.Topic
	rules(&top)
	if top.Intent+"/"+top.Topic != before {
		*q = top
		return
	}
	if conditionSettles(&top, x.Folded()) {
		// The stated conditions say which reading it is ("华东 40G以上 两张
		// 一小时总共12以内": the offers).
		top.Alternatives = append([]Alternative{{Intent: IntentClarify, Score: q.Confidence}}, q.Alternatives...)
		top.Confidence = 1
		*q = top
	}
}

// symptomRule is the high-precision rule between the knowledge base and
// the stock, prices and estimate answers: when the matcher found a topic
// and the scorer chose one of those, a question about money or stock
// ("4090 sold out?", "7B LoRA 要多少钱，会不会爆显存") stays with its answer
// unless an error was pasted; otherwise the topic wins when it is a
// symptom (its entry lists printed errors: "用 4090 OOM 了"), the text
// reads as a problem report ("为什么", "报错") or the match is strong.
func symptomRule(q *Query, m *advice.Result, folded string) {
	best := m.Best
	if best == nil || q.Intent != IntentStock && q.Intent != IntentPrices && q.Intent != IntentEstimate {
		return
	}
	if q.Intent == IntentEstimate && best.Topic.Tie == advice.TieCard {
		return // "13B LoRA 在 V100 上跑得动吗": the estimate is the card answer
	}
	wins := len(best.Topic.Errors) > 0 || m.Problem || best.Score >= 0.6
	if ContainsAny(folded, kwCost.List()) || ContainsAny(folded, kwStockAsk.List()) || q.Intent == IntentEstimate && ContainsAny(folded, kwWillIt.List()) {
		wins = best.Strong
	}
	if !wins {
		return
	}
	q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	q.Intent, q.Topic, q.Confidence = IntentAdvice, best.Topic.ID, 1
}

// commandRule is symptomRule's other half: a question that asks about
// money or stock ("4090 sold out?", "腾讯云 GPU 价格", "13B LoRA 4090 会不会
// 爆显存") and names a card, a platform or a job is answered by the
// stock, prices or estimate command, not by a knowledge-base topic,
// unless a printed error was pasted.
func commandRule(q *Query, m *advice.Result, folded string, ranked []scorer.Scored) {
	if q.Intent != IntentAdvice || m.Best != nil && m.Best.Strong || reComplaint.MatchString(folded) || q.Topic == "disk-sizing" {
		return
	}
	named := len(q.GPUs) > 0 || len(q.Platforms) > 0 || q.Model != "" || q.ParamsB > 0
	job := q.Model != "" || q.ParamsB > 0
	if !named || !(ContainsAny(folded, kwCost.List()) || ContainsAny(folded, kwStockAsk.List()) || job && ContainsAny(folded, kwWillIt.List())) {
		return
	}
	for _, s := range ranked {
		if s.P < 1e-5 {
			return
		}
		switch s.Label {
		case IntentStock, IntentPrices, IntentEstimate, IntentCompare, IntentPlan:
			q.Alternatives = append([]Alternative{{Intent: IntentAdvice, Topic: q.Topic, Score: q.Confidence}}, q.Alternatives...)
			q.Intent, q.Topic, q.Confidence = s.Label, "", 1
			return
		}
	}
}

// billingTopics are the knowledge-base pitfalls about how platforms bill
// and keep data; the prices answer gives a named platform's rules.
var billingTopics = []string{"idle-storage-cost", "min-billing-restart", "data-lost-on-release"}

// boundaryRules apply the corpus's written boundaries where the scorer
// cannot see them:
//   - a named platform's billing or retention rules are the prices
//     answer; the same words without a platform, or with a problem
//     ("为啥还在扣钱", "数据没了"), are the knowledge-base pitfall;
//   - an estimate question reporting an OOM that happened is the OOM
//     topic, and an OOM question asked before the fact about a job ("会不会
//     爆显存") is the estimate;
//   - an advice reading the knowledge base does not back (no term of any
//     topic), about nothing of the bot's world (no card, platform, job or
//     domain word), is outside what the bot does.
func boundaryRules(q *Query, m *advice.Result, x *extraction, ranked []scorer.Scored) {
	before := Alternative{Intent: q.Intent, Topic: q.Topic, Score: q.Confidence}
	defer func() {
		// A rule decided: the scorer's reading becomes an alternative.
		if q.Intent != before.Intent || q.Topic != before.Topic {
			q.Alternatives = append([]Alternative{before}, q.Alternatives...)
			q.Confidence = 1
		}
	}()
	folded := x.Folded()
	named := len(q.Platforms) > 0
	job := q.Model != "" || q.ParamsB > 0
	switch {
	case q.Intent == IntentPrices && !named && m.Best != nil && slices.Contains(billingTopics, m.Best.Topic.ID):
		q.Intent, q.Topic = IntentAdvice, m.Best.Topic.ID
	case q.Intent == IntentCompare && job:
		// "H100 和 A100 训练7B LoRA哪个划算": the named cards for that job.
		q.Intent = IntentEstimate
	case q.Intent == IntentEstimate && m.Best != nil && m.Best.Topic.ID == advice.TopicOOM && reHappened.MatchString(folded) && !ContainsAny(folded, kwWillIt.List()):
		q.Intent, q.Topic = IntentAdvice, advice.TopicOOM
	case q.Intent == IntentAdvice && q.Topic == advice.TopicOOM && job && ContainsAny(folded, kwWillIt.List()) && !reHappened.MatchString(folded) && (m.Best == nil || !m.Best.Strong):
		// "13B LoRA 4090 会不会爆显存": asked before the fact, the estimate
		// answers it.
		q.Intent, q.Topic = IntentEstimate, ""
	case q.Intent == IntentAdvice && m.Best == nil && !named && len(q.GPUs) == 0 && !job &&
		slices.Contains(x.SlotTags(), "no_domain") && labelP(ranked, IntentUnknown) > 0.01:
		q.Intent, q.Topic = IntentUnknown, ""
	case q.Intent == IntentAdvice && m.Best == nil && slices.Contains(x.concepts, "@thanks") && !hasAny(folded, questionMarks.List()) && !language.ErrorLine(folded):
		// "Killed the old kernel, thanks": thanks, not a problem.
		q.Intent, q.Topic = IntentChitChat, ""
	case (q.Intent == IntentEstimate || q.Intent == IntentPrices && len(q.Platforms) == 0) && q.UnknownGPU != "" && len(q.GPUs) == 0 &&
		!job && q.Method == "" && q.Workload == "":
		// "3060ti 多少钱": a card the catalog does not have, no job; the
		// offers answer says so and names the cards it has.
		q.Intent, q.Topic = IntentStock, ""
	case (q.Intent == IntentUnsubscribe || q.Intent == IntentSubscriptions) && len(q.ExcludePlatforms) > 0 && len(q.GPUs) > 0 && !reAlertWord.MatchString(folded):
		// "4090 不要autodl 其他家呢": 不要 rules a platform out of a stock
		// question; it cancels nothing.
		q.Intent, q.Topic = IntentStock, ""
	}
}

// diskCostRule answers what a disk costs ("这块盘一个月多少钱", "100G 数据盘
// 存一个月多少") with the lab's disks and what each costs a month (a disk
// of ours named) or every platform's disk price, never a GPU plan or
// estimate, and never a change to a disk. A pattern's reading too ("一个
// 月…多少" is the plan's).
func diskCostRule(q *Query, x *extraction) {
	folded := x.Folded()
	job := q.Model != "" || q.ParamsB > 0 || q.ModelText != "" || q.Workload != ""
	switch {
	case q.Intent != IntentPlan && q.Intent != IntentEstimate && (q.Intent != IntentPrices || len(q.Platforms) > 0):
		return
	case !slices.Contains(x.concepts, "@disk") || len(q.GPUs) > 0 || q.UnknownGPU != "" || job ||
		!ContainsAny(folded, kwCost.List()) && !ContainsAny(folded, kwConditionCost.List()):
		return
	}
	q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	q.Intent, q.Topic, q.Confidence = IntentPrices, "", 1
	if q.SizeGB > 0 && q.DiskRef == "" && len(q.Platforms) > 0 {
		// "我们组AutoDL数据盘有200G 每月多少钱": what that size costs
		// there, whatever the ledger holds.
		return
	}
	if q.DiskRef != "" || reOurDisks.MatchString(folded) || reMine.MatchString(folded) {
		q.Intent = IntentStorageList
	}
}

// sightingRule answers a "registration" that names a card and a price
// but no disk size ("记一下 autodl 4090 今天看到2块1": a price seen, not a
// disk) with the card's offers there, never a ledger entry.
func sightingRule(q *Query) {
	if q.Intent != IntentStorageAdd || len(q.GPUs) == 0 || q.SizeGB != 0 || q.PriceCNY <= 0 && q.MaxPriceCNY <= 0 {
		return
	}
	q.Alternatives = append([]Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
	q.Intent, q.Confidence, q.Note = IntentStock, 1, ""
}

// The rules' words (configs/slots/pipeline.yaml).
var (
	// reAlertWord names alerts and subscriptions, which only unsubscribe
	// and the subscription list are about.
	reAlertWord = words.NewExpr("pipeline.alert_word")
	// reComplaint tells a complaint about stock or money ("又 sold out 了，
	// 每次晚上都这样") from a question about it ("4090 sold out?").
	reComplaint = words.NewExpr("pipeline.complaint")
	// reHappened says an OOM already happened ("爆了", "OOM 了", "报错").
	reHappened = words.NewExpr("pipeline.happened")
	// kwStockAsk ask whether a card is in stock.
	kwStockAsk = words.NewWords("pipeline.stock_ask")
	// kwCost are words asking for money, which the stock, prices and
	// estimate answers give.
	kwCost = words.NewWords("pipeline.cost")
	// kwWillIt ask before the fact whether a job fits ("13B LoRA 4090 会不会
	// 爆显存"): the estimate answers that.
	kwWillIt = words.NewWords("pipeline.will_it")
	// questionMarks: thanks with a question mark is no thanks.
	questionMarks = words.NewWords("pipeline.question_marks")
)

// hasAny reports whether s contains one of ws.
func hasAny(s string, ws []string) bool {
	for _, w := range ws {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// evidence reports whether the knowledge base backs an advice reading of
// a pasted error: a paste (three lines or more) or a printed error line
// the matcher does not recognise is "I don't know this one", whatever
// the scorer guesses from its words.
func (u *Understander) evidence(q *Query) bool {
	m := q.KB
	if m == nil || m.Best != nil {
		return true
	}
	text := strings.TrimSpace(q.Asked)
	folded := catalog.Fold(text)
	return strings.Count(text, "\n") < 2 && !language.ErrorLine(folded) && !reExceptionName.MatchString(folded)
}

// unknownLine reports whether q is one printed error line in which the
// knowledge base found nothing of topic, not even a hint: the scorer's
// sureness there comes from words the line shares with other errors
// ("KeyError: 'model.embed_tokens.weight'" is no device mismatch), so
// the answer is "I don't know this one".
func unknownLine(q *Query, topic string) bool {
	m := q.KB
	if m == nil || m.Best != nil || strings.Contains(strings.TrimSpace(q.Asked), "\n") {
		return false
	}
	for _, h := range m.Closest {
		if h.Topic != nil && h.Topic.ID == topic {
			return false
		}
	}
	return true
}

// reExceptionName is an exception's name as a traceback prints it before
// its message, also inside a sentence ("装完 opencv 就 ImportError: …"):
// such a message quotes an error, which the knowledge base would know.
var reExceptionName = regexp.MustCompile(`[a-z](?:error|exception):`)

// Calibration is the exponent that turns the scorer's posteriors into the
// confidences the thresholds read (p^Calibration, renormalised): naive
// Bayes multiplies dependent features and is overconfident; 0.5 brought
// the corpus's k-fold confidences in line with how often they were right
// (readings at 0.5–0.6 right about half to two thirds of the time). It
// does not change which reading is best.
const Calibration = 0.5

// calibrate softens the posteriors by Calibration.
func calibrate(ranked []scorer.Scored) []scorer.Scored {
	out := make([]scorer.Scored, len(ranked))
	sum := 0.0
	for i, s := range ranked {
		out[i] = scorer.Scored{Label: s.Label, P: math.Pow(s.P, Calibration)}
		sum += out[i].P
	}
	for i := range out {
		out[i].P /= sum
	}
	return out
}

// intentP is the summed probability of an intent's labels.
func intentP(ranked []scorer.Scored, intent string) float64 {
	sum := 0.0
	for _, s := range ranked {
		if i, _ := splitLabel(s.Label); i == intent {
			sum += s.P
		}
	}
	return math.Max(sum, 1e-300)
}

// labelP is one label's probability.
func labelP(ranked []scorer.Scored, label string) float64 {
	for _, s := range ranked {
		if s.Label == label {
			return s.P
		}
	}
	return 0
}

// byIntent rates each intent by its best label (advice by its best
// topic), best first.
func byIntent(ranked []scorer.Scored) []scorer.Scored {
	best := map[string]float64{}
	var order []string
	for _, s := range ranked {
		i, _ := splitLabel(s.Label)
		if _, ok := best[i]; !ok {
			order = append(order, i)
		}
		best[i] = math.Max(best[i], s.P)
	}
	out := make([]scorer.Scored, 0, len(order))
	for _, i := range order {
		out = append(out, scorer.Scored{Label: i, P: best[i]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].P > out[j].P })
	return out
}

// topLabel is the best label of an intent.
func topLabel(ranked []scorer.Scored, intent string) string {
	for _, s := range ranked {
		if i, _ := splitLabel(s.Label); i == intent {
			return s.Label
		}
	}
	return intent
}

// splitLabel splits "advice/cuda-oom" into intent and topic.
func splitLabel(label string) (intent, topic string) {
	if i, t, ok := strings.Cut(label, "/"); ok {
		return i, t
	}
	return label, ""
}

// alternatives are the next readings after the chosen one (at most 3).
func alternatives(ranked []scorer.Scored, intent, topic string) []Alternative {
	var out []Alternative
	for _, s := range ranked {
		i, t := splitLabel(s.Label)
		if i == intent && t == topic || s.P < 0.005 {
			continue
		}
		out = append(out, Alternative{Intent: i, Topic: t, Score: round2(s.P)})
		if len(out) == 3 {
			break
		}
	}
	return out
}

// round2 rounds a confidence to two decimals for the JSON.
func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }

// traditional maps common traditional characters of the bot's questions
// (hours, prices, plans, stock, disks) to their simplified forms, one
// rune for one (configs/slots/pipeline.yaml, maps.simplified): nothing
// else folds them (catalog.Fold only narrows and lowers), and the
// extractors' words are simplified ("小时", "还是", "包周").
var traditional = sync.OnceValue(func() map[rune]rune {
	m := map[rune]rune{}
	for t, s := range words.Mapping("pipeline.simplified") {
		tr, sr := []rune(t), []rune(s)
		if len(tr) == 1 && len(sr) == 1 {
			m[tr[0]] = sr[0]
		}
	}
	return m
})

// toSimplified reads common traditional characters as simplified
// (traditional); other text is returned as is.
func toSimplified(text string) string {
	trad := traditional()
	return strings.Map(func(r rune) rune {
		if r < 0x4E00 {
			// Below the CJK ideographs, where every key of traditional is.
			return r
		}
		if s, ok := trad[r]; ok {
			return s
		}
		return r
	}, text)
}
