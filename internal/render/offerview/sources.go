package offerview

import (
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// sources say what an answer must about the stock sources it read: those
// that failed, the figures an answer left out, why no live figure is
// shown. Ages are at now.
type sources struct {
	rd        *render.Renderer
	l         i18n.Lang
	now       time.Time
	providers []ProviderRow
	// reason is noLiveReason once worked out.
	reason string
}

// failureLines name, near the top of an answer, each provider whose data
// could not be read, in one short line a person can act on.
func (s *sources) failureLines() []string {
	en := s.l.English()
	var out []string
	for _, p := range s.providers {
		if p.Waiting {
			// The router names it at the top (late or unreachable).
			continue
		}
		name := s.providerName(p.Provider)
		why := s.reasonText(p.Reason)
		status := stock.Status(p.Status)
		if p.Provider == string(stock.SourceReplay) && status == stock.StatusError {
			out = append(out, s.l.T("offers.failed.replay", why))
			continue
		}
		switch status {
		case stock.StatusStale:
			if p.Error == "" {
				// Restored from before a restart and not refreshed yet:
				// nothing failed.
				out = append(out, s.l.T("offers.failed.not_refreshed", name, render.Age(s.now.Sub(p.Fetched), en)))
				continue
			}
			out = append(out, s.l.T("offers.failed.stale", name, why, render.Age(s.now.Sub(p.Fetched), en)))
		case stock.StatusError:
			out = append(out, s.l.T("offers.failed.error", name, why))
		case stock.StatusOK:
			switch {
			case p.Error == "":
			case len(p.FailedPlatforms) == 0:
				out = append(out, s.l.T("offers.failed.partly_dropped", name))
			default:
				out = append(out, s.l.T("offers.failed.partly", name, s.rd.PlatformNames(p.FailedPlatforms, en)))
			}
		}
	}
	return out
}

// absentLines name each platform × GPU shown from an earlier answer
// because the provider's latest answer left it out (stock.Absent): its
// figures are old, its stock unknown, never sold out.
func (s *sources) absentLines(rows []render.OfferRow) []string {
	en := s.l.English()
	var out []string
	for _, p := range s.providers {
		for _, a := range p.Absent {
			if !slices.ContainsFunc(rows, func(row render.OfferRow) bool { return row.Stale && row.Platform == a.Platform && row.GPU == a.GPU }) {
				continue
			}
			out = append(out, s.l.T("offers.absent", s.rd.PlatformName(a.Platform, en), a.GPU, render.Age(s.now.Sub(a.LastSeen), en)))
		}
	}
	return out
}

// providerName names a provider: a platform's display name, or the replay
// recordings.
func (s *sources) providerName(id string) string {
	if id == string(stock.SourceReplay) {
		return s.l.T("offers.failed.recordings")
	}
	return s.rd.PlatformName(id, s.l.English())
}

// reasonKeys say why a fetch failed, in a few words (message keys).
var reasonKeys = map[stock.FailReason]string{
	stock.ReasonTimeout:      "offers.reason.timeout",
	stock.ReasonUnauthorized: "offers.reason.unauthorized",
	stock.ReasonRateLimited:  "offers.reason.rate_limited",
	stock.ReasonServer:       "offers.reason.server",
	stock.ReasonBadResponse:  "offers.reason.bad_response",
	stock.ReasonEmpty:        "offers.reason.empty",
	stock.ReasonNoDir:        "offers.reason.no_dir",
	stock.ReasonNoRecordings: "offers.reason.no_recordings",
	stock.ReasonPartial:      "offers.reason.partial",
	stock.ReasonNetwork:      "offers.reason.network",
}

// reasonText says why a fetch failed, in a few words.
func (s *sources) reasonText(reason stock.FailReason) string {
	if k, ok := reasonKeys[reason]; ok {
		return s.l.T(k)
	}
	return s.l.T("offers.reason.other")
}

// noLiveReason says in a few words why no live figure is shown: "没有实时数据
// （没有配置实时数据源）".
func (s *sources) noLiveReason() string {
	if s.reason == "" {
		s.reason = s.l.T("offers.no_live.reason", s.l.T(s.noLiveKey()))
	}
	return s.reason
}

// noLiveLine explains why no live figure is shown: nothing live is
// configured, the live providers failed, or they have no such offer; and
// what is shown instead.
func (s *sources) noLiveLine() string {
	if s.replayRead() {
		return s.l.T("offers.no_live.replay", s.noLiveReason())
	}
	return s.l.T("offers.no_live.list", s.noLiveReason())
}

// noLiveKey is the message key of why no live figure is shown.
func (s *sources) noLiveKey() string {
	configured, failed, late := 0, 0, 0
	for _, p := range s.providers {
		if p.Provider == string(stock.SourceCatalog) || p.Provider == string(stock.SourceReplay) || p.Status == string(stock.StatusNotConfigured) {
			continue
		}
		configured++
		switch {
		case p.Waiting:
			late++
		case p.Status != string(stock.StatusOK):
			failed++
		}
	}
	switch {
	case configured == 0:
		return "offers.no_live.none_configured"
	case late > 0 && failed+late == configured:
		return "offers.no_live.not_answering"
	case failed == configured:
		return "offers.no_live.all_failed"
	}
	return "offers.no_live.no_offer"
}

// replayRead reports whether recordings were read (only those are
// "below").
func (s *sources) replayRead() bool {
	read := false
	for _, p := range s.providers {
		if p.Provider == string(stock.SourceReplay) {
			read = p.Offers > 0
		}
	}
	return read
}

// knownGPUs lists the catalog's GPU ids.
func knownGPUs(rd *render.Renderer) string {
	var ids []string
	for _, g := range rd.Cat.GPUs {
		ids = append(ids, g.ID)
	}
	return strings.Join(ids, ", ")
}
