package commands

import (
	"strings"

	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// cardVRAMAsk reads a question of how much VRAM a card has, naming no
// job ("l40s显存多大", or "显存多大" after an answer about the L40S,
// whose card the follow-up carries): the card's offers, led by its VRAM.
func cardVRAMAsk(q Query) Query {
	if !q.CardVRAM || len(q.GPUs) == 0 || frame.HasJob(q) || q.YesNo != nil {
		return q
	}
	q.Intent, q.Topic, q.KB, q.Confidence, q.Alternatives = IntentStock, "", nil, 1, nil
	return q
}

// cardVRAMLine is the VRAM of the cards q asks about ("L40S 显存 48 GB"),
// from the catalog; "" when q asks none.
func (r *Router) cardVRAMLine(q Query, l i18n.Lang) string {
	if !q.CardVRAM || q.Intent != IntentStock {
		return ""
	}
	var cards []string
	for _, id := range q.GPUs {
		if g, ok := r.cat.GPU(id); ok && g.MemoryGB > 0 {
			cards = append(cards, l.T("router.card_vram_one", id, render.TrimF(g.MemoryGB)))
		}
	}
	if len(cards) == 0 {
		return ""
	}
	return l.T("router.card_vram", strings.Join(cards, l.T("router.card_vram_sep")))
}
