package slots

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// The words around names (configs/slots/names.yaml).
var (
	// reGPUish is a GPU-like name: "3080", "rtx 3090 ti", "b200", "h20e".
	reGPUish = words.NewExpr("names.gpuish")
	// reTypoNumber is a card number with two digits swapped ("4900");
	// reTypoUnless a message where it is money or a date.
	reTypoNumber = words.NewExpr("names.typo_number")
	reTypoUnless = words.NewExpr("names.typo_unless")
	// reVariant is a suffix naming a GPU variant: "ti", "super".
	reVariant = words.NewExpr("names.variant")
	// reVariantPair is another memory size of the card just named ("a100
	// 40g和80g"); reSizeSuffix the size ending a card's name as written.
	reVariantPair = words.NewExpr("names.variant_pair")
	reSizeSuffix  = words.NewExpr("names.size_suffix")
	// reCountEN is an English count right before a GPU name ("one 4090").
	reCountEN = words.NewExpr("names.count_english")
	// reCount are GPU counts: before a GPU name ("两张4090", "2x 4090"),
	// after it ("4090 两张"), and anywhere ("8 卡", "双卡").
	reCount = words.NewExprs("names.count", 5)
	// reExcludeBefore rules out the platform named right after it ("不要
	// vast", "除了 autodl", "except runpod").
	reExcludeBefore = words.NewExpr("names.exclude_before")
	// reExcludeAfter rules out the platform named right before it
	// ("autodl 除外", "vast 不要", "runpod 不考虑").
	reExcludeAfter = words.NewExpr("names.exclude_after")
	// reNearPlatform is a word that may be a platform's name typed one
	// letter off ("lamda", "henyuan"); reNearSuffix a "云" or "cloud"
	// after it; kwNearNot English words never read so.
	reNearPlatform = words.NewExpr("names.near_platform")
	reNearSuffix   = words.NewExpr("names.near_platform_suffix")
	kwNearNot      = words.NewWords("names.near_platform_not")
	// rePeople is how many members each rent cards ("5个人", "3
	// students"), reEach says each ("每人", "each"), reTotalCount a count
	// for all of them ("总共两张").
	rePeople      = words.NewExpr("names.people")
	reWithMe      = words.NewExpr("names.people_with_me")
	rePeopleAlone = words.NewExpr("names.people_follow")
	reEach        = words.NewExpr("names.each")
	reTotalCount  = words.NewExpr("names.total_count")
	// reCorrection corrects a name said earlier in the same message ("哦不对
	// 是3090", "sorry I meant h100"): see correctNames.
	reCorrection = words.NewExpr("names.correction")
)

// correctNames blanks (keeping byte offsets) the cards, platforms and
// models named before a correction in one message when one of the same
// kind is named after it ("4090多少钱 哦不对 是3090" reads as "多少钱 …
// 3090"), and the correction's words with them. Without a name after it
// the message is left as it is.
func correctNames(c *catalog.Catalog, s string) string {
	loc := reCorrection.FindStringIndex(s)
	if loc == nil {
		return s
	}
	before, after := s[:loc[0]], s[loc[1]:]
	changed := false
	for _, find := range []func(string) []catalog.Match{c.FindGPUs, c.FindPlatforms, c.FindModels} {
		if len(find(after)) == 0 {
			continue
		}
		for _, m := range find(before) {
			s, changed = blank(s, m.Start, m.End), true
		}
	}
	if changed {
		s = blank(s, loc[0], loc[1])
	}
	return s
}

