package commands

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/catalog"
)

// Intents the parser recognises. JSON answers carry them as "intent".
const (
	IntentStock    = "stock"
	IntentEstimate = "estimate"
	IntentPrices   = "prices"
	IntentHelp     = "help"
	IntentUnknown  = "unknown"
	// Stock alert intents.
	IntentSubscribe     = "subscribe"
	IntentUnsubscribe   = "unsubscribe"
	IntentSubscriptions = "subscriptions"
	IntentMute          = "mute"
)

// Query is a parsed question: the intent and every parameter found. Zero
// values mean "not given".
type Query struct {
	Intent string `json:"intent"`
	// GPU is a catalog GPU id, or a family ("A100") when GPUFamily is set;
	// GPUs lists every GPU id the question covers.
	GPU       string   `json:"gpu,omitempty"`
	GPUFamily bool     `json:"gpu_family,omitempty"`
	GPUs      []string `json:"gpus,omitempty"`
	// UnknownGPU is a GPU-like name the catalog does not know ("3090 ti",
	// "b200"); answers name it instead of guessing.
	UnknownGPU string `json:"unknown_gpu,omitempty"`
	// Platform is the first catalog platform id named; Platforms lists all
	// of them ("autodl 和 恒源云").
	Platform  string   `json:"platform,omitempty"`
	Platforms []string `json:"platforms,omitempty"`
	// MaxPriceCNY is a price ceiling, CNY per GPU-hour.
	MaxPriceCNY float64 `json:"max_price_cny,omitempty"`
	// Model is a catalog model id; ModelText the unknown name the user
	// wrote when no catalog model matched.
	Model     string  `json:"model,omitempty"`
	ModelText string  `json:"model_text,omitempty"`
	ParamsB   float64 `json:"params_b,omitempty"`
	// Method is full, lora, qlora or inference.
	Method  string `json:"method,omitempty"`
	Bits    int    `json:"bits,omitempty"`
	SeqLen  int    `json:"seq_len,omitempty"`
	Batch   int    `json:"batch,omitempty"`
	Samples int    `json:"samples,omitempty"`
	// TokensPerSample is the average length of one training sample.
	TokensPerSample int `json:"tokens_per_sample,omitempty"`
	// Tokens is the dataset size in tokens (one epoch).
	Tokens float64 `json:"tokens,omitempty"`
	// LoRARank is the LoRA rank r.
	LoRARank int `json:"lora_rank,omitempty"`
	// LoRATargets is "attn" or "qv" when the question names them.
	LoRATargets string `json:"lora_targets,omitempty"`
	// Optimizer is "bf16" (pure bf16) or "adamw8bit" when named.
	Optimizer string `json:"optimizer,omitempty"`
	// NoGradCkpt and NoFlashAttn turn off gradient checkpointing and
	// FlashAttention; ZeRO is 2 or 3 when named.
	NoGradCkpt  bool    `json:"no_grad_ckpt,omitempty"`
	NoFlashAttn bool    `json:"no_flash_attn,omitempty"`
	ZeRO        int     `json:"zero,omitempty"`
	Epochs      float64 `json:"epochs,omitempty"`
	GPUCount    int     `json:"gpu_count,omitempty"`
	// MinFree is the fewest free GPUs a subscription wants ("至少2张").
	MinFree int `json:"min_free,omitempty"`
	// Region is a region a subscription is limited to ("西北", "quebec").
	Region string `json:"region,omitempty"`
	// All is "unsubscribe all"; SubRef names one subscription to cancel
	// (its number in "我的订阅" or its id).
	All    bool   `json:"all,omitempty"`
	SubRef string `json:"sub_ref,omitempty"`
	// SizeGB is a disk size in GB (1e9 bytes) for storage_add and
	// storage_resize; DiskRef the disk's number in the lab's list; Note the
	// rest of a storage_add ("实验数据"); Mine limits storage_list to the
	// sender's disks.
	SizeGB  float64 `json:"size_gb,omitempty"`
	DiskRef string  `json:"disk,omitempty"`
	Note    string  `json:"note,omitempty"`
	Mine    bool    `json:"mine,omitempty"`
	// Week is an ISO week ("2026-W48") for a digest; LastWeek asks for the
	// week before the current one.
	Week     string `json:"week,omitempty"`
	LastWeek bool   `json:"last_week,omitempty"`
	// MuteMinutes is how long "静音 2小时" mutes the chat; 0 with intent
	// mute means unmute.
	MuteMinutes int `json:"mute_minutes,omitempty"`
	// Topic is the advice entry id (intent advice; empty when nothing
	// matched well enough) and Score its confidence in [0, 1).
	Topic string  `json:"topic,omitempty"`
	Score float64 `json:"score,omitempty"`
	// English is true when the question, apart from platform, model and
	// GPU names, has Latin letters and no Chinese characters.
	English bool `json:"english"`
	// Problems are parts of the question that were not understood or not
	// used, each one short sentence for the answer ("batch 0 无效").
	Problems []string `json:"problems,omitempty"`

	// sizeB is a bare size ("7B") kept even when it is not used as
	// ParamsB, so a follow-up can answer "多大参数量？".
	sizeB float64
	// switchTo is set for "用4090", "换成 A100", "在恒源云呢": a message that
	// changes the card or platform of the previous question.
	switchTo bool
	// match and text are the advice match and the original text (intent
	// advice).
	match *advice.Result
	text  string
}

