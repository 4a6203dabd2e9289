package offers

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/offerview"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
)

func init() { answer.Register(answer.Intent{Name: understand.IntentPrices, Answer: pricesAnswer}) }

// pricesAnswer answers "AutoDL 怎么收费" (one platform's rules and list
// prices), "4090 价格表" (one GPU's list prices across platforms), "价格"
// (an overview of every platform) or "无卡模式多少钱".
func pricesAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	q := a.Query
	uses := pricesUses(a.Env, &q)
	r := New(a.Env)
	p := r.prices(q)
	p.Seen = r.seen(ctx, q)
	if q.Currency == understand.CurrencyUSD && len(p.Offers) == 0 {
		uses.Add(answer.NotUsed(understand.CondCurrency, answer.WhyNoCNY))
	}
	return answer.Out{Payload: p, Query: q, Uses: uses.List()}
}

// pricesUses applies the conditions a prices answer can to q: the VRAM
// (the cards within it; said in the title when none is named), the
// platform group (every platform's list prices of the cards, not the
// platforms named) and the currency (a line in dollars); list prices
// have no region, period or budget.
func pricesUses(env *answer.Env, q *understand.Query) *answer.Uses {
	uses := answer.UsesOf(q)
	named := len(q.NamedGPUs) > 0
	if len(q.Platforms) == 0 {
		uses.Add(answer.NarrowByVRAM(env.Cat, q)...)
		if !named {
			uses.Add(answer.Said(understand.CondVRAMMin, understand.CondVRAMMax)...)
		}
		if len(q.GPUs) > 0 {
			uses.Add(answer.Applied(understand.CondPlatformGroup)...)
		}
	}
	uses.Add(answer.Said(understand.CondCurrency)...)
	if diskOnly(*q) {
		// A data disk's cost over the period asked.
		uses.Add(answer.Applied(understand.CondPeriod)...)
	} else {
		uses.Add(answer.NotUsed(understand.CondPeriod, answer.WhyHourly))
	}
	uses.Add(answer.NotUsed(understand.CondRegion, answer.WhyListRegion), answer.NotUsed(understand.CondBudget, answer.WhyHourly))
	return uses
}

// diskOnly reports whether q asks only what a data disk of its size
// costs, answered per day, per month and over its period: on several
// platforms or none named ("多加100G多少钱"), or on one over a period
// ("autodl数据盘200G挂两周多少钱").
func diskOnly(q understand.Query) bool {
	return q.SizeGB > 0 && len(q.GPUs) == 0 && !q.NoCardMode && (len(q.Platforms) != 1 || q.PeriodDays > 0)
}

// prices finds what a prices answer shows: the no-GPU modes, or the list
// prices of the named platforms (the asked GPUs, or all), or of the named
// GPUs on every platform; the overview is the catalog's, read by render.
func (r *Answers) prices(q understand.Query) offerview.Prices {
	en := q.English
	p := offerview.Prices{Lang: i18n.Of(en), Ask: offerview.PricesAsk{NoCardMode: q.NoCardMode, Retention: q.Retention, LiveAsked: q.LiveAsked, Named: q.Platforms,
		DiskFirst: q.NamesDisks && len(q.GPUs) == 0, DiskPerMonth: q.NamesDisks && len(q.GPUs) == 0 && q.SizeGB == 0 && q.PeriodDays == 30,
		GPU: q.GPU, GPUs: q.GPUs, NamedGPUs: q.NamedGPUs, Exclude: q.ExcludePlatforms, USD: q.Currency == understand.CurrencyUSD, Count: q.GPUCount,
		DiskGB: q.SizeGB, DiskExtra: q.DiskExtra}}
	if len(q.NamedGPUs) == 0 {
		p.Ask.VRAMMinGB, p.Ask.VRAMMaxGB = q.VRAMMinGB, q.VRAMMaxGB
	}
	if q.NoCardMode {
		p.NoCard = r.noCardRows(q)
		return p
	}
	if diskOnly(q) {
		p.Ask.DiskOnly, p.Ask.PeriodDays = true, q.PeriodDays
		for _, pl := range r.MainPlatforms(q) {
			p.Ask.Platforms = append(p.Ask.Platforms, pl.ID)
		}
		return p
	}
	for _, id := range q.Platforms {
		plat, ok := r.Cat.Platform(id)
		if !ok {
			continue
		}
		p.Ask.Platforms = append(p.Ask.Platforms, id)
		for _, pr := range plat.Prices {
			if len(q.GPUs) > 0 && !slices.Contains(q.GPUs, pr.GPU) {
				continue
			}
			row := r.listRow(plat, pr)
			row.Cite = answer.Cite(r.Cat, plat.ID, pr.CNYPerHour, en)
			p.Offers = append(p.Offers, row)
		}
	}
	if len(p.Ask.Platforms) == 0 && len(q.GPUs) > 0 {
		p.Offers = r.gpuRows(q)
	}
	return p
}

