package slots

import (
	"github.com/labgpu/bot/internal/understand/slots/oom"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// AdviceSlots reads what an advice answer needs from the whole message:
// the figures of a pasted out-of-memory error (Query.OOM) and whether it
// speaks of inference or serving (Query.Serving; the words are
// configs/slots/advice.yaml's words.serving).
func (x *Extraction) AdviceSlots() {
	x.q.OOM = oom.Read(x.q.Asked)
	x.q.Serving = words.ContainsAny(x.whole, servingWords.List())
}