// number: digits with optional decimals, or Chinese numerals.
const numPat = `(\d+(?:\.\d+)?|[零一二两三四五六七八九十百]+)`

var (
	reHelp = regexp.MustCompile(`^\s*(?:/?help(?: me)?|帮助|菜单|menu|commands|怎么用|使用说明|用法|说明|你能做什么|你会什么|what can you do|usage|\?|？|h)\s*[!！?？.。]*\s*$`)

	reMaxPrice = []*regexp.Regexp{
		regexp.MustCompile(`(?:低于|不超过|不高于|小于|少于|便宜于|under|below|less than|cheaper than|max|at most|<=?|≤|≦)\s*[¥￥$]?\s*` + numPat + `\s*(?:块钱|块|元|rmb|cny|yuan|¥|usd|dollars?|美元|美金|刀)?`),
		regexp.MustCompile(`[¥￥$]?\s*` + numPat + `\s*(?:块钱|块|元|rmb|cny|yuan|usd|dollars?|美元|美金|刀)?\s*(?:(?:/|每|一)\s*(?:个)?\s*(?:h|小时|时|hr|hour))?\s*(?:以下|以内|之内|之下|一下|or less|or cheaper|及以下)`),
	}
	// reCurrency marks a number as money.
	reCurrency = regexp.MustCompile(`[¥￥$]|块|元|rmb|cny|yuan|usd|dollar|美元|美金|刀|/\s*(?:h|小时|hr)`)
	// reUSD marks a price ceiling given in US dollars ("under $0.3/hr").
	reUSD     = regexp.MustCompile(`\$|usd|dollar|美元|美金|刀`)
	reSamples = []*regexp.Regexp{
		regexp.MustCompile(numPat + `\s*(万|千|w|k|m)?\s*(?:条|个样本|个样例|样本|数据|组|samples?|examples?|rows?|records?|instructions?|conversations?)`),
		// "数据5w", "数据量 10万条", "samples=50k"
		regexp.MustCompile(`(?:数据量?|样本数?|samples?)\s*[=:：]?\s*` + numPat + `\s*(万|千|w|k|m)?\s*(?:条)?(?:[^a-z0-9.]|$)`),
	}
	reTokens = regexp.MustCompile(numPat + `\s*(万|亿|千|k|m|b|million|billion)?\s*(?:个\s*)?tokens?`)
	// rePerSample is a sample length: "每条1000 tokens", "平均 512 token",
	// "512 tokens per sample", "10k samples of 1024 tokens".
	rePerSample = []*regexp.Regexp{
		regexp.MustCompile(`(?:每条|每个样本|每条数据|平均|average|avg|about|约|大概)\s*(?:约|大概|长度)?\s*(\d+)\s*(k)?\s*(?:个\s*)?tokens?`),
		regexp.MustCompile(`(\d+)\s*(k)?\s*tokens?\s*(?:每条|/条|一条|per sample|per example|each|/sample)`),
		// The sample count's word stays for the samples rule: only the
		// "of 1024 tokens" tail is consumed (group 3 spans it).
		regexp.MustCompile(`(?:samples?|examples?|条)\s*((?:of|x|×|,|，|\*)\s*(\d+)\s*(k)?\s*tokens?)`),
	}
	reRank = regexp.MustCompile(`(?:rank|秩|lora[\s_-]?r)\s*[=:：]?\s*(\d+)|(?:^|[^a-z])r\s*=\s*(\d+)`)
	// reGPUish is a GPU-like name: "3080", "rtx 3090 ti", "b200", "h20e".
	reGPUish = regexp.MustCompile(`(?:^|[^a-z0-9.])((?:rtx\s*|gtx\s*)?[1-9]0[5-9]0(?:\s*(?:ti|super))?|(?:[abhltpk]|mi)\d{2,3}[a-z]?)(?:[^a-z0-9.]|$)`)
	// reCountUnit follows a number that is a count, not a price.
	reCountUnit = regexp.MustCompile(`^\s*(?:万|千|亿|条|个|张|块卡|卡|台|轮|遍|epoch|token|样本|数据|g\b|gb|b\b|k\b|w\b)`)
	reEpochs    = []*regexp.Regexp{
		regexp.MustCompile(numPat + `\s*(?:个)?\s*(?:epochs?|轮|遍)`),
		regexp.MustCompile(`(?:epochs?|轮数)\s*[=:：]?\s*` + numPat),
	}
	reSeq = []*regexp.Regexp{
		regexp.MustCompile(`(?:seq(?:uence)?(?:[\s_-]*len(?:gth)?)?|max[\s_-]*len(?:gth)?|cutoff[\s_-]*len|序列长度|序列|上下文长度|上下文|context(?:[\s_-]*length)?|ctx)\s*[=:：]?\s*(\d+)\s*(k)?`),
		regexp.MustCompile(`(\d+)\s*(k)?\s*(?:的)?\s*(?:上下文|context|ctx|长度|序列|tokens? context)`),
	}
	reBatch = regexp.MustCompile(`(?:batch(?:[\s_-]*size)?|bs|批大小|批次大小|批量|并发数?|concurrency|concurrent(?:\s*requests)?)\s*[=:：]?\s*(-?\d+)`)
	reBits  = regexp.MustCompile(`(?:(\d+)\s*-?\s*(?:bit|位|比特))|int\s*(4|8)|(fp16|bf16|fp32|nf4|awq|gptq)`)
	reCount = []*regexp.Regexp{
		regexp.MustCompile(numPat + `\s*(?:张|块|个|台|卡)\s*(?:卡)?\s*$`),
		regexp.MustCompile(`(?:^|[^a-z0-9.])` + numPat + `\s*[x×*]\s*$`),
		regexp.MustCompile(`^\s*(?:[x×*]\s*` + numPat + `|` + numPat + `\s*(?:张|台))`),
		regexp.MustCompile(numPat + `\s*(?:张|块|个|台)?\s*(?:(?:gpus?|cards?)\b|显?卡)`),
		regexp.MustCompile(`(单|双|四|八)卡`),
	}
	reParams = []*regexp.Regexp{
		regexp.MustCompile(`(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)\s*b(?:illion)?(?:[^a-z0-9]|$)`),
		regexp.MustCompile(numPat + `\s*(亿|十亿|百亿)\s*(?:参数|参数量)?`),
	}
	reCJK = regexp.MustCompile(`\p{Han}`)
	// reSwitch is a short message switching card or platform: "用4090",
	// "换成A100", "在恒源云呢", "on autodl instead", "what about a 3090".
	reSwitch = regexp.MustCompile(`^\s*(?:那|那么|如果)?\s*(?:用|换成|换|改用|改成|在|on|with|use|using|what about|how about|and)\b?.{0,24}$|^.{0,24}(?:呢|instead)\s*[?？]?\s*$`)
	// Alert phrasing.
	reMute        = regexp.MustCompile(`(?:静音|免打扰|mute|snooze)\s*(?:for)?\s*(\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)?\s*(个)?\s*(小时|钟头|h|hours?|hrs?|分钟|min(?:ute)?s?|m|天|d|days?)?`)
	reUnmute      = regexp.MustCompile(`取消静音|解除静音|unmute|un-mute|恢复提醒`)
	reUnsubscribe = regexp.MustCompile(`取消订阅|退订|取消提醒|不用提醒|别提醒|unsubscribe|cancel (?:my )?(?:subscription|alert)s?|stop (?:notifying|alerting)`)
	reListSubs    = regexp.MustCompile(`我的订阅|订阅列表|查看订阅|有哪些订阅|my subscriptions|list (?:my )?subscriptions|my alerts`)
	// "告诉我哪家有4090" is a question: 告诉我 and "let me know" subscribe
	// only with a when-word (有货, 降价, 的时候, when).
	reSubscribe = regexp.MustCompile(`订阅|提醒我|通知我|叫我|喊我|notify me|alert me|ping me|tell me when|subscribe|watch for|(?:告诉我|let me know).*(?:有货|降价|便宜了|的时候|when|once)|(?:有货|降价|便宜了|的时候).*(?:告诉我|let me know)|(?:let me know|tell me) (?:when|once|if)`)
	reMinFree   = regexp.MustCompile(`(?:至少|不少于|最少|at least|min(?:imum)?)\s*` + numPat + `\s*(?:张|块|个|台|gpus?|cards?)|` + numPat + `\s*(?:张|块|台)\s*(?:以上|及以上|起)`)
	reMinFreeEN = regexp.MustCompile(`(\d+|two|three|four|eight)\s+(?:[a-z0-9 ]*?)(?:s|gpus|cards)?\s+(?:are|is)\s+free`)
	reRegion    = regexp.MustCompile(`(?:地区|区域|region|机房)\s*[:：=]?\s*([\p{Han}a-z0-9-]+)|(西北|北京|内蒙|佛山|重庆|扬州|华东|华北|华南|西南|宁夏|芜湖|杭州|上海|深圳|广州)[a-z]?区?`)
	reSubRef    = regexp.MustCompile(`(?:^|\s|订阅|#|第)\s*(s-[a-z0-9]+|\d{1,3})\s*(?:个|号)?\s*$`)
	// rePriceWord marks a price condition the ceiling rules did not take.
	rePriceWord = regexp.MustCompile(`低于|不超过|小于|以下|under|below|less than|cheaper than`)
	// reCountEN is an English count right before a GPU name ("one 4090").
	reCountEN = regexp.MustCompile(`(?:^|\s)(one|a single|single|two|four|eight)\s*$`)
	// Training switches: LoRA targets, optimizer, recomputation, attention
	// kernel, ZeRO stage.
	reQV       = regexp.MustCompile(`q_?proj\s*[+,/和与&]\s*v_?proj|\bqv\b|只训?\s*q\s*[,、和]?\s*v`)
	reAttnOnly = regexp.MustCompile(`(?:only|只)\s*(?:attention|注意力)|attention only|注意力层`)
	re8bitAdam = regexp.MustCompile(`8\s*-?\s*bit\s*adam|adamw?\s*8\s*-?\s*bit|paged\s*adam|8\s*位\s*(?:adam|优化器)`)
	rePureBF16 = regexp.MustCompile(`pure[\s_-]*bf16|纯\s*bf16`)
	reNoCkpt   = regexp.MustCompile(`(?:no|without|不开|关闭|关掉|不用|disable)\s*(?:the\s*)?(?:gradient|grad|梯度)[\s_-]*(?:checkpointing|ckpt|checkpoint|检查点)`)
	reNoFlash  = regexp.MustCompile(`(?:no|without|不开|关闭|不用|disable)\s*(?:flash[\s_-]*attn|flash[\s_-]*attention|fa2?\b)`)
	reZeRO     = regexp.MustCompile(`zero[\s_-]*(?:stage)?[\s_-]*([23])`)
	// reLatin is an English word of two letters or more.
	reLatin = regexp.MustCompile(`[a-z]{2,}`)
	// reVariant is a suffix naming a GPU variant: "ti", "super".
	reVariant = regexp.MustCompile(`^\s*(ti|super)\b`)
	// rePretrain is a pretraining job, not a "pretrained" model.
	rePretrain = regexp.MustCompile(`pre-?train(?:ing)?\b`)
	// modelish catches a model-like name the catalog does not know:
	// letters followed by a size ("foo-13b", "mymodel 7b").
	reModelish = regexp.MustCompile(`([a-z][a-z0-9.]*(?:-[a-z0-9.]+)*?)[-_]?(\d+(?:\.\d+)?)b\b`)
)

