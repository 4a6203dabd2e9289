package slots

import (
	"fmt"
	"sync"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/strictyaml"
	"github.com/labgpu/bot/internal/textgate"
)

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

// adviceWords is configs/slots/advice.yaml: patterns by name, maps of
// words to words and lists of words.
type adviceWords struct {
	Patterns map[string]string            `yaml:"patterns"`
	Maps     map[string]map[string]string `yaml:"maps"`
	Words    map[string][]string          `yaml:"words"`
}

// adviceRes are advice.yaml's expressions, gated (compiled when a text
// first passes the gate), and its words.
type adviceRes struct {
	disk, noCard, days, del, grain, spot, free, xs *textgate.Regexp
	grainUnits                                     map[string]string
	serving                                        []string
}

// AdviceFile is the word file of the advice and fact-check slots in the
// configs FS.
const AdviceFile = "slots/advice.yaml"

// loadAdviceWords reads AdviceFile (embedded; its test rules out errors,
// so a broken one panics at the first use, as a bad MustCompile does).
var loadAdviceWords = sync.OnceValue(func() *adviceRes {
	r, err := readAdviceWords(AdviceFile)
	if err != nil {
		panic(err)
	}
	return r
})

func readAdviceWords(name string) (*adviceRes, error) {
	b, err := configs.FS.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("slots: %w", err)
	}
	return parseAdviceWords(name, b)
}

// parseAdviceWords reads an advice word file: every claim pattern, the
// granularity units and the serving words are needed.
func parseAdviceWords(name string, b []byte) (*adviceRes, error) {
	var w adviceWords
	if err := strictyaml.Decode(b, &w); err != nil {
		return nil, fmt.Errorf("slots: %s: %w", name, err)
	}
	r := &adviceRes{grainUnits: w.Maps["grain_units"], serving: w.Words["serving"]}
	for _, p := range []struct {
		name string
		re   **textgate.Regexp
	}{{"claim_disk", &r.disk}, {"claim_no_card", &r.noCard}, {"claim_days", &r.days}, {"claim_delete", &r.del},
		{"claim_grain", &r.grain}, {"claim_spot", &r.spot}, {"claim_free", &r.free}, {"claim_times", &r.xs}} {
		if w.Patterns[p.name] == "" {
			return nil, fmt.Errorf("slots: %s: no pattern %s", name, p.name)
		}
		*p.re = textgate.Lazy(w.Patterns[p.name])
	}
	if len(r.grainUnits) == 0 || len(r.serving) == 0 {
		return nil, fmt.Errorf("slots: %s: maps.grain_units and words.serving are needed", name)
	}
	return r, nil
}

// ClaimSlots reads what a fact check's claim says into Query.Claim, from
// the whole message (folded), not only its question part.
func (x *Extraction) ClaimSlots() {
	x.q.Claim = ReadClaim(x.whole)
}

// ReadClaim reads a claim from folded text.
func ReadClaim(s string) *Claim {
	w := loadAdviceWords()
	c := &Claim{Disk: w.disk.MatchString(s), NoCard: w.noCard.MatchString(s), Spot: w.spot.MatchString(s),
		Free: w.free.MatchString(s), Delete: w.del.MatchString(s)}
	if m := w.days.FindStringSubmatch(s); m != nil {
		c.Days, _ = ParseNum(m[1])
		c.HasDays = true
	}
	if m := w.grain.FindStringSubmatch(s); m != nil {
		c.Grain = w.grainUnits[m[1]] + m[2]
	}
	if m := w.xs.FindStringSubmatch(s); m != nil {
		c.TimesLow, _ = ParseNum(m[1])
		c.TimesHigh = c.TimesLow
		if m[2] != "" {
			c.TimesHigh, _ = ParseNum(m[2])
		}
		c.HasTimes = true
	}
	return c
}
