package slots

import (
	"regexp"
	"testing"
	"testing/fstest"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// TestOfferAsk: what the offers answers read in a question — other
// platforms, which platform, the no-GPU mode, data retention and the
// aspect of a comparison — from the whole question as written.
func TestOfferAsk(t *testing.T) {
	type want struct {
		elsewhere, which, noCard, retention bool
		aspect                              string
	}
	for _, c := range []struct {
		text string
		want want
	}{
		{"哪家有4090", want{which: true}},
		{"autodl 上全是灰的，哪里还能租到", want{elsewhere: true, which: true}},
		{"哪家还有4090 autodl一直抢不到", want{elsewhere: true, which: true}},
		{"除了autodl还有哪家有A100", want{elsewhere: true, which: true}},
		{"AutoDL 4090 一直抢不到", want{}},
		{"any 4090 elsewhere?", want{elsewhere: true}},
		{"where else can I get an H100, runpod is sold out", want{elsewhere: true, which: true}},
		{"Where can I rent a 4090", want{which: true}},
		{"无卡模式多少钱", want{noCard: true, aspect: AspectPrice}},
		{"Is there a no-GPU mode on AutoDL", want{noCard: true}},
		{"AutoDL 关机后数据保留多久", want{retention: true}},
		{"恒源云多久会把数据删掉", want{retention: true}},
		{"how long does vast.ai keep my data after stopping", want{retention: true}},
		{"恒源云和AutoDL哪个便宜", want{which: false, aspect: AspectPrice}},
		{"3090 还是 4090 哪个快", want{aspect: AspectSpeed}},
		{"4090 和 5090 哪个性价比高、速度快", want{}},
		{"AutoDL 和 矩池云 哪个更稳定，便宜", want{aspect: AspectStability}},
		{"which is more reliable, runpod or lambda", want{aspect: AspectStability}},
		{"3090 or 4090", want{}},
		{"", want{}},
	} {
		q := &Query{Asked: c.text}
		offerAsk(q, catalog.Fold(c.text))
		got := want{q.Elsewhere, q.WhichPlatform, q.NoCardMode, q.Retention, q.Aspect}
		if got != c.want {
			t.Errorf("%q: %+v, want %+v", c.text, got, c.want)
		}
	}
}

// TestOfferAskExtract: the offers' finisher fills their slots from the
// whole question.
func TestOfferAskExtract(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	x := Extract(cat, "autodl 上全是灰的，哪里还能租到4090", false)
	x.OfferAsk()
	q := x.Query()
	if !q.Elsewhere || !q.WhichPlatform || q.Platform != "autodl" {
		t.Errorf("elsewhere %v which %v platform %q", q.Elsewhere, q.WhichPlatform, q.Platform)
	}
}

// TestOfferWordsData: the offers' patterns are slot data
// (configs/slots/offers.yaml), each a list of alternatives that loads,
// compiles and is read by the Go; an empty list is refused (it would
// match every question).
func TestOfferWordsData(t *testing.T) {
	for _, e := range []*words.Expr{offerElsewhere, offerWhichPlatform, offerNoneThere, offerNoCard, offerRetention, offerPrice, offerSpeed, offerStability} {
		if _, err := regexp.Compile(e.String()); err != nil || e.String() == "" {
			t.Errorf("%s: %q %v", e.Key(), e.String(), err)
		}
	}
	good, err := configs.FS.ReadFile("slots/time.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"patterns:\n  elsewhere: [x]\nnope: [y]", "patterns:\n  elsewhere: []", "patterns:\n  elsewhere: ''"} {
		fsys := fstest.MapFS{"slots/time.yaml": {Data: good}, "slots/offers.yaml": {Data: []byte(in)}}
		if _, err := words.LoadData(fsys); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
