package offers

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/textgate"
	"github.com/labgpu/bot/internal/understand"
)

// maxOfferRows caps the full form's table; the rest is counted in a note.
const maxOfferRows = 12

// OfferRow is one offer as answers show it (render.OfferRow).
type OfferRow = render.OfferRow

// ProviderRow is a provider's health in an answer.
type ProviderRow struct {
	Provider  string `json:"provider"`
	Status    string `json:"status"`
	FetchedAt string `json:"fetched_at,omitempty"`
	Error     string `json:"error,omitempty"`
}

// RowsFor collects the offers for the query's GPUs and platforms from the
// snapshot: offers known to be in stock first, then unknown stock (list
// prices), then sold out, cheapest first within each group. A catalog list
// price is dropped when a live or replay offer covers the same platform and
// GPU (under a price limit, only one with a price).
func (r *Answers) RowsFor(snap stock.Snapshot, q understand.Query, now time.Time) (rows []OfferRow, skippedNoPrice int) {
	want := map[string]bool{}
	for _, g := range q.GPUs {
		want[g] = true
		// A platform that names only the family ("H100") could not be
		// narrowed to a variant; it still answers for the family.
		if gg, ok := r.Cat.GPU(g); ok && gg.Family != "" {
			want[gg.Family] = true
		}
	}
	type key struct{ p, g string }
	observed := map[key]bool{}
	var offers []stock.Offer
	for _, ps := range snap.Providers {
		for _, o := range ps.Offers {
			if len(want) > 0 && !want[o.GPU] {
				continue
			}
			if len(q.Platforms) > 0 && !slices.Contains(q.Platforms, o.Platform) || slices.Contains(q.ExcludePlatforms, o.Platform) {
				continue
			}
			if o.Source != stock.SourceCatalog {
				// An observed offer replaces the list price: one without a
				// price of its own shows the list price beside its count.
				observed[key{o.Platform, o.GPU}] = true
			}
			if q.MaxPriceCNY > 0 {
				// Under the ceiling before merging, so a merged row counts
				// only machines at that price. A count without a price is
				// judged by the list price shown beside it; a list-price
				// range whose low end is under it is kept, marked
				// (PartlyUnder).
				low := o.CNYPerGPUHour
				if !o.HasPrice() {
					low = r.listLow(o)
				}
				if low <= 0 {
					skippedNoPrice++
					continue
				}
				if low > q.MaxPriceCNY+1e-9 {
					continue
				}
			}
			offers = append(offers, o)
		}
	}
	// One row per offer a person could rent: endpoints and machines that
	// describe the same platform, GPU and region are folded together.
	for _, o := range stock.Merge(offers) {
		if o.Source == stock.SourceCatalog && observed[key{o.Platform, o.GPU}] {
			continue
		}
		rows = append(rows, r.stockRow(o, q, now))
	}
	sortRows(rows)
	return rows, skippedNoPrice
}

// listLow is the low end of the catalog list price of an offer's platform
// and GPU (0 when there is none).
func (r *Answers) listLow(o stock.Offer) float64 {
	if p, ok := r.Cat.Platform(o.Platform); ok {
		if pr, ok := p.PriceFor(o.GPU); ok {
			return pr.CNYPerHour.Low
		}
	}
	return 0
}

// stockRow is an offer as a stock answer's row: a count without a price
// (AutoDL's stock API) shows the catalog list price beside it, labelled.
func (r *Answers) stockRow(o stock.Offer, q understand.Query, now time.Time) OfferRow {
	row := r.Rd.RowAt(o, now)
	row.PartlyUnder = q.MaxPriceCNY > 0 && o.PriceHigh > q.MaxPriceCNY+1e-9
	if !o.HasPrice() {
		if p, ok := r.Cat.Platform(o.Platform); ok {
			if pr, ok := p.PriceFor(o.GPU); ok {
				row.ListPriceCNY, row.ListPriceHighCNY, row.ListAsOf = pr.CNYPerHour.Low, pr.CNYPerHour.High, pr.CNYPerHour.AsOf
				row.PartlyUnder = q.MaxPriceCNY > 0 && pr.CNYPerHour.High > q.MaxPriceCNY+1e-9
			}
		}
	}
	return row
}

