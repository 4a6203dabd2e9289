package slots

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// The storage ledger's words (configs/slots/storage.yaml).
var (
	// reSize is a disk size: "80G", "200 GB", "1.5T", "2TB", "-50G".
	// "500个G", "八十G", "两百g" as students write them.
	reSize = words.NewExpr("storage.size")
	// reBareSize is a size without its unit after a resize word ("扩到
	// 500"): GB.
	reBareSize = words.NewExpr("storage.bare_size")
	// reDiskRef names a disk of the lab's list by number: "#3", "3号盘",
	// "存储 3", "disk 3", "第3块".
	reDiskRef = words.NewExprs("storage.disk_ref", 5)
	// reDiskToken is the disk a storage command names when it is not a
	// plain number: "删除存储 abc", "存储 ssd-1 已关机", "storage remove
	// x1", "storage resize 1 200G" (group 1). An imported ledger may use
	// such ids; a typo must be refused by name, not read as another disk.
	reDiskToken = words.NewExpr("storage.disk_token")
	// reStorageAddHead is the command words before a registration's
	// platform, size and note.
	reStorageAddHead = words.NewExpr("storage.add_head")
	// reNoteNoise are words of a registration that are not its note.
	reNoteNoise = words.NewExpr("storage.note_noise")
)

// MaxDiskGB is the largest disk size a storage command takes, in GB
// (1,000 TB; the ledger refuses more).
const MaxDiskGB = 1e6

// extractSize reads a disk size in GB (1e9 bytes); a negative size is
// kept negative so the answer can name it, and a size that is no disk
// size (0 or less, over MaxDiskGB) is also kept as written in SizeText
// ("0G" is not the same as no size at all).
func extractSize(x *Extraction) {
	loc := reSize.FindStringSubmatchIndex(x.rest)
	if loc == nil {
		extractBareSize(x)
		return
	}
	gb := sizeGB(x.rest[loc[4]:loc[5]], x.rest[loc[6]:loc[7]])
	if loc[2] >= 0 {
		gb = -gb
	}
	x.q.SizeGB = gb
	if !(gb > 0) || gb > MaxDiskGB {
		// As written, units upper case as people write them ("-50G").
		x.q.SizeText = strings.ToUpper(strings.Join(strings.Fields(x.rest[loc[0]:loc[1]]), ""))
	}
	x.use(loc[0], loc[1], phSize)
	// The second size may come before the first one found ("0G0G": the
	// first match is the one a word boundary ends).
	if m := reSize.FindStringSubmatchIndex(x.rest); m != nil && m[0] >= loc[1] && reResizeTo.MatchString(x.rest[loc[1]:m[0]]) {
		// "从 500G 扩容到 600G": the size after 到 is the new one.
		x.q.SizeGB = sizeGB(x.rest[m[4]:m[5]], x.rest[m[6]:m[7]])
		x.use(m[0], m[1], phSize)
	} else if m != nil {
		// "AutoDL 2TB 和 恒源云 100G": a second disk in one message (or
		// "从 100G 扩容到 200G": the old size).
		x.q.MoreSizes = true
	}
}

// extractBareSize reads a size without its unit after a resize word
// ("扩到500", "resize it to 800") as GB.
func extractBareSize(x *Extraction) {
	loc := reBareSize.FindStringSubmatchIndex(x.rest)
	if loc == nil {
		return
	}
	if gb := sizeGB(x.rest[loc[2]:loc[3]], "g"); gb > 0 && gb <= MaxDiskGB {
		x.q.SizeGB = gb
		x.use(loc[2], loc[3], phSize)
	}
}

// sizeGB converts "1.5" "t" to GB (1e9 bytes); GiB and TiB convert exactly.
func sizeGB(num, unit string) float64 {
	v, ok := words.ParseNum(num)
	if !ok {
		return 0
	}
	switch unit {
	case "t", "tb":
		return v * 1000
	case "tib":
		return v * 1099.511627776
	case "gib":
		return v * 1.073741824
	}
	return v
}

// reResizeTo: words between an old and a new size ("从 500G 扩容到 600G").
var reResizeTo = words.NewExpr("storage.resize_to")

// reMoreRefs: another disk number right after the first ("1 2", "1、2",
// "1和2", "#1 #2", "1,2").
var reMoreRefs = words.NewExpr("storage.more_refs")

