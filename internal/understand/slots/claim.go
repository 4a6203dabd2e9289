package slots

import "github.com/labgpu/bot/internal/understand/slots/words"

// Claim is what a claim checked by intent factcheck says, in words
// ("文章说 AutoDL 数据盘免费", "听说关机 15 天会删数据", "4090 比 3090 快
// 1.5-2 倍"): the subjects it names and the figures that are no price
// (prices are PriceCNY and MaxPriceCNY). The words are in
// configs/slots/advice.yaml (patterns claim_*).
type Claim struct {
	// Disk: about a disk or storage; NoCard: about the no-GPU mode;
	// Spot: about spot instances; Free: says something is free; Delete:
	// says something is deleted or released.
	Disk, NoCard, Spot, Free, Delete bool
	// Days is a number of days it names ("15天"), when HasDays (0 when
	// the number does not read).
	Days    float64
	HasDays bool
	// Grain is the billing granularity it names ("按分钟" minute, "per
	// second"): second, minute or hour; "" when none.
	Grain string
	// TimesLow and TimesHigh are a speed ratio it names ("快 1.5-2 倍"
	// 1.5 and 2; one figure is both), when HasTimes.
	TimesLow, TimesHigh float64
	HasTimes            bool
}

// The advice and fact-check words (configs/slots/advice.yaml).
var (
	claimDisk   = words.NewExpr("advice.claim_disk")
	claimNoCard = words.NewExpr("advice.claim_no_card")
	claimDays   = words.NewExpr("advice.claim_days")
	claimDelete = words.NewExpr("advice.claim_delete")
	claimGrain  = words.NewExpr("advice.claim_grain")
	claimSpot   = words.NewExpr("advice.claim_spot")
	claimFree   = words.NewExpr("advice.claim_free")
	claimTimes  = words.NewExpr("advice.claim_times")
	// servingWords make an out-of-memory report an inference job.
	servingWords = words.NewWords("advice.serving")
)

// ClaimSlots reads what a fact check's claim says into Query.Claim, from
// the whole message (folded), not only its question part.
func (x *Extraction) ClaimSlots() {
	x.q.Claim = ReadClaim(x.whole)
}

// ReadClaim reads a claim from folded text.
func ReadClaim(s string) *Claim {
	c := &Claim{Disk: claimDisk.MatchString(s), NoCard: claimNoCard.MatchString(s), Spot: claimSpot.MatchString(s),
		Free: claimFree.MatchString(s), Delete: claimDelete.MatchString(s)}
	if m := claimDays.FindStringSubmatch(s); m != nil {
		c.Days, _ = words.ParseNum(m[1])
		c.HasDays = true
	}
	if m := claimGrain.FindStringSubmatch(s); m != nil {
		c.Grain = words.Mapping("advice.grain_units")[m[1]] + m[2]
	}
	if m := claimTimes.FindStringSubmatch(s); m != nil {
		c.TimesLow, _ = words.ParseNum(m[1])
		c.TimesHigh = c.TimesLow
		if m[2] != "" {
			c.TimesHigh, _ = words.ParseNum(m[2])
		}
		c.HasTimes = true
	}
	return c
}