// sortRows ranks rows: in stock, then unknown stock, then sold out; within
// each, verified current prices, then unverified, then stale (trust); then
// whole ranges before part-under ones; then cheapest first.
func sortRows(rows []OfferRow) {
	rank := func(x OfferRow) int {
		switch {
		case x.Available == nil:
			return 1
		case *x.Available:
			return 0
		}
		return 2
	}
	price := func(x OfferRow) float64 {
		if x.PriceCNY == nil {
			return math.Inf(1)
		}
		return *x.PriceCNY
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if rank(a) != rank(b) {
			return rank(a) < rank(b)
		}
		// The verdict names a cheaper doubtful one (cheaperDoubt).
		if render.Trust(a) != render.Trust(b) {
			return render.Trust(a) < render.Trust(b)
		}
		if a.PartlyUnder != b.PartlyUnder {
			return b.PartlyUnder
		}
		return price(a) < price(b)
	})
}

// Stock answers "哪家有4090": a verdict and the five best rows, the
// whole table behind "详情".
func (r *Answers) Stock(ctx context.Context, res *Result) {
	q := res.Query
	en := q.English
	if folded := catalog.Fold(q.Asked); reElsewhere.MatchString(folded) || reWhichPlatform.MatchString(folded) && reNoneThere.MatchString(folded) {
		// "autodl 上全是灰的，哪里还能租到", "哪家还有4090 autodl一直抢不到":
		// every platform, not only the one named.
		q.Platforms, q.Platform = nil, ""
		res.Query.Platforms, res.Query.Platform = nil, ""
	}
	now := r.Now()
	snap := r.Offers.Snapshot(ctx)
	rows, noPrice := r.RowsFor(snap, q, now)
	var capLine []string
	if len(rows) == 0 && q.MaxPriceCNY > 0 {
		// Nothing under the ceiling: show the cheapest there is instead.
		above := q
		above.MaxPriceCNY = 0
		if all, _ := r.RowsFor(snap, above, now); len(all) > 0 {
			rows = all
			capLine = append(capLine, fmt.Sprintf(answer.Pick(en, "没有 %s 元/卡时以内的；下面是已知最便宜的。", "Nothing at or under %s CNY/GPU-h; the cheapest known are below."), render.TrimF(q.MaxPriceCNY)))
		}
	}
	res.Offers = rows
	res.Providers = providerRows(snap, r.Rd.Clock)
	if q.GPU == "" && q.UnknownGPU != "" {
		rep := chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "目录里没有“%s”这张卡，查不到它的库存和价格。", "The catalog has no GPU “%s”, so I have no stock or prices for it."), q.UnknownGPU)}
		rep.Lines = append(rep.Lines, answer.Pick(en, "可以问的卡：", "GPUs I know: ")+r.knownGPUs())
		res.Reply = rep
		return
	}
	full := r.stockFull(rows, noPrice, snap, q, now)
	short := chat.Reply{Title: r.stockVerdict(rows, snap, q)}
	short.Lines = append(append(append(answer.ProblemLines(q, en), r.failureLines(snap, en)...), r.absentLines(snap, rows, en)...), capLine...)
	if q.GPUCount > 1 {
		// The counts are per region or platform, not per machine.
		short.Lines = append(short.Lines, fmt.Sprintf(answer.Pick(en, "要 %d 张在同一台机器上：表里的空闲数是整个地区或平台的合计，不一定凑得齐一台，开机时按 %d 卡选一下确认。",
			"For %d on one machine: the free counts are per region or platform, not per machine; check a %d-GPU instance when starting it."), q.GPUCount, q.GPUCount))
	}
	if t := r.offerTable(rows, answer.MaxShortRows, en); t != nil {
		short.Table = t
	}
	shown := rows[:min(len(rows), answer.MaxShortRows)]
	if len(rows) > answer.MaxShortRows {
		short.Notes = append(short.Notes, fmt.Sprintf(answer.Pick(en, "……还有 %d 条。", "… %d more."), len(rows)-answer.MaxShortRows))
	}
	short.Notes = append(short.Notes, r.stockNotes(shown, en)...)
	if len(rows) > answer.MaxShortRows || len(full.Notes) > len(short.Notes) {
		short.Full = &full
	}
	res.Reply = short
}

// reElsewhere asks for other platforms than the one named ("哪里还能",
// "别家", "elsewhere").
var (
	// reWhichPlatform asks which platform has a card ("哪家还有").
	reWhichPlatform = textgate.MustCompile(`哪家|哪个平台|哪些平台|别的地方|哪里还|哪儿还|哪里能|哪儿能|哪里有|哪儿有|which platform|where else|where can|anyone have|who has`)
	// reNoneThere says the named platform has none ("一直抢不到").
	reNoneThere = textgate.MustCompile(`抢不到|租不到|开不出|没有了|没货|没卡|全是灰|售罄|一直排队|sold out|out of stock|none left|can'?t get`)
)