// seen are the live or recorded offers of the cards q names on the one
// platform it names, the cheapest in stock (else the cheapest) of each
// card; none without both.
func (r *Answers) seen(ctx context.Context, q understand.Query) []OfferRow {
	if len(q.Platforms) != 1 || len(q.GPUs) == 0 || q.NoCardMode || q.SizeGB > 0 || q.Retention || q.ListAsked || q.LiveAsked {
		return nil
	}
	rows, _ := r.RowsFor(r.Offers.Snapshot(ctx), q, r.Now())
	var out []OfferRow
	for _, g := range q.NamedGPUs {
		best := -1
		for i, row := range rows {
			if row.Source != string(stock.SourceLive) && row.Source != string(stock.SourceReplay) || row.Stale || row.PriceCNY == nil {
				continue
			}
			if row.GPU != g && !strings.HasPrefix(row.GPU, g) {
				continue
			}
			if best < 0 || inStock(row) && !inStock(rows[best]) || inStock(row) == inStock(rows[best]) && *row.PriceCNY < *rows[best].PriceCNY {
				best = i
			}
		}
		if best >= 0 {
			out = append(out, rows[best])
		}
	}
	return out
}

// inStock reports whether a row was seen with cards free.
func inStock(row OfferRow) bool { return row.Available != nil && *row.Available }

// gpuRows are the named cards' list prices on every platform not ruled
// out, trusted and cheapest first, each citing the platform's list price
// of the card.
func (r *Answers) gpuRows(q understand.Query) []OfferRow {
	var rows []OfferRow
	for i := range r.Cat.Platforms {
		p := &r.Cat.Platforms[i]
		if slices.Contains(q.ExcludePlatforms, p.ID) || !answer.InGroup(r.Cat, p.ID, q.PlatformGroup) {
			continue
		}
		for _, pr := range p.Prices {
			if slices.Contains(q.GPUs, pr.GPU) {
				rows = append(rows, r.listRow(p, pr))
			}
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if render.Trust(a) != render.Trust(b) {
			return render.Trust(a) < render.Trust(b)
		}
		return *a.PriceCNY < *b.PriceCNY
	})
	for i := range rows {
		p, _ := r.Cat.Platform(rows[i].Platform)
		pr, _ := p.PriceFor(rows[i].GPU)
		rows[i].Cite = answer.Cite(r.Cat, p.ID, pr.CNYPerHour, q.English)
	}
	return rows
}

// noCardRows are the main platforms' no-GPU modes: whether each has one,
// its price and source.
func (r *Answers) noCardRows(q understand.Query) []offerview.NoCardRow {
	var out []offerview.NoCardRow
	for _, p := range r.MainPlatforms(q) {
		nc := p.Storage.NoCard
		row := offerview.NoCardRow{Platform: p.ID, Available: nc.Available}
		if f := nc.CNYPerHour; f != nil && nc.Available {
			row.Price, row.Cite = f, answer.Cite(r.Cat, p.ID, *f, q.English)
		}
		out = append(out, row)
	}
	return out
}

// listRow is a catalog list price as a row, marked stale when older than
// the list-price age.
func (r *Answers) listRow(p *catalog.Platform, pr catalog.Price) OfferRow {
	low := pr.CNYPerHour.Low
	row := OfferRow{Platform: p.ID, GPU: pr.GPU, PriceCNY: &low, Source: string(stock.SourceCatalog),
		AsOf: pr.CNYPerHour.AsOf, AgeSeconds: -1, Verified: pr.CNYPerHour.Verified, PriceNote: pr.CNYPerHour.Note}
	if pr.CNYPerHour.High > pr.CNYPerHour.Low {
		row.PriceHighCNY = pr.CNYPerHour.High
	}
	if catalog.ListPriceStale(pr.CNYPerHour.AsOf, r.Now(), r.ListPriceMaxAge) {
		row.Caveats = []stock.Caveat{stock.CaveatStalePrice}
	}
	return row
}
