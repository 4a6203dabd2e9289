package slots

import (
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/strictyaml"
	"github.com/labgpu/bot/internal/textgate"
)

// Aspects a comparison asks about (Query.Aspect).
const (
	AspectPrice     = "price"
	AspectSpeed     = "speed"
	AspectStability = "stability"
)

// OfferWordsFile is the data file of the words the offers answers read
// (in configs).
const OfferWordsFile = "offerwords.yaml"

// offerWords are OfferWordsFile's lists, each one gated expression over
// the folded question.
type offerWords struct {
	Elsewhere     []string `yaml:"elsewhere"`
	WhichPlatform []string `yaml:"which_platform"`
	NoneThere     []string `yaml:"none_there"`
	NoCard        []string `yaml:"no_card"`
	Retention     []string `yaml:"retention"`
	AspectPrice   []string `yaml:"aspect_price"`
	AspectSpeed   []string `yaml:"aspect_speed"`
	AspectStable  []string `yaml:"aspect_stability"`
}

// offerPatterns are offerWords compiled (behind their literal gates).
type offerPatterns struct {
	elsewhere, whichPlatform, noneThere, noCard, retention *textgate.Regexp
	price, speed, stable                                   *textgate.Regexp
}

// parseOfferWords reads the offers' word lists; each list must be a
// valid regular expression once joined.
func parseOfferWords(b []byte) (*offerPatterns, error) {
	var w offerWords
	if err := strictyaml.Decode(b, &w); err != nil {
		return nil, err
	}
	var bad error
	compile := func(name string, alts []string) *textgate.Regexp {
		if len(alts) == 0 && bad == nil {
			bad = fmt.Errorf("%s: no words", name)
		}
		p := strings.Join(alts, "|")
		if _, err := regexp.Compile(p); err != nil && bad == nil {
			bad = fmt.Errorf("%s: %w", name, err)
		}
		return textgate.Lazy(p)
	}
	p := &offerPatterns{
		elsewhere: compile("elsewhere", w.Elsewhere), whichPlatform: compile("which_platform", w.WhichPlatform),
		noneThere: compile("none_there", w.NoneThere), noCard: compile("no_card", w.NoCard),
		retention: compile("retention", w.Retention), price: compile("aspect_price", w.AspectPrice),
		speed: compile("aspect_speed", w.AspectSpeed), stable: compile("aspect_stability", w.AspectStable),
	}
	if bad != nil {
		return nil, bad
	}
	return p, nil
}

// offerWordsLoaded is the embedded word lists, read once; nil when they
// do not load (the tests rule it out: the slots are then left unset and
// the log says why).
var offerWordsLoaded = sync.OnceValue(func() *offerPatterns {
	b, err := configs.FS.ReadFile(OfferWordsFile)
	if err == nil {
		var p *offerPatterns
		if p, err = parseOfferWords(b); err == nil {
			return p
		}
	}
	slog.Error("slots: the offers' word lists do not load", "file", OfferWordsFile, "err", err)
	return nil
})

// extractOfferAsk fills what a stock, prices or compare answer reads in
// the whole question as written (Asked, folded): whether it asks for
// other platforms than the one named, which platform has a card, about
// the no-GPU mode or how long data is kept, and what a comparison is
// about.
func extractOfferAsk(q *Query) {
	w := offerWordsLoaded()
	if w == nil {
		return
	}
	s := catalog.Fold(q.Asked)
	q.WhichPlatform = w.whichPlatform.MatchString(s)
	q.Elsewhere = w.elsewhere.MatchString(s) || q.WhichPlatform && w.noneThere.MatchString(s)
	q.NoCardMode = w.noCard.MatchString(s)
	q.Retention = w.retention.MatchString(s)
	price, speed := w.price.MatchString(s), w.speed.MatchString(s)
	switch {
	case w.stable.MatchString(s):
		q.Aspect = AspectStability
	case price && !speed:
		q.Aspect = AspectPrice
	case speed && !price:
		q.Aspect = AspectSpeed
	}
}
