// Package offers answers what is on offer: stock ("哪家有4090"), list
// prices and billing rules ("AutoDL 怎么收费") and comparisons of
// platforms or cards ("3090 还是 4090"), each a reply with its short form
// first. It reads the catalog and the offer snapshot through answer.Env.
package offers

import (
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/understand"
)

// Answers answers the stock, prices and compare intents.
type Answers struct{ *answer.Env }

// New returns the answers over env.
func New(env *answer.Env) *Answers { return &Answers{Env: env} }

// Result is an offers answer: the query as answered (stock drops a
// platform when asked for others; compare may answer as stock), the rows
// behind it and the reply.
type Result struct {
	understand.Query
	Offers    []OfferRow
	Providers []ProviderRow
	Compare   *CompareResult
	Question  string
	Reply     chat.Reply
}
