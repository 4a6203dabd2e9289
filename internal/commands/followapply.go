package commands

import (
	"encoding/json"
	"slices"
)

// apply is the frame's Query f answered as target with the values q names
// in place of f's (a comparison adds a card or platform to those it
// compares); the rest of f is kept.
func (r *Router) apply(f, q Query, b brings, target string, cheapest float64) Query {
	m := cloneQuery(f)
	m.Intent, m.Confidence, m.Alternatives, m.Problems, m.Issues = target, 1, nil, q.Problems, q.Issues
	m.English = followLanguage(f, q)
	r.applyNames(&m, f, q, b, target)
	if b.count {
		m.GPUCount = max(q.GPUCount, q.FollowCount)
	}
	if b.price {
		m.MaxPriceCNY = q.MaxPriceCNY
	}
	if q.Cheaper && cheapest > 0 && !b.price {
		// Cheaper than the best the last answer showed, anywhere.
		m.MaxPriceCNY = cheapest - 0.01
		m.Platform, m.Platforms = "", nil
	}
	applyPlan(&m, q, b, target)
	if b.when {
		m.When = q.When
	}
	if b.period {
		m.Period, m.Week = q.Period, q.Week
	}
	if b.region {
		m.Region = q.Region
	}
	if b.exclude {
		m.ExcludePlatforms = slices.Clone(q.ExcludePlatforms)
	}
	if target == IntentAdvice && b.job {
		m.KBWorkload, m.Workload, m.Model, m.ParamsB, m.ModelText = q.KBWorkload, q.Workload, q.Model, q.ParamsB, q.ModelText
	}
	if b.other {
		m = overlay(m, q)
	}
	return m
}

// handled are the Query's fields (JSON names) an edit sets by its rules,
// or that are no condition of the question (the reading, an action's
// slots, the job's figures); every other field q states (a condition: a
// VRAM floor, a currency …) replaces the frame's as it is (overlay).
var handled = map[string]bool{
	"intent": true, "confidence": true, "alternatives": true, "english": true, "problems": true, "topic": true, "score": true,
	"gpu": true, "gpu_family": true, "gpus": true, "named_gpus": true, "unknown_gpu": true, "platform": true, "platforms": true,
	"which_platform": true, "elsewhere": true, "exclude_platforms": true, "max_price_cny": true, "gpu_count": true,
	"billing_mode": true, "mode_named": true, "span_days": true, "hours_per_week": true, "total_hours": true,
	"continuous": true, "window": true, "setup_hours": true, "deadline": true, "period": true, "week": true, "region": true,
	"size_gb": true, "size_text": true, "disk": true, "note": true, "mute_minutes": true, "mute_until": true,
	"mute_tomorrow": true, "all": true, "sub_ref": true, "area": true, "min_free": true, "more_disks": true,
	"more_sizes": true, "note_cut": true, "mine": true, "price_cny": true, "price_unit": true,
	// The job's, which only an estimate's follow-up merges (mergeFollowUp).
	"model": true, "model_text": true, "params_b": true, "workload": true, "workload_model": true, "workload_dataset": true,
	"images": true, "steps": true, "resolution": true, "data_percent": true, "method": true, "bits": true, "seq_len": true,
	"batch": true, "samples": true, "tokens_per_sample": true, "tokens": true, "lora_rank": true, "lora_targets": true,
	"optimizer": true, "stack": true, "no_grad_ckpt": true, "no_flash_attn": true, "zero": true, "epochs": true,
}

// others are the fields of q's JSON that overlay would set.
func others(q Query) map[string]json.RawMessage {
	b, err := json.Marshal(q)
	if err != nil {
		return nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return nil
	}
	for k := range fields {
		if handled[k] {
			delete(fields, k)
		}
	}
	return fields
}

// overlay is m with every field q states that no rule handles set to
// q's value (the job's fields for an estimate are merged by
// mergeFollowUp instead).
func overlay(m, q Query) Query {
	b, err := json.Marshal(m)
	if err != nil {
		return m
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return m
	}
	for k, v := range others(q) {
		fields[k] = v
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return m
	}
	merged := m
	if json.Unmarshal(out, &merged) != nil {
		return m
	}
	return merged
}

