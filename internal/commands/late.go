package commands

import (
	"context"
	"fmt"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// withLateLines puts at the top of rep (and of its full form) one line
// per platform the answer read while it was late or unreachable (the
// Pending in ctx): which platform, and how old its figures are.
func (r *Router) withLateLines(ctx context.Context, rep chat.Reply, en bool) chat.Reply {
	lines := r.lateLines(stock.PendingFrom(ctx), en)
	if len(lines) == 0 {
		return rep
	}
	rep.Lines = append(append([]string(nil), lines...), rep.Lines...)
	if rep.Full != nil {
		full := *rep.Full
		full.Lines = append(append([]string(nil), lines...), full.Lines...)
		rep.Full = &full
	}
	return rep
}

// lateLines says, per platform, that it has not answered yet or cannot
// be reached for now, and the age of the figures shown instead.
func (r *Router) lateLines(p *stock.Pending, en bool) []string {
	var out []string
	for _, ps := range p.Providers() {
		name := r.rd.PlatformName(ps.Provider, en)
		open := ps.Breaker == stock.BreakerOpen
		switch {
		case ps.FetchedAt.IsZero() && open:
			out = append(out, fmt.Sprintf(answer.Pick(en, "⚠ %s 暂时连不上，它的库存未知。", "⚠ %s cannot be reached for now; its stock is unknown."), name))
		case ps.FetchedAt.IsZero():
			out = append(out, fmt.Sprintf(answer.Pick(en, "⚠ %s 还没回应，它的库存暂时未知。", "⚠ %s has not answered yet; its stock is unknown for now."), name))
		case open:
			out = append(out, fmt.Sprintf(answer.Pick(en, "⚠ %s 暂时连不上，用的是%s的数据。", "⚠ %s cannot be reached for now; showing its data from %s."), name, render.Age(r.now().Sub(ps.FetchedAt), en)))
		default:
			out = append(out, fmt.Sprintf(answer.Pick(en, "⚠ %s 还没回应，先用%s的数据。", "⚠ %s has not answered yet; showing its data from %s."), name, render.Age(r.now().Sub(ps.FetchedAt), en)))
		}
	}
	return out
}
