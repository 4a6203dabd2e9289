package frame

import (
	"slices"
	"strings"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand"
	"github.com/labgpu/bot/internal/understand/slots/language"
)

// A troubleshooting answer keeps its frame (Kept.AdviceTopic: the
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

// AdviceFollow reads q as a follow-up of the troubleshooting answer f
// keeps; false when it is none (a question of its own, or f is no
// troubleshooting answer).
func AdviceFollow(base *kb.Base, f *Frame, q Query) (Query, bool) {
	if f == nil || f.Query.AdviceTopic == "" || base == nil {
		return q, false
	}
	if f.Query.AdviceTopic == kb.TopicCardChoice {
		return cardFollow(f, q)
	}
	topic := f.Query.AdviceTopic
	t, ok := base.Topic(topic)
	if !ok || q.Retention && q.Intent == understand.IntentPrices && !q.Still {
		// "多久会被释放" after talk of storage fees: how long the
		// platforms keep data, a question of its own.
		return q, false
	}
	if q.Resolved && !q.Still && !q.OwnAsk && !q.AsksWhy && !HasSubject(q) && q.OOM == nil && (q.KB == nil || q.KB.Best == nil) && !slices.Contains(q.Verbs, q.Intent) {
		// "已经好了 谢谢", "好了 原来是别的进程占着": solved; a thanks,
		// not more steps or an out-of-scope answer.
		m := q
		m.Intent, m.Topic, m.Confidence, m.Alternatives, m.SmallTalk = understand.IntentChitChat, "", 1, nil, understand.SmallTalkThanks
		m.English = Language(f.Query.Restore(), q)
		return m, true
	}
	_, branch, named := base.FindingOf(topic, q.Findings)
	job := jobSaid(q, t)
	named = named && !job
	report := reportsOn(q, topic) || job || platformReport(q)
	worked := q.WorkedBefore && !q.OwnAsk && !named
	fit := !named && fitAsked(f, q, t)
	ask := !named && !worked && !fit && topicAsk(q, topic)
	if !named && !report && !worked && !fit && !ask && ownQuestion(q, topic) {
		return q, false
	}
	m := f.Query.Restore()
	m.Intent, m.Topic, m.Confidence, m.Alternatives, m.Score = understand.IntentAdvice, topic, 1, nil, max(f.Query.Score, q.Score)
	m.Problems, m.Issues, m.Conditions, m.YesNo = q.Problems, q.Issues, nil, q.YesNo
	m.English = Language(m, q)
	m.Verbs = nil
	switch {
	case named:
		m.AdviceBranch = branch
		if q.Still {
			// "开了fp16也不行": what that fix does, then what is left to try.
			m.AdviceNext, m.AdviceShown = true, f.Query.AdviceShown
		}
	case fit:
		// "batch改成1还会爆吗": the job at the settings asked, its verdict.
		MergeParams(&m, q, func(ok bool, f func()) {
			if ok {
				f()
			}
		})
		m.AdviceFit, m.AdviceShown = true, f.Query.AdviceShown
	case worked:
		// "it worked yesterday though": what changes between two runs,
		// then the steps not yet given.
		m.AdviceWorked, m.AdviceShown = true, f.Query.AdviceShown
	case q.Intent == understand.IntentAdvice && q.Topic == kb.TopicCardChoice:
		// "那换什么卡": the cards for the job the paste gave (a card it
		// names kept: "3090够吗").
		m.Topic, m.KB = kb.TopicCardChoice, nil
		if len(q.GPUs) > 0 {
			m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily
		} else {
			m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = "", nil, nil, false
		}
	case ask:
		// "怎么定位是哪一行": the step it asks about, then the others.
		m.AdviceAsk, m.AskWords = q.Asked, q.AskWords
	case q.Still || q.OtherWays || q.Intent == understand.IntentAdvice && q.Topic == topic:
		m.AdviceNext, m.AdviceShown = true, f.Query.AdviceShown
	case report && t.Tie == kb.TieOOM && (HasJob(q) || len(q.GPUs) > 0):
		// "模型是7B的", "我用的是4090": the OOM answer again with the job
		// (or card) it brings, so its estimate says what fits.
		MergeParams(&m, q, func(ok bool, f func()) {
			if ok {
				f()
			}
		})
		if q.Model != "" || q.ModelText != "" {
			m.Model, m.ParamsB, m.ModelText = q.Model, q.ParamsB, q.ModelText
		}
	case report:
		// "batch 已经是1了", "我装的是 cuda 12.1", "eval 的时候爆的": the
		// same problem, the steps not yet given.
		m.AdviceNext, m.AdviceShown = true, f.Query.AdviceShown
	default:
		return q, false
	}
	return m, true
}

// jobSaid reports whether q, after an OOM answer, says the job that ran
// out of memory without asking ("I'm fine-tuning mistral 7b full params
// with batch 8 on a 4090", "他在两张3090上全参微调7B"): the OOM answer again
// with its estimate, not an estimate of its own nor a branch its words
// name ("两张").
func jobSaid(q Query, t *kb.Topic) bool {
	return t.Tie == kb.TieOOM && (q.Model != "" || q.ParamsB > 0) && !q.Question && q.YesNo == nil && q.OOM == nil &&
		!slices.Contains(q.Verbs, q.Intent)
}

