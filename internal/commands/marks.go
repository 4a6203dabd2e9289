package commands

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/stock"
)

// Marks next to a figure, each explained by one legend line under the
// table (legendLines):
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
	markUnverified = "*"
	markPartly     = "†"
	markUnit       = "‡"
	markCount      = "?"
)

// priceMarks are the marks after a price.
func priceMarks(row OfferRow) string {
	s := ""
	if !row.Verified {
		s += markUnverified
	}
	if row.has(stock.CaveatUnitUnverified) {
		s += markUnit
	}
	if row.PartlyUnder {
		s += markPartly
	}
	return s
}

// countDoubt reports whether the row's free count carries the ? mark.
func countDoubt(row OfferRow) bool {
	return row.has(stock.CaveatCountUnreliable) || row.has(stock.CaveatMayNotCreate)
}

// freeCell is the free column: a count (with ? when doubtful), a level, or
// 无货 / 未知.
func freeCell(row OfferRow, en bool) string {
	if row.Level != "" {
		return levelText(row.Level, en)
	}
	switch {
	case row.Free != nil && *row.Free > 0:
		s := fmt.Sprintf("%d", *row.Free)
		if countDoubt(row) {
			s += markCount
		}
		return s
	case row.Free != nil:
		return pick1(en, "无货", "sold out")
	}
	return pick1(en, "未知", "unknown")
}

// freePhrase is the free cell in a sentence: "空闲 3?", "库存充足".
func freePhrase(row OfferRow, en bool) string {
	if row.Level != "" {
		return pick1(en, "库存", "stock ") + levelText(row.Level, en)
	}
	return pick1(en, "空闲 ", "") + freeCell(row, en) + pick1(en, "", " free")
}

// levelText names a stock level.
func levelText(level string, en bool) string {
	switch level {
	case stock.LevelHigh:
		return pick1(en, "充足", "plenty")
	case stock.LevelMedium, stock.LevelSome:
		return pick1(en, "有", "some")
	case stock.LevelLow:
		return pick1(en, "紧张", "low")
	case stock.LevelNone:
		return pick1(en, "无", "none")
	}
	return pick1(en, "未知", "unknown")
}

// legendLines explain the marks the shown rows carry, one line for all of
// them (the seed-only * keeps its own line).
func (r *Router) legendLines(rows []OfferRow, en bool) []string {
	var out, parts []string
	var unit, unreliable, advisory, levels []string
	seedOnly := false
	add := func(list *[]string, platform string) {
		if name := r.platformName(platform, en); !slices.Contains(*list, name) {
			*list = append(*list, name)
		}
	}
	for _, row := range rows {
		seedOnly = seedOnly || !row.Verified
		if row.has(stock.CaveatUnitUnverified) {
			add(&unit, row.Platform)
		}
		if row.Free != nil && *row.Free > 0 && row.Level == "" {
			if row.has(stock.CaveatCountUnreliable) {
				add(&unreliable, row.Platform)
			}
			if row.has(stock.CaveatMayNotCreate) {
				add(&advisory, row.Platform)
			}
		}
		if row.Level != "" {
			add(&levels, row.Platform)
		}
	}
	if seedOnly {
		out = append(out, unverifiedPriceNote(en))
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
	if l := r.staleLine(rows, en); l != "" {
		parts = append(parts, l+pick1(en, "，排在后面", "; ranked last"))
	}
	if len(parts) > 0 {
		out = append(out, strings.Join(parts, pick1(en, "；", "; "))+pick1(en, "。", "."))
	}
	return out
}

// staleLine explains "过时" for the rows with a stale list price ("" when
// none has one).
func (r *Router) staleLine(rows []OfferRow, en bool) string {
	var stale []string
	for _, row := range rows {
		if name := r.platformName(row.Platform, en); row.has(stock.CaveatStalePrice) && !slices.Contains(stale, name) {
			stale = append(stale, name)
		}
	}
	if len(stale) == 0 {
		return ""
	}
	return fmt.Sprintf(pick1(en, "过时：%s的标价已超过 %d 个月，可能已变", "old: %s list prices are over %d months old and may have changed"),
		strings.Join(stale, pick1(en, "、", ", ")), r.listPriceMonths())
}

// staleTag marks a stale list price where its date or source is shown.
func staleTag(row OfferRow, en bool) string {
	if row.has(stock.CaveatStalePrice) {
		return pick1(en, "（过时）", " (old)")
	}
	return ""
}

// listPriceMonths is the age after which list prices count as stale.
func (r *Router) listPriceMonths() int {
	if r.listPriceMaxAge > 0 {
		return r.listPriceMaxAge
	}
	return stock.DefaultListPriceMaxAgeMonths
}

// disagreeLines say, for each shown row that other endpoints gave other
// free counts for, what each said (with its marks) and which the table
// uses: "不一致" when they count the same place, else only what they said.
func (r *Router) disagreeLines(rows []OfferRow, en bool) []string {
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
			said = append(said, figurePlace(f, en)+pick1(en, "", " ")+freeCell(figureRow(row.Platform, f), en))
		}
		used := figurePlace(stock.Figure{Endpoint: row.Endpoint, Scope: row.Scope, Region: row.Region}, en)
		head := pick1(en, "%s %s 其他接口给的空闲数：%s；表中用%s的 %s。", "%s %s: other endpoints' free counts: %s; the table uses the %s figure (%s).")
		if row.Disagree {
			head = pick1(en, "%s %s 各接口的空闲数不一致：%s；表中用%s的 %s。", "%s %s: endpoints disagree on the free count: %s; the table uses the %s figure (%s).")
		}
		out = append(out, fmt.Sprintf(head, r.platformName(row.Platform, en), row.GPU, strings.Join(said, pick1(en, "，", ", ")), used, freeCell(row, en)))
	}
	return out
}