var (
	kwEstimate  = []string{"多少钱", "多少米", "费用", "花费", "成本", "要多久", "多久", "多长时间", "几个小时", "how much", "cost", "price it", "budget", "预算", "显存", "vram", "memory", "内存", "够不够", "能不能跑", "能跑", "fit", "oom", "估算", "估计", "estimate", "跑", "run "}
	kwTrain     = []string{"qlora", "lora", "微调", "finetune", "fine-tune", "fine tune", "fine-tuning", "finetuning", "sft", "训练", "train", "全量", "全参", "full", "推理", "部署", "inference", "serve", "serving", "deploy", "预训练", "pretrain"}
	kwPrices    = []string{"价格表", "价目", "报价", "price list", "prices", "pricing", "收费", "计费", "怎么收费", "list price", "定价", "价格", "price", "billing", "rates", "数据盘", "存储", "硬盘", "data disk", "storage"}
	kwStockWord = []string{"有货", "有吗", "有没有", "还有", "哪家", "哪里", "哪个平台", "哪些平台", "在哪", "便宜", "available", "in stock", "which platform", "where", "any ", "cheapest", "cheap", "stock", "sold out", "售罄", "抢", "库存", "空闲", "free", "租"}
)

// containsAny reports whether s contains one of kws. A keyword that starts
// or ends with an ASCII letter must not be glued to further letters there
// ("oom" is not in "room", "train" is not in "trainee").
func containsAny(s string, kws []string) bool {
	for _, k := range kws {
		for from := 0; from < len(s); {
			i := strings.Index(s[from:], k)
			if i < 0 {
				break
			}
			i += from
			end := i + len(k)
			okStart := i == 0 || !isASCIILetter(k[0]) || !isASCIILetter(s[i-1])
			okEnd := end == len(s) || !isASCIILetter(k[len(k)-1]) || !isASCIILetter(s[end]) || strings.HasSuffix(k, "train") || strings.HasSuffix(k, "tune")
			if okStart && okEnd {
				return true
			}
			from = i + 1
		}
	}
	return false
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// cnDigits maps Chinese numerals to values.
var cnDigits = map[rune]float64{'零': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

// parseNum parses "12", "1.5", "三", "十二", "二十", "一百".
func parseNum(s string) (float64, bool) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return v, !math.IsInf(v, 0) && !math.IsNaN(v)
	}
	var total, cur float64
	seen := false
	for _, r := range s {
		if d, ok := cnDigits[r]; ok {
			cur, seen = d, true
			continue
		}
		switch r {
		case '十':
			if cur == 0 {
				cur = 1
			}
			total += cur * 10
			cur = 0
			seen = true
		case '百':
			if cur == 0 {
				cur = 1
			}
			total += cur * 100
			cur = 0
			seen = true
		default:
			return 0, false
		}
	}
	return total + cur, seen
}

