package render

import "github.com/labgpu/bot/internal/i18n"

// ProblemLines are the parts of a question that were not understood or
// not used (understand's Query.Problems, each already in the asker's
// language) and a GPU name the catalog does not know, one short line
// each.
func ProblemLines(problems []string, unknownGPU string, en bool) []string {
	l := i18n.Of(en)
	var out []string
	for _, p := range problems {
		out = append(out, l.T("meta.problem", p))
	}
	if unknownGPU != "" {
		out = append(out, l.T("meta.unknown_gpu", unknownGPU))
	}
	return out
}