var reElsewhere = textgate.MustCompile(`哪里还能|哪还能|别家|别的平台|其他平台|其它平台|换一家|除了|elsewhere|other platforms?|anywhere else|besides`)

// gpuLabel names the GPUs asked about.
func gpuLabel(q understand.Query, en bool) string {
	if len(q.NamedGPUs) > 0 {
		return strings.Join(q.NamedGPUs, " / ")
	}
	if len(q.GPUs) > 0 {
		return strings.Join(q.GPUs, " / ")
	}
	return answer.Pick(en, "各种卡", "GPUs")
}

// stockVerdict is the first line: who has it, the cheapest and how fresh,
// or plainly that no live figure exists.
func (r *Answers) stockVerdict(rows []OfferRow, snap stock.Snapshot, q understand.Query) string {
	en := q.English
	name := gpuLabel(q, en)
	if len(q.Platforms) > 0 {
		name = r.Rd.PlatformNames(q.Platforms, en) + " " + name
	}
	if q.MaxPriceCNY > 0 {
		name += fmt.Sprintf(answer.Pick(en, "（%s 元/卡时以内）", " (at most %s CNY/GPU-h)"), render.TrimF(q.MaxPriceCNY))
	}
	if len(q.ExcludePlatforms) > 0 {
		name += fmt.Sprintf(answer.Pick(en, "（不含 %s）", " (not %s)"), r.Rd.PlatformNames(q.ExcludePlatforms, en))
	}
	if len(rows) == 0 {
		if q.MaxPriceCNY > 0 {
			return fmt.Sprintf(answer.Pick(en, "%s：实时数据和目录里都没有它的报价，更没有这个价以内的。", "%s: no offer or list price for it at all, so none at or under that price."), name)
		}
		return fmt.Sprintf(answer.Pick(en, "%s：没有报价或目录标价。", "%s: no offers or list prices."), name)
	}
	var live []OfferRow
	platforms := map[string]bool{}
	for _, row := range rows {
		if row.Source == string(stock.SourceLive) && !row.Stale && row.Available != nil && *row.Available {
			live = append(live, row)
			platforms[row.Platform] = true
		}
	}
	best := rows[0]
	var replayed []OfferRow
	for _, row := range rows {
		if row.Source == string(stock.SourceReplay) && row.Available != nil && *row.Available {
			replayed = append(replayed, row)
		}
	}
	switch {
	case len(live) == 0 && len(replayed) > 0:
		return fmt.Sprintf(answer.Pick(en, "%s：%s。录制回放里%s，%s（%s），不代表现在的库存%s。", "%s: %s. In the replayed recordings %s, %s (%s); not current stock%s."),
			name, r.noLiveReason(snap, en), r.cheapestPhrase(replayed[0], q), render.FreePhrase(replayed[0], en), render.SourceCell(replayed[0], en), r.cheaperDoubt(replayed, en))
	case len(live) > 0:
		return fmt.Sprintf(answer.Pick(en, "%s 有货：%d 个平台，最便宜 %s %s，%s（%s）%s。", "%s is available on %d platforms; cheapest %s at %s, %s (%s)%s."),
			name, len(platforms), r.offerName(live[0], q), render.PriceWithUnit(live[0], en), render.FreePhrase(live[0], en), render.SourceCell(live[0], en), r.cheaperDoubt(live, en))
	case best.Source == string(stock.SourceLive) && !best.Stale && best.Available != nil && !*best.Available:
		return fmt.Sprintf(answer.Pick(en, "%s 现在都没货（%s）；发“%s 有货了提醒我”，有货时 @你。", "%s is sold out everywhere (%s); say “notify me when a %s is available”."),
			name, render.SourceCell(best, en), q.GPU)
	case !best.Stale && best.Available != nil && !*best.Available:
		// An old figure (a failed fetch, a row missing from the latest
		// answer) is unknown stock now, never "sold out".
		return fmt.Sprintf(answer.Pick(en, "%s：%s。录制回放里都没货（%s），不代表现在的库存。", "%s: %s. Sold out in the replayed recordings (%s); not current stock."),
			name, r.noLiveReason(snap, en), render.SourceCell(best, en))
	}
	var same []OfferRow
	for _, row := range rows {
		if (row.Available == nil) == (best.Available == nil) {
			same = append(same, row)
		}
	}
	return fmt.Sprintf(answer.Pick(en, "%s：%s。最低 %s %s（%s），库存未知%s。", "%s: %s. Lowest %s at %s (%s); stock unknown%s."),
		name, r.noLiveReason(snap, en), r.offerName(best, q), render.PriceWithUnit(best, en), render.SourceCell(best, en), r.cheaperDoubt(same, en))
}