func mult(unit string) float64 {
	switch unit {
	case "万", "w":
		return 1e4
	case "千", "k":
		return 1e3
	case "亿":
		return 1e8
	case "十亿":
		return 1e9
	case "百亿":
		return 1e10
	case "m", "million":
		return 1e6
	case "b", "billion":
		return 1e9
	}
	return 1
}

// blank replaces the byte span [a,b) of s with spaces, keeping offsets.
func blank(s string, a, b int) string {
	return s[:a] + strings.Repeat(" ", b-a) + s[b:]
}

// Parse turns a question into a Query. It never panics and always returns
// an intent; unparseable text yields IntentUnknown. Of a message longer
// than MaxQuestion bytes it reads the first and last MaxQuestion/2.
func Parse(c *catalog.Catalog, text string) Query {
	var q Query
	s := catalog.Fold(text)
	s = strings.ToValidUTF8(s, " ")
	s = questionPart(s)
	if strings.TrimSpace(s) == "" {
		q.Intent = IntentHelp
		return q
	}
	q.English = reLatin.MatchString(s) && !reCJK.MatchString(s)
	if parseStorage(c, &q, s) {
		return q
	}
	q.English = false
	if reHelp.MatchString(s) {
		// "/help" is a command, not English: Chinese first.
		q.English = reLatin.MatchString(s) && !reCJK.MatchString(s) && !strings.HasPrefix(strings.TrimSpace(s), "/")
		q.Intent = IntentHelp
		return q
	}

	// Platforms first ("AutoDL 的 4090"), then models (their names contain
	// sizes such as "7b"), then GPUs; each found span is blanked so later
	// number rules do not see "4090" or "2.5" inside names.
	rest := s
	gpuNames := c.FindGPUs(s)
	for _, m := range c.FindPlatforms(rest) {
		if within(m, gpuNames) {
			// "昇腾910B" names the chip, not the 昇腾 platform.
			continue
		}
		if q.Platform == "" {
			q.Platform = m.ID
		}
		if !containsStr(q.Platforms, m.ID) {
			q.Platforms = append(q.Platforms, m.ID)
		}
		rest = blank(rest, m.Start, m.End)
	}
	for _, m := range c.FindModels(rest) {
		if q.Model == "" {
			q.Model = m.ID
		}
		rest = blank(rest, m.Start, m.End)
	}
	gpuMatches := c.FindGPUs(rest)
	for i, m := range gpuMatches {
		if i == 0 {
			q.GPU, q.GPUFamily = m.ID, m.Family
		}
		for _, id := range c.FamilyMembers(m.ID) {
			if !containsStr(q.GPUs, id) {
				q.GPUs = append(q.GPUs, id)
			}
		}
	}
	// GPU count just before the first GPU name: "两张4090", "2x 4090".
	if len(gpuMatches) > 0 {
		before := rest[:gpuMatches[0].Start]
		if len(before) > 24 {
			before = before[len(before)-24:]
			before = strings.ToValidUTF8(before, "")
		}
		after := rest[gpuMatches[0].End:]
		if len(after) > 12 {
			after = strings.ToValidUTF8(after[:12], "")
		}
		if m := reCountEN.FindStringSubmatch(before); m != nil {
			q.GPUCount = map[string]int{"one": 1, "a single": 1, "single": 1, "a": 1, "an": 1, "two": 2, "four": 4, "eight": 8}[m[1]]
		}
		for i, re := range reCount[:3] {
			if q.GPUCount > 0 {
				break
			}
			target := before
			if i == 2 {
				target = after
			}
			if m := re.FindStringSubmatch(target); m != nil {
				if len(m) > 2 && m[1] == "" {
					m[1] = m[2] // "4090 两张"
				}
				if v, ok := parseNum(m[1]); ok && v >= 1 && v <= 64 {
					q.GPUCount = int(v)
					break
				}
			}
		}
	}
	for _, m := range gpuMatches {
		// "3090 ti", "4090 super": a variant the catalog does not have.
		if sm := reVariant.FindStringSubmatch(rest[m.End:]); sm != nil && q.UnknownGPU == "" {
			q.UnknownGPU = strings.TrimSpace(s[m.Start:m.End] + " " + sm[1])
		}
		rest = blank(rest, m.Start, m.End)
	}
	if q.UnknownGPU == "" && len(gpuMatches) == 0 {
		if m := reGPUish.FindStringSubmatch(rest); m != nil {
			q.UnknownGPU = strings.TrimSpace(m[1])
		}
	}
	// Language: judge the words around the names, so "how much is a 4090 on
	// 恒源云" is English and "A100 80G 哪家便宜" Chinese.
	q.English = reLatin.MatchString(rest) && !reCJK.MatchString(rest)
	if q.GPUCount == 0 {
		if m := reCount[3].FindStringSubmatch(rest); m != nil {
			if v, ok := parseNum(m[1]); ok && v >= 1 && v <= 64 {
				q.GPUCount = int(v)
			}
		} else if m := reCount[4].FindStringSubmatch(rest); m != nil {
			q.GPUCount = map[string]int{"单": 1, "双": 2, "四": 4, "八": 8}[m[1]]
		}
	}

	// Price ceiling.
	for _, re := range reMaxPrice {
		if loc := re.FindStringSubmatchIndex(rest); loc != nil {
			// "少于5万条" is a count: without a currency the number must not
			// be followed by a count unit.
			if !reCurrency.MatchString(rest[loc[0]:loc[1]]) && reCountUnit.MatchString(rest[loc[3]:]) {
				continue
			}
			if v, ok := parseNum(rest[loc[2]:loc[3]]); ok && v > 0 && v < 1000 {
				if reUSD.MatchString(rest[loc[0]:loc[1]]) && c.FXUSDCNY > 0 {
					v *= c.FXUSDCNY
				}
				q.MaxPriceCNY = v
				rest = blank(rest, loc[0], loc[1])
				break
			}
		}
	}
	// Sequence length before tokens ("seq_len 4096 tokens", "上下文 4096
	// tokens"), tokens before samples ("1.5亿 tokens").
	for _, re := range reSeq {
		if loc := re.FindStringSubmatchIndex(rest); loc != nil {
			v, err := strconv.Atoi(rest[loc[2]:loc[3]])
			if err == nil && v > 0 {
				if loc[4] >= 0 {
					v *= 1024
				}
				if v <= 1<<21 {
					q.SeqLen = v
				}
				rest = blank(rest, loc[0], loc[1])
				break
			}
		}
	}
	for i, re := range rePerSample {
		if loc := re.FindStringSubmatchIndex(rest); loc != nil {
			if i == 2 {
				// Drop the tail group so [2:3] is the number, [4:5] the k.
				loc = append(loc[:0:0], loc[2], loc[3], loc[4], loc[5], loc[6], loc[7])
			}
			if v, err := strconv.Atoi(rest[loc[2]:loc[3]]); err == nil && v > 0 {
				if loc[4] >= 0 {
					v *= 1000
				}
				if v <= 1<<21 {
					q.TokensPerSample = v
				}
				rest = blank(rest, loc[0], loc[1])
				break
			}
		}
	}
	if loc := reRank.FindStringSubmatchIndex(rest); loc != nil {
		g := 2
		if loc[2] < 0 {
			g = 4
		}
		if v, err := strconv.Atoi(rest[loc[g]:loc[g+1]]); err == nil && v >= 1 && v <= 4096 {
			q.LoRARank = v
		}
		rest = blank(rest, loc[0], loc[1])
	}
	if loc := reTokens.FindStringSubmatchIndex(rest); loc != nil {
		if v, ok := parseNum(rest[loc[2]:loc[3]]); ok && v > 0 {
			unit := ""
			if loc[4] >= 0 {
				unit = rest[loc[4]:loc[5]]
			}
			if n := v * mult(unit); !math.IsInf(n, 0) {
				q.Tokens = n
			}
			rest = blank(rest, loc[0], loc[1])
		}
	}
	for _, re := range reSamples {
		if loc := re.FindStringSubmatchIndex(rest); loc != nil {
			if v, ok := parseNum(rest[loc[2]:loc[3]]); ok && v > 0 {
				unit := ""
				if loc[4] >= 0 {
					unit = rest[loc[4]:loc[5]]
				}
				if n := v * mult(unit); n < 1e12 {
					q.Samples = int(n)
				}
				rest = blank(rest, loc[0], loc[1])
				break
			}
		}
	}
	if q.Samples > 0 && q.Tokens > 0 && q.Tokens < 1e5 && q.TokensPerSample == 0 {
		// "2万条 512 tokens": a sample length, not a dataset size.
		q.TokensPerSample = int(q.Tokens)
		q.Tokens = 0
	}
	for _, re := range reEpochs {
		if loc := re.FindStringSubmatchIndex(rest); loc != nil {
			if v, ok := parseNum(rest[loc[2]:loc[3]]); ok && v > 0 && v <= 1000 {
				q.Epochs = v
				rest = blank(rest, loc[0], loc[1])
				break
			}
		}
	}
	if loc := reBatch.FindStringSubmatchIndex(rest); loc != nil {
		if v, err := strconv.Atoi(rest[loc[2]:loc[3]]); err == nil && v > 0 && v <= 4096 {
			q.Batch = v
		} else {
			q.problem("batch "+rest[loc[2]:loc[3]]+" 无效，按默认值估算", "batch "+rest[loc[2]:loc[3]]+" is not valid; the default is used")
		}
		rest = blank(rest, loc[0], loc[1])
	}
	// The optimizer first: "8-bit AdamW" is not 8-bit weights.
	if loc := re8bitAdam.FindStringIndex(rest); loc != nil {
		q.Optimizer = "adamw8bit"
		rest = blank(rest, loc[0], loc[1])
	} else if loc := rePureBF16.FindStringIndex(rest); loc != nil {
		q.Optimizer = "bf16"
		rest = blank(rest, loc[0], loc[1])
	}
	if m := reBits.FindStringSubmatch(rest); m != nil {
		switch {
		case m[1] != "":
			if v, err := strconv.Atoi(m[1]); err == nil && (v == 4 || v == 8 || v == 16 || v == 32) {
				q.Bits = v
			}
		case m[2] != "":
			q.Bits, _ = strconv.Atoi(m[2])
		case m[3] == "nf4" || m[3] == "awq" || m[3] == "gptq":
			q.Bits = 4
		case m[3] == "fp32":
			q.Bits = 32
		case m[3] != "":
			q.Bits = 16
		}
	}
	// Training switches.
	switch {
	case reQV.MatchString(s):
		q.LoRATargets = "qv"
	case reAttnOnly.MatchString(s):
		q.LoRATargets = "attn"
	}
	q.NoGradCkpt = reNoCkpt.MatchString(s)
	q.NoFlashAttn = reNoFlash.MatchString(s)
	if m := reZeRO.FindStringSubmatch(s); m != nil {
		q.ZeRO, _ = strconv.Atoi(m[1])
	}
	// Method.
	switch {
	case strings.Contains(s, "qlora"):
		q.Method = "qlora"
	case strings.Contains(s, "lora"):
		q.Method = "lora"
	case containsAny(s, []string{"全量", "全参", "full fine", "full-param", "full param", "full ft", "full finetun", "full sft", "full training", "预训练"}),
		rePretrain.MatchString(s):
		// Pretraining updates every weight.
		q.Method = "full"
	case containsAny(s, []string{"推理", "部署", "inference", "serve", "serving", "deploy", "跑推理", "上线"}):
		q.Method = "inference"
	}
	if q.Method == "lora" && q.Bits > 0 && q.Bits < 16 {
		q.Method = "qlora"
	}
	if q.Method == "qlora" && q.Bits >= 16 {
		q.problem(fmt.Sprintf("QLoRA 是 4/8-bit 量化，%d-bit 就是普通 LoRA，按 LoRA 估算", q.Bits),
			fmt.Sprintf("QLoRA means 4- or 8-bit weights; at %d-bit it is plain LoRA, estimated as such", q.Bits))
		q.Method = "lora"
	}
	if q.Method == "full" && q.Bits > 0 && q.Bits < 16 {
		q.problem(fmt.Sprintf("全量微调不能用 %d-bit 权重，按 16-bit 估算；想省显存可以用 QLoRA", q.Bits),
			fmt.Sprintf("a full fine-tune cannot train %d-bit weights; estimated at 16-bit (QLoRA saves memory)", q.Bits))
		q.Bits = 0
	}
	if q.Method == "qlora" && q.Bits == 0 {
		q.Bits = 4
	}
	// Parameter count ("7B", "70亿参数") when no model was named.
	if q.Model == "" {
		if m := reModelish.FindStringSubmatch(rest); m != nil && !isStopword(strings.TrimSpace(m[1])) {
			q.ModelText = strings.TrimSpace(m[0])
		}
		for i, re := range reParams {
			if m := re.FindStringSubmatch(rest); m != nil {
				v, ok := parseNum(m[1])
				if !ok {
					continue
				}
				if i == 1 {
					v = v * mult(m[2]) / 1e9
				}
				if v > 0 && v <= 2000 {
					q.ParamsB = v
					break
				}
			}
		}
	} else if mm, ok := c.Model(q.Model); ok {
		q.ParamsB = mm.ParamsB
		if m := reParams[0].FindStringSubmatch(rest); m != nil {
			if v, ok := parseNum(m[1]); ok && math.Abs(v-mm.ParamsB) > 0.15*mm.ParamsB {
				q.problem(fmt.Sprintf("同时写了 %s 和 %sB，按 %s（%gB）估算", mm.ID, m[1], mm.ID, mm.ParamsB),
					fmt.Sprintf("both %s and %sB given; estimated for %s (%gB)", mm.ID, m[1], mm.ID, mm.ParamsB))
			}
		}
	}

	q.switchTo = reSwitch.MatchString(s) && !containsAny(s, kwStockWord)
	// Stock alerts come first: "4090 有货了提醒我" is not a stock question.
	if alertIntent(&q, s, rest) {
		return q
	}
	// Intent.
	isTrain := containsAny(s, kwTrain)
	hasJob := q.Model != "" || q.ParamsB > 0 || q.ModelText != ""
	switch {
	case hasJob && (isTrain || containsAny(s, kwEstimate) || q.Samples > 0 || q.Tokens > 0 || q.Epochs > 0):
		q.Intent = IntentEstimate
	case (q.Model != "" || q.ModelText != "") && q.GPU == "":
		// A named model alone ("Qwen2.5-7B") asks what it takes; a bare
		// size ("我在3B教室") does not.
		q.Intent = IntentEstimate
	case q.Method != "" && containsAny(s, []string{"几张", "几块", "多少张", "how many", "多少显存", "多大显存"}):
		// "DeepSeek-V3 推理要几张H100": an estimate that needs the size.
		q.Intent = IntentEstimate
	case isTrain && containsAny(s, kwEstimate) && q.GPU == "":
		// "LoRA 要多少钱" without a size: ask for it.
		q.Intent = IntentEstimate
	case q.GPU != "" && containsAny(s, []string{"价格表", "价目", "price list", "list price", "定价"}):
		q.Intent = IntentPrices
	case q.GPU != "" || q.UnknownGPU != "":
		q.Intent = IntentStock
	case q.Platform != "" && containsAny(s, []string{"有货", "还有卡", "有卡", "有没有卡", "有空闲", "in stock", "available", "any gpu", "any card"}):
		// "AutoDL 还有卡吗": every offer on that platform.
		q.Intent = IntentStock
	case q.Platform != "" || containsAny(s, kwPrices):
		if q.Platform != "" || containsAny(s, kwPrices) {
			q.Intent = IntentPrices
		}
	case containsAny(s, kwStockWord) && containsAny(s, []string{"卡", "gpu", "显卡", "card"}):
		q.Intent = IntentStock
	default:
		q.Intent = IntentUnknown
	}
	if q.Intent == IntentStock && q.Method != "" && hasJob {
		q.Intent = IntentEstimate
	}
	if q.Intent != IntentEstimate && q.Model == "" {
		// A size outside an estimate is not a model size ("我在3B教室").
		q.sizeB, q.ParamsB = q.ParamsB, 0
	}
	return q
}

