// Package cite names where a figure comes from as a chat reader would:
// a catalog figure's source ("AutoDL 官方文档，2026-08", "第三方公开资料，
// 2026", "一篇 2025 年的租卡测评（未核实）") and a knowledge-base entry's
// sources without their section numbers and maintainers' notes. Never a
// file name or an id. The words are the message catalog's cite.* keys.
package cite

import (
	"regexp"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/textgate"
)

// officialDomains are each platform's own sites: a source that cites one
// is the platform's documentation or price page.
var officialDomains = map[string][]string{
	"autodl":    {"autodl.com", "gpuhub.com"},
	"hengyuan":  {"gpushare.com"},
	"matpool":   {"matpool.com"},
	"lanrui":    {"lanrui.co"},
	"featurize": {"featurize.cn", "featurize-doc"},
	"vastai":    {"vast.ai"},
	"runpod":    {"runpod.io"},
	"lambda":    {"lambda.ai", "lambdalabs.com"},
}

// reSeedRef is a seed article reference in a source ("seed 000 §5"): one
// of the two articles the project was started from.
var reSeedRef = textgate.MustCompile(`seed 00[01]`)

// Figure names a catalog figure's source (its Source and AsOf) for a
// platform: "AutoDL 官方文档，2026-08", "AutoDL 官方页面（第三方转引），2026",
// "第三方公开资料，2026", "一篇 2025 年的租卡测评（未核实）".
func Figure(c *catalog.Catalog, platform string, f catalog.Figure, l i18n.Lang) string {
	src := strings.ToLower(f.Source)
	date := strings.TrimSpace(f.AsOf)
	withDate := func(s string) string {
		if date == "" {
			return s
		}
		return l.T("cite.dated", s, date)
	}
	name := platform
	if p, ok := c.Platform(platform); ok {
		name = p.DisplayName(l.English())
	}
	official := false
	for _, d := range officialDomains[platform] {
		if strings.Contains(src, d) {
			official = true
		}
	}
	direct := strings.HasPrefix(src, "https://") || strings.HasPrefix(src, "docs.")
	switch {
	case !f.Verified && reSeedRef.MatchString(src):
		return seed(src, l)
	case official && direct:
		return withDate(l.T("cite.official_docs", name))
	case official:
		return withDate(l.T("cite.official_quoted", name))
	case reSeedRef.MatchString(src) && !strings.Contains(src, "price-facts") && !strings.Contains(src, "http"):
		return seed(src, l)
	}
	return withDate(l.T("cite.third_party"))
}

// seed names the seed articles a source cites as a reader would.
func seed(src string, l i18n.Lang) string {
	n := len(reSeedRef.FindAllString(src, -1))
	if strings.Contains(src, "seed 000") && strings.Contains(src, "seed 001") || n >= 2 {
		return l.T("cite.seed.two_reviews")
	}
	return l.T("cite.seed.one_review")
}

// seedTitles are the message keys naming the two seed articles in
// knowledge-base sources, by their reference.
var seedTitles = []struct{ ref, key string }{
	{"seed 000", "cite.seed.student_review"},
	{"seed 001", "cite.seed.pitfalls_review"},
}

// Source is a knowledge-base source as a chat reader sees it: the seed
// articles described instead of their file numbers ("一篇 2025 年的高校租卡
// 横评"), without section numbers or the maintainers' notes in
// parentheses, each source once: "seed 000 §2 (detection: 3090 tier);
// google-research/bert README (batch sizes)" → "一篇 2025 年的高校租卡横评；
// google-research/bert README".
func Source(src string, l i18n.Lang) string {
	// Each expression runs only on a text that has its required character
	// (most sources have few notes and sections).
	if strings.Contains(src, "(") {
		src = reSourceNote.ReplaceAllString(src, "")
	}
	if strings.Contains(src, "§") || strings.Contains(src, "table") {
		src = reSourceSection.ReplaceAllString(src, "")
	}
	var parts []string
	seen := map[string]bool{}
	for p := range strings.SplitSeq(src, ";") {
		if strings.Contains(p, "seed 00") {
			for _, s := range seedTitles {
				p = strings.ReplaceAll(p, s.ref, l.T(s.key))
			}
		}
		if strings.Contains(p, ",") {
			p = reSourceCommas.ReplaceAllString(p, ", ")
		}
		p = strings.Trim(strings.TrimSuffix(strings.Trim(p, " ,"), " and"), " ,")
		switch p {
		case "rough":
			p = l.T("cite.rough")
		case "community reports":
			p = l.T("cite.community")
		}
		if p != "" && !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, l.T("cite.sep"))
}

var (
	// reSourceNote is a maintainers' note in parentheses.
	reSourceNote = regexp.MustCompile(`\s*\([^()]*\)`)
	// reSourceSection is a section number ("§4.1", "§6 table").
	reSourceSection = regexp.MustCompile(`\s*§[\d.]+(?:\s+table)?|,\s*table\b`)
	// reSourceCommas are the commas left between removed sections.
	reSourceCommas = regexp.MustCompile(`\s*(?:,\s*)+`)
)