// cheaperDoubt names a row cheaper than the first of rows that was ranked
// after it because its price is unverified or stale ("" when none): the
// ordering never hides a lower figure without saying so.
func (r *Answers) cheaperDoubt(rows []OfferRow, en bool) string {
	if len(rows) == 0 || rows[0].PriceCNY == nil {
		return ""
	}
	var low *OfferRow
	for i := range rows[1:] {
		row := &rows[i+1]
		if render.Trust(*row) > render.Trust(rows[0]) && row.PriceCNY != nil && *row.PriceCNY < *rows[0].PriceCNY && (low == nil || *row.PriceCNY < *low.PriceCNY) {
			low = row
		}
	}
	if low == nil {
		return ""
	}
	why := answer.Pick(en, "未经核实", "unverified")
	switch {
	case low.Has(stock.CaveatStalePrice):
		why = answer.Pick(en, "标价过时", "an old list price")
	case low.Has(stock.CaveatUnitUnverified):
		why = answer.Pick(en, "价格单位未核实", "its price unit is unverified")
	}
	return fmt.Sprintf(answer.Pick(en, "；%s %s 更低，但%s", "; %s %s is lower but %s"), r.Rd.PlatformName(low.Platform, en), render.PriceCell(*low, en), why)
}

// offerTable is the first n rows as a table (nil without rows).
func (r *Answers) offerTable(rows []OfferRow, n int, en bool) *chat.Table {
	if len(rows) == 0 {
		return nil
	}
	t := &chat.Table{Header: answer.Picks(en, []string{"平台", "GPU", "元/卡时", "空闲", "地区", "来源 · 时间"}, []string{"platform", "GPU", "CNY/GPU-h", "free", "region", "source · age"})}
	for i, row := range rows {
		if i >= n {
			break
		}
		t.Rows = append(t.Rows, []string{r.Rd.PlatformName(row.Platform, en), row.GPU, render.PriceCell(row, en), render.FreeCell(row, en), render.RegionText(row.Region, en), render.SourceCell(row, en)})
	}
	return t
}

// stockNotes are the notes under the rows shown: the legend of their marks,
// endpoints that disagree, the USD conversion.
func (r *Answers) stockNotes(rows []OfferRow, en bool) []string {
	var notes []string
	for _, row := range rows {
		if row.PartlyUnder {
			notes = append(notes, answer.Pick(en, "† 标价是区间，只有低端在这个价以内（看地区和时段）。", "† a list-price range whose low end only is under the limit (by region and time)."))
			break
		}
	}
	notes = append(notes, r.Rd.Legend(render.WithOthers(rows), en)...)
	notes = append(notes, r.Rd.DisagreeLines(rows, en)...)
	for _, row := range rows {
		if row.Currency == "USD" {
			notes = append(notes, fmt.Sprintf(answer.Pick(en, "美元报价按 1 USD = %.2f 元换算。", "USD prices converted at 1 USD = %.2f CNY."), r.Cat.FXUSDCNY))
			break
		}
	}
	return notes
}

// stockFull is the whole stock answer behind "详情".
func (r *Answers) stockFull(rows []OfferRow, noPrice int, snap stock.Snapshot, q understand.Query, now time.Time) chat.Reply {
	en := q.English
	rep := chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "%s 全部报价（有货的在前，再按价格从低到高）", "%s: all offers (available first, then cheapest first)"), gpuLabel(q, en))}
	rep.Lines = append(append(answer.ProblemLines(q, en), r.failureLines(snap, en)...), r.absentLines(snap, rows, en)...)
	hasLive := false
	for _, row := range rows {
		if row.Source == string(stock.SourceLive) && !row.Stale {
			hasLive = true
		}
	}
	if len(rows) > 0 && !hasLive {
		rep.Lines = append(rep.Lines, r.noLiveLine(snap, en))
	}
	rep.Table = r.offerTable(rows, maxOfferRows, en)
	if len(rows) > maxOfferRows {
		rep.Notes = append(rep.Notes, fmt.Sprintf(answer.Pick(en, "还有 %d 条未显示。", "%d more offers not shown."), len(rows)-maxOfferRows))
	}
	if noPrice > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf(answer.Pick(en, "有 %d 条没有价格的数据未参与价格筛选。", "%d offers without a price were left out of the price filter."), noPrice))
	}
	rep.Notes = append(rep.Notes, r.stockNotes(rows[:min(len(rows), maxOfferRows)], en)...)
	return rep
}

