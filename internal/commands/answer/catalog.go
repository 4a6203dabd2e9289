package answer

import (
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand"
)

// CudaCard reports whether a catalog GPU runs CUDA jobs as they are (not
// an NPU, see the ascend-compat topic).
func (r *Env) CudaCard(id string) bool {
	g, ok := r.Cat.GPU(id)
	return ok && g.Class != "npu"
}

// MainPlatforms are the platforms a disk or billing answer lists when the
// question names none: the GPU marketplaces, in catalog order.
func (r *Env) MainPlatforms(q understand.Query) []*catalog.Platform {
	var out []*catalog.Platform
	if len(q.Platforms) > 0 {
		for _, id := range q.Platforms {
			if p, ok := r.Cat.Platform(id); ok {
				out = append(out, p)
			}
		}
		return out
	}
	for i := range r.Cat.Platforms {
		p := &r.Cat.Platforms[i]
		if p.Kind == "marketplace" {
			out = append(out, p)
		}
	}
	return out
}

// Representative is a family's best-known member ("A100" → the first
// A100 in the catalog) or the id itself.
func (r *Env) Representative(id string) string {
	if ms := r.Cat.FamilyMembers(id); len(ms) > 0 {
		return ms[0]
	}
	return id
}
