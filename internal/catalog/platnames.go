package catalog

import (
	"sort"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
)

// PlatformID maps a platform name written on its own (a CSV cell, a
// config key) to the platform's id. The name may be the id, the Chinese
// or English name, or an alias of configs/catalog.yaml (pinyin such as
// "hengyuanyun", common misspellings such as "恒原云" or "auto dl"); it is
// compared after Compact, so case, full-width letters, spaces and
// punctuation do not matter. Unlike ResolvePlatform it never picks a name
// out of a longer text: "AutoDL 或 恒源云" is not a platform.
func (c *Catalog) PlatformID(raw string) (string, bool) {
	if p, ok := c.platNames.exact[Compact(raw)]; ok {
		return p.id, true
	}
	return "", false
}

// ClosestPlatforms returns the ids of up to n platforms whose names
// (ids, Chinese and English names, aliases) are nearest to raw by edit
// distance over Compact forms, counted in characters (Levenshtein,
// github.com/agnivade/levenshtein), nearest first and then in catalog
// order. A name counts when it is at most half its length away (at least
// 2 edits), so "autdl" finds AutoDL and "阿巴云" finds 阿里云, while a word
// like nothing known finds none.
func (c *Catalog) ClosestPlatforms(raw string, n int) []string {
	key := Compact(raw)
	if key == "" || n <= 0 {
		return nil
	}
	best := map[string]int{} // platform id → smallest distance
	for name, p := range c.platNames.exact {
		d := levenshtein.ComputeDistance(key, name)
		limit := max(2, max(utf8.RuneCountInString(key), utf8.RuneCountInString(name))/2)
		if d > limit {
			continue
		}
		if old, ok := best[p.id]; !ok || d < old {
			best[p.id] = d
		}
	}
	var ids []string
	for id := range best {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if best[ids[i]] != best[ids[j]] {
			return best[ids[i]] < best[ids[j]]
		}
		return c.platformIdx[ids[i]] < c.platformIdx[ids[j]]
	})
	if len(ids) > n {
		ids = ids[:n]
	}
	return ids
}

// NearPlatform returns the platform whose Latin-letter name (id, English
// name or alias: "lambda", "hengyuan", "runpod") a word of letters is a
// typo of: at most maxEdits edits away (Levenshtein over Compact forms),
// starting with the same letter, and nearer than any other platform's
// name — "lamda" is Lambda, "henyuan" 恒源云 (pinyin "hengyuan"). A word
// that is a name exactly, or near two platforms alike, finds none.
func (c *Catalog) NearPlatform(word string, maxEdits int) (string, bool) {
	key := Compact(word)
	if key == "" || maxEdits <= 0 || !latinLetters(key) {
		return "", false
	}
	if _, exact := c.platNames.exact[key]; exact {
		return "", false
	}
	best, bestD, tie := "", maxEdits+1, false
	for name, p := range c.platNames.exact {
		if !latinLetters(name) || name[0] != key[0] {
			continue
		}
		d := levenshtein.ComputeDistance(key, name)
		switch {
		case d < bestD:
			best, bestD, tie = p.id, d, false
		case d == bestD && p.id != best:
			tie = true
		}
	}
	if best == "" || tie {
		return "", false
	}
	return best, true
}

// latinLetters reports whether s is a-z only.
func latinLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}