// applyPlan carries a billing mode and a usage into m: a plan's mode and
// usage are replaced whole; offers asked for pay-as-you-go drop them.
func applyPlan(m *Query, q Query, b brings, target string) {
	if b.mode {
		m.BillingMode, m.ModeNamed = q.BillingMode, q.ModeNamed
	}
	if b.usage {
		m.SpanDays, m.HoursPerWeek, m.TotalHours, m.Continuous, m.Window = q.SpanDays, q.HoursPerWeek, q.TotalHours, q.Continuous, q.Window
		m.SetupHours, m.Deadline = q.SetupHours, q.Deadline
	}
	if target != IntentPlan {
		// Offers are pay-as-you-go ("换成按量" keeps saying so).
		if m.BillingMode != ModeHourly {
			m.BillingMode, m.ModeNamed = "", false
		}
		m.SpanDays, m.HoursPerWeek, m.TotalHours, m.Continuous, m.Window = 0, 0, 0, false, ""
	}
}

// applyNames carries the cards and platforms q names into m.
func (r *Router) applyNames(m *Query, f, q Query, b brings, target string) {
	switch {
	case b.gpu && target == IntentCompare && len(f.NamedGPUs) >= 2:
		m.NamedGPUs = appendNew(f.NamedGPUs, q.NamedGPUs...)
		m.GPUs = appendNew(f.GPUs, q.GPUs...)
	case b.gpu:
		m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily, m.UnknownGPU = q.GPU, slices.Clone(q.GPUs), slices.Clone(q.NamedGPUs), q.GPUFamily, q.UnknownGPU
	case b.size:
		if id, ok := r.variant(f, max(q.FollowSizeGB, q.SizeGB)); ok {
			m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = id, []string{id}, []string{id}, false
		}
	}
	switch {
	case b.platform && target == IntentCompare && len(f.Platforms) >= 2:
		m.Platforms = appendNew(f.Platforms, q.Platforms...)
	case b.platform:
		m.Platform, m.Platforms = q.Platform, slices.Clone(q.Platforms)
	case b.which:
		m.Platform, m.Platforms = "", nil
	}
	m.WhichPlatform, m.Elsewhere = q.WhichPlatform, q.Elsewhere
}

// variant is the card of f's family with sizeGB of memory ("40G的呢"
// after an A100 80GB answer: the A100 40GB).
func (r *Router) variant(f Query, sizeGB float64) (string, bool) {
	if f.GPU == "" {
		return "", false
	}
	family := f.GPU
	if g, ok := r.cat.GPU(f.GPU); ok && !f.GPUFamily {
		family = g.Family
	}
	for _, id := range r.cat.FamilyMembers(family) {
		if g, ok := r.cat.GPU(id); ok && g.MemoryGB == sizeGB {
			return id, true
		}
	}
	return "", false
}

// followLanguage is the language of an edited answer: the follow-up's
// when it has words (Chinese, or English words), else the frame's ("4090"
// alone).
func followLanguage(f, q Query) bool {
	switch {
	case q.CJK:
		return false
	case q.English:
		return true
	}
	return f.English
}

// appendNew is xs with those of ys it lacks added.
func appendNew(xs []string, ys ...string) []string {
	out := slices.Clone(xs)
	for _, y := range ys {
		if !slices.Contains(out, y) {
			out = append(out, y)
		}
	}
	return out
}

// cloneQuery is q with its slices copied (an edit never changes the
// frame's).
func cloneQuery(q Query) Query {
	q.GPUs, q.NamedGPUs, q.Platforms = slices.Clone(q.GPUs), slices.Clone(q.NamedGPUs), slices.Clone(q.Platforms)
	q.ExcludePlatforms = slices.Clone(q.ExcludePlatforms)
	return q
}

// followEstimate edits the last estimate: an OOM or card question about
// it ("爆显存了"), its parameters ("seq 4096", "5万条"), its card or
// platform ("用4090", "在恒源云呢"), another size of model ("那14B呢");
// a question naming a job of its own starts afresh.
func (r *Router) followEstimate(f, q Query) (Query, bool) {
	if q.Intent == IntentAdvice && !q.Bare && !q.OnlyParams {
		// Answered as advice, about the estimate's job: no edit to name.
		adviceJob(r, f, &q)
		return q, false
	}
	// A question naming a model of its own (a workload: "yolov8n coco
	// 100轮", "bert-base 微调") starts a new job, even when only its
	// numbers are read as slots.
	if model, _ := r.work.Find(q.Asked); model != "" && !sameWorkload(r.work, f, model) {
		if q.FollowUp && q.Intent != IntentEstimate {
			// "那 SDXL 呢": the estimate of that job instead.
			q.Intent, q.Confidence = IntentEstimate, 1
			return q, true
		}
		return q, false
	}
	return mergeFollowUp(f, q)
}
