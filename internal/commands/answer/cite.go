package answer

import (
	"regexp"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
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

// reSeedRef is a seed article reference in a source ("seed 000 §5").
var reSeedRef = textgate.MustCompile(`seed 00[01]`)

// Cite names a catalog figure's source as a chat reader understands it,
// never as a file name or id: "AutoDL 官方文档，2026-08", "AutoDL 官方页面
// （第三方转引），2026", "第三方公开资料，2026", "一篇 2025 年的租卡测评（未核实）".
func Cite(c *catalog.Catalog, platform string, f catalog.Figure, en bool) string {
	src := strings.ToLower(f.Source)
	date := strings.TrimSpace(f.AsOf)
	withDate := func(s string) string {
		if date == "" {
			return s
		}
		return s + Pick(en, "，", ", ") + date
	}
	name := platform
	if p, ok := c.Platform(platform); ok {
		name = p.DisplayName(en)
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
		return SeedCite(src, en)
	case official && direct:
		return withDate(name + Pick(en, " 官方文档", "'s docs"))
	case official:
		return withDate(name + Pick(en, " 官方页面（第三方转引）", "'s own page (quoted by a third party)"))
	case reSeedRef.MatchString(src) && !strings.Contains(src, "price-facts") && !strings.Contains(src, "http"):
		return SeedCite(src, en)
	}
	return withDate(Pick(en, "第三方公开资料", "a third-party public source"))
}

// SeedCite names the seed articles as a reader would.
func SeedCite(src string, en bool) string {
	n := len(reSeedRef.FindAllString(src, -1))
	if strings.Contains(src, "seed 000") && strings.Contains(src, "seed 001") || n >= 2 {
		return Pick(en, "两篇 2025 年的租卡测评（未核实）", "two 2025 rental reviews (unverified)")
	}
	return Pick(en, "一篇 2025 年的租卡测评（未核实）", "a 2025 rental review (unverified)")
}

// CitesSeed reports whether a source names a seed article.
func CitesSeed(src string) bool { return reSeedRef.MatchString(src) }

// seedTitles name the two seed articles in knowledge-base sources.
var seedTitles = map[string]catalog.Text{
	"seed 000": {Zh: "一篇 2025 年的高校租卡横评", En: "a 2025 review of GPU rental for students"},
	"seed 001": {Zh: "一篇 2025 年的租卡实测避坑文", En: "a 2025 hands-on review of GPU rental pitfalls"},
}

// SourceText is a knowledge-base source as a chat reader sees it: the
// seed articles described instead of their file numbers ("一篇 2025 年的
// 高校租卡横评"), without section numbers or the maintainers' notes in
// parentheses, each source once: "seed 000 §2 (detection: 3090 tier);
// google-research/bert README (batch sizes)" → "一篇 2025 年的高校租卡横评；
// google-research/bert README".
func SourceText(src string, en bool) string {
	src = reSourceNote.ReplaceAllString(src, "")
	src = reSourceSection.ReplaceAllString(src, "")
	var parts []string
	seen := map[string]bool{}
	for _, p := range strings.Split(src, ";") {
		for id, t := range seedTitles {
			p = strings.ReplaceAll(p, id, t.Pick(en))
		}
		p = reSourceCommas.ReplaceAllString(p, ", ")
		p = strings.Trim(strings.TrimSuffix(strings.Trim(p, " ,"), " and"), " ,")
		switch p {
		case "rough":
			p = Pick(en, "粗略估计", "rough")
		case "community reports":
			p = Pick(en, "社区经验", "community reports")
		}
		if p != "" && !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, Pick(en, "；", "; "))
}

var (
	// reSourceNote is a maintainers' note in parentheses.
	reSourceNote = regexp.MustCompile(`\s*\([^()]*\)`)
	// reSourceSection is a section number ("§4.1", "§6 table").
	reSourceSection = regexp.MustCompile(`\s*§[\d.]+(?:\s+table)?|,\s*table\b`)
	// reSourceCommas are the commas left between removed sections.
	reSourceCommas = regexp.MustCompile(`\s*(?:,\s*)+`)
)
