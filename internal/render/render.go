// Package render turns domain values into chat replies: offer rows and
// their cells (price, free count, source and age) with the caveat marks
// and their legend, and stock alerts. commands uses it for its answers and
// the app for alerts, so an alert does not need the router.
package render

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
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

// ShortName is a platform's name for a narrow table on a phone: its
// display name without what it adds in brackets ("GPUShare (Hengyuan
// Cloud)" is "GPUShare").
func (r *Renderer) ShortName(id string, en bool) string {
	name := r.PlatformName(id, en)
	if i := strings.Index(name, " ("); i > 0 && strings.HasSuffix(name, ")") {
		return name[:i]
	}
	return name
}

// PlatformNames joins platform names for a line of text.
func (r *Renderer) PlatformNames(ids []string, en bool) string {
	var names []string
	for _, id := range ids {
		names = append(names, r.PlatformName(id, en))
	}
	return strings.Join(names, i18n.Of(en).T("list.sep"))
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
	// Cite names a list price's source as a reader would ("AutoDL 官方文档，
	// 2026-08"), for the answers that show it (prices).
	Cite string `json:"-"`
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
	l := i18n.Of(en)
	if row.PriceCNY == nil && row.ListPriceCNY == 0 {
		return l.T("offers.price.unknown")
	}
	return l.T("offers.price.with_unit", PriceCell(row, en))
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
		if row.ListPriceCNY > 0 {
			return i18n.Of(en).T("offers.price.list") + " " + list
		}
		return i18n.Of(en).T("offers.price.none")
	}
	s := fmt.Sprintf("%.2f", *row.PriceCNY)
	if row.PriceHighCNY > *row.PriceCNY {
		s += fmt.Sprintf("-%.2f", row.PriceHighCNY)
	}
	if row.PriceFrom {
		// Machines priced differently: the lowest of them.
		s = i18n.Of(en).T("offers.price.from", s)
	}
	return s + priceMarks(row)
}

// SourceCell is the source column: a list price with its date, or where
// a figure was read and how old it is ("录制回放 · 5 分钟前").
func SourceCell(row OfferRow, en bool) string {
	l := i18n.Of(en)
	if row.Source == string(stock.SourceCatalog) {
		s := l.T("offers.source.list_label") + " " + row.AsOf
		if row.Has(stock.CaveatStalePrice) {
			s += l.T("offers.stale_tag")
		}
		return s
	}
	name := row.Source
	switch row.Source {
	case string(stock.SourceLive):
		name = l.T("offers.source.live")
	case string(stock.SourceReplay):
		name = l.T("offers.source.replay")
	}
	return name + " · " + sourceAge(row, l) + sourceExtras(row, l)
}

// sourceAge is how old a row's figure is, or the day a recording was
// made, or that its time is unknown.
func sourceAge(row OfferRow, l i18n.Lang) string {
	switch {
	case row.AgeSeconds < 0:
		return l.T("offers.source.time_unknown")
	case row.DateOnly && len(row.AsOf) >= 10:
		// A date without a time: the date, not a precise age (with its
		// year when it is not this year's).
		day := row.AsOf[5:10]
		if row.AgeSeconds > 300*24*3600 {
			day = row.AsOf[:10]
		}
		return l.T("offers.source.recorded", day)
	}
	return Age(time.Duration(row.AgeSeconds)*time.Second, l.English())
}

// sourceExtras are what the source cell adds after the age: the list
// price's date beside a count, the machines summed, stale data.
func sourceExtras(row OfferRow, l i18n.Lang) string {
	s := ""
	if row.ListAsOf != "" {
		// The list price beside a count is dated too.
		s += " · " + l.T("offers.price.list") + " " + row.ListAsOf
	}
	if row.Machines > 1 {
		s += l.T("offers.source.machines", row.Machines)
	}
	if row.Stale {
		s += l.T("offers.source.stale")
	}
	return s
}

// Age formats a duration as "刚刚", "3 分钟前", "2 小时前", "5 天前" (or the
// English "just now", "3 min ago", …).
func Age(d time.Duration, en bool) string {
	l := i18n.Of(en)
	switch {
	case d < time.Minute:
		return l.T("offers.age.now")
	case d < time.Hour:
		return l.T("offers.age.minutes", int(d.Minutes()))
	case d < 48*time.Hour:
		return l.T("offers.age.hours", int(d.Hours()))
	}
	return l.T("offers.age.days", int(d.Hours()/24))
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
		return i18n.Of(en).T("offers.free.sold_out")
	}
	return i18n.Of(en).T("offers.unknown")
}

// FreePhrase is the free cell in a sentence: "空闲 3?", "库存充足".
func FreePhrase(row OfferRow, en bool) string {
	if row.Level != "" {
		return i18n.Of(en).T("offers.free.level", LevelText(row.Level, en))
	}
	return i18n.Of(en).T("offers.free.count", FreeCell(row, en))
}

