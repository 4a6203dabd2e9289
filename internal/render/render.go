// Package render turns domain values into chat replies: offer rows and
// their cells (price, free count, source and age) with the caveat marks
// and their legend, and stock alerts. commands uses it for its answers and
// the app for alerts, so an alert does not need the router.
package render

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/stock"
)

// Renderer renders with the catalog's names and list prices.
type Renderer struct {
	Cat *catalog.Catalog
	// ListPriceMaxAge is the months after which a list price is stale (0:
	// catalog.DefaultListPriceMaxAgeMonths).
	ListPriceMaxAge int
	// Clock prints times in the configured zone (config timezone).
	Clock Clock
}

// ConsoleOwner is the owner id of subscriptions made from the command line
// (nobody to @mention).
const ConsoleOwner = "console"

// PlatformName is a platform's display name in the reader's language (its
// id when the catalog does not know it).
func (r *Renderer) PlatformName(id string, en bool) string {
	if p, ok := r.Cat.Platform(id); ok {
		return p.DisplayName(en)
	}
	return id
}

// PlatformNames joins platform names for a line of text.
func (r *Renderer) PlatformNames(ids []string, en bool) string {
	var names []string
	for _, id := range ids {
		names = append(names, r.PlatformName(id, en))
	}
	return strings.Join(names, pick1(en, "、", ", "))
}

// withListPrice shows the catalog list price (and its date) beside a count
// that came without a price.
func (r *Renderer) withListPrice(row OfferRow) OfferRow {
	if row.PriceCNY != nil {
		return row
	}
	if p, ok := r.Cat.Platform(row.Platform); ok {
		if pr, ok := p.PriceFor(row.GPU); ok {
			row.ListPriceCNY, row.ListPriceHighCNY, row.ListAsOf = pr.CNYPerHour.Low, pr.CNYPerHour.High, pr.CNYPerHour.AsOf
		}
	}
	return row
}

func pick1(en bool, zh, e string) string {
	if en {
		return e
	}
	return zh
}

// OfferRow is one offer as answers show it.
type OfferRow struct {
	Platform string `json:"platform"`
	GPU      string `json:"gpu"`
	// PriceCNY is CNY per GPU-hour; null when the source gives no price.
	PriceCNY *float64 `json:"price_cny_per_hour"`
	// PriceHighCNY is the top of a list-price range.
	PriceHighCNY float64 `json:"price_high_cny_per_hour,omitempty"`
	// ListPriceCNY is the catalog list price shown beside a live stock
	// count that came without a price.
	ListPriceCNY     float64 `json:"list_price_cny_per_hour,omitempty"`
	ListPriceHighCNY float64 `json:"list_price_high_cny_per_hour,omitempty"`
	ListAsOf         string  `json:"list_price_as_of,omitempty"`
	// Available is true / false when the source says, null when unknown.
	Available *bool  `json:"available"`
	Free      *int   `json:"free,omitempty"`
	Region    string `json:"region,omitempty"`
	// GPUsPerInstance is the GPUs in one rental unit (a vast.ai bundle).
	GPUsPerInstance int    `json:"gpus_per_instance,omitempty"`
	Source          string `json:"source"`
	// AsOf is the observation time (RFC 3339) or the list price's date.
	AsOf string `json:"as_of"`
	// AgeSeconds is the age of the figure at answer time (-1 if unknown);
	// DateOnly says the time is a recording's date only.
	AgeSeconds int64 `json:"age_seconds"`
	DateOnly   bool  `json:"date_only,omitempty"`
	Stale      bool  `json:"stale"`
	// OriginalPrice and Currency are the price as the platform gave it,
	// per rental unit (GPUsPerInstance GPUs) per hour (USD for vast.ai).
	OriginalPrice float64 `json:"original_price,omitempty"`
	Currency      string  `json:"currency,omitempty"`
	Verified      bool    `json:"verified"`
	PriceNote     string  `json:"price_note,omitempty"`
	// PartlyUnder is set when only the low end of a list-price range is
	// under the question's ceiling.
	PartlyUnder bool `json:"partly_under,omitempty"`
	// Caveats are the offer's known limits (stock.Caveat values), shown
	// as marks next to the figures with a legend.
	Caveats []stock.Caveat `json:"caveats,omitempty"`
	// Level is a stock level instead of a count (stock.LevelHigh, …).
	Level string `json:"level,omitempty"`
	// Machines is how many machines the row sums.
	Machines int `json:"machines,omitempty"`
	// Others are other endpoints' figures for the same platform and GPU;
	// Disagree is set when one of them gives another free count.
	Others   []stock.Figure `json:"others,omitempty"`
	Disagree bool           `json:"disagree,omitempty"`
	// Differs is set when another endpoint gave any other free count
	// (comparable or not: a platform-wide one beside a region's).
	Differs bool `json:"differs,omitempty"`
	// PriceFrom marks the lowest price of machines priced differently.
	PriceFrom bool `json:"price_from,omitempty"`
	// Endpoint names the API of a platform with several; Scope is what
	// the free count covers (machine, region, platform).
	Endpoint string      `json:"endpoint,omitempty"`
	Scope    stock.Scope `json:"scope,omitempty"`
}

