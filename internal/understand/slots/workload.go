package slots

import (
	"math"
	"strconv"
	"strings"

	"github.com/labgpu/bot/internal/understand/slots/words"
)

// A non-LLM job's figures: images ("1000 张图", "500 images"), sampling
// steps ("30步", "steps=30"), resolution ("1024x1024", "分辨率 768") and
// the share of a dataset ("ImageNet 10%", "百分之十").
// The words of a non-LLM job's figures (configs/slots/workload.yaml).
var (
	// reImages are image counts: "1000 张图", "20张图片", "500 images"; a
	// bare "500张" only from ten up (below, "2张" is a GPU count: "至少2张空闲").
	reImages  = words.NewExprs("workload.images", 2)
	reAudio   = words.NewExprs("workload.audio_hours", 2)
	reSteps   = words.NewExprs("workload.steps", 3)
	reRes     = words.NewExprs("workload.resolution", 4)
	rePercent = words.NewExpr("workload.percent")
	reShare   = words.NewExpr("workload.share")
)

// extractWorkload reads a non-LLM job's images, steps, resolution and
// dataset share.
func extractWorkload(x *Extraction) {
	q := x.q
	extractResolution(x)
	for _, re := range reAudio.All() {
		loc := re.FindStringSubmatchIndex(x.rest)
		if loc == nil {
			continue
		}
		if n, ok := countAt(x.rest, loc); ok && n > 0 && n < 1e6 {
			q.AudioHours = n
			x.use(loc[0], loc[1], "")
			break
		}
	}
	for i, re := range reImages.All() {
		loc := re.FindStringSubmatchIndex(x.rest)
		if loc == nil {
			continue
		}
		if n, ok := countAt(x.rest, loc); ok && n >= 1 && n < 1e9 && (i == 0 || n >= 10) {
			q.Images = int(n)
			x.use(loc[0], loc[1], "")
			break
		}
	}
	for _, re := range reSteps.All() {
		if loc := re.FindStringSubmatchIndex(x.rest); loc != nil {
			if v, err := strconv.Atoi(x.rest[loc[2]:loc[3]]); err == nil && v > 0 && v <= 1000 {
				q.Steps = v
				x.use(loc[0], loc[1], "")
				break
			}
		}
	}
	if loc := rePercent.FindStringSubmatchIndex(x.rest); loc != nil {
		g := 2
		if loc[2] < 0 {
			g = 4
		}
		if v, ok := words.ParseNum(x.rest[loc[g]:loc[g+1]]); ok && v > 0 && v <= 100 {
			q.DataPercent = v
			x.use(loc[0], loc[1], "")
		}
	}
	extractShare(x)
}

// extractShare reads a dataset's share said as a fraction ("一半数据",
// "half the data") when no percent was said.
func extractShare(x *Extraction) {
	if x.q.DataPercent > 0 {
		return
	}
	loc := reShare.FindStringSubmatchIndex(x.rest)
	if loc == nil {
		return
	}
	g := 2
	if loc[2] < 0 {
		g = 4
	}
	if v, ok := words.Number("workload.shares", x.rest[loc[g]:loc[g+1]]); ok {
		x.q.DataPercent = v
		x.use(loc[0], loc[1], "")
	}
}

// extractResolution reads "1024x1024" (the side of a square of the same
// pixels when it is not square), "分辨率 768" or "768px": 64 to 4096.
func extractResolution(x *Extraction) {
	q := x.q
	for i, re := range reRes.All() {
		loc := re.FindStringSubmatchIndex(x.rest)
		if loc == nil {
			continue
		}
		w, err := strconv.Atoi(x.rest[loc[2]:loc[3]])
		if err != nil {
			continue
		}
		side := float64(w)
		if i == 0 {
			h, _ := strconv.Atoi(x.rest[loc[4]:loc[5]])
			side = math.Round(math.Sqrt(float64(w) * float64(h)))
		}
		if side >= 64 && side <= 4096 {
			q.Resolution = int(side)
			x.use(loc[0], loc[1], "")
			return
		}
	}
}

// WorkloadNames finds the workload estimator's model and dataset names in
// a text, as ids ("" when none): workload.Data's Find, over
// configs/workloads.yaml.
type WorkloadNames interface {
	Find(text string) (model, dataset string)
}

// WorkloadNames fills the Query's WorkloadModel and WorkloadDataset with
// the names the question gives ("训练一个ResNet50要多少钱": resnet50). A
// question naming a language model or its size ("7B LoRA") is no workload
// job, and names nil finds nothing: both leave them empty.
func (x *Extraction) WorkloadNames(names WorkloadNames) {
	q := x.q
	if names == nil || q.Model != "" || q.ParamsB > 0 {
		return
	}
	q.WorkloadModel, q.WorkloadDataset = names.Find(q.Asked)
}

// The name of a job nobody knows, after a verb of training or running it
// (configs/slots/workload.yaml unknown_job), and the words that are none.
var (
	reUnknownJob = words.NewExpr("workload.unknown_job")
	notJobName   = words.NewWords("workload.unknown_job_not")
)

// JobNames are the words a folded question gives as the name of what it
// trains or runs ("训练一个mamba要多少钱": mamba), in order; the caller
// drops those it knows (cards, platforms).
func JobNames(folded string) []string {
	var out []string
	for _, m := range reUnknownJob.FindAllStringSubmatch(folded, -1) {
		name := m[1]
		if name == "" {
			name = m[2]
		}
		name = strings.Trim(name, ".-_+")
		if len(name) >= 2 && !notJobName.Has(name) {
			out = append(out, name)
		}
	}
	return out
}

// countAt is the count a match of an amount pattern says: its first
// group's number times its second group's multiplier ("2万" → 20000,
// "100" → 100); ok is false when the number does not parse.
func countAt(s string, loc []int) (float64, bool) {
	v, ok := words.ParseNum(s[loc[2]:loc[3]])
	unit := ""
	if loc[4] >= 0 {
		unit = s[loc[4]:loc[5]]
	}
	return v * mult(unit), ok
}