var stopwords = map[string]bool{"a": true, "the": true, "for": true, "of": true, "run": true, "with": true, "on": true, "model": true, "llm": true, "lora": true, "qlora": true, "做": true, "用": true, "train": true, "finetune": true, "how much would": true, "how much": true}

func isStopword(s string) bool {
	if stopwords[s] {
		return true
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return true
	}
	last := f[len(f)-1]
	if stopwords[last] || len(last) < 2 {
		return true
	}
	for _, r := range last {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' {
			return true
		}
	}
	return false
}

// within reports whether m lies inside a longer match of ms.
func within(m catalog.Match, ms []catalog.Match) bool {
	for _, o := range ms {
		if o.Start <= m.Start && m.End <= o.End && o.End-o.Start > m.End-m.Start {
			return true
		}
	}
	return false
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// problem records a part of the question that was not used as written, in
// the question's language.
func (q *Query) problem(zh, en string) {
	if q.English {
		q.Problems = append(q.Problems, en)
	} else {
		q.Problems = append(q.Problems, zh)
	}
}

// alertIntent recognises subscription and mute commands, filling q. It
// returns false when the text is not one.
func alertIntent(q *Query, s, rest string) bool {
	switch {
	case reUnmute.MatchString(s):
		q.Intent = IntentMute
		return true
	case reMute.MatchString(s) && !reSubscribe.MatchString(s):
		m := reMute.FindStringSubmatch(s)
		q.Intent = IntentMute
		q.MuteMinutes = 60 // "静音" alone: one hour
		if m[1] != "" {
			v, ok := parseNum(m[1])
			if strings.Contains(m[1], "半") {
				v, ok = 0.5, true
			}
			if !ok || v <= 0 {
				q.problem("静音时长无效，按 1 小时", "invalid mute duration; muting for 1 hour")
				return true
			}
			unit := m[3]
			switch {
			case strings.HasPrefix(unit, "分") || strings.HasPrefix(unit, "min") || unit == "m":
				q.MuteMinutes = int(v)
			case unit == "天" || strings.HasPrefix(unit, "d"):
				q.MuteMinutes = int(v * 24 * 60)
			default:
				q.MuteMinutes = int(v * 60)
			}
		}
		if q.MuteMinutes > 7*24*60 {
			q.problem("最长静音 7 天", "muting is capped at 7 days")
			q.MuteMinutes = 7 * 24 * 60
		}
		if q.MuteMinutes < 1 {
			q.MuteMinutes = 1
		}
		return true
	case reListSubs.MatchString(s):
		q.Intent = IntentSubscriptions
		return true
	case reUnsubscribe.MatchString(s):
		q.Intent = IntentUnsubscribe
		q.All = strings.Contains(s, "all") || strings.Contains(s, "全部") || strings.Contains(s, "所有") || strings.Contains(s, "全都")
		if q.GPU == "" && !q.All {
			if m := reSubRef.FindStringSubmatch(rest); m != nil {
				q.SubRef = m[1]
			}
		}
		return true
	case reSubscribe.MatchString(s) && (q.GPU != "" || q.UnknownGPU != "" || strings.Contains(s, "订阅")):
		q.Intent = IntentSubscribe
		if q.MaxPriceCNY == 0 && rePriceWord.MatchString(s) {
			q.problem("价格条件没看懂（要在 0 到 1000 元/卡时之间），这个订阅不限价格", "the price limit was not understood (it must be between 0 and 1000 CNY/GPU-h); this subscription has no price limit")
		}
		if m := reMinFree.FindStringSubmatch(rest); m != nil {
			n := m[1]
			if n == "" {
				n = m[2]
			}
			if v, ok := parseNum(n); ok && v >= 1 && v <= 64 {
				q.MinFree = int(v)
				q.GPUCount = 0
			}
		}
		if q.MinFree == 0 {
			if m := reMinFreeEN.FindStringSubmatch(s); m != nil {
				n := map[string]int{"two": 2, "three": 3, "four": 4, "eight": 8}[m[1]]
				if n == 0 {
					n, _ = strconv.Atoi(m[1])
				}
				if n >= 2 && n <= 64 {
					q.MinFree = n
					q.GPUCount = 0
				}
			}
		}
		if m := reRegion.FindStringSubmatch(rest); m != nil {
			q.Region = m[1] + m[2]
		}
		return true
	}
	return false
}
