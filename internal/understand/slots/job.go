package slots

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/textgate"
)

// The job's numbers and switches: sequence length, sample length, LoRA
// rank, dataset size, epochs, batch, optimizer, bits, method and size.
var (
	reSeq = []*textgate.Regexp{
		textgate.MustCompile(`(?:seq(?:uence)?(?:[\s_-]*len(?:gth)?)?|max[\s_-]*len(?:gth)?|cutoff[\s_-]*len|序列长度|序列|上下文长度|上下文|context(?:[\s_-]*length)?|ctx)\s*[=:：]?\s*(\d+)\s*(k)?`),
		textgate.MustCompile(`(\d+)\s*(k)?\s*(?:的)?\s*(?:上下文|context|ctx|长度|序列|tokens? context)`),
	}
	// rePerSample is a sample length: "每条1000 tokens", "平均 512 token",
	// "512 tokens per sample", "10k samples of 1024 tokens".
	rePerSample = []*textgate.Regexp{
		textgate.MustCompile(`(?:每条|每个样本|每条数据|平均|average|avg|about|约|大概)\s*(?:约|大概|长度)?\s*(\d+)\s*(k)?\s*(?:个\s*)?tokens?`),
		textgate.MustCompile(`(\d+)\s*(k)?\s*tokens?\s*(?:每条|/条|一条|per sample|per example|each|/sample)`),
		// The sample count's word stays for the samples rule: only the
		// "of 1024 tokens" tail is consumed (group 3 spans it).
		textgate.MustCompile(`(?:samples?|examples?|条)\s*((?:of|x|×|,|，|\*)\s*(\d+)\s*(k)?\s*tokens?)`),
	}
	reRank    = textgate.MustCompile(`(?:rank|秩|lora[\s_-]?r)\s*[=:：]?\s*(\d+)|(?:^|[^a-z])r\s*=\s*(\d+)`)
	reTokens  = textgate.MustCompile(numPat + `\s*(万|亿|千|k|m|b|million|billion)?\s*(?:个\s*)?tokens?`)
	reSamples = []*textgate.Regexp{
		textgate.MustCompile(numPat + `\s*(万|千|w|k|m)?\s*(?:条|个样本|个样例|样本|数据|组|samples?|examples?|rows?|records?|instructions?|conversations?)`),
		// "数据5w", "数据量 10万条", "samples=50k"
		textgate.MustCompile(`(?:数据量?|样本数?|samples?)\s*[=:：]?\s*` + numPat + `\s*(万|千|w|k|m)?\s*(?:条)?(?:[^a-z0-9.]|$)`),
	}
	reEpochs = []*textgate.Regexp{
		textgate.MustCompile(numPat + `\s*(?:个)?\s*(?:epochs?|轮|遍)`),
		textgate.MustCompile(`(?:epochs?|轮数)\s*[=:：]?\s*` + numPat),
	}
	reBatch = textgate.MustCompile(`(?:batch(?:[\s_-]*size)?|bs|批大小|批次大小|批量|并发数?|concurrency|concurrent(?:\s*requests)?)\s*[=:：]?\s*(-?\d+)`)
	reBits  = textgate.MustCompile(`(?:(\d+)\s*-?\s*(?:bit|位|比特))|int\s*(4|8)|(fp16|bf16|fp32|nf4|awq|gptq)`)
	reQV    = textgate.MustCompile(`q_?proj\s*[+,/和与&]\s*v_?proj|\bqv\b|只训?\s*q\s*[,、和]?\s*v`)
	// Training switches: LoRA targets, optimizer, recomputation, attention
	// kernel, ZeRO stage.
	reAttnOnly = textgate.MustCompile(`(?:only|只)\s*(?:attention|注意力)|attention only|注意力层`)
	re8bitAdam = textgate.MustCompile(`8\s*-?\s*bit\s*adam|adamw?\s*8\s*-?\s*bit|paged\s*adam|8\s*位\s*(?:adam|优化器)`)
	rePureBF16 = textgate.MustCompile(`pure[\s_-]*bf16|纯\s*bf16`)
	reNoCkpt   = textgate.MustCompile(`(?:no|without|不开|关闭|关掉|不用|disable)\s*(?:the\s*)?(?:gradient|grad|梯度)[\s_-]*(?:checkpointing|ckpt|checkpoint|检查点)`)
	reNoFlash  = textgate.MustCompile(`(?:no|without|不开|关闭|不用|disable)\s*(?:flash[\s_-]*attn|flash[\s_-]*attention|fa2?\b)`)
	reZeRO     = textgate.MustCompile(`zero[\s_-]*(?:stage)?[\s_-]*([23])`)
	reParams   = []*textgate.Regexp{
		textgate.MustCompile(`(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)\s*b(?:illion)?(?:[^a-z0-9]|$)`),
		textgate.MustCompile(numPat + `\s*(亿|十亿|百亿)\s*(?:参数|参数量)?`),
	}
	// rePretrain is a pretraining job, not a "pretrained" model.
	rePretrain = textgate.MustCompile(`pre-?train(?:ing)?\b`)
	// reModelish catches a model-like name the catalog does not know:
	// letters followed by a size ("foo-13b", "mymodel 7b").
	reModelish = textgate.MustCompile(`([a-z][a-z0-9.]*(?:-[a-z0-9.]+)*?)[-_]?(\d+(?:\.\d+)?)b\b`)
	// reHanModel is a Chinese model name joined to its size ("某某-13B").
	reHanModel = textgate.MustCompile(`(\p{Han}{1,8})[-_](\d+(?:\.\d+)?)b\b`)
)

