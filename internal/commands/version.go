package commands

import (
	"context"
	"time"

	"github.com/labgpu/bot/internal/buildinfo"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

func init() { answer.Register(answer.Intent{Name: "version", Answer: versionAnswer}) }

// versionAnswer answers "版本": the build this binary carries, the
// catalog's newest list-price date and the stock sources with their
// state as the last snapshot has them.
func versionAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	v := render.Version{Lang: i18n.Of(a.English), Platforms: len(a.Cat.Platforms)}
	readBuild(&v, buildinfo.Read())
	v.CatalogAsOf = newestAsOf(a.Cat)
	for _, p := range a.Offers.Snapshot(ctx).Providers {
		v.Sources = append(v.Sources, render.VersionSource{Provider: p.Provider, Status: string(p.Status)})
	}
	return answer.Out{Payload: v, Query: a.Query}
}

// readBuild takes the module version and the VCS stamp (revision, time,
// modified) Go writes into a binary built from a checkout (buildinfo,
// which `bot version` reads too).
func readBuild(v *render.Version, bi buildinfo.Info) {
	v.Build, v.Revision, v.Modified, v.GoVersion = bi.Version, bi.ShortRevision(), bi.Modified, bi.GoVersion
	if !bi.Time.IsZero() {
		t := bi.Time
		v.BuiltAt = &t
	}
}

// newestAsOf is the newest date among the catalog's list prices, as
// written there ("2026-08-21"); "" when none carries one.
func newestAsOf(cat *catalog.Catalog) string {
	var newest time.Time
	text := ""
	for _, p := range cat.Platforms {
		for _, pr := range p.Prices {
			if t := catalog.ParseAsOf(pr.CNYPerHour.AsOf); t.After(newest) {
				newest, text = t, pr.CNYPerHour.AsOf
			}
		}
	}
	return text
}