// Has reports whether the row carries caveat c.
func (row OfferRow) Has(c stock.Caveat) bool { return slices.Contains(row.Caveats, c) }

// Doubtful reports whether the row's price is less trustworthy than a
// verified one: only the seed articles give it, or its unit is unverified.
func (row OfferRow) Doubtful() bool { return !row.Verified || row.Has(stock.CaveatUnitUnverified) }

// Trust orders rows by how far their price can be trusted: 0 verified and
// current, 1 unverified (seed-only, or an unverified unit), 2 a stale list
// price.
func Trust(row OfferRow) int {
	switch {
	case row.Has(stock.CaveatStalePrice):
		return 2
	case row.Doubtful():
		return 1
	}
	return 0
}

// RowOf is an offer as a row, for its cells (no age).
func RowOf(o stock.Offer) OfferRow { return rowAt(o, time.Time{}, Clock{}) }

// RowAt is an offer as a row at now (its age), its observation time
// (AsOf) in the renderer's zone.
func (r *Renderer) RowAt(o stock.Offer, now time.Time) OfferRow { return rowAt(o, now, r.Clock) }

func rowAt(o stock.Offer, now time.Time, clock Clock) OfferRow {
	row := OfferRow{Platform: o.Platform, GPU: o.GPU, PriceHighCNY: Round2(o.PriceHigh),
		Free: o.Free, Region: o.Region, Source: string(o.Source), Verified: o.Verified || o.Source != stock.SourceCatalog,
		Stale: o.Stale, AgeSeconds: -1, PriceNote: o.Note, OriginalPrice: o.OriginalPrice, Currency: o.Currency,
		GPUsPerInstance: o.GPUsPerInstance, Caveats: o.Caveats, Level: o.Level, Machines: o.Machines, Others: o.Others,
		Disagree: o.Disagree(), Differs: o.Differs(), Endpoint: o.Endpoint, Scope: o.Scope, PriceFrom: o.PriceFrom, DateOnly: o.DateOnly}
	if o.HasPrice() {
		p := Round2(o.CNYPerGPUHour)
		row.PriceCNY = &p
	}
	if o.Level != "" {
		// A level is not a count: JSON says "level", never "free": 1.
		row.Free = nil
	}
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
		row.AsOf = clock.RFC3339(o.ObservedAt)
		if o.DateOnly {
			// A recording's date, not an instant: as recorded.
			row.AsOf = o.ObservedAt.Format(time.RFC3339)
		}
		if !now.IsZero() {
			row.AgeSeconds = int64(now.Sub(o.ObservedAt).Seconds())
		}
	}
	return row
}

func Round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }

// PriceWithUnit is the price cell with its unit, or "价格未知" when the
// row has no price at all.
func PriceWithUnit(row OfferRow, en bool) string {
	if row.PriceCNY == nil && row.ListPriceCNY == 0 {
		return pick1(en, "价格未知", "price unknown")
	}
	return PriceCell(row, en) + pick1(en, " 元/卡时", " CNY/GPU-h")
}

func PriceCell(row OfferRow, en bool) string {
	if row.PriceCNY == nil {
		list := fmt.Sprintf("%.2f", row.ListPriceCNY)
		if row.ListPriceHighCNY > row.ListPriceCNY {
			list += fmt.Sprintf("-%.2f", row.ListPriceHighCNY)
		}
		if row.PartlyUnder {
			list += MarkPartly
		}
		switch {
		case row.ListPriceCNY > 0 && en:
			return "list " + list
		case row.ListPriceCNY > 0:
			return "标价 " + list
		case en:
			return "no price"
		}
		return "无价格"
	}
	s := fmt.Sprintf("%.2f", *row.PriceCNY)
	if row.PriceHighCNY > *row.PriceCNY {
		s += fmt.Sprintf("-%.2f", row.PriceHighCNY)
	}
	if row.PriceFrom {
		// Machines priced differently: the lowest of them.
		s = pick1(en, s+"起", "from "+s)
	}
	return s + priceMarks(row)
}

