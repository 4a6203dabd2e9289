package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/stock"
)

// maxOfferRows caps the table; the rest is counted in a note.
const maxOfferRows = 12

// rowsFor collects the offers for the query's GPUs and platform from the
// snapshot, cheapest first, with sold-out rows last. A catalog list price is
// dropped when a live or replay offer with a price covers the same platform
// and GPU.
func (r *Router) rowsFor(snap stock.Snapshot, q Query, now time.Time) (rows []OfferRow, skippedNoPrice int) {
	want := map[string]bool{}
	for _, g := range q.GPUs {
		want[g] = true
	}
	type key struct{ p, g string }
	observed := map[key]bool{}
	var offers []stock.Offer
	var stale = map[string]bool{}
	for _, ps := range snap.Providers {
		if ps.Status == stock.StatusStale {
			stale[ps.Provider] = true
		}
		for _, o := range ps.Offers {
			if len(want) > 0 && !want[o.GPU] {
				continue
			}
			if q.Platform != "" && o.Platform != q.Platform {
				continue
			}
			if stale[ps.Provider] {
				o.Note = strings.TrimSpace(o.Note + " stale")
			}
			offers = append(offers, o)
			if o.Source != stock.SourceCatalog && o.HasPrice() {
				observed[key{o.Platform, o.GPU}] = true
			}
		}
	}
	for _, o := range offers {
		if o.Source == stock.SourceCatalog && observed[key{o.Platform, o.GPU}] {
			continue
		}
		if q.MaxPriceCNY > 0 {
			if !o.HasPrice() {
				skippedNoPrice++
				continue
			}
			if o.CNYPerGPUHour > q.MaxPriceCNY {
				continue
			}
		}
		row := r.offerRow(o, now)
		if !o.HasPrice() {
			// A stock count without a price (AutoDL's stock API): show the
			// catalog list price beside it, labelled as such.
			if p, ok := r.cat.Platform(o.Platform); ok {
				if pr, ok := p.PriceFor(o.GPU); ok {
					row.ListPriceCNY = pr.CNYPerHour.Low
				}
			}
		}
		rows = append(rows, row)
	}
	rank := func(x OfferRow) int {
		switch {
		case x.Available == nil:
			return 1
		case *x.Available:
			return 0
		}
		return 2
	}
	// Offers known to be in stock first, then unknown stock (list prices),
	// then sold out; cheapest first within each group.
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if rank(a) != rank(b) {
			return rank(a) < rank(b)
		}
		pa, pb := a.PriceCNY, b.PriceCNY
		if pa == 0 {
			pa = 1e9
		}
		if pb == 0 {
			pb = 1e9
		}
		if pa != pb {
			return pa < pb
		}
		return rank(a) < rank(b)
	})
	return rows, skippedNoPrice
}

func (r *Router) offerRow(o stock.Offer, now time.Time) OfferRow {
	row := OfferRow{Platform: o.Platform, GPU: o.GPU, PriceCNY: round2(o.CNYPerGPUHour), PriceHighCNY: round2(o.PriceHigh),
		Free: o.Free, Region: o.Region, Source: string(o.Source), Verified: o.Verified || o.Source != stock.SourceCatalog,
		Stale: strings.Contains(o.Note, "stale"), AgeSeconds: -1}
	switch o.State() {
	case stock.InStock:
		t := true
		row.Available = &t
	case stock.SoldOut:
		f := false
		row.Available = &f
	}
	if o.Source == stock.SourceCatalog {
		row.AsOf = o.AsOfText
	} else if !o.ObservedAt.IsZero() {
		row.AsOf = o.ObservedAt.UTC().Format(time.RFC3339)
		row.AgeSeconds = int64(now.Sub(o.ObservedAt).Seconds())
	}
	if o.Note != "" {
		row.PriceNote = strings.TrimSpace(strings.ReplaceAll(o.Note, "stale", ""))
	}
	return row
}

func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }

