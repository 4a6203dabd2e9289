// Package answer holds what the answers of every area (offers, estimate,
// advice) and the router share: the Env they read from (the catalog, the
// offer snapshot, the clock, the renderer), the best price quotes for a
// job, how figures and their sources are written, and the size of a
// short form. It imports no other part of commands.
package answer

import (
	"context"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// Offers supplies the current stock snapshot (stock.Board implements it).
type Offers interface {
	Snapshot(ctx context.Context) stock.Snapshot
}

// Env is what answers read: the catalog, the offers, the clock, the
// months after which a list price is stale (0: the default) and the
// renderer of offers and their marks.
type Env struct {
	Cat             *catalog.Catalog
	Offers          Offers
	Now             func() time.Time
	ListPriceMaxAge int
	Rd              *render.Renderer
}

// A short form fits a phone screen: at most MaxShortLines lines of text
// (title, lines and notes; a line wider than ScreenColumns counts once per
// ScreenColumns) and MaxShortRows table rows. The rest goes behind "详情".
const (
	MaxShortLines = 12
	MaxShortRows  = render.ShortRows
	ScreenColumns = 80
)
