package offers

import (
	"fmt"
	"slices"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// failureLines name, near the top of an answer, each provider whose data
// could not be read, in one short line a person can act on.
func (r *Answers) failureLines(snap stock.Snapshot, en bool) []string {
	var out []string
	for _, p := range snap.Providers {
		if p.Late || p.Breaker == stock.BreakerOpen {
			// The router names it at the top (late or unreachable).
			continue
		}
		name := r.providerName(p.Provider, en)
		why := reasonText(p.Reason, en)
		if p.Provider == string(stock.SourceReplay) && p.Status == stock.StatusError {
			out = append(out, fmt.Sprintf(answer.Pick(en, "⚠ 录制回放没有读到：%s，下面没有回放数据。", "⚠ No recording was read: %s; nothing below is from a recording."), why))
			continue
		}
		switch {
		case p.Status == stock.StatusStale && p.Err == "":
			// Restored from before a restart and not refreshed yet:
			// nothing failed.
			out = append(out, fmt.Sprintf(answer.Pick(en, "⚠ %s 的数据是%s的，还没刷新。", "⚠ %s data is from %s and not refreshed yet."), name, render.Age(r.Now().Sub(p.FetchedAt), en)))
			continue
		}
		switch p.Status {
		case stock.StatusError:
			out = append(out, fmt.Sprintf(answer.Pick(en, "⚠ %s 数据获取失败：%s，它的库存未知。", "⚠ %s could not be read: %s; its stock is unknown."), name, why))
		case stock.StatusStale:
			out = append(out, fmt.Sprintf(answer.Pick(en, "⚠ %s 最近一次获取失败：%s，显示的是%s的数据。", "⚠ %s failed just now: %s; showing data from %s."), name, why, render.Age(r.Now().Sub(p.FetchedAt), en)))
		case stock.StatusOK:
			switch {
			case p.Err == "":
			case len(p.FailedPlatforms) == 0:
				out = append(out, fmt.Sprintf(answer.Pick(en, "⚠ %s有一部分数据读不了或明显不对，已丢掉，数字可能不全。", "⚠ %s: part of the data was unreadable or impossible and was dropped; figures may be incomplete."), name))
			default:
				out = append(out, fmt.Sprintf(answer.Pick(en, "⚠ %s有一部分没读出来（%s），这些平台的数字可能不全。", "⚠ %s: part of the data could not be read (%s); figures for them may be incomplete."), name, r.Rd.PlatformNames(p.FailedPlatforms, en)))
			}
		}
	}
	return out
}

// absentLines name each platform × GPU shown from an earlier answer
// because the provider's latest answer left it out (stock.Absent): its
// figures are old, its stock unknown, never sold out.
func (r *Answers) absentLines(snap stock.Snapshot, rows []OfferRow, en bool) []string {
	var out []string
	for _, p := range snap.Providers {
		for _, a := range p.Absent {
			if !slices.ContainsFunc(rows, func(row OfferRow) bool { return row.Stale && row.Platform == a.Platform && row.GPU == a.GPU }) {
				continue
			}
			out = append(out, fmt.Sprintf(answer.Pick(en, "⚠ %s 最新的回答里没有 %s（上次列出是%s），表里是那时的数字，现在的库存未知，不当作售罄。",
				"⚠ %s: its latest answer has no %s (last listed %s); the figures shown are from then, so its stock is unknown, not sold out."),
				r.Rd.PlatformName(a.Platform, en), a.GPU, render.Age(r.Now().Sub(a.LastSeen), en)))
		}
	}
	return out
}

// providerName names a provider: a platform's display name, or the replay
// recordings.
func (r *Answers) providerName(id string, en bool) string {
	if id == string(stock.SourceReplay) {
		return answer.Pick(en, "录制回放", "The replay recordings")
	}
	return r.Rd.PlatformName(id, en)
}

// reasonTexts say why a fetch failed, in a few words.
var reasonTexts = map[stock.FailReason][2]string{
	stock.ReasonTimeout:      {"超时", "timed out"},
	stock.ReasonUnauthorized: {"登录凭证被拒（token 过期或填错，需要更新）", "credentials rejected (token expired or wrong)"},
	stock.ReasonRateLimited:  {"被平台限流", "rate limited by the platform"},
	stock.ReasonServer:       {"平台服务器出错", "the platform's server failed"},
	stock.ReasonBadResponse:  {"返回的数据看不懂", "its answer could not be read"},
	stock.ReasonEmpty:        {"返回了空列表（不当作售罄）", "it answered an empty list (not taken as sold out)"},
	stock.ReasonNoDir:        {"回放目录不存在或读不了", "the replay directory is missing or unreadable"},
	stock.ReasonNoRecordings: {"回放目录里没有录制文件", "the replay directory holds no recordings"},
	stock.ReasonPartial:      {"部分数据读取失败", "part of the data failed"},
	stock.ReasonNetwork:      {"连不上", "could not connect"},
}

// reasonText says why a fetch failed, in a few words.
func reasonText(reason stock.FailReason, en bool) string {
	return render.TextFor(reasonTexts, reason, [2]string{"获取失败", "the fetch failed"}, en)
}
