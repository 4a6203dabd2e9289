package offerview

import (
	"strings"

	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// disagreeLines say, for each shown row that other endpoints gave other
// free counts for, what each said (with its marks) and which the table
// uses: "不一致" when they count the same place, else only what they said.
func disagreeLines(rd *render.Renderer, rows []render.OfferRow, en bool) []string {
	l := i18n.Of(en)
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
			said = append(said, figurePlace(f, en)+l.T("offers.disagree.gap")+render.FreeCell(figureRow(row.Platform, f), en))
		}
		used := figurePlace(stock.Figure{Endpoint: row.Endpoint, Scope: row.Scope, Region: row.Region}, en)
		head := "offers.disagree.others"
		if row.Disagree {
			head = "offers.disagree.differ"
		}
		out = append(out, l.T(head, rd.PlatformName(row.Platform, en), row.GPU, strings.Join(said, l.T("offers.sep.comma")), used, render.FreeCell(row, en)))
	}
	return out
}

// figureRow is another endpoint's figure as a row, for its free cell and
// its legend.
func figureRow(platform string, f stock.Figure) render.OfferRow {
	return render.OfferRow{Platform: platform, Free: f.Free, Level: f.Level, Caveats: f.Caveats, Verified: true}
}

// withOthers is rows plus the other endpoints' figures of the rows whose
// figures the answer lists (disagreeLines), for the legend.
func withOthers(rows []render.OfferRow) []render.OfferRow {
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
	l := i18n.Of(en)
	name := endpointName(f.Endpoint, l)
	switch {
	case f.Scope == stock.ScopePlatform:
		return name + l.T("offers.place.all_regions")
	case f.Region != "":
		return l.T("offers.place.region", name, render.RegionText(f.Region, en))
	case f.Scope == stock.ScopeMachine:
		return name
	case f.Scope == stock.ScopeRegion:
		return name + l.T("offers.place.no_region")
	}
	return name
}

// endpointKeys name the APIs as a reader would (message keys).
var endpointKeys = map[string]string{
	stock.EndpointESDGlobal: "offers.endpoint.developer", stock.EndpointESDRegion: "offers.endpoint.developer",
	stock.EndpointWebRegion: "offers.endpoint.console_region", stock.EndpointWebMachines: "offers.endpoint.machines",
}

// endpointName names an API as a reader would.
func endpointName(endpoint string, l i18n.Lang) string {
	if k, ok := endpointKeys[endpoint]; ok {
		return l.T(k)
	}
	return l.T("offers.endpoint.other")
}