// fitAsked reports whether q asks, after an OOM answer about a job,
// whether that job fits at the settings q names ("batch改成1还会爆吗",
// "seq 2048 还会 oom 吗"): a question with a job setting and no job,
// card or platform of its own.
func fitAsked(f *Frame, q Query, t *kb.Topic) bool {
	settings := q.Batch > 0 || q.SeqLen > 0 || q.Bits > 0 || q.LoRARank > 0
	asks := q.OwnAsk || q.YesNo != nil || strings.HasSuffix(strings.TrimSpace(q.Asked), "?")
	return t.Tie == kb.TieOOM && asks && settings && HasJob(f.Query.Restore()) &&
		!HasJob(q) && len(q.GPUs) == 0 && len(q.Platforms) == 0
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
	case understand.IntentAdvice, understand.IntentMore, understand.IntentUnknown, understand.IntentClarify, understand.IntentHelp, understand.IntentChitChat:
		return false
	}
	return q.Confidence >= acceptSure && (HasSubject(q) || !q.Still && !q.OtherWays)
}

// reportsOn reports whether q, after a troubleshooting answer about
// topic, reports what the member found, has or tried and asks nothing of
// its own ("batch 已经是1了还是爆", "开了fp16也不行", "我装的是 cuda 12.1",
// "eval 的时候爆的", "换了A100还是爆"): not a paste of its own (an error
// line, a printed error of another topic, an OOM report after another
// topic), not a money or stock question ("那4090多少钱").
func reportsOn(q Query, topic string) bool {
	if !q.Still && !q.Finding || q.OwnAsk && q.Intent != understand.IntentAdvice || slices.Contains(q.Verbs, q.Intent) {
		// An action said outright ("已经烦死了 静音 2小时") is done, not
		// read as a finding.
		return false
	}
	if q.OOM != nil && topic != kb.TopicOOM {
		return false
	}
	if b := q.KB; b != nil && b.Best != nil && b.Best.Strong && b.Best.Topic.ID != topic {
		return false
	}
	text := strings.TrimSpace(q.Asked)
	return !strings.Contains(text, "\n") && !language.ErrorLine(catalog.Fold(text))
}

// topicAsk reports whether q, after a troubleshooting answer about
// topic, asks how to do one of its fixes or which ("怎么定位是哪一行",
// "镜像咋设", "what should I try first", "how do I install it on AutoDL"):
// no card, job or error of its own, no other topic it names for sure,
// and no money or stock question.
func topicAsk(q Query, topic string) bool {
	if !q.TopicAsk || q.Still || q.OtherWays || len(q.GPUs) > 0 || HasJob(q) || q.OOM != nil || slices.Contains(q.Verbs, q.Intent) {
		return false
	}
	if b := q.KB; b != nil && b.Best != nil && b.Best.Strong && b.Best.Topic.ID != topic {
		return false
	}
	switch q.Intent {
	case understand.IntentStock, understand.IntentEstimate, understand.IntentPlan, understand.IntentCompare, understand.IntentSubscribe,
		understand.IntentFactCheck, understand.IntentDigest:
		return q.Confidence < acceptSure
	case understand.IntentPrices:
		return q.Confidence < acceptSure || !q.OwnAsk
	}
	text := strings.TrimSpace(q.Asked)
	return !strings.Contains(text, "\n") && !language.ErrorLine(catalog.Fold(text))
}

// platformReport reports whether q, after a troubleshooting answer,
// only says where it runs ("是AutoDL的", "租的矩池云", "租的AutoDL 4090"):
// a platform, at most one card, no job, no question of its own.
func platformReport(q Query) bool {
	if len(q.Platforms) == 0 || len(q.GPUs) > 1 || HasJob(q) || q.OwnAsk || q.Aspect != "" || q.YesNo != nil || len(q.Verbs) > 0 {
		return false
	}
	switch q.Intent {
	case understand.IntentClarify, understand.IntentUnknown, understand.IntentPrices, understand.IntentStock:
		return q.Confidence < 1 || q.Bare
	}
	return false
}

// acceptSure is the confidence at which another intent's reading wins
// over continuing the topic.
const acceptSure = 0.5

// cardFollow reads a card question after a card choice for a workload
// ("SDXL LoRA 训练用啥卡" → "3090够吗", "is a 3090 enough"): the card asked
// about, for that workload (its verdict on the workload's memory).
func cardFollow(f *Frame, q Query) (Query, bool) {
	w := f.Query.KBWorkload
	if w == "" || q.Intent != understand.IntentAdvice || q.Topic != kb.TopicCardChoice || HasJob(q) || len(q.GPUs) == 0 {
		return q, false
	}
	m := q
	m.KBWorkload, m.Workload, m.Asked = w, f.Query.Workload, f.Query.Asked
	m.WorkloadModel, m.WorkloadDataset = f.Query.WorkloadModel, f.Query.WorkloadDataset
	m.English = Language(f.Query.Restore(), q)
	return m, true
}