// levelKeys name the stock levels (message keys).
var levelKeys = map[string]string{
	stock.LevelHigh: "offers.level.high", stock.LevelMedium: "offers.level.some", stock.LevelSome: "offers.level.some",
	stock.LevelLow: "offers.level.low", stock.LevelNone: "offers.level.none",
}

// LevelText names a stock level.
func LevelText(level string, en bool) string {
	if k, ok := levelKeys[level]; ok {
		return i18n.Of(en).T(k)
	}
	return i18n.Of(en).T("offers.unknown")
}

// ShortLegend explains the marks the shown rows carry in a few words, on
// one line, for a phone (Legend has the whole of it for 详情).
func (r *Renderer) ShortLegend(rows []OfferRow, en bool) []string {
	l := i18n.Of(en)
	m := r.marksOf(rows, en)
	sep := l.T("list.sep")
	var parts []string
	if m.seedOnly {
		parts = append(parts, l.T("offers.short_legend.seed"))
	}
	if len(m.unit) > 0 {
		parts = append(parts, l.T("offers.short_legend.unit", strings.Join(m.unit, sep)))
	}
	if len(m.unreliable) > 0 || len(m.advisory) > 0 {
		parts = append(parts, l.T("offers.short_legend.doubt"))
	}
	if len(m.levels) > 0 {
		parts = append(parts, l.T("offers.short_legend.levels", strings.Join(m.levels, sep)))
	}
	if st := r.StaleLine(rows, en); st != "" {
		parts = append(parts, l.T("offers.short_legend.stale"))
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{l.T("offers.end", strings.Join(parts, l.T("offers.sep.semi")))}
}

// Legend explain the marks the shown rows carry, one line for all of
// them (the seed-only * keeps its own line).
func (r *Renderer) Legend(rows []OfferRow, en bool) []string {
	l := i18n.Of(en)
	var out []string
	m := r.marksOf(rows, en)
	if m.seedOnly {
		out = append(out, UnverifiedPriceNote(en))
	}
	sep := l.T("list.sep")
	var parts, doubts []string
	if len(m.unit) > 0 {
		parts = append(parts, l.T("offers.legend.unit", strings.Join(m.unit, sep)))
	}
	if len(m.unreliable) > 0 {
		doubts = append(doubts, l.T("offers.legend.unreliable", strings.Join(m.unreliable, sep)))
	}
	if len(m.advisory) > 0 {
		doubts = append(doubts, l.T("offers.legend.advisory", strings.Join(m.advisory, sep)))
	}
	if len(doubts) > 0 {
		parts = append(parts, l.T("offers.legend.doubts", strings.Join(doubts, l.T("offers.sep.comma"))))
	}
	if len(m.levels) > 0 {
		parts = append(parts, l.T("offers.legend.levels", strings.Join(m.levels, sep)))
	}
	if st := r.StaleLine(rows, en); st != "" {
		parts = append(parts, l.T("offers.legend.stale", st))
	}
	if len(parts) > 0 {
		out = append(out, l.T("offers.end", strings.Join(parts, l.T("offers.sep.semi"))))
	}
	return out
}

// marks are the platforms whose shown rows carry each mark.
type marks struct {
	seedOnly                           bool
	unit, unreliable, advisory, levels []string
}

// marksOf collects, per mark, the names of the platforms whose rows
// carry it (each once, in the rows' order).
func (r *Renderer) marksOf(rows []OfferRow, en bool) marks {
	var m marks
	add := func(list *[]string, platform string) {
		if name := r.PlatformName(platform, en); !slices.Contains(*list, name) {
			*list = append(*list, name)
		}
	}
	for _, row := range rows {
		m.seedOnly = m.seedOnly || !row.Verified
		if row.Has(stock.CaveatUnitUnverified) {
			add(&m.unit, row.Platform)
		}
		if row.Free != nil && *row.Free > 0 && row.Level == "" {
			if row.Has(stock.CaveatCountUnreliable) {
				add(&m.unreliable, row.Platform)
			}
			if row.Has(stock.CaveatMayNotCreate) {
				add(&m.advisory, row.Platform)
			}
		}
		if row.Level != "" {
			add(&m.levels, row.Platform)
		}
	}
	return m
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
	l := i18n.Of(en)
	return l.T("offers.stale_line", strings.Join(stale, l.T("list.sep")), r.ListPriceMonths())
}

// StaleTag marks a stale list price where its date or source is shown.
func StaleTag(row OfferRow, en bool) string {
	if row.Has(stock.CaveatStalePrice) {
		return i18n.Of(en).T("offers.stale_tag")
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

// regionEnglish names Chinese platform regions in English answers
// (AutoDL's console regions and 矩池云's domains, stock-apis.md §1, §3):
// the message catalog's list offers.regions holds the names in Chinese
// and, at the same places, in English.
var regionEnglish = sync.OnceValue(func() map[string]string {
	zh, en := i18n.ZH.L("offers.regions"), i18n.EN.L("offers.regions")
	m := make(map[string]string, len(zh))
	for i, name := range zh {
		if i < len(en) {
			m[name] = en[i]
		}
	}
	return m
})

// RegionText is a region as the reader's language names it; an unknown
// Chinese name is kept as is.
func RegionText(region string, en bool) string {
	if !en {
		return region
	}
	if e, ok := regionEnglish()[strings.TrimSpace(region)]; ok {
		return e
	}
	return region
}

// Alert turns an alert into a reply for the chat it goes to: one
// message for all its items, each owner @mentioned, every offer with its
// source and age.
func (r *Renderer) Alert(a stock.Alert) chat.Reply {
	en := a.English
	l := i18n.Of(en)
	rep := chat.Reply{Title: l.T("alert.title")}
	seen := map[string]bool{}
	var rows []OfferRow
	for _, it := range a.Items {
		s := it.Subscription
		// The command line's owner ("console") is nobody to @mention.
		if !seen[s.OwnerID] && s.OwnerID != "" && s.OwnerID != ConsoleOwner {
			rep.Mentions = append(rep.Mentions, s.OwnerID)
			seen[s.OwnerID] = true
		}
		rep.Lines = append(rep.Lines, l.T("alert.head", alertWho(s, l), l.T(alertReasonKey(it.Reason)), r.Describe(s, en)))
		for _, o := range it.Offers {
			rep.Lines = append(rep.Lines, r.alertOffer(o, a.At, l))
			rows = append(rows, RowOf(o))
		}
	}
	rep.Notes = append(rep.Notes, r.Legend(rows, en)...)
	rep.Notes = append(rep.Notes, l.T("alert.footer"))
	return rep
}

// alertWho is whom an alert item is for: "@alice"; "订阅的同学" when the
// member's name is unknown (the channel's own mention of the id, which
// the chat shows with the real name, opens the message: never an
// invented name such as "@成员467d"); or the command line's "你订阅的".
func alertWho(s stock.Subscription, l i18n.Lang) string {
	switch {
	case s.OwnerID == ConsoleOwner || s.OwnerID == "":
		// The command line's owner is nobody to @mention.
		return l.T("alert.yours")
	case s.OwnerName == "":
		return l.T("alert.subscriber")
	}
	return "@" + s.OwnerName
}

// alertReasonKey is the message key of what changed.
func alertReasonKey(reason stock.Reason) string {
	switch reason {
	case stock.ReasonPriceDrop:
		return "alert.price_drop"
	case stock.ReasonSoldOut:
		return "alert.sold_out"
	}
	return "alert.available"
}

// alertOffer is one offer of an alert: platform, GPU, price, free count,
// source and age, and its region.
func (r *Renderer) alertOffer(o stock.Offer, at time.Time, l i18n.Lang) string {
	en := l.English()
	age := l.T("offers.source.time_unknown")
	if !o.ObservedAt.IsZero() {
		age = Age(at.Sub(o.ObservedAt), en)
	}
	line := l.T("alert.offer", r.PlatformName(o.Platform, en), o.GPU, r.PriceText(o, en), FreeText(o, en), SourceLabel(string(o.Source), en), age)
	if o.Region != "" {
		line += l.T("alert.region", RegionText(stock.RegionName(o.Platform, o.Region), en))
	}
	return line
}

// manyPlatforms is the most platforms a subscription's summary names.
const manyPlatforms = 5

// Describe is a one-line summary of a subscription's conditions.
func (r *Renderer) Describe(s stock.Subscription, en bool) string {
	l := i18n.Of(en)
	parts := []string{strings.Join(s.GPUs, "/")}
	switch {
	case len(s.Platforms) > manyPlatforms:
		// A group ("国内的"): its first few and how many.
		parts = append(parts, l.T("alert.describe.many", r.PlatformNames(s.Platforms[:3], en), len(s.Platforms)))
	case len(s.Platforms) > 0:
		parts = append(parts, r.PlatformNames(s.Platforms, en))
	default:
		parts = append(parts, l.T("alert.describe.any_platform"))
	}
	if len(s.ExcludePlatforms) > 0 {
		parts = append(parts, l.T("alert.describe.not", r.PlatformNames(s.ExcludePlatforms, en)))
	}
	if s.MaxPriceCNY > 0 {
		parts = append(parts, l.T("alert.describe.max_price", s.MaxPriceCNY))
	}
	parts = append(parts, l.T("alert.describe.min_free", s.MinFreeOrDefault()))
	if s.Region != "" {
		parts = append(parts, l.T("alert.describe.region", s.Region))
	}
	return strings.Join(parts, l.T("offers.sep.comma"))
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

// SourceLabel names where a figure came from in a few words: live,
// replay, list price.
func SourceLabel(s string, en bool) string {
	switch s {
	case string(stock.SourceLive):
		return i18n.Of(en).T("offers.source.live")
	case string(stock.SourceReplay):
		return i18n.Of(en).T("offers.source.replayed")
	}
	return i18n.Of(en).T("offers.source.list_label")
}

// UnverifiedPriceNote explains the * after a list price only the seed
// articles report; unverifiedFigureNote the same for any other figure.
func UnverifiedPriceNote(en bool) string {
	return i18n.Of(en).T("offers.note.unverified_price")
}