// extractPeople reads several members each renting cards ("我们组5个人
// 每人一张4090", "3 students, one A100 each", "我和师弟各一张"): the count is the members
// times the cards each (one unless said), unless a count is said for all
// of them ("3个人总共两张").
func extractPeople(x *Extraction) {
	q := x.q
	alone := rePeopleAlone.FindStringSubmatch(x.rest)
	if alone == nil && (!reEach.MatchString(x.rest) || reTotalCount.MatchString(x.rest)) {
		return
	}
	var n float64
	ok := false
	if m := alone; m != nil {
		// "要是只有2个学生用呢": the members alone, one card each.
		n, ok = peopleCount(m)
	} else if m := reWithMe.FindStringSubmatch(x.rest); m != nil {
		// "我和师弟": the asker and one other; "我跟两个师妹": and two.
		n, ok = 2, true
		if v, isNum := words.ParseNum(m[1]); m[1] != "" && isNum {
			n = v + 1
		}
	} else if m := rePeople.FindStringSubmatch(x.rest); m != nil {
		n, ok = peopleCount(m)
	}
	if !ok || n < 2 || n > 64 || n != float64(int(n)) {
		return
	}
	each := max(q.GPUCount, 1)
	if int(n)*each > 64 {
		return
	}
	q.People, q.PerPerson, q.GPUCount = int(n), each, int(n)*each
}

// peopleCount is the members' count a names.people match says (group 1
// or 2: digits, Chinese or numbers.english).
func peopleCount(m []string) (float64, bool) {
	w := m[1]
	if w == "" {
		w = m[2]
	}
	if n, ok := words.ParseNum(w); ok {
		return n, true
	}
	return englishNumber(w)
}

// soundAlikePlatforms reads, in a message naming no platform, a name
// typed with characters that sound like its own ("横源云", "恒远呢", "聚池
// 那边"): the message again with those characters replaced
// (names.platform_sound_alikes; one CJK rune for another, so the byte
// offsets stay) finds the platform.
func soundAlikePlatforms(x *Extraction) {
	q := x.q
	alike := words.Mapping("names.platform_sound_alikes")
	var b strings.Builder
	changed := false
	for _, r := range x.rest {
		if to, ok := alike[string(r)]; ok && len(to) == len(string(r)) {
			b.WriteString(to)
			changed = true
			continue
		}
		b.WriteRune(r)
	}
	if !changed {
		return
	}
	for _, m := range x.cat.FindPlatforms(b.String()) {
		if excluded(x.rest, m) {
			if !slices.Contains(q.ExcludePlatforms, m.ID) {
				q.ExcludePlatforms = append(q.ExcludePlatforms, m.ID)
			}
		} else {
			if q.Platform == "" {
				q.Platform = m.ID
			}
			if !slices.Contains(q.Platforms, m.ID) {
				q.Platforms = append(q.Platforms, m.ID)
			}
		}
		x.use(m.Start, m.End, phPlatform)
	}
}

// nearPlatform reads, in a message naming no platform exactly, a word
// one letter off a platform's Latin name ("and lamda?", "henyuan云呢",
// "what about runpood") as that platform, as if it were spelt right.
func nearPlatform(x *Extraction) {
	q := x.q
	short, _ := words.Number("names.near_platform_edits", "short")
	long, _ := words.Number("names.near_platform_edits", "long")
	from, _ := words.Number("names.near_platform_edits", "long_from")
	for _, loc := range reNearPlatform.FindAllStringIndex(x.rest, -1) {
		a, b := loc[0], loc[1]
		if a > 0 && isWordByte(x.rest[a-1]) || b < len(x.rest) && isWordByte(x.rest[b]) {
			continue // part of a longer word or a name with digits
		}
		w := x.rest[a:b]
		if kwNearNot.Has(w) {
			continue
		}
		edits := short
		if float64(len(w)) >= from {
			edits = long
		}
		id, ok := x.cat.NearPlatform(w, int(edits))
		if !ok {
			continue
		}
		if m := reNearSuffix.FindStringIndex(x.rest[b:]); m != nil {
			b += m[1]
		}
		m := catalog.Match{ID: id, Start: a, End: b}
		if excluded(x.rest, m) {
			if !slices.Contains(q.ExcludePlatforms, id) {
				q.ExcludePlatforms = append(q.ExcludePlatforms, id)
			}
		} else {
			if q.Platform == "" {
				q.Platform = id
			}
			if !slices.Contains(q.Platforms, id) {
				q.Platforms = append(q.Platforms, id)
			}
		}
		x.use(a, b, phPlatform)
	}
}