func SourceCell(row OfferRow, en bool) string {
	switch row.Source {
	case string(stock.SourceCatalog):
		s := pick1(en, "目录标价 ", "list price ") + row.AsOf
		if row.Has(stock.CaveatStalePrice) {
			s += pick1(en, "（过时）", " (old)")
		}
		return s
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
	switch {
	case row.AgeSeconds < 0:
		age = pick1(en, "时间未知", "time unknown")
	case row.DateOnly && len(row.AsOf) >= 10:
		// A date without a time: the date, not a precise age (with its
		// year when it is not this year's).
		day := row.AsOf[5:10]
		if row.AgeSeconds > 300*24*3600 {
			day = row.AsOf[:10]
		}
		age = pick1(en, day+" 录制", "recorded "+day)
	}
	s := name + " · " + age
	if row.ListAsOf != "" {
		// The list price beside a count is dated too.
		s += pick1(en, " · 标价 ", " · list ") + row.ListAsOf
	}
	if row.Machines > 1 {
		s += fmt.Sprintf(pick1(en, " · %d 台机器", " · %d machines"), row.Machines)
	}
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

// Marks next to a figure, each explained by one legend line under the
// table (Legend):
//
//   - a list price only the seed articles give (unverified)
//     †  a list-price range whose low end only is under the asked limit
//     ‡  a price whose unit the platform does not document
//     ?  a free count to take with care: the API is known to disagree with
//     the web page, or the count may not be what can be created
//
// A stock level is written as a level (充足 / 有 / 紧张 / 无), a stale list
// price as "（过时）" beside its date.
const (
	MarkUnverified = "*"
	MarkPartly     = "†"
	MarkUnit       = "‡"
	MarkCount      = "?"
)

// priceMarks are the marks after a price.
func priceMarks(row OfferRow) string {
	s := ""
	if !row.Verified {
		s += MarkUnverified
	}
	if row.Has(stock.CaveatUnitUnverified) {
		s += MarkUnit
	}
	if row.PartlyUnder {
		s += MarkPartly
	}
	return s
}

// countDoubt reports whether the row's free count carries the ? mark.
func countDoubt(row OfferRow) bool {
	return row.Has(stock.CaveatCountUnreliable) || row.Has(stock.CaveatMayNotCreate)
}

// FreeCell is the free column: a count (with ? when doubtful), a level, or
// 无货 / 未知.
func FreeCell(row OfferRow, en bool) string {
	if row.Level != "" {
		return LevelText(row.Level, en)
	}
	switch {
	case row.Free != nil && *row.Free > 0:
		s := fmt.Sprintf("%d", *row.Free)
		if countDoubt(row) {
			s += MarkCount
		}
		return s
	case row.Free != nil:
		return pick1(en, "无货", "sold out")
	}
	return pick1(en, "未知", "unknown")
}

// FreePhrase is the free cell in a sentence: "空闲 3?", "库存充足".
func FreePhrase(row OfferRow, en bool) string {
	if row.Level != "" {
		return pick1(en, "库存", "stock ") + LevelText(row.Level, en)
	}
	return pick1(en, "空闲 ", "") + FreeCell(row, en) + pick1(en, "", " free")
}

// levelTexts name the stock levels.
var levelTexts = map[string][2]string{
	stock.LevelHigh: {"充足", "plenty"}, stock.LevelMedium: {"有", "some"}, stock.LevelSome: {"有", "some"},
	stock.LevelLow: {"紧张", "low"}, stock.LevelNone: {"无", "none"},
}

// LevelText names a stock level.
func LevelText(level string, en bool) string {
	return TextFor(levelTexts, level, [2]string{"未知", "unknown"}, en)
}

// Legend explain the marks the shown rows carry, one line for all of
// them (the seed-only * keeps its own line).
func (r *Renderer) Legend(rows []OfferRow, en bool) []string {
	var out, parts []string
	var unit, unreliable, advisory, levels []string
	seedOnly := false
	add := func(list *[]string, platform string) {
		if name := r.PlatformName(platform, en); !slices.Contains(*list, name) {
			*list = append(*list, name)
		}
	}
	for _, row := range rows {
		seedOnly = seedOnly || !row.Verified
		if row.Has(stock.CaveatUnitUnverified) {
			add(&unit, row.Platform)
		}
		if row.Free != nil && *row.Free > 0 && row.Level == "" {
			if row.Has(stock.CaveatCountUnreliable) {
				add(&unreliable, row.Platform)
			}
			if row.Has(stock.CaveatMayNotCreate) {
				add(&advisory, row.Platform)
			}
		}
		if row.Level != "" {
			add(&levels, row.Platform)
		}
	}
	if seedOnly {
		out = append(out, UnverifiedPriceNote(en))
	}
	sep := pick1(en, "、", ", ")
	if len(unit) > 0 {
		parts = append(parts, fmt.Sprintf(pick1(en, "‡ %s接口的价格单位未核实，按元/卡时显示", "‡ %s does not document its price unit; read as CNY/GPU-h"), strings.Join(unit, sep)))
	}
	var doubts []string
	if len(unreliable) > 0 {
		doubts = append(doubts, fmt.Sprintf(pick1(en, "%s接口的空闲数常不准（常显示 0 而网页上有卡）", "%s's API free count is often wrong (0 while the web page shows cards)"), strings.Join(unreliable, sep)))
	}
	if len(advisory) > 0 {
		doubts = append(doubts, fmt.Sprintf(pick1(en, "%s开发者库存接口的空闲数不一定开得出来（一个公开的 AutoDL 客户端 2026-08 实测对不上）", "%s's developer stock API counts may not be creatable (a public AutoDL client found a mismatch, 2026-08)"), strings.Join(advisory, sep)))
	}
	if len(doubts) > 0 {
		parts = append(parts, pick1(en, "空闲数带“?”的：", "free counts marked “?”: ")+strings.Join(doubts, pick1(en, "，", ", "))+pick1(en, "，以开机页为准", "; check before paying"))
	}
	if len(levels) > 0 {
		parts = append(parts, fmt.Sprintf(pick1(en, "%s只给库存档位，不给数量", "%s gives a stock level, not a count"), strings.Join(levels, sep)))
	}
	if l := r.StaleLine(rows, en); l != "" {
		parts = append(parts, l+pick1(en, "，排在后面", "; ranked last"))
	}
	if len(parts) > 0 {
		out = append(out, strings.Join(parts, pick1(en, "；", "; "))+pick1(en, "。", "."))
	}
	return out
}

// StaleLine explains "过时" for the rows with a stale list price ("" when
// none has one).
func (r *Renderer) StaleLine(rows []OfferRow, en bool) string {
	var stale []string
	for _, row := range rows {
		if name := r.PlatformName(row.Platform, en); row.Has(stock.CaveatStalePrice) && !slices.Contains(stale, name) {
			stale = append(stale, name)
		}
	}
	if len(stale) == 0 {
		return ""
	}
	return fmt.Sprintf(pick1(en, "过时：%s的标价已超过 %d 个月，可能已变", "old: %s list prices are over %d months old and may have changed"),
		strings.Join(stale, pick1(en, "、", ", ")), r.ListPriceMonths())
}

// StaleTag marks a stale list price where its date or source is shown.
func StaleTag(row OfferRow, en bool) string {
	if row.Has(stock.CaveatStalePrice) {
		return pick1(en, "（过时）", " (old)")
	}
	return ""
}

// ListPriceMonths is the age after which list prices count as stale.
func (r *Renderer) ListPriceMonths() int {
	if r.ListPriceMaxAge > 0 {
		return r.ListPriceMaxAge
	}
	return catalog.DefaultListPriceMaxAgeMonths
}

// DisagreeLines say, for each shown row that other endpoints gave other
// free counts for, what each said (with its marks) and which the table
// uses: "不一致" when they count the same place, else only what they said.
func (r *Renderer) DisagreeLines(rows []OfferRow, en bool) []string {
	var out []string
	for _, row := range rows {
		if !row.Differs {
			continue
		}
		var said []string
		for _, f := range row.Others {
			if f.Free == nil || f.Level != "" {
				continue
			}
			said = append(said, figurePlace(f, en)+pick1(en, "", " ")+FreeCell(figureRow(row.Platform, f), en))
		}
		used := figurePlace(stock.Figure{Endpoint: row.Endpoint, Scope: row.Scope, Region: row.Region}, en)
		head := pick1(en, "%s %s 其他接口给的空闲数：%s；表中用%s的 %s。", "%s %s: other endpoints' free counts: %s; the table uses the %s figure (%s).")
		if row.Disagree {
			head = pick1(en, "%s %s 各接口的空闲数不一致：%s；表中用%s的 %s。", "%s %s: endpoints disagree on the free count: %s; the table uses the %s figure (%s).")
		}
		out = append(out, fmt.Sprintf(head, r.PlatformName(row.Platform, en), row.GPU, strings.Join(said, pick1(en, "，", ", ")), used, FreeCell(row, en)))
	}
	return out
}

// figureRow is another endpoint's figure as a row, for its free cell and
// its legend.
func figureRow(platform string, f stock.Figure) OfferRow {
	return OfferRow{Platform: platform, Free: f.Free, Level: f.Level, Caveats: f.Caveats, Verified: true}
}

// WithOthers is rows plus the other endpoints' figures of the rows whose
// figures the answer lists (DisagreeLines), for the legend.
func WithOthers(rows []OfferRow) []OfferRow {
	out := rows
	for _, row := range rows {
		if !row.Differs {
			continue
		}
		for _, f := range row.Others {
			if f.Free != nil && f.Level == "" {
				out = append(out[:len(out):len(out)], figureRow(row.Platform, f))
			}
		}
	}
	return out
}

// figurePlace names where a figure came from and what it covers.
func figurePlace(f stock.Figure, en bool) string {
	name := endpointName(f.Endpoint, en)
	switch {
	case f.Scope == stock.ScopePlatform:
		return name + pick1(en, "（全平台）", " (all regions)")
	case f.Region != "":
		return name + pick1(en, "（", " (") + RegionText(f.Region, en) + pick1(en, "）", ")")
	case f.Scope == stock.ScopeMachine:
		return name
	case f.Scope == stock.ScopeRegion:
		return name + pick1(en, "（地区不明）", " (region unknown)")
	}
	return name
}

// endpointNames name the APIs as a reader would.
var endpointNames = map[string][2]string{
	stock.EndpointESDGlobal: {"开发者库存接口", "developer stock API"}, stock.EndpointESDRegion: {"开发者库存接口", "developer stock API"},
	stock.EndpointWebRegion: {"控制台地区库存", "console region stock"}, stock.EndpointWebMachines: {"机器列表", "machine list"},
}

// endpointName names an API as a reader would.
func endpointName(endpoint string, en bool) string {
	return TextFor(endpointNames, endpoint, [2]string{"另一接口", "another endpoint"}, en)
}

// regionEnglish names Chinese platform regions in English answers: AutoDL's
// console regions and 矩池云's domains (stock-apis.md §1, §3).
var regionEnglish = map[string]string{
	"西北B区": "Northwest B", "西北企业区": "Northwest Enterprise", "北京A区": "Beijing A", "北京B区": "Beijing B",
	"内蒙A区": "Inner Mongolia A", "内蒙B区": "Inner Mongolia B", "佛山区": "Foshan", "重庆A区": "Chongqing A",
	"V100专区": "V100 zone", "L20专区": "L20 zone", "3090专区": "3090 zone",
	"1区": "Zone 1", "亚太2区": "Asia-Pacific 2", "13区": "Zone 13", "16区": "Zone 16", "国产卡": "Chinese GPUs",
}

// RegionText is a region as the reader's language names it; an unknown
// Chinese name is kept as is.
func RegionText(region string, en bool) string {
	if !en {
		return region
	}
	if e, ok := regionEnglish[strings.TrimSpace(region)]; ok {
		return e
	}
	return region
}

// Alert turns an alert into a reply for the chat it goes to: one
// message for all its items, each owner @mentioned, every offer with its
// source and age.
func (r *Renderer) Alert(a stock.Alert) chat.Reply {
	en := a.English
	rep := chat.Reply{Title: pick1(en, "库存提醒", "Stock alert")}
	seen := map[string]bool{}
	for _, it := range a.Items {
		s := it.Subscription
		// The command line's owner ("console") is nobody to @mention.
		if !seen[s.OwnerID] && s.OwnerID != "" && s.OwnerID != ConsoleOwner {
			rep.Mentions = append(rep.Mentions, s.OwnerID)
			seen[s.OwnerID] = true
		}
		who := "@" + s.OwnerName
		switch {
		case s.OwnerID == ConsoleOwner || s.OwnerID == "":
			// The command line's owner is nobody to @mention.
			who = pick1(en, "你订阅的", "Your subscription")
		case s.OwnerName == "":
			who = "@" + ledger.MemberLabel(s.OwnerID)
		}
		var head string
		switch it.Reason {
		case stock.ReasonPriceDrop:
			head = pick1(en, "降价了", "cheaper now")
		case stock.ReasonSoldOut:
			head = pick1(en, "又没货了", "sold out again")
		default:
			head = pick1(en, "有货了", "available")
		}
		rep.Lines = append(rep.Lines, fmt.Sprintf(pick1(en, "%s %s：%s", "%s: %s — %s"), who, head, r.Describe(s, en)))
		for _, o := range it.Offers {
			age := pick1(en, "时间未知", "time unknown")
			if !o.ObservedAt.IsZero() {
				age = Age(a.At.Sub(o.ObservedAt), en)
			}
			line := fmt.Sprintf(pick1(en, "  · %s %s %s，空闲 %s，%s · %s", "  · %s %s %s, free %s, %s · %s"), r.PlatformName(o.Platform, en), o.GPU, r.PriceText(o, en), FreeText(o, en), SourceLabel(string(o.Source), en), age)
			if o.Region != "" {
				line += pick1(en, "（", " (") + RegionText(stock.RegionName(o.Platform, o.Region), en) + pick1(en, "）", ")")
			}
			rep.Lines = append(rep.Lines, line)
		}
	}
	var rows []OfferRow
	for _, it := range a.Items {
		for _, o := range it.Offers {
			rows = append(rows, RowOf(o))
		}
	}
	rep.Notes = append(rep.Notes, r.Legend(rows, en)...)
	rep.Notes = append(rep.Notes, pick1(en, "库存变化很快，以平台页面为准。“静音 2小时”暂停提醒，“取消订阅”不再提醒。", "Stock changes fast; check the platform. “mute 2h” pauses, “unsubscribe” stops."))
	return rep
}

// Describe is a one-line summary of a subscription's conditions.
func (r *Renderer) Describe(s stock.Subscription, en bool) string {
	parts := []string{strings.Join(s.GPUs, "/")}
	if len(s.Platforms) > 0 {
		parts = append(parts, r.PlatformNames(s.Platforms, en))
	} else {
		parts = append(parts, pick1(en, "任意平台", "any platform"))
	}
	if len(s.ExcludePlatforms) > 0 {
		parts = append(parts, pick1(en, "不含 ", "not ")+r.PlatformNames(s.ExcludePlatforms, en))
	}
	if s.MaxPriceCNY > 0 {
		parts = append(parts, fmt.Sprintf(pick1(en, "≤ %.2f 元/卡时", "≤ %.2f CNY/GPU-h"), s.MaxPriceCNY))
	}
	parts = append(parts, fmt.Sprintf(pick1(en, "至少 %d 张空闲", "at least %d free"), s.MinFreeOrDefault()))
	if s.Region != "" {
		parts = append(parts, pick1(en, "地区 ", "region ")+s.Region)
	}
	return strings.Join(parts, pick1(en, "，", ", "))
}

// PriceText is an offer's price with its marks and unit in alerts and
// subscription replies; a count without a price (AutoDL's stock API)
// shows the list price, labelled as such.
func (r *Renderer) PriceText(o stock.Offer, en bool) string {
	return PriceWithUnit(r.withListPrice(RowOf(o)), en)
}

// FreeText is an offer's free GPU count with its marks, or its level;
// "未知"/"unknown" when the source did not say (never shown as 0).
func FreeText(o stock.Offer, en bool) string {
	return FreeCell(RowOf(o), en)
}

func SourceLabel(s string, en bool) string {
	switch s {
	case string(stock.SourceLive):
		return pick1(en, "实时", "live")
	case string(stock.SourceReplay):
		return pick1(en, "录制", "replay")
	}
	return pick1(en, "目录标价", "list price")
}

// UnverifiedPriceNote explains the * after a list price only the seed
// articles report; unverifiedFigureNote the same for any other figure.
func UnverifiedPriceNote(en bool) string {
	return pick1(en, "* 只有 2025 年的租卡测评文章这么写，未经其他来源核实的标价。", "* a list price only 2025 rental reviews give; not confirmed by a dated source.")
}