var kwFull = []string{"全量", "全参", "full fine", "full-param", "full param", "full ft", "full finetun", "full finetune", "full finetuning", "full-finetune", "full-finetuning", "full sft", "full training", "预训练"}
var kwInference = []string{"推理", "部署", "inference", "serve", "serving", "deploy", "跑推理", "上线"}

// firstInt reads the first match of res in rest as an int (group 1, times
// 1024 or 1000 when group 2, "k", is set), blanking it.
func (x *Extraction) firstInt(res []*textgate.Regexp, k float64, set func(int)) {
	for _, re := range res {
		loc := re.FindStringSubmatchIndex(x.rest)
		if loc == nil {
			continue
		}
		v, err := strconv.Atoi(x.rest[loc[2]:loc[3]])
		if err != nil || v <= 0 {
			continue
		}
		if len(loc) > 5 && loc[4] >= 0 {
			v = int(float64(v) * k)
		}
		if v <= 1<<21 {
			set(v)
		}
		x.use(loc[0], loc[1], "")
		return
	}
}

// extractSeqAndSample reads the sequence length before tokens ("seq_len
// 4096 tokens"), then the sample length and the LoRA rank.
func extractSeqAndSample(x *Extraction) {
	q := x.q
	x.firstInt(reSeq, 1024, func(v int) { q.SeqLen = v })
	for i, re := range rePerSample {
		loc := re.FindStringSubmatchIndex(x.rest)
		if loc == nil {
			continue
		}
		if i == 2 {
			// Drop the tail group so [2:3] is the number, [4:5] the k.
			loc = []int{loc[2], loc[3], loc[4], loc[5], loc[6], loc[7]}
		}
		if v, err := strconv.Atoi(x.rest[loc[2]:loc[3]]); err == nil && v > 0 {
			if loc[4] >= 0 {
				v *= 1000
			}
			if v <= 1<<21 {
				q.TokensPerSample = v
			}
			x.use(loc[0], loc[1], "")
			break
		}
	}
	if loc := reRank.FindStringSubmatchIndex(x.rest); loc != nil {
		g := 2
		if loc[2] < 0 {
			g = 4
		}
		if v, err := strconv.Atoi(x.rest[loc[g]:loc[g+1]]); err == nil && v >= 1 && v <= 4096 {
			q.LoRARank = v
		}
		x.use(loc[0], loc[1], "")
	}
}

// extractDataSize reads tokens before samples ("1.5亿 tokens"), then
// samples and epochs.
func extractDataSize(x *Extraction) {
	q := x.q
	if loc := reTokens.FindStringSubmatchIndex(x.rest); loc != nil {
		if v, ok := ParseNum(x.rest[loc[2]:loc[3]]); ok && v > 0 {
			unit := ""
			if loc[4] >= 0 {
				unit = x.rest[loc[4]:loc[5]]
			}
			if n := v * mult(unit); !math.IsInf(n, 0) {
				q.Tokens = n
			}
			x.use(loc[0], loc[1], "")
		}
	}
	for _, re := range reSamples {
		loc := re.FindStringSubmatchIndex(x.rest)
		if loc == nil {
			continue
		}
		if v, ok := ParseNum(x.rest[loc[2]:loc[3]]); ok && v > 0 {
			unit := ""
			if loc[4] >= 0 {
				unit = x.rest[loc[4]:loc[5]]
			}
			if n := v * mult(unit); n < 1e12 {
				q.Samples = int(n)
			}
			x.use(loc[0], loc[1], "")
			break
		}
	}
	if q.Samples > 0 && q.Tokens > 0 && q.Tokens < 1e5 && q.TokensPerSample == 0 {
		// "2万条 512 tokens": a sample length, not a dataset size.
		q.TokensPerSample = int(q.Tokens)
		q.Tokens = 0
	}
	for _, re := range reEpochs {
		if loc := re.FindStringSubmatchIndex(x.rest); loc != nil {
			if v, ok := ParseNum(x.rest[loc[2]:loc[3]]); ok && v > 0 && v <= 1000 {
				q.Epochs = v
				x.use(loc[0], loc[1], "")
				break
			}
		}
	}
}

