package offers

import (
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/offerview"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
)

// stockVerdict answers a yes/no question about stock from the rows found
// (rows ranked as RowsFor ranks them; above: none was under the
// question's ceiling): is the card in stock — live figures first, then
// recorded ones (said as such), never "sold out" on a list price alone —
// or can it be had within the ceiling per GPU-hour for the cards asked.
// nil for any other question.
func stockVerdict(q understand.Query, rows []OfferRow, above bool) *offerview.StockVerdict {
	y := q.YesNo
	if y == nil {
		return nil
	}
	switch y.Kind {
	case understand.YesNoCan, understand.YesNoWorth, understand.YesNoCheaper:
		if q.MaxPriceCNY > 0 {
			return canVerdict(q, rows, above)
		}
	}
	if q.MaxPriceCNY > 0 {
		return haveUnder(q, rows, above)
	}
	return haveVerdict(rows, max(q.GPUCount, 1))
}

// haveUnder: is the card in stock under the ceiling. Nothing under it
// is no, with the cheapest there is; an offer whose list-price range is
// only partly under it is at most unsure.
func haveUnder(q understand.Query, rows []OfferRow, above bool) *offerview.StockVerdict {
	if above && len(rows) > 0 {
		return &offerview.StockVerdict{Verdict: render.Verdict{Kind: render.AskHave, Answer: render.VerdictNo}, Row: &rows[0],
			CeilingCNY: q.MaxPriceCNY, Count: max(q.GPUCount, 1)}
	}
	v := haveVerdict(rows, max(q.GPUCount, 1))
	if v.Answer == render.VerdictUnsure && v.Row != nil && v.Row.PartlyUnder {
		// Stock unknown and only the range's low end under the ceiling.
		v.Partly, v.CeilingCNY = true, q.MaxPriceCNY
	}
	if v.Answer == render.VerdictYes && v.Row != nil && v.Row.PartlyUnder {
		for i := range rows {
			// A whole price under the ceiling in stock decides it.
			if row := &rows[i]; !row.PartlyUnder && row.Available != nil && *row.Available && row.Source == v.Row.Source {
				v.Row = row
				return v
			}
		}
		v.Answer, v.Partly, v.CeilingCNY = render.VerdictUnsure, true, q.MaxPriceCNY
	}
	return v
}

// haveVerdict: is the card in stock, count of them (an offer with fewer
// free than that is no yes: unsure, and said).
func haveVerdict(rows []OfferRow, count int) *offerview.StockVerdict {
	v := &offerview.StockVerdict{Verdict: render.Verdict{Kind: render.AskHave, Answer: render.VerdictNo}, Count: count}
	if len(rows) == 0 {
		return v
	}
	var few *OfferRow
	for _, src := range []stock.Source{stock.SourceLive, stock.SourceReplay} {
		var seen *OfferRow
		for i := range rows {
			row := &rows[i]
			if row.Source != string(src) || row.Stale {
				continue
			}
			if row.Available != nil && *row.Available && row.Free != nil && *row.Free < count {
				if few == nil {
					few = row
				}
				continue
			}
			if row.Available != nil && *row.Available {
				v.Answer, v.Row, v.Live = render.VerdictYes, row, src == stock.SourceLive
				return v
			}
			if seen == nil && row.Available != nil {
				seen = row
			}
		}
		if seen != nil && few == nil && !anyUnknown(rows) {
			v.Row, v.Live = seen, src == stock.SourceLive
			return v
		}
	}
	v.Answer, v.Row = render.VerdictUnsure, &rows[0]
	if few != nil {
		// In stock, but fewer free than the cards asked.
		v.Row, v.TooFew = few, true
	}
	return v
}

// anyUnknown reports whether a row's stock is unknown (a list price).
func anyUnknown(rows []OfferRow) bool {
	for _, row := range rows {
		if row.Available == nil {
			return true
		}
	}
	return false
}

// canVerdict: can the card be had within the ceiling (CNY per GPU-hour).
func canVerdict(q understand.Query, rows []OfferRow, above bool) *offerview.StockVerdict {
	v := &offerview.StockVerdict{Verdict: render.Verdict{Kind: render.AskCan, Answer: render.VerdictUnsure}, CeilingCNY: q.MaxPriceCNY,
		Count: max(q.GPUCount, 1)}
	var priced []*OfferRow
	for i := range rows {
		if row := &rows[i]; row.PriceCNY != nil || row.ListPriceCNY > 0 {
			priced = append(priced, row)
		}
	}
	if len(priced) == 0 {
		return v
	}
	v.Row = priced[0]
	if above {
		v.Answer = render.VerdictNo
		return v
	}
	for _, row := range priced {
		// A whole price under the ceiling before a range only partly
		// under it.
		if !row.PartlyUnder && (row.Available == nil || *row.Available) {
			v.Row, v.Answer = row, render.VerdictYes
			return v
		}
	}
	// Only the low end of a list-price range is under the ceiling: it
	// may be had, by region and time, not surely.
	for _, row := range priced {
		if row.PartlyUnder && (row.Available == nil || *row.Available) {
			v.Row, v.Partly = row, true
			return v
		}
	}
	// Every offer under it was sold out when seen: unsure now, and said.
	v.SoldOut = true
	return v
}

// compareVerdict answers a yes/no question about a comparison: is the
// first platform named cheaper (or dearer, or worth going to) than the
// second for the first card both price; or is the first card named
// cheaper or dearer than the second per hour. nil for any other question
// or when the figures cannot decide it.
func compareVerdict(q understand.Query, c *offerview.Compare) *offerview.CompareVerdict {
	y := q.YesNo
	if y == nil || y.Kind != understand.YesNoCheaper && y.Kind != understand.YesNoWorth || c.AskBack {
		return nil
	}
	kind := render.AskCheaper
	switch {
	case y.Kind == understand.YesNoWorth:
		kind = render.AskWorth
	case y.Dearer:
		kind = render.AskDearer
	}
	v := &offerview.CompareVerdict{Verdict: render.Verdict{Kind: kind}}
	var first, second float64
	if len(c.Compared) >= 2 {
		a, b := c.Compared[0], c.Compared[1]
		for _, pp := range c.Result.Prices {
			qa, okA := pp.Quotes[a]
			qb, okB := pp.Quotes[b]
			if okA && okB {
				v.GPU, v.First, v.Second, v.Same = pp.GPU, a, b, pp.Cheaper == ""
				first, second = qa.CNYPerGPUHour, qb.CNYPerGPUHour
				break
			}
		}
	} else if len(c.Result.Cards) >= 2 && c.Result.Cards[0].PriceCNY > 0 && c.Result.Cards[1].PriceCNY > 0 {
		v.First, v.Second, v.Cards = c.Result.Cards[0].GPU, c.Result.Cards[1].GPU, true
		first, second = c.Result.Cards[0].PriceCNY, c.Result.Cards[1].PriceCNY
		v.Same = first/second > 1-sameShare && first/second < 1+sameShare
	}
	if v.First == "" || second <= 0 {
		return nil
	}
	v.Pct = (first/second - 1) * 100
	cheaper := first < second
	switch {
	case v.Same:
		v.Answer = render.VerdictSame
	case kind == render.AskDearer && !cheaper, kind != render.AskDearer && cheaper:
		v.Answer = render.VerdictYes
	default:
		v.Answer = render.VerdictNo
	}
	return v
}

// sameShare: two cards' hourly prices within it of each other cost about
// the same.
const sameShare = 0.05
