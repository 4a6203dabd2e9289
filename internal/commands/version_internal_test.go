package commands

import (
	"runtime/debug"
	"testing"

	"github.com/labgpu/bot/internal/buildinfo"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/render"
)

func TestReadBuild(t *testing.T) {
	var v render.Version
	readBuild(&v, buildinfo.From(&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}, {Key: "vcs.time", Value: "2026-12-01T08:00:00Z"}}}))
	if v.Build != "v1.2.3" || v.Revision != "0123456789ab" || !v.Modified || v.BuiltAt == nil || v.BuiltAt.Day() != 1 {
		t.Errorf("%+v", v)
	}
}

func TestNewestAsOf(t *testing.T) {
	cat := &catalog.Catalog{Platforms: []catalog.Platform{
		{Prices: []catalog.Price{{CNYPerHour: catalog.Figure{AsOf: "2025"}}, {CNYPerHour: catalog.Figure{AsOf: "2026-08-21"}}}},
		{Prices: []catalog.Price{{CNYPerHour: catalog.Figure{AsOf: "2026-08"}}, {CNYPerHour: catalog.Figure{AsOf: "unknown"}}}},
	}}
	if got := newestAsOf(cat); got != "2026-08-21" {
		t.Errorf("newestAsOf = %q", got)
	}
}
