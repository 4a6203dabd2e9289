package answer

import "github.com/labgpu/bot/internal/render"

// Out is the answer p to the Ask, with its Query as asked.
func (a *Ask) Out(p render.Payload) Out { return Out{Payload: p, Query: a.Query} }