// extractBatchAndSwitches reads the batch, the optimizer, the bits and the
// training switches.
func extractBatchAndSwitches(x *Extraction) {
	q, s := x.q, x.s
	if loc := reBatch.FindStringSubmatchIndex(x.rest); loc != nil {
		raw := x.rest[loc[2]:loc[3]]
		if v, err := strconv.Atoi(raw); err == nil && v > 0 && v <= 4096 {
			q.Batch = v
		} else {
			q.problem("batch "+raw+" 无效，按默认值估算", "batch "+raw+" is not valid; the default is used")
		}
		x.use(loc[0], loc[1], "")
	}
	// The optimizer first: "8-bit AdamW" is not 8-bit weights.
	if loc := re8bitAdam.FindStringIndex(x.rest); loc != nil {
		q.Optimizer = "adamw8bit"
		x.use(loc[0], loc[1], "")
	} else if loc := rePureBF16.FindStringIndex(x.rest); loc != nil {
		q.Optimizer = "bf16"
		x.use(loc[0], loc[1], "")
	}
	if m := reBits.FindStringSubmatch(x.rest); m != nil {
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
}

// extractMethod reads LoRA, QLoRA, full fine-tuning or inference and
// reconciles it with the bits.
func extractMethod(x *Extraction) {
	q, s := x.q, x.s
	switch {
	case strings.Contains(s, "qlora"):
		q.Method = "qlora"
	case strings.Contains(s, "lora"):
		q.Method = "lora"
	case ContainsAny(s, kwFull), rePretrain.MatchString(s):
		// Pretraining updates every weight.
		q.Method = "full"
	case ContainsAny(s, kwInference):
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
}

// extractParams reads the parameter count ("7B", "70亿参数") when no
// catalog model was named, or checks it against the named model.
func extractParams(x *Extraction) {
	q := x.q
	if q.Model != "" {
		mm, ok := x.cat.Model(q.Model)
		if !ok {
			return
		}
		q.ParamsB = mm.ParamsB
		if m := reParams[0].FindStringSubmatch(x.rest); m != nil {
			if v, ok := ParseNum(m[1]); ok && math.Abs(v-mm.ParamsB) > 0.15*mm.ParamsB {
				q.problem(fmt.Sprintf("同时写了 %s 和 %sB，按 %s（%gB）估算", mm.ID, m[1], mm.ID, mm.ParamsB),
					fmt.Sprintf("both %s and %sB given; estimated for %s (%gB)", mm.ID, m[1], mm.ID, mm.ParamsB))
			}
		}
		return
	}
	if m := reModelish.FindStringSubmatch(x.rest); m != nil && !isStopword(strings.TrimSpace(m[1])) {
		q.ModelText = strings.TrimSpace(m[0])
	} else if m := reHanModel.FindStringSubmatch(x.rest); m != nil {
		// "用某某-13B": the verb before the name is not part of it.
		name := m[0]
		for r, n := utf8.DecodeRuneInString(name); stopwords[string(r)] && n < len(name); r, n = utf8.DecodeRuneInString(name) {
			name = name[n:]
		}
		q.ModelText = name
	}
	for i, re := range reParams {
		loc := re.FindStringSubmatchIndex(x.rest)
		if loc == nil {
			continue
		}
		m := submatches(x.rest, loc)
		v, ok := ParseNum(m[1])
		if !ok {
			continue
		}
		if i == 1 {
			v = v * mult(m[2]) / 1e9
		}
		if v > 0 && v <= 2000 {
			q.ParamsB = v
			x.marks = append(x.marks, mark{loc[2], loc[1], phParams})
			break
		}
	}
}

var stopwords = map[string]bool{"a": true, "the": true, "for": true, "of": true, "run": true, "with": true, "on": true, "model": true, "llm": true, "lora": true, "qlora": true, "做": true, "用": true, "跑": true, "训": true, "拿": true, "给": true, "把": true, "对": true, "train": true, "finetune": true, "how much would": true, "how much": true}

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