// figureRow is another endpoint's figure as a row, for its free cell and
// its legend.
func figureRow(platform string, f stock.Figure) OfferRow {
	return OfferRow{Platform: platform, Free: f.Free, Level: f.Level, Caveats: f.Caveats, Verified: true}
}

// withOthers is rows plus the other endpoints' figures of the rows whose
// figures the answer lists (disagreeLines), for the legend.
func withOthers(rows []OfferRow) []OfferRow {
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
		return name + pick1(en, "（", " (") + regionText(f.Region, en) + pick1(en, "）", ")")
	case f.Scope == stock.ScopeMachine:
		return name
	case f.Scope == stock.ScopeRegion:
		return name + pick1(en, "（地区不明）", " (region unknown)")
	}
	return name
}

// endpointName names an API as a reader would.
func endpointName(endpoint string, en bool) string {
	switch endpoint {
	case stock.EndpointESDGlobal, stock.EndpointESDRegion:
		return pick1(en, "开发者库存接口", "developer stock API")
	case stock.EndpointWebRegion:
		return pick1(en, "控制台地区库存", "console region stock")
	case stock.EndpointWebMachines:
		return pick1(en, "机器列表", "machine list")
	}
	return pick1(en, "另一接口", "another endpoint")
}

// failureLines name, near the top of an answer, each provider whose data
// could not be read, in one short line a person can act on.
func (r *Router) failureLines(snap stock.Snapshot, en bool) []string {
	var out []string
	for _, p := range snap.Providers {
		name := r.providerName(p.Provider, en)
		why := reasonText(p.Reason, en)
		if p.Provider == string(stock.SourceReplay) && p.Status == stock.StatusError {
			out = append(out, fmt.Sprintf(pick1(en, "⚠ 录制回放没有读到：%s，下面没有回放数据。", "⚠ No recording was read: %s; nothing below is from a recording."), why))
			continue
		}
		switch {
		case p.Status == stock.StatusStale && p.Err == "":
			// Restored from before a restart and not refreshed yet:
			// nothing failed.
			out = append(out, fmt.Sprintf(pick1(en, "⚠ %s 的数据是%s的，还没刷新。", "⚠ %s data is from %s and not refreshed yet."), name, Age(r.now().Sub(p.FetchedAt), en)))
			continue
		}
		switch p.Status {
		case stock.StatusError:
			out = append(out, fmt.Sprintf(pick1(en, "⚠ %s 数据获取失败：%s，它的库存未知。", "⚠ %s could not be read: %s; its stock is unknown."), name, why))
		case stock.StatusStale:
			out = append(out, fmt.Sprintf(pick1(en, "⚠ %s 最近一次获取失败：%s，显示的是%s的数据。", "⚠ %s failed just now: %s; showing data from %s."), name, why, Age(r.now().Sub(p.FetchedAt), en)))
		case stock.StatusOK:
			switch {
			case p.Err == "":
			case len(p.FailedPlatforms) == 0:
				out = append(out, fmt.Sprintf(pick1(en, "⚠ %s有一部分数据读不了或明显不对，已丢掉，数字可能不全。", "⚠ %s: part of the data was unreadable or impossible and was dropped; figures may be incomplete."), name))
			default:
				out = append(out, fmt.Sprintf(pick1(en, "⚠ %s有一部分没读出来（%s），这些平台的数字可能不全。", "⚠ %s: part of the data could not be read (%s); figures for them may be incomplete."), name, r.platformNames(p.FailedPlatforms, en)))
			}
		}
	}
	return out
}

// providerName names a provider: a platform's display name, or the replay
// recordings.
func (r *Router) providerName(id string, en bool) string {
	if id == string(stock.SourceReplay) {
		return pick1(en, "录制回放", "The replay recordings")
	}
	return r.platformName(id, en)
}

// reasonText says why a fetch failed, in a few words.
func reasonText(reason stock.FailReason, en bool) string {
	switch reason {
	case stock.ReasonTimeout:
		return pick1(en, "超时", "timed out")
	case stock.ReasonUnauthorized:
		return pick1(en, "登录凭证被拒（token 过期或填错，需要更新）", "credentials rejected (token expired or wrong)")
	case stock.ReasonRateLimited:
		return pick1(en, "被平台限流", "rate limited by the platform")
	case stock.ReasonServer:
		return pick1(en, "平台服务器出错", "the platform's server failed")
	case stock.ReasonBadResponse:
		return pick1(en, "返回的数据看不懂", "its answer could not be read")
	case stock.ReasonNoDir:
		return pick1(en, "回放目录不存在或读不了", "the replay directory is missing or unreadable")
	case stock.ReasonNoRecordings:
		return pick1(en, "回放目录里没有录制文件", "the replay directory holds no recordings")
	case stock.ReasonPartial:
		return pick1(en, "部分数据读取失败", "part of the data failed")
	case stock.ReasonNetwork:
		return pick1(en, "连不上", "could not connect")
	}
	return pick1(en, "获取失败", "the fetch failed")
}
