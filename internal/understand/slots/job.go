package slots

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/textgate"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// The job's numbers and switches: sequence length, sample length, LoRA
// rank, dataset size, epochs, batch, optimizer, bits, method and size
// (configs/slots/job.yaml).
var (
	reSeq = words.NewExprs("job.seq", 2)
	// rePerSample is a sample length: "每条1000 tokens", "平均 512 token",
	// "512 tokens per sample", "10k samples of 1024 tokens".
	rePerSample = words.NewExprs("job.per_sample", 3)
	reRank      = words.NewExpr("job.rank")
	reTokens    = words.NewExpr("job.tokens")
	reSamples   = words.NewExprs("job.samples", 2)
	reEpochs    = words.NewExprs("job.epochs", 2)
	// reChangedTo stands between an old value and the new ("3轮改成1轮").
	reChangedTo = words.NewExpr("job.changed_to")
	// reChangedToBare is the new value said bare ("5个epoch改成2个").
	reChangedToBare = words.NewExpr("job.changed_to_bare")
	reBatch         = words.NewExpr("job.batch")
	reBits          = words.NewExpr("job.bits")
	reQV            = words.NewExpr("job.qv")
	// Training switches: LoRA targets, optimizer, recomputation, attention
	// kernel, ZeRO stage.
	reAttnOnly = words.NewExpr("job.attn_only")
	re8bitAdam = words.NewExpr("job.adam_8bit")
	rePureBF16 = words.NewExpr("job.pure_bf16")
	reNoCkpt   = words.NewExpr("job.no_ckpt")
	reNoFlash  = words.NewExpr("job.no_flash")
	reZeRO     = words.NewExpr("job.zero")
	reDPO      = words.NewExpr("job.dpo")
	reSFT      = words.NewExpr("job.sft")
	reParams   = words.NewExprs("job.params", 2)
	// rePretrain is a pretraining job, not a "pretrained" model.
	rePretrain = words.NewExpr("job.pretrain")
	// reModelish catches a model-like name the catalog does not know:
	// letters followed by a size ("foo-13b", "mymodel 7b").
	reModelish = words.NewExpr("job.modelish")
	// reHanModel is a Chinese model name joined to its size ("某某-13B").
	reHanModel = words.NewExpr("job.han_model")

	kwFull      = words.NewWords("job.full")
	kwInference = words.NewWords("job.inference")
	// stopwords are words before a size that name no model.
	stopwords = words.NewWords("job.stopwords")
)

// changedTo is the match of re in rest to read, loc being the first:
// a later match of the same figure that the words between them make the
// new value ("3轮改成1轮": 1 轮), the old one blanked; else loc.
func (x *Extraction) changedTo(re *textgate.Regexp, loc []int) []int {
	all := re.FindAllStringSubmatchIndex(x.rest, -1)
	for i := 0; i+1 < len(all); i++ {
		if all[i][0] != loc[0] {
			continue
		}
		if next := all[i+1]; reChangedTo.MatchString(x.rest[all[i][1]:next[0]]) {
			x.use(loc[0], loc[1], "")
			loc = next
		}
	}
	if m := reChangedToBare.FindStringSubmatchIndex(x.rest[loc[1]:]); m != nil {
		// "5个epoch改成2个": the number after the change word, in the
		// unit of the one before (group 1 the number, 2 its multiplier).
		at := loc[1]
		x.use(loc[0], loc[1], "")
		bare := []int{at + m[0], at + m[1], at + m[2], at + m[3], -1, -1}
		if m[4] >= 0 {
			bare[4], bare[5] = at+m[4], at+m[5]
		}
		return bare
	}
	return loc
}

// firstInt reads the first match of res in rest as an int (group 1, times
// 1024 or 1000 when group 2, "k", is set), blanking it.
func (x *Extraction) firstInt(res *words.Exprs, k float64, set func(int)) {
	for _, re := range res.All() {
		loc := re.FindStringSubmatchIndex(x.rest)
		if loc == nil {
			continue
		}
		loc = x.changedTo(re, loc)
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
	for i, re := range rePerSample.All() {
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
		if v, ok := words.ParseNum(x.rest[loc[2]:loc[3]]); ok && v > 0 {
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
	for _, re := range reSamples.All() {
		loc := re.FindStringSubmatchIndex(x.rest)
		if loc == nil {
			continue
		}
		loc = x.changedTo(re, loc)
		if v, ok := words.ParseNum(x.rest[loc[2]:loc[3]]); ok && v > 0 {
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
	for _, re := range reEpochs.All() {
		if loc := re.FindStringSubmatchIndex(x.rest); loc != nil {
			loc = x.changedTo(re, loc)
			if v, ok := words.ParseNum(x.rest[loc[2]:loc[3]]); ok && v > 0 && v <= 1000 {
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
			q.problem(ProblemBatch, raw)
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
	q.DPO = reDPO.MatchString(s)
	q.SFT = !q.DPO && reSFT.MatchString(s)
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
	case words.ContainsAny(s, kwFull.List()), rePretrain.MatchString(s):
		// Pretraining updates every weight.
		q.Method = "full"
	case words.ContainsAny(s, kwInference.List()):
		q.Method = "inference"
	}
	if q.Method == "lora" && q.Bits > 0 && q.Bits < 16 {
		q.Method = "qlora"
	}
	if q.Method == "qlora" && q.Bits >= 16 {
		q.problem(ProblemQLoRABits, q.Bits)
		q.Method = "lora"
	}
	if q.Method == "full" && q.Bits > 0 && q.Bits < 16 {
		q.problem(ProblemFullBits, q.Bits)
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
		if m := reParams.All()[0].FindStringSubmatch(x.rest); m != nil {
			if v, ok := words.ParseNum(m[1]); ok && math.Abs(v-mm.ParamsB) > 0.15*mm.ParamsB {
				q.problem(ProblemModelSize, mm.ID, m[1], mm.ParamsB)
			}
		}
		return
	}
	if m := reModelish.FindStringSubmatch(x.rest); m != nil && !isStopword(strings.TrimSpace(m[1])) {
		q.ModelText = strings.TrimSpace(m[0])
	} else if m := reHanModel.FindStringSubmatch(x.rest); m != nil {
		// "用某某-13B": the verb before the name is not part of it.
		name := m[0]
		for r, n := utf8.DecodeRuneInString(name); stopwords.Has(string(r)) && n < len(name); r, n = utf8.DecodeRuneInString(name) {
			name = name[n:]
		}
		q.ModelText = name
	}
	for i, re := range reParams.All() {
		loc := re.FindStringSubmatchIndex(x.rest)
		if loc == nil {
			continue
		}
		m := words.Submatches(x.rest, loc)
		v, ok := words.ParseNum(m[1])
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

func isStopword(s string) bool {
	if stopwords.Has(s) {
		return true
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return true
	}
	last := f[len(f)-1]
	if stopwords.Has(last) || len(last) < 2 {
		return true
	}
	for _, r := range last {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' {
			return true
		}
	}
	return false
}