// excluded reports whether the asker rules out the platform m names.
func excluded(folded string, m catalog.Match) bool {
	before := folded[max(0, m.Start-16):m.Start]
	for len(before) > 0 && !utf8.RuneStart(before[0]) {
		before = before[1:]
	}
	return reExcludeBefore.MatchString(before) || reExcludeAfter.MatchString(folded[m.End:])
}

// extractNames finds platforms first ("AutoDL 的 4090"), then models
// (their names contain sizes such as "7b"), then GPUs; each found span is
// blanked so later rules do not see "4090" or "2.5" inside names.
func extractNames(x *Extraction) {
	q := x.q
	var gpuNames []catalog.Match
	plats := x.cat.FindPlatforms(x.rest)
	if len(plats) > 0 {
		gpuNames = x.cat.FindGPUs(x.s)
	}
	for _, m := range plats {
		if within(m, gpuNames) {
			// "昇腾910B" names the chip, not the 昇腾 platform.
			continue
		}
		if excluded(x.rest, m) {
			if !slices.Contains(q.ExcludePlatforms, m.ID) {
				q.ExcludePlatforms = append(q.ExcludePlatforms, m.ID)
			}
			x.use(m.Start, m.End, phPlatform)
			continue
		}
		if q.Platform == "" {
			q.Platform = m.ID
		}
		if !slices.Contains(q.Platforms, m.ID) {
			q.Platforms = append(q.Platforms, m.ID)
		}
		x.use(m.Start, m.End, phPlatform)
	}
	if len(plats) == 0 {
		soundAlikePlatforms(x)
	}
	if len(q.Platforms) == 0 && len(q.ExcludePlatforms) == 0 {
		nearPlatform(x)
	}
	for _, m := range x.cat.FindModels(x.rest) {
		if q.Model == "" {
			q.Model = m.ID
		}
		x.use(m.Start, m.End, phModel)
	}
	gpus := pairedVariants(x, x.cat.FindGPUs(x.rest))
	for i, m := range gpus {
		if i == 0 {
			q.GPU, q.GPUFamily = m.ID, m.Family
		}
		if !slices.Contains(q.NamedGPUs, m.ID) {
			q.NamedGPUs = append(q.NamedGPUs, m.ID)
		}
		for _, id := range x.cat.FamilyMembers(m.ID) {
			if !slices.Contains(q.GPUs, id) {
				q.GPUs = append(q.GPUs, id)
			}
		}
	}
	if len(gpus) > 0 {
		q.GPUCount = countNear(x.rest, gpus[0])
	}
	for _, m := range gpus {
		// "3090 ti", "4090 super": a variant the catalog does not have.
		if sm := reVariant.FindStringSubmatch(x.rest[m.End:]); sm != nil && q.UnknownGPU == "" {
			q.UnknownGPU = strings.TrimSpace(x.s[m.Start:m.End] + " " + sm[1])
		}
		x.use(m.Start, m.End, phGPU)
	}
	if q.UnknownGPU == "" && len(gpus) == 0 && q.Model == "" && swappedGPU(x) {
		return
	}
	if q.UnknownGPU == "" && len(gpus) == 0 {
		if m := reGPUish.FindStringSubmatchIndex(x.rest); m != nil {
			q.UnknownGPU = strings.TrimSpace(x.rest[m[2]:m[3]])
			x.marks = append(x.marks, mark{m[2], m[3], phGPU})
		}
	}
}

// pairedVariants adds to the cards found another memory size said right
// after one ("a100 40g和80g": A100 80GB too), when the catalog has the
// card with that size.
func pairedVariants(x *Extraction, gpus []catalog.Match) []catalog.Match {
	out := gpus
	for _, m := range gpus {
		sm := reVariantPair.FindStringSubmatchIndex(x.rest[m.End:])
		if sm == nil {
			continue
		}
		base := reSizeSuffix.ReplaceAllString(x.rest[m.Start:m.End], "")
		if base == x.rest[m.Start:m.End] {
			continue // the name said no size: "4090和80g" is no pair
		}
		size := x.rest[m.End+sm[2] : m.End+sm[3]]
		found := x.cat.FindGPUs(base + " " + size + "g")
		if len(found) != 1 || found[0].ID == m.ID {
			continue
		}
		v := found[0]
		v.Start, v.End = m.End+sm[2], m.End+sm[1]
		out = append(out, v)
	}
	return out
}

