// Package offers answers what is on offer: stock ("哪家有4090"), list
// prices and billing rules ("AutoDL 怎么收费") and comparisons of
// platforms or cards ("3090 还是 4090"). Each intent registers itself from
// its file (stock.go, prices.go, compare.go) and answers from the Query
// and answer.Env alone with its payload (render/offerview's Stock, Prices,
// Compare), which render says.
package offers

import (
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/offerview"
)

// Answers are the offers answers over an Env; the advice answers read
// their rows (RowsFor).
type Answers struct{ *answer.Env }

// New returns the answers over env.
func New(env *answer.Env) *Answers { return &Answers{Env: env} }

// OfferRow is one offer as answers show it (render.OfferRow).
type OfferRow = render.OfferRow

// ProviderRow is a stock source's state in a stock answer.
type ProviderRow = offerview.ProviderRow

// CardRow is a card that fits a workload, at its cheapest known price.
type CardRow = offerview.CardRow