// extractDiskRef reads a disk number ("#3", "3号盘").
func extractDiskRef(x *Extraction) {
	for _, re := range reDiskRef.All() {
		loc := re.FindStringSubmatchIndex(x.rest)
		if loc == nil {
			continue
		}
		v, ok := words.ParseNum(x.rest[loc[2]:loc[3]])
		if !ok || v < 1 {
			continue
		}
		x.q.DiskRef = strconv.Itoa(int(v))
		x.use(loc[0], loc[3], "")
		if reMoreRefs.MatchString(x.rest[min(loc[3], len(x.rest)):]) {
			x.q.MoreDisks = true // "删除存储 1 2", "删除 #1 #2", "1和2"
		}
		return
	}
}

// diskWords are words reDiskToken can catch that name no disk ("storage
// remove please").
var diskWords = words.NewWords("storage.not_disks")

// DiskToken is the disk a storage command names when extractDiskRef
// found no number ("删除存储 abc" → "abc"), as written (folded), or "".
// Call it once the intent is a storage change: elsewhere such a word
// means nothing.
func (x *Extraction) DiskToken() string {
	for _, m := range reDiskToken.FindAllStringSubmatch(x.rest, -1) {
		if t := strings.TrimRight(m[1], ".-_"); t != "" && !diskWords.Has(t) {
			return t
		}
	}
	return ""
}

// StorageNote is what a registration says beyond platform and size
// ("实验数据"), as the member wrote it: the words are found in the folded
// text the extractors read, and each is taken from the message itself,
// so "ResNet50 Checkpoints" and "ＬｏＲＡ" keep their case and width
// (matching that needs a folded form folds the note itself, as
// catalog.Platform.DiskKind does). Words are joined by one space;
// control characters become spaces. When the folded text is no rune-for-
// rune image of the message (a long paste cut to its question part, a
// traceback's frames dropped), the folded words are the note. Bytes that
// are no UTF-8 become U+FFFD.
func (x *Extraction) StorageNote() string {
	// From the whole folded text less the platform, size, card and price
	// found: other readers' spans ("六" read as a count, "数据" as a disk
	// word) are the member's words here ("赵六 数据集").
	rest := x.s
	for _, m := range x.marks {
		switch m.token {
		case phPlatform, phSize, phGPU, phMoney:
			rest = blank(rest, m.start, m.end)
		}
	}
	if loc := reStorageAddHead.FindStringIndex(rest); loc != nil {
		rest = blank(rest, loc[0], loc[1])
	}
	for _, loc := range reNoteNoise.FindAllStringIndex(rest, -1) {
		rest = blank(rest, loc[0], loc[1])
	}
	orig := foldedToAsked(x.q.Asked, x.s)
	var note []string
	for _, f := range fieldSpans(rest) {
		w := rest[f[0]:f[1]]
		if orig != nil {
			w = x.q.Asked[orig[f[0]]:orig[f[1]]]
		}
		note = append(note, strings.Fields(strings.Map(noControl, w))...)
	}
	return strings.Join(note, " ")
}

// noControl maps control characters (C0, DEL, C1) and the bidirectional
// overrides and isolates, which would reorder what a list shows, to a
// space.
func noControl(r rune) rune {
	if unicode.IsControl(r) || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' {
		return ' '
	}
	return r
}

// fieldSpans are the byte spans of s's words (runs of non-space runes).
func fieldSpans(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		switch {
		case unicode.IsSpace(r) && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		case !unicode.IsSpace(r) && start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// foldedToAsked maps byte offsets of folded, the text Extract made of
// asked, back to asked: out[i] is where the rune at folded[i] starts in
// asked (out[len(folded)] is len(asked)). Nil when folded is no
// rune-for-rune image of asked (catalog.Fold rune by rune, digit typos
// fixed in place): a long message cut to its question part, a
// traceback's frames dropped.
func foldedToAsked(asked, folded string) []int {
	out := make([]int, 0, len(folded)+1)
	var b strings.Builder
	b.Grow(len(folded))
	for i := 0; i < len(asked); {
		_, size := utf8.DecodeRuneInString(asked[i:])
		f := catalog.Fold(asked[i : i+size])
		for range len(f) {
			out = append(out, i)
		}
		b.WriteString(f)
		i += size
	}
	out = append(out, len(asked))
	if fixDigitTypos(strings.ToValidUTF8(b.String(), " ")) != folded || len(out) != len(folded)+1 {
		return nil
	}
	return out
}
