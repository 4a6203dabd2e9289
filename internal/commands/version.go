package commands

import (
	"context"
	"runtime"
	"runtime/debug"
	"time"

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
	v := render.Version{Lang: i18n.Of(a.English), Build: "(devel)", GoVersion: runtime.Version(), Platforms: len(a.Cat.Platforms)}
	if bi, ok := debug.ReadBuildInfo(); ok {
		readBuild(&v, bi)
	}
	v.CatalogAsOf = newestAsOf(a.Cat)
	for _, p := range a.Offers.Snapshot(ctx).Providers {
		v.Sources = append(v.Sources, render.VersionSource{Provider: p.Provider, Status: string(p.Status)})
	}
	return answer.Out{Payload: v, Query: a.Query}
}

// readBuild takes the module version and the VCS stamp (revision, time,
// modified) Go writes into a binary built from a checkout.
func readBuild(v *render.Version, bi *debug.BuildInfo) {
	if bi.Main.Version != "" {
		v.Build = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value[:min(12, len(s.Value))]
		case "vcs.modified":
			v.Modified = s.Value == "true"
		case "vcs.time":
			if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
				v.BuiltAt = &t
			}
		}
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
