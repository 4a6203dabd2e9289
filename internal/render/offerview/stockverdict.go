package offerview

import (
	"math"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// StockVerdict answers a yes/no question about a card's stock
// (render.Verdict): is it in stock (Kind have), or can it be had within
// an hourly budget (Kind can: CeilingCNY per GPU-hour, Count cards). Row
// is the offer that decides it (nil when there is none); Live: the
// verdict rests on live figures, not recorded ones.
type StockVerdict struct {
	render.Verdict
	Row        *render.OfferRow `json:"row,omitempty"`
	Live       bool             `json:"live,omitempty"`
	CeilingCNY float64          `json:"ceiling_cny,omitempty"`
	Count      int              `json:"count,omitempty"`
	// Partly: Row's list-price range is only partly under the ceiling
	// (its low end), so the verdict is unsure.
	Partly bool `json:"partly,omitempty"`
	// SoldOut: every offer under the ceiling (Row the cheapest) was sold
	// out when seen, so the verdict is unsure.
	SoldOut bool `json:"sold_out,omitempty"`
	// TooFew: Row is in stock with fewer free than Count cards.
	TooFew bool `json:"too_few,omitempty"`
	// Cheapest is a cheaper offer than Row, asked for cheap ones, whose
	// stock is unknown (nil when Row is the cheapest).
	Cheapest *render.OfferRow `json:"cheapest,omitempty"`
	// OtherRegion is the region asked ("重庆") when no offer is in it:
	// Row is in stock elsewhere, so whether there is one there is unsure.
	OtherRegion string `json:"other_region,omitempty"`
}

// verdictLine is the first line of a stock answer to a yes/no question.
func (v *stockView) verdictLine() string {
	sv, l := v.Verdict, v.l
	row := sv.Row
	if row == nil {
		key := "offers.yesno.no_none"
		switch {
		case sv.Kind == render.AskCan:
			key = "offers.yesno.can_unsure"
		case len(v.Ask.Platforms) == 0:
			// A card no recording and no list price has anywhere is a gap
			// in what the bot knows, not "no platform has it": unsure. (A
			// platform named whose lineup lacks the card: no.)
			key, sv.Answer = "offers.yesno.unknown_card", render.VerdictUnsure
		}
		return sv.Line(l.T(key, v.subject()), l)
	}
	name, price := v.rd.PlatformName(row.Platform, v.en)+" "+row.GPU, render.PriceWithUnit(*row, v.en)
	switch {
	case sv.TooFew:
		return sv.Line(l.T("offers.yesno.too_few", name, price, render.FreePhrase(*row, v.en), sv.Count, render.SourceCell(*row, v.en)), l)
	case sv.SoldOut:
		return sv.Line(l.T("offers.yesno.under_sold_out", name, price, render.SourceCell(*row, v.en), render.TrimF(sv.CeilingCNY)), l)
	case sv.Partly:
		return sv.Line(l.T("offers.yesno.partly", name, price, render.SourceCell(*row, v.en), render.TrimF(sv.CeilingCNY)), l)
	case sv.CeilingCNY > 0 && sv.Answer == render.VerdictNo && sv.Kind == render.AskHave:
		return sv.Line(l.T("offers.yesno.can_no", name, price, render.SourceCell(*row, v.en), render.TrimF(sv.CeilingCNY)), l)
	}
	if sv.Kind == render.AskCan {
		switch {
		case sv.Answer == render.VerdictNo:
			return sv.Line(l.T("offers.yesno.can_no", name, price, render.SourceCell(*row, v.en), render.TrimF(sv.CeilingCNY)), l)
		case sv.Count > 1:
			return sv.Line(l.T("offers.yesno.can_yes", name, price, sv.Count, render.TrimF(rowPrice(*row)*float64(sv.Count)), render.SourceCell(*row, v.en)), l)
		}
		return sv.Line(l.T("offers.yesno.can_yes_one", name, price, render.SourceCell(*row, v.en), render.TrimF(sv.CeilingCNY)), l)
	}
	switch {
	case sv.OtherRegion != "":
		return sv.Line(l.T("offers.yesno.other_region", sv.OtherRegion, name, price, render.FreePhrase(*row, v.en), render.SourceCell(*row, v.en)), l)
	case sv.Answer == render.VerdictUnsure:
		return sv.Line(l.T("offers.yesno.unsure", v.subject(), name, price, render.SourceCell(*row, v.en)), l)
	case sv.Answer == render.VerdictYes && sv.Live:
		return sv.Line(l.T("offers.yesno.yes_live", name, price, render.FreePhrase(*row, v.en), render.SourceCell(*row, v.en)), l)
	case sv.Answer == render.VerdictYes && sv.Cheapest != nil:
		c := *sv.Cheapest
		return sv.Line(l.T("offers.yesno.yes_cheapest", v.rd.PlatformName(c.Platform, v.en)+" "+c.GPU, render.PriceWithUnit(c, v.en),
			render.SourceCell(c, v.en), name, price, v.recordedWhen(*row)), l)
	case sv.Answer == render.VerdictYes:
		return sv.Line(l.T("offers.yesno.yes_replay", name, price, render.FreePhrase(*row, v.en), v.recordedWhen(*row)), l)
	case sv.Live:
		return sv.Line(l.T("offers.yesno.no_live", v.subject(), render.SourceCell(*row, v.en)), l)
	}
	return sv.Line(l.T("offers.yesno.no_replay", v.subject(), v.recordedWhen(*row)), l)
}

// rowAge is how old a row's figure is ("5 分钟前"), or its date.
func (v *stockView) rowAge(row render.OfferRow) string {
	if row.AgeSeconds < 0 {
		return v.l.T("offers.source.time_unknown")
	}
	return render.Age(time.Duration(row.AgeSeconds)*time.Second, v.en)
}

// recordedWhen is when a recorded row was recorded: "5 分钟前录下", or
// that its time is unknown.
func (v *stockView) recordedWhen(row render.OfferRow) string {
	if row.AgeSeconds < 0 {
		return v.l.T("stock.phone.recorded_unknown")
	}
	return v.l.T("stock.phone.recorded", v.rowAge(row))
}

// rowPrice is a row's price per GPU-hour (its list price beside a count
// without one; the low end of a range), 0 when it has none.
func rowPrice(row render.OfferRow) float64 {
	if row.PriceCNY != nil {
		return *row.PriceCNY
	}
	return row.ListPriceCNY
}

// phoneTable is the first rows narrow enough for a phone: platform, the
// card when the rows hold several, price, free, and a one-word source
// (实时 with its age, 录下, 标价), the source left out when the table is
// too wide with it (the short form then lists the rows).
func (v *stockView) phoneTable(n int) *chat.Table {
	rows := v.Offers[:min(n, len(v.Offers))]
	if len(rows) == 0 {
		return nil
	}
	gpus := map[string]bool{}
	for _, row := range v.Offers {
		gpus[row.GPU] = true
	}
	header := v.l.L("stock.phone.header")
	t := &chat.Table{Header: header}
	if len(gpus) > 1 {
		t.Header = append([]string{header[0], "GPU"}, header[1:]...)
	}
	for _, row := range rows {
		cells := []string{v.rd.ShortName(row.Platform, v.en)}
		if len(gpus) > 1 {
			cells = append(cells, row.GPU)
		}
		t.Rows = append(t.Rows, append(cells, render.PriceCell(row, v.en), render.FreeCell(row, v.en), v.shortSource(row)))
	}
	if !render.TableFits(t) {
		// Without the source column.
		t.Header = t.Header[:len(t.Header)-1]
		for i := range t.Rows {
			t.Rows[i] = t.Rows[i][:len(t.Rows[i])-1]
		}
	}
	return t
}

// shortSource is a row's source in a word: live with its age, 录下 for
// recorded data, 标价 for a list price.
func (v *stockView) shortSource(row render.OfferRow) string {
	switch {
	case row.Stale:
		return v.l.T("stock.phone.stale")
	case row.Source == string(stock.SourceLive):
		return v.rowAge(row)
	case row.Source == string(stock.SourceReplay):
		return v.l.T("stock.phone.replay")
	}
	return v.l.T("stock.phone.list")
}

// CompareVerdict answers a yes/no question about a comparison
// (render.Verdict): is the First platform (or card, when Cards) cheaper,
// dearer or worth it against the Second — on GPU for platforms — by Pct
// percent of the second's hourly price (negative: cheaper); Same: about
// the same.
type CompareVerdict struct {
	render.Verdict
	First  string  `json:"first"`
	Second string  `json:"second"`
	GPU    string  `json:"gpu,omitempty"`
	Cards  bool    `json:"cards,omitempty"`
	Pct    float64 `json:"pct"`
	Same   bool    `json:"same,omitempty"`
}

// verdictLine is the first line of a comparison that answers a yes/no
// question: how much cheaper or dearer the first is per hour.
func (v compareView) verdictLine() string {
	cv, l := v.Verdict, v.l
	a, b := cv.First, cv.Second
	if !cv.Cards {
		a, b = v.rd.PlatformName(a, v.en), v.rd.PlatformName(b, v.en)
	}
	a = strings.TrimSpace(a + " " + cv.GPU)
	var why string
	switch {
	case cv.Same:
		why = l.T("compare.yesno.same", a, b, math.Abs(cv.Pct))
	case cv.Pct < 0:
		why = l.T("compare.yesno.cheaper", a, b, -cv.Pct)
	default:
		why = l.T("compare.yesno.dearer", a, b, cv.Pct)
	}
	return cv.Line(why, l)
}