// stockAnswer answers "哪家有4090".
func (r *Router) stockAnswer(ctx context.Context, res *Result) {
	q := res.Query
	en := q.English
	now := r.now()
	snap := r.offers.Snapshot(ctx)
	rows, noPrice := r.rowsFor(snap, q, now)
	res.Offers = rows
	res.Providers = providerRows(snap)

	gpuName := q.GPU
	if q.GPUFamily {
		gpuName = strings.Join(q.GPUs, " / ")
	}
	rep := chat.Reply{}
	switch {
	case en && q.Platform != "":
		rep.Title = fmt.Sprintf("%s on %s: in stock first, then cheapest first", gpuName, r.platformName(q.Platform, en))
	case en:
		rep.Title = fmt.Sprintf("%s offers: in stock first, then cheapest first", gpuName)
	case q.Platform != "":
		rep.Title = fmt.Sprintf("%s 上的 %s（有货的在前，再按价格从低到高）", r.platformName(q.Platform, en), gpuName)
	default:
		rep.Title = fmt.Sprintf("%s 报价（有货的在前，再按价格从低到高）", gpuName)
	}
	if q.MaxPriceCNY > 0 {
		if en {
			rep.Title += fmt.Sprintf(", at most %.2f CNY/GPU-hour", q.MaxPriceCNY)
		} else {
			rep.Title += fmt.Sprintf("，不高于 %.2f 元/卡时", q.MaxPriceCNY)
		}
	}

	hasObserved := false
	for _, row := range rows {
		if row.Source != string(stock.SourceCatalog) {
			hasObserved = true
		}
	}
	if len(rows) == 0 {
		switch {
		case en && q.MaxPriceCNY > 0:
			rep.Lines = append(rep.Lines, fmt.Sprintf("No %s offer at or under %.2f CNY/GPU-hour in the data I have.", gpuName, q.MaxPriceCNY))
		case en:
			rep.Lines = append(rep.Lines, fmt.Sprintf("I have no offers or list prices for %s.", gpuName))
		case q.MaxPriceCNY > 0:
			rep.Lines = append(rep.Lines, fmt.Sprintf("现有数据里没有 %.2f 元/卡时以内的 %s。", q.MaxPriceCNY, gpuName))
		default:
			rep.Lines = append(rep.Lines, fmt.Sprintf("没有 %s 的报价或目录标价。", gpuName))
		}
	} else if !hasObserved {
		if en {
			rep.Lines = append(rep.Lines, "No live stock data right now (no live provider configured, or all failed). These are catalog list prices; stock unknown.")
		} else {
			rep.Lines = append(rep.Lines, "目前没有实时库存数据（没有配置实时数据源，或全部获取失败）。以下是目录标价，库存未知。")
		}
	}
	if len(rows) > 0 {
		t := &chat.Table{}
		if en {
			t.Header = []string{"platform", "GPU", "CNY/GPU-h", "free", "region", "source · age"}
		} else {
			t.Header = []string{"平台", "GPU", "元/卡时", "空闲", "地区", "来源 · 时间"}
		}
		for i, row := range rows {
			if i >= maxOfferRows {
				break
			}
			t.Rows = append(t.Rows, []string{r.platformName(row.Platform, en), row.GPU, priceCell(row, en), freeCell(row, en), row.Region, sourceCell(row, en)})
		}
		rep.Table = t
		if len(rows) > maxOfferRows {
			if en {
				rep.Notes = append(rep.Notes, fmt.Sprintf("%d more offers not shown.", len(rows)-maxOfferRows))
			} else {
				rep.Notes = append(rep.Notes, fmt.Sprintf("还有 %d 条未显示。", len(rows)-maxOfferRows))
			}
		}
	}
	if noPrice > 0 {
		if en {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%d offers without a price were left out of the price filter.", noPrice))
		} else {
			rep.Notes = append(rep.Notes, fmt.Sprintf("有 %d 条没有价格的数据未参与价格筛选。", noPrice))
		}
	}
	rep.Notes = append(rep.Notes, providerNotes(snap, en, now)...)
	if unverified(rows) {
		if en {
			rep.Notes = append(rep.Notes, "* list price only the seed articles report; not confirmed by a dated source.")
		} else {
			rep.Notes = append(rep.Notes, "* 仅见于原始文章、未经其他来源核实的标价。")
		}
	}
	res.Reply = rep
}

func unverified(rows []OfferRow) bool {
	for _, r := range rows {
		if !r.Verified {
			return true
		}
	}
	return false
}

func (r *Router) platformName(id string, en bool) string {
	if p, ok := r.cat.Platform(id); ok {
		return p.DisplayName(en)
	}
	return id
}

