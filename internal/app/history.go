package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chart"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/render/availabilityview"
)

// newHistory builds the availability history over the store (memory only
// without one) and loads what the store holds.
func (a *App) newHistory(ctx context.Context) *history.Recorder {
	h := &history.Recorder{Now: a.now}
	if hs, ok := a.Store.(history.Store); ok {
		h.Store = hs
		if err := h.Load(ctx); err != nil {
			a.Log.Warn("loading the availability history", "err", err)
		}
	}
	return h
}

// ExportHistory writes the availability history as CSV (history.CSVHeader).
func (a *App) ExportHistory(w io.Writer) error { return a.History.Export(w) }

// ImportHistory adds a CSV to the history (all rows or none); platform and
// GPU names are read as the catalog names them ("AutoDL", "4090").
func (a *App) ImportHistory(ctx context.Context, r io.Reader) (added, skipped int, err error) {
	if a.History.Store == nil {
		return 0, 0, fmt.Errorf("history import: the store is not open (is a bot already running on this data directory?)")
	}
	return a.History.Import(ctx, r)
}

// ErrUnknownName is a GPU or platform name the catalog does not know.
var ErrUnknownName = errors.New("not in the catalog")

// HistoryPNG draws gpu's heat map (on platform, or all when empty) to
// path as a PNG.
func (a *App) HistoryPNG(gpu, platform, path string) error {
	id := a.gpuID(gpu)
	if id == "" {
		return fmt.Errorf("%w: GPU %q", ErrUnknownName, gpu)
	}
	var pls []string
	if platform != "" {
		if _, ok := a.Cat.Platform(platform); ok {
			pls = []string{platform}
		} else if m := a.Cat.FindPlatforms(catalog.Fold(platform)); len(m) > 0 {
			pls = []string{m[0].ID}
		} else {
			return fmt.Errorf("%w: platform %q", ErrUnknownName, platform)
		}
	}
	pf := a.History.Profile(id, pls, a.now(), a.Location)
	if !pf.Known() {
		return fmt.Errorf("no history for %s %s yet", strings.Join(pls, ","), id)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var names []string
	for _, p := range pf.Platforms {
		if pl, ok := a.Cat.Platform(p); ok {
			p = pl.DisplayName(true)
		}
		names = append(names, p)
	}
	title := i18n.EN.T("cli.history.heat_title", id, strings.Join(names, " + "), pf.Days)
	if err := chart.HeatPNG(f, availabilityview.HeatMap(&pf, i18n.EN), title); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// gpuID is the catalog id of a GPU name ("4090" → "RTX 4090"; a family
// → its first member), "" when unknown.
func (a *App) gpuID(name string) string {
	if _, ok := a.Cat.GPU(name); ok {
		return name
	}
	m := a.Cat.FindGPUs(catalog.Fold(name))
	if len(m) == 0 {
		return ""
	}
	if m[0].Family {
		if ids := a.Cat.FamilyMembers(m[0].ID); len(ids) > 0 {
			return ids[0]
		}
	}
	return m[0].ID
}

// queueRisk is the plan optimizer's plan.QueueRisk read from the
// availability history: the share of known polls with no card free in
// the window's hours, every day of the week, over the last 12 weeks.
type queueRisk struct{ a *App }

// windowHours are the local hours of a plan window (plan.WindowDay
// 08–19, plan.WindowEvening 19–23, "" all day).
func windowHours(window string) []int {
	from, to := 0, 24
	switch window {
	case plan.WindowDay:
		from, to = 8, 19
	case plan.WindowEvening:
		from, to = 19, 23
	}
	var hours []int
	for d := range 7 {
		for h := from; h < to; h++ {
			hours = append(hours, d*24+h)
		}
	}
	return hours
}

// NotAvailable implements plan.QueueRisk; ok is false without history.
func (q queueRisk) NotAvailable(platform, gpu, window string) (plan.Risk, bool) {
	p, days, slots := q.a.History.Risk(platform, gpu, windowHours(window), q.a.now(), q.a.Location)
	if days == 0 || slots == 0 {
		return plan.Risk{}, false
	}
	return plan.Risk{P: p, Days: float64(days), Polls: slots}, true
}
