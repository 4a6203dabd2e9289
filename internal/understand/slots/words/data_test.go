package words

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labgpu/bot/configs"
)

// TestDataLoads: the embedded slot data loads and its vocabulary's
// patterns compile (that every key the Go declares is there, and none is
// left unread, is package slots' and package understand's test, whose
// binaries declare them all).
func TestDataLoads(t *testing.T) {
	d, err := LoadData(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.vocab.compiles(); err != nil {
		t.Error(err)
	}
}

// TestCompiledDataIsCurrent: configs/slots.json, what the bot reads, is
// configs/slots/*.yaml as they are.
func TestCompiledDataIsCurrent(t *testing.T) {
	want, err := CompileData(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "configs", CompiledDataFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("configs/%s is stale: run `go generate ./configs` (configs/%s/*.yaml changed)", CompiledDataFile, DataDir)
	}
	fromJSON, err := loadCompiledData(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	fromYAML, err := LoadData(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromJSON.patterns, fromYAML.patterns) || !reflect.DeepEqual(fromJSON.lists, fromYAML.lists) ||
		!reflect.DeepEqual(fromJSON.words, fromYAML.words) || !reflect.DeepEqual(fromJSON.numbers, fromYAML.numbers) ||
		!reflect.DeepEqual(fromJSON.maps, fromYAML.maps) || !reflect.DeepEqual(fromJSON.frags, fromYAML.frags) ||
		!reflect.DeepEqual(fromJSON.vocab.parts, fromYAML.vocab.parts) || !reflect.DeepEqual(fromJSON.vocab.weekdays, fromYAML.vocab.weekdays) {
		t.Error("the compiled data reads otherwise than the YAML")
	}
}

// TestNumeralsFragment: the numeral class of the {{num}} fragment holds
// exactly the characters ParseNum reads.
func TestNumeralsFragment(t *testing.T) {
	d := data()
	var want []string
	for _, key := range []string{"numbers.digits", "numbers.units"} {
		for w := range d.numbers[key] {
			want = append(want, w)
		}
	}
	sort.Strings(want)
	m := regexp.MustCompile(`\[([^\]]+)\]\+\)$`).FindStringSubmatch(d.frags["num"])
	if m == nil {
		t.Fatalf("no numeral class in %q", d.frags["num"])
	}
	got := strings.Split(m[1], "")
	sort.Strings(got)
	if strings.Join(got, "") != strings.Join(want, "") {
		t.Errorf("the {{num}} fragment reads %q, ParseNum %q", strings.Join(got, ""), strings.Join(want, ""))
	}
}

// TestParseNum: the one number parser.
func TestParseNum(t *testing.T) {
	for in, want := range map[string]float64{
		"12": 12, "1.5": 1.5, "三": 3, "十二": 12, "二十": 20, "一百": 100, "两": 2, "一百二十": 120, "十": 10, "零": 0, "二十五": 25,
	} {
		if got, ok := ParseNum(in); !ok || got != want {
			t.Errorf("ParseNum(%q) = %v %v, want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "abc", "三a", "1e400", "半"} {
		if v, ok := ParseNum(in); ok {
			t.Errorf("ParseNum(%q) = %v, want none", in, v)
		}
	}
}

// TestParseNumReadsHours: ParseNum reads every hour the availability
// answer's own Chinese-numeral reader (its zhNumber, copied here) reads,
// with the same value, so that one can point at the other; ParseNum also
// reads runs zhNumber refuses ("一二" is 2 to it).
func TestParseNumReadsHours(t *testing.T) {
	zhNumber := func(s string) (int, bool) {
		n, tens := 0, false
		for _, r := range strings.ReplaceAll(s, "两", "二") {
			d := strings.IndexRune("零一二三四五六七八九", r)
			switch {
			case r == '十' && !tens:
				tens = true
				n = max(n, 1) * 10
			case d >= 0 && (n == 0 || tens && n%10 == 0):
				n += d / len("一")
			default:
				return 0, false
			}
		}
		return n, n > 0 && n <= 24
	}
	digits := []rune("一二两三四五六七八九十")
	var texts []string
	for _, a := range digits {
		texts = append(texts, string(a))
		for _, b := range digits {
			texts = append(texts, string(a)+string(b))
			for _, c := range digits {
				texts = append(texts, string(a)+string(b)+string(c))
			}
		}
	}
	for _, s := range texts {
		if z, ok := zhNumber(s); ok {
			if v, ok := ParseNum(s); !ok || v != float64(z) {
				t.Errorf("%q: zhNumber %d, ParseNum %v %v", s, z, v, ok)
			}
		}
	}
}

// TestLoadDataErrors: a broken data file is refused with its name and
// what is wrong.
func TestLoadDataErrors(t *testing.T) {
	good, err := configs.FS.ReadFile("slots/time.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ file, want string }{
		"unknown key":       {"patterns:\n  a: x\nfoo: 1\n", "foo"},
		"unknown fragment":  {"patterns:\n  a: 'x{{nope}}'\n", `no fragment "nope"`},
		"unclosed":          {"patterns:\n  a: 'x{{nope'\n", "unclosed"},
		"fragment twice":    {"fragments:\n  week: x\n", "fragment week"},
		"list alternatives": {"patterns:\n  a: [x, {y: z}]\n", "a.yaml"},
	} {
		fsys := fstest.MapFS{
			"slots/time.yaml": {Data: good},
			"slots/a.yaml":    {Data: []byte(c.file)},
		}
		if _, err := LoadData(fsys); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", name, err, c.want)
		}
	}
	if _, err := LoadData(fstest.MapFS{}); err == nil {
		t.Error("no files: no error")
	}
	fsys := fstest.MapFS{
		"slots/time.yaml": {Data: good},
		"slots/a.yaml":    {Data: []byte("patterns:\n  a: ['x', 'y{{week}}']\nlists:\n  b: ['1', '2']\n")},
	}
	d, err := LoadData(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.patterns["a.a"]; got != "x|y(?:周|星期|礼拜)" {
		t.Errorf("a list of alternatives with a fragment: %q", got)
	}
	if got := d.lists["a.b"]; len(got) != 2 || got[1] != "2" {
		t.Errorf("a list: %q", got)
	}
}

// BenchmarkLoadData is reading the slot data once: what the first
// question, or Preload, pays (compiled), and reading the YAML instead.
func BenchmarkLoadData(b *testing.B) {
	for _, c := range []struct {
		name string
		load func(fs.FS) (*slotData, error)
	}{{"compiled", loadCompiledData}, {"yaml", LoadData}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.load(configs.FS); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