func unverified(rows []OfferRow) bool {
	for _, r := range rows {
		if !r.Verified {
			return true
		}
	}
	return false
}

// cheapestPhrase names the first available row in a verdict: "最便宜有货的是
// AutoDL 2.18 元/卡时", or without a price "有货的是 AutoDL（价格未知）".
func (r *Answers) cheapestPhrase(row OfferRow, q understand.Query) string {
	en := q.English
	name := r.offerName(row, q)
	if row.PriceCNY == nil && row.ListPriceCNY == 0 {
		return fmt.Sprintf(answer.Pick(en, "有货的是 %s（价格未知）", "%s has some (price unknown)"), name)
	}
	return fmt.Sprintf(answer.Pick(en, "最便宜有货的是 %s %s", "the cheapest available is %s at %s"), name, render.PriceWithUnit(row, en))
}

// offerName names a row's platform in a verdict, and its GPU when the
// question named none ("便宜点的卡").
func (r *Answers) offerName(row OfferRow, q understand.Query) string {
	if len(q.GPUs) == 0 {
		return r.Rd.PlatformName(row.Platform, q.English) + " " + row.GPU
	}
	return r.Rd.PlatformName(row.Platform, q.English)
}

func providerRows(s stock.Snapshot, clock render.Clock) []ProviderRow {
	var out []ProviderRow
	for _, p := range s.Providers {
		row := ProviderRow{Provider: p.Provider, Status: string(p.Status), Error: p.Err}
		if !p.FetchedAt.IsZero() {
			row.FetchedAt = clock.RFC3339(p.FetchedAt)
		}
		out = append(out, row)
	}
	return out
}

// noLiveReason says in a few words why no live figure is shown.
func (r *Answers) noLiveReason(snap stock.Snapshot, en bool) string {
	line := r.noLiveLine(snap, en)
	if i := strings.IndexAny(line, "。."); i > 0 {
		return strings.TrimRight(line[:i], "。.")
	}
	return line
}

// noLiveLine explains why no live figure is shown: nothing live is
// configured, the live providers failed, or they have no such offer.
func (r *Answers) noLiveLine(snap stock.Snapshot, en bool) string {
	configured, failed, late, replay := 0, 0, 0, false
	for _, p := range snap.Providers {
		switch p.Provider {
		case "catalog":
			continue
		case "replay":
			// Only recordings that were read are "below".
			replay = len(p.Offers) > 0
			continue
		}
		if p.Status == stock.StatusNotConfigured {
			continue
		}
		configured++
		switch {
		case p.Late || p.Breaker == stock.BreakerOpen:
			late++
		case p.Status != stock.StatusOK:
			failed++
		}
	}
	var why string
	switch {
	case configured == 0:
		why = answer.Pick(en, "没有配置实时数据源", "no live provider is configured")
	case late > 0 && failed+late == configured:
		why = answer.Pick(en, "实时数据源这会儿没有回应", "the live providers are not answering right now")
	case failed == configured:
		why = answer.Pick(en, "实时数据源全部获取失败", "every live provider failed")
	default:
		why = answer.Pick(en, "实时数据源里没有这张卡的报价", "the live providers have no offer for it")
	}
	if replay {
		return fmt.Sprintf(answer.Pick(en, "没有实时数据（%s）。以下是录制回放的数据和目录标价，不代表现在的库存。", "No live data (%s). Below are replayed recordings and catalog list prices, not current stock."), why)
	}
	return fmt.Sprintf(answer.Pick(en, "没有实时数据（%s）。以下是目录标价，库存未知。", "No live data (%s). These are catalog list prices; stock unknown."), why)
}

// knownGPUs lists the catalog's GPU ids.
func (r *Answers) knownGPUs() string {
	var ids []string
	for _, g := range r.Cat.GPUs {
		ids = append(ids, g.ID)
	}
	return strings.Join(ids, ", ")
}