// swappedGPU reads a card number typed with two neighbouring digits
// swapped ("4900一小时多少钱": RTX 4090) as the one card it swaps to, and
// records the number as written (Query.TypoGPU) so the answer says what
// it assumed. False when there is none or more than one card it may be.
func swappedGPU(x *Extraction) bool {
	q := x.q
	m := reTypoNumber.FindStringSubmatchIndex(x.rest)
	if m == nil || reTypoUnless.MatchString(x.s) {
		return false
	}
	num := x.rest[m[2]:m[3]]
	var found *catalog.Match
	for i := 0; i+1 < len(num); i++ {
		b := []byte(num)
		b[i], b[i+1] = b[i+1], b[i]
		if b[i] == b[i+1] {
			continue
		}
		ms := x.cat.FindGPUs(string(b))
		if len(ms) != 1 || ms[0].Start != 0 || ms[0].End != len(b) {
			continue
		}
		if found != nil && found.ID != ms[0].ID {
			return false // two cards it may be: not guessed
		}
		found = &ms[0]
	}
	if found == nil {
		return false
	}
	q.GPU, q.GPUFamily, q.TypoGPU = found.ID, found.Family, num
	q.NamedGPUs = []string{found.ID}
	q.GPUs = append(q.GPUs[:0], x.cat.FamilyMembers(found.ID)...)
	x.use(m[2], m[3], phGPU)
	return true
}

// countNear reads a GPU count just before or after a GPU name: "两张4090",
// "2x 4090", "one 4090", "4090 两张".
func countNear(rest string, m catalog.Match) int {
	before := rest[:m.Start]
	if len(before) > 24 {
		before = strings.ToValidUTF8(before[len(before)-24:], "")
	}
	after := rest[m.End:]
	if len(after) > 12 {
		after = strings.ToValidUTF8(after[:12], "")
	}
	if sm := reCountEN.FindStringSubmatch(before); sm != nil {
		v, _ := englishNumber(sm[1])
		return int(v)
	}
	for i, re := range reCount.All()[:3] {
		target := before
		if i == 2 {
			target = after
		}
		if sm := re.FindStringSubmatch(target); sm != nil {
			if len(sm) > 2 && sm[1] == "" {
				sm[1] = sm[2] // "4090 两张"
			}
			if v, ok := words.ParseNum(sm[1]); ok && v >= 1 && v <= 64 {
				return int(v)
			}
		}
	}
	return 0
}

// extractGPUCount reads a count not next to a GPU name ("8 卡", "双卡").
func extractGPUCount(x *Extraction) {
	q := x.q
	if q.GPUCount > 0 {
		return
	}
	if m := reCount.All()[3].FindStringSubmatch(x.rest); m != nil {
		if m[len(m)-1] != "" {
			return // "30 GPU hours a week": hours, not 30 cards
		}
		if v, ok := words.ParseNum(m[1]); ok && v >= 1 && v <= 64 {
			q.GPUCount = int(v)
		}
	} else if m := reCount.All()[4].FindStringSubmatch(x.rest); m != nil {
		// "双卡": a count word, or a numeral ("四卡").
		v, ok := words.Number("numbers.count_words", m[1])
		if !ok {
			v, _ = words.ParseNum(m[1])
		}
		q.GPUCount = int(v)
	}
}

// within reports whether m lies inside a longer match of ms.
func within(m catalog.Match, ms []catalog.Match) bool {
	for _, o := range ms {
		if o.Start <= m.Start && m.End <= o.End && o.End-o.Start > m.End-m.Start {
			return true
		}
	}
	return false
}

// isWordByte is regexp's \w: an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
