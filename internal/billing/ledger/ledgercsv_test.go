package ledger

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

var (
	csvCatOnce sync.Once
	csvCat     *catalog.Catalog
	csvCatErr  error
)

// ledgerCatalog is the embedded catalog, loaded once (the fuzz target
// reads many files).
func ledgerCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	csvCatOnce.Do(func() { csvCat, csvCatErr = catalog.Load(configs.FS) })
	if csvCatErr != nil {
		t.Fatal(csvCatErr)
	}
	return csvCat
}

const sampleLedger = `time,owner,platform,disk,action,size_gb,note
2026-11-16T10:00:00+08:00,alice,autodl,1,add,80,实验数据
2026-11-25T12:00:00+08:00,bob,Matpool,2,add,200,"数据集, v2"
2026-11-26T00:00:00+08:00,alice,,1,resize,120,
2026-11-27T00:00:00+08:00,bob,,2,stop,,
`

func TestLedgerCSVRoundTrip(t *testing.T) {
	cat := ledgerCatalog(t)
	ev, err := ReadLedgerCSV(strings.NewReader(sampleLedger), "feishu/oc_lab", cat)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev) != 4 || ev[1].Platform != "matpool" || ev[1].Note != "数据集, v2" || ev[2].SizeGB != 120 || ev[3].Action != ActionStop || ev[0].Lab != "feishu/oc_lab" {
		t.Fatalf("parsed %+v", ev)
	}
	var buf bytes.Buffer
	if err := WriteLedgerCSV(&buf, ev); err != nil {
		t.Fatal(err)
	}
	back, err := ReadLedgerCSV(&buf, "feishu/oc_lab", cat)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ev {
		if !ev[i].Time.Equal(back[i].Time) {
			t.Errorf("row %d time %v → %v", i, ev[i].Time, back[i].Time)
		}
		back[i].Time = ev[i].Time
	}
	if !reflect.DeepEqual(ev, back) {
		t.Errorf("round trip:\n%+v\n%+v", ev, back)
	}
}

// The platform column takes what people write: the names the bot prints,
// English names, pinyin and common misspellings, each stored as the id
// the digest prices.
func TestLedgerCSVPlatformNames(t *testing.T) {
	cat := ledgerCatalog(t)
	cases := []struct{ name, want string }{
		{"autodl", "autodl"}, {"AutoDL", "autodl"}, {"auto dl", "autodl"}, {"autodl云", "autodl"}, {"Auto-DL", "autodl"},
		{"ＡｕｔｏＤＬ", "autodl"}, {"atuodl", "autodl"},
		{"恒源云", "hengyuan"}, {"恒源", "hengyuan"}, {"hengyuanyun", "hengyuan"}, {"恒原云", "hengyuan"}, {"GPUShare", "hengyuan"},
		{"GPUShare (Hengyuan Cloud)", "hengyuan"},
		{"矩池云", "matpool"}, {"矩池", "matpool"}, {"juchiyun", "matpool"}, {"Matpool", "matpool"},
		{"揽睿星舟", "lanrui"}, {"lanrui", "lanrui"}, {"LanRui Xingzhou", "lanrui"},
		{"秘塔智算", "mita"}, {"mita", "mita"}, {"Mita Compute", "mita"},
		{"vast", "vastai"}, {"vast.ai", "vastai"}, {"run pod", "runpod"}, {"RunPod", "runpod"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := "time,owner,platform,disk,action,size_gb,note\n2026-11-16T10:00:00+08:00,a," + c.name + ",1,add,500,\n"
			ev, err := ReadLedgerCSV(strings.NewReader(body), "lab", cat)
			if err != nil || len(ev) != 1 || ev[0].Platform != c.want {
				t.Fatalf("%q: got %+v, %v; want platform %s", c.name, ev, err, c.want)
			}
		})
	}
}

