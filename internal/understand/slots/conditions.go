package slots

import (
	"strings"

	"github.com/labgpu/bot/internal/understand/slots/conditions"
)

// ConditionSlots reads the conditions the question states (Conditions and
// their fields: a VRAM floor or ceiling, the rental period, a region, a
// group of platforms, a budget, an hourly ceiling written without a
// currency and whether one over several cards is their total, the
// currency, the schedule). The pipeline calls it after the intent scorer
// read the extraction, so conditions never change what the scorer sees
// (the trained model reads the question as before); it may clear a price
// the earlier extractors read that is a condition's (a budget is no
// price; a VRAM size is no disk: VRAMNotDisk, for the intents that read
// one).
func (x *Extraction) ConditionSlots() {
	if strings.TrimSpace(x.s) == "" {
		return
	}
	q := x.q
	a := conditions.Asked{GPUs: q.GPUs, Platforms: q.Platforms, UnknownGPU: q.UnknownGPU, BillingMode: q.BillingMode,
		SpanDays: q.SpanDays, SpanAt: x.spanAt, USDAt: x.usdAt, Cat: x.cat,
		PriceCNY: q.PriceCNY, PriceUnit: q.PriceUnit, MaxPriceCNY: q.MaxPriceCNY, GPUCount: q.GPUCount}
	conditions.Read(&q.Stated, &a, x.s, x.conditionText())
	q.PriceCNY, q.PriceUnit, q.MaxPriceCNY, q.GPUCount, x.usdAt = a.PriceCNY, a.PriceUnit, a.MaxPriceCNY, a.GPUCount, a.USDAt
	conditionFollow(x)
}

// conditionText is the folded question with the names found blanked
// (same byte offsets), a GPU name as "§" and spaces: a card's "80g" is
// no VRAM condition, and "海外的4090" reads "海外的§".
func (x *Extraction) conditionText() string {
	b := []byte(x.s)
	for _, m := range x.marks {
		switch m.token {
		case phGPU, phModel, phPlatform:
		default:
			continue
		}
		for i := m.start; i < m.end; i++ {
			b[i] = ' '
		}
		if m.token == phGPU && m.end-m.start >= len("§") {
			copy(b[m.start:], "§")
		}
	}
	return string(b)
}

// VRAMNotDisk forgets a disk size that is the VRAM condition's ("48G显存的
// 卡 包月多少": no 48 GB disk); the pipeline calls it for the intents that
// read a disk size besides the storage ones (a plan's disk, a pitfall's
// or a claim's), whose own sizes it leaves.
func (x *Extraction) VRAMNotDisk() {
	q := x.q
	if q.SizeGB > 0 && (q.SizeGB == q.VRAMMinGB || q.SizeGB == q.VRAMMaxGB) {
		q.SizeGB, q.SizeText = 0, ""
	}
}
