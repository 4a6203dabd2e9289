package slots

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

// TestStorageSlots: sizes that are no disk size keep their text, disk
// numbers are never read out of a longer id, and an id that is no number
// is found for the refusal (or an imported disk) to name.
func TestStorageSlots(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text            string
		size            float64
		sizeText        string
		diskRef, tokens string
	}{
		{"登记存储 AutoDL 数据盘 80G", 80, "", "", ""},
		{"登记存储 AutoDL 数据盘 -50G", -50, "-50G", "", ""},
		{"登记存储 AutoDL 数据盘 0G", 0, "0G", "", ""},
		{"登记存储 AutoDL 2000T", 2e6, "2000T", "", ""},
		{"storage add autodl - 5 gb", -5, "-5GB", "", ""},
		{"存储 1 扩容到 -5G", -5, "-5G", "1", ""},
		{"删除存储 12a", 0, "", "", "12a"},
		{"删除存储 abc", 0, "", "", "abc"},
		{"存储 ssd-1 已关机", 0, "", "", "ssd-1"},
		{"storage remove x1", 0, "", "", "x1"},
		{"storage resize 3 200GB", 200, "", "", "3"},
		{"remove storage please", 0, "", "", ""},
		{"删除存储 #7", 0, "", "7", ""},
		{"00000000000G0G", 0, "0G", "", ""}, // a second size before the first found (a fuzz find: it panicked)
	} {
		x := Extract(cat, c.text, false)
		q := x.Query()
		if q.SizeGB != c.size || q.SizeText != c.sizeText || q.DiskRef != c.diskRef || x.DiskToken() != c.tokens {
			t.Errorf("%q: size %v %q, disk %q, token %q; want %v %q, %q, %q", c.text, q.SizeGB, q.SizeText, q.DiskRef, x.DiskToken(), c.size, c.sizeText, c.diskRef, c.tokens)
		}
	}
}

// TestStorageSizesAsWritten: sizes as students write them ("500个G",
// "八十G"), and a second disk in one message flagged so it is refused by
// name instead of dropped (a new user's test).
func TestStorageSizesAsWritten(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text                 string
		size                 float64
		moreSizes, moreDisks bool
	}{
		{"帮我记一下 恒源云 盘 500个G 放数据集", 500, false, false},
		{"记一下 autodl 300个g", 300, false, false},
		{"登记存储 AutoDL 数据盘 八十G", 80, false, false},
		{"登记存储 autodl 两百g", 200, false, false},
		{"登记存储 AutoDL 数据盘 2TB 和 恒源云 100G", 2000, true, false},
		{"删除存储 1 2", 0, false, true},
		{"删除存储 #1 和 #2", 0, false, true},
		{"存储 3 扩容到 200G", 200, false, false},
		{"存储 1 从 500G 扩容到 600G", 600, false, false},
		{"resize storage 2 from 100gb to 300gb", 300, false, false},
		{"删除存储 3", 0, false, false},
	} {
		q := Extract(cat, c.text, false).Query()
		if q.SizeGB != c.size || q.MoreSizes != c.moreSizes || q.MoreDisks != c.moreDisks {
			t.Errorf("%q: size %v more sizes %v more disks %v; want %v %v %v", c.text, q.SizeGB, q.MoreSizes, q.MoreDisks, c.size, c.moreSizes, c.moreDisks)
		}
	}
}

// TestStorageNoteAsWritten: a registration's note keeps the member's
// case, width and symbols (words found in the folded text, taken from
// the message), control characters become spaces, bytes that are no
// UTF-8 become U+FFFD, and the platform, size and command words stay out
// of it.
func TestStorageNoteAsWritten(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, want string }{
		{"登记存储 autodl 200G 实验数据", "实验数据"},
		{"登记存储 AutoDL 数据盘 80G ResNet50 Checkpoints", "ResNet50 Checkpoints"},
		{"登记存储 恒源云 200G /HY-TMP 数据集 V2", "/HY-TMP 数据集 V2"},
		{"登记存储 AutoDL 80G ＬｏＲＡ 权重", "ＬｏＲＡ 权重"},
		{"登记存储　AutoDL　80G　ImageNet-1K\u3000Train", "ImageNet-1K Train"},
		{"Storage Add AutoDL 500GB ImageNet-1K Val Set", "ImageNet-1K Val Set"},
		{"登记存储 AutoDL 80G Data\x01Set \u202eevil", "Data Set evil"},
		{"登记存储 AutoDL 80G 数据 M07", "数据 M07"},
		{"登记存储 AutoDL 80G", ""},
		{"登记存储 AutoDL 80G caf\xe9 Data", "caf\uFFFD Data"}, // valid UTF-8 in the ledger
	} {
		if got := Extract(cat, c.text, false).StorageNote(); got != c.want {
			t.Errorf("%q: note %q, want %q", c.text, got, c.want)
		}
	}
}

// FuzzStorageNote: a registration's note never panics, is UTF-8 without
// control characters or surrounding spaces, and, when the message was
// read whole, folds to the note read from the folded text (the same
// words, as written; o and 0 alike, for "4o90").
func FuzzStorageNote(f *testing.F) {
	f.Add("登记存储 AutoDL 数据盘 80G ResNet50 Checkpoints")
	f.Add("登记存储 AutoDL 80G ＬｏＲＡ\u3000权重 caf\xe9 \u202e")
	f.Add("storage add autodl 4o90 80G File \"x.py\", line 3")
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		x := Extract(cat, text, false)
		note := x.StorageNote()
		if !utf8.ValidString(note) || strings.TrimSpace(note) != note {
			t.Fatalf("%q: note %q", text, note)
		}
		for _, r := range note {
			if noControl(r) != r {
				t.Fatalf("%q: note %q holds %U", text, note, r)
			}
		}
		if foldedToAsked(text, x.Folded()) == nil {
			return
		}
		// A card number typed with an o ("4o90") is read as 4090 and
		// kept as written: o and 0 compare alike.
		o0 := strings.NewReplacer("o", "0")
		want := strings.Fields(o0.Replace(strings.Map(noControl, catalog.Fold(note))))
		got := strings.Fields(o0.Replace(strings.Map(noControl, foldedNote(x))))
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%q: note %q folds to %q, the folded text's note is %q", text, note, want, got)
		}
	})
}

// foldedNote is the note as the folded text says it (StorageNote before
// notes were kept as written).
func foldedNote(x *Extraction) string {
	rest := reStorageAddHead.ReplaceAllString(x.rest, "")
	rest = reNoteNoise.ReplaceAllString(rest, " ")
	return strings.Join(strings.Fields(rest), " ")
}