func priceCell(row OfferRow, en bool) string {
	if row.PriceCNY == 0 {
		switch {
		case row.ListPriceCNY > 0 && en:
			return fmt.Sprintf("list %.2f", row.ListPriceCNY)
		case row.ListPriceCNY > 0:
			return fmt.Sprintf("标价 %.2f", row.ListPriceCNY)
		case en:
			return "no price"
		}
		return "无价格"
	}
	s := fmt.Sprintf("%.2f", row.PriceCNY)
	if row.PriceHighCNY > row.PriceCNY {
		s += fmt.Sprintf("-%.2f", row.PriceHighCNY)
	}
	if !row.Verified {
		s += "*"
	}
	return s
}

func freeCell(row OfferRow, en bool) string {
	switch {
	case row.Free != nil && *row.Free > 0:
		return fmt.Sprintf("%d", *row.Free)
	case row.Free != nil:
		if en {
			return "sold out"
		}
		return "无货"
	}
	if en {
		return "unknown"
	}
	return "未知"
}

func sourceCell(row OfferRow, en bool) string {
	switch row.Source {
	case string(stock.SourceCatalog):
		if en {
			return "list price " + row.AsOf
		}
		return "目录标价 " + row.AsOf
	}
	label := map[string][2]string{"live": {"实时", "live"}, "replay": {"录制回放", "replay"}}[row.Source]
	name := label[0]
	if en {
		name = label[1]
	}
	if name == "" {
		name = row.Source
	}
	age := Age(time.Duration(row.AgeSeconds)*time.Second, en)
	if row.AgeSeconds < 0 {
		age = "?"
	}
	s := name + " · " + age
	if row.Stale {
		if en {
			s += " (stale)"
		} else {
			s += "（旧数据）"
		}
	}
	return s
}

// Age formats a duration as "刚刚", "3 分钟前", "2 小时前", "5 天前" (or the
// English "just now", "3 min ago", …).
func Age(d time.Duration, en bool) string {
	switch {
	case d < time.Minute:
		if en {
			return "just now"
		}
		return "刚刚"
	case d < time.Hour:
		if en {
			return fmt.Sprintf("%d min ago", int(d.Minutes()))
		}
		return fmt.Sprintf("%d 分钟前", int(d.Minutes()))
	case d < 48*time.Hour:
		if en {
			return fmt.Sprintf("%d h ago", int(d.Hours()))
		}
		return fmt.Sprintf("%d 小时前", int(d.Hours()))
	}
	if en {
		return fmt.Sprintf("%d days ago", int(d.Hours()/24))
	}
	return fmt.Sprintf("%d 天前", int(d.Hours()/24))
}

func providerRows(s stock.Snapshot) []ProviderRow {
	var out []ProviderRow
	for _, p := range s.Providers {
		row := ProviderRow{Provider: p.Provider, Status: string(p.Status), Error: p.Err}
		if !p.FetchedAt.IsZero() {
			row.FetchedAt = p.FetchedAt.UTC().Format(time.RFC3339)
		}
		out = append(out, row)
	}
	return out
}

// providerNotes says which providers failed or are stale.
func providerNotes(s stock.Snapshot, en bool, now time.Time) []string {
	var notes []string
	for _, p := range s.Providers {
		switch p.Status {
		case stock.StatusStale:
			if en {
				notes = append(notes, fmt.Sprintf("%s: last fetch failed (%s); showing data from %s.", p.Provider, shortErr(p.Err), Age(now.Sub(p.FetchedAt), en)))
			} else {
				notes = append(notes, fmt.Sprintf("%s：最近一次获取失败（%s），显示的是%s的数据。", p.Provider, shortErr(p.Err), Age(now.Sub(p.FetchedAt), en)))
			}
		case stock.StatusError:
			if en {
				notes = append(notes, fmt.Sprintf("%s: fetch failed (%s); its stock is unknown.", p.Provider, shortErr(p.Err)))
			} else {
				notes = append(notes, fmt.Sprintf("%s：获取失败（%s），库存未知。", p.Provider, shortErr(p.Err)))
			}
		}
	}
	return notes
}

func shortErr(s string) string {
	if len([]rune(s)) > 80 {
		return string([]rune(s)[:80]) + "…"
	}
	return s
}
