package catalog

import (
	"regexp"
	"strconv"
)

// Platform returns the platform with the given id.
func (c *Catalog) Platform(id string) (*Platform, bool) {
	i, ok := c.platformIdx[id]
	if !ok {
		return nil, false
	}
	return &c.Platforms[i], true
}

// GPU returns the GPU with the given canonical id.
func (c *Catalog) GPU(id string) (*GPU, bool) {
	i, ok := c.gpuIdx[id]
	if !ok {
		return nil, false
	}
	return &c.GPUs[i], true
}

// Model returns the model with the given canonical id.
func (c *Catalog) Model(id string) (*Model, bool) {
	i, ok := c.modelIdx[id]
	if !ok {
		return nil, false
	}
	return &c.Models[i], true
}

// FamilyMembers returns the ids of the GPUs in a family ("A100" →
// ["A100 40GB", "A100 80GB"]), or [id] when id is a GPU id.
func (c *Catalog) FamilyMembers(id string) []string {
	if _, ok := c.gpuIdx[id]; ok {
		return []string{id}
	}
	var out []string
	for _, g := range c.GPUs {
		if g.Family == id {
			out = append(out, g.ID)
		}
	}
	return out
}

// FindGPUs returns the GPU names mentioned in folded text (see Fold), in
// order. A bare family ("A100") yields one Match with Family set and ID the
// family name.
func (c *Catalog) FindGPUs(folded string) []Match { return c.gpuNames.find(folded) }

// FindModels returns the model names mentioned in folded text.
func (c *Catalog) FindModels(folded string) []Match { return c.modelNames.find(folded) }

// FindPlatforms returns the platform names mentioned in folded text.
func (c *Catalog) FindPlatforms(folded string) []Match { return c.platNames.find(folded) }

var memRe = regexp.MustCompile(`(\d+)\s*g(?:b|ib)?\b`)

// ResolveGPU maps a platform's GPU name ("NVIDIA GeForce RTX 4090",
// "A100-SXM4-80GB", "RTX 4090D") to a catalog GPU id. A family name is
// narrowed by a memory size in the same string ("80GB") and, when several
// members share that size, by a variant word of one member's id ("PCIe" in
// "1x H100 (80 GB PCIe)"); failing that, the first member of that size wins.
// A family without a size or variant word resolves only when it has exactly
// one member.
func (c *Catalog) ResolveGPU(raw string) (string, bool) {
	f := Fold(raw)
	if p, ok := c.gpuNames.exact[Compact(raw)]; ok && !p.family {
		return p.id, true
	}
	ms := c.gpuNames.find(f)
	if len(ms) == 0 {
		return "", false
	}
	m := ms[0]
	if !m.Family {
		return m.ID, true
	}
	members := c.FamilyMembers(m.ID)
	var bySize []string
	for _, mm := range memRe.FindAllStringSubmatch(f, -1) {
		gb, _ := strconv.ParseFloat(mm[1], 64)
		for _, id := range members {
			if g, _ := c.GPU(id); g != nil && g.MemoryGB == gb {
				bySize = append(bySize, id)
			}
		}
		if len(bySize) > 0 {
			break
		}
	}
	cands := members
	if len(bySize) > 0 {
		cands = bySize
	}
	if len(cands) > 1 {
		// Several members of that size ("H100 SXM", "H100 PCIe"): a
		// variant word in the text ("1x H100 (80 GB PCIe)") decides.
		if id, ok := pickVariant(f, m.ID, cands); ok {
			return id, true
		}
	}
	if len(bySize) > 0 {
		return bySize[0], true
	}
	if len(members) == 1 {
		return members[0], true
	}
	return "", false
}

var wordRe = regexp.MustCompile(`[a-z]+|[0-9]+(?:\.[0-9]+)?[a-z]*`)

// pickVariant returns the one candidate whose distinguishing words (the
// words of its id that are neither the family name nor a memory size, e.g.
// "pcie" in "H100 PCIe") start a word of folded text f. With none or several
// such candidates it reports false.
func pickVariant(f, family string, cands []string) (string, bool) {
	famWords := map[string]bool{}
	for _, w := range wordRe.FindAllString(Fold(family), -1) {
		famWords[w] = true
	}
	found := ""
	for _, id := range cands {
		hit := false
		for _, w := range wordRe.FindAllString(Fold(id), -1) {
			if famWords[w] || memRe.MatchString(w) {
				continue
			}
			re := regexp.MustCompile(`(?:^|[^a-z0-9])` + regexp.QuoteMeta(w) + `(?:[^a-z]|$)`)
			if re.MatchString(f) {
				hit = true
				break
			}
		}
		if hit {
			if found != "" {
				return "", false
			}
			found = id
		}
	}
	return found, found != ""
}

// ResolveModel maps a model name ("qwen2.5 7b") to a catalog model id.
func (c *Catalog) ResolveModel(raw string) (string, bool) { return c.modelNames.resolve(raw) }

// ResolvePlatform maps a platform name ("恒源云", "AutoDL", "vast") to an id.
func (c *Catalog) ResolvePlatform(raw string) (string, bool) { return c.platNames.resolve(raw) }