func TestLedgerCSVErrors(t *testing.T) {
	cat := ledgerCatalog(t)
	head := "time,owner,platform,disk,action,size_gb,note\n"
	cases := []struct{ name, body, want string }{
		{"empty", "", "empty"},
		{"wrong header", "when,who,platform,disk,action,size_gb,note\n", "header column 1"},
		{"bad time", head + "yesterday,a,autodl,1,add,80,\n", "line 2: time"},
		{"bad size", head + "2026-11-16T10:00:00+08:00,a,autodl,1,add,eighty,\n", "line 2: size_gb"},
		{"negative size", head + "2026-11-16T10:00:00+08:00,a,autodl,1,add,-5,\n", "line 2: disk 1: size -5 GB"},
		{"zero size", head + "2026-11-16T10:00:00+08:00,a,autodl,1,add,0,\n", "line 2: disk 1: size 0 GB"},
		{"bad action", head + "2026-11-16T10:00:00+08:00,a,autodl,1,delete,,\n", "unknown action"},
		{"columns", head + "2026-11-16T10:00:00+08:00,a,autodl\n", "line 2: 3 fields; want 7"},
		{"stop before add", head + "2026-11-16T10:00:00+08:00,a,,1,stop,,\n", "line 2: disk 1: stop before it was added"},
		{"no owner", head + "2026-11-16T10:00:00+08:00,,autodl,1,add,80,\n", "owner"},
		{"no platform", head + "2026-11-16T10:00:00+08:00,a,,1,add,80,\n", "platform"},
		{"unknown platform", head + "2026-11-16T10:00:00+08:00,a,autodl,1,add,80,\n2026-11-16T11:00:00+08:00,a,阿巴云,2,add,80,\n",
			`line 3: platform "阿巴云" is not a platform the catalog knows; closest: 阿里云 (aliyun)`},
		{"near miss", head + "2026-11-16T10:00:00+08:00,a,autdll,1,add,80,\n", `closest: AutoDL (autodl)`},
		{"nothing near", head + "2026-11-16T10:00:00+08:00,a,my own server,1,add,80,\n", `"my own server" is not a platform the catalog knows (write its id`},
		{"unknown platform on a stop", head + "2026-11-16T10:00:00+08:00,a,autodl,1,add,80,\n2026-11-17T10:00:00+08:00,a,fakecloud,1,stop,,\n", "line 3: platform"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev, err := ReadLedgerCSV(strings.NewReader(c.body), "lab", cat)
			if err == nil || !strings.Contains(err.Error(), c.want) || ev != nil {
				t.Errorf("got %v (%d events), want an error with %q", err, len(ev), c.want)
			}
		})
	}
}

// A file with several bad lines is refused whole, and the refusal names
// every bad line, in file order, each once.
func TestLedgerCSVListsEveryBadLine(t *testing.T) {
	body := `time,owner,platform,disk,action,size_gb,note
2026-11-16T10:00:00+08:00,alice,矩池云,1,add,500,
2026-11-16T10:00:00+08:00,bob,恒原云,2,add,-50,
2026-11-16T10:00:00+08:00,carol,made-up cloud,3,add,80,
2026-11-17T10:00:00+08:00,alice,,1,stop,,
2026-11-18T10:00:00+08:00,dave,,9,resize,20,
`
	ev, err := ReadLedgerCSV(strings.NewReader(body), "lab", ledgerCatalog(t))
	var ce *CSVError
	if ev != nil || !errors.As(err, &ce) {
		t.Fatalf("got %d events, %v; want a *CSVError and no events", len(ev), err)
	}
	var lines []int
	for _, l := range ce.Lines {
		lines = append(lines, l.Line)
	}
	if !reflect.DeepEqual(lines, []int{3, 4}) {
		// The sequence (line 6: resize of a disk never added) is checked
		// once every row reads.
		t.Errorf("bad lines %v, want [3 4]: %v", lines, err)
	}
	if !strings.Contains(err.Error(), "nothing imported: 2 bad lines") {
		t.Errorf("error %q does not say the file was refused", err)
	}
	fixed := strings.Replace(strings.Replace(body, "-50", "50", 1), "made-up cloud", "AutoDL", 1)
	_, err = ReadLedgerCSV(strings.NewReader(fixed), "lab", ledgerCatalog(t))
	if !errors.As(err, &ce) || len(ce.Lines) != 1 || ce.Lines[0].Line != 6 || !strings.Contains(err.Error(), "disk 9: resize before it was added") {
		t.Errorf("sequence check: %v", err)
	}
}

func TestLedgerCSVCapsTheList(t *testing.T) {
	var b strings.Builder
	b.WriteString("time,owner,platform,disk,action,size_gb,note\n")
	for range 25 {
		b.WriteString("2026-11-16T10:00:00+08:00,a,nowhere,1,add,80,\n")
	}
	_, err := ReadLedgerCSV(strings.NewReader(b.String()), "lab", ledgerCatalog(t))
	if err == nil || !strings.Contains(err.Error(), "25 bad lines") || !strings.Contains(err.Error(), "… and 15 more") || strings.Count(err.Error(), "\nline ") != maxListedLines {
		t.Errorf("got %v", err)
	}
}
