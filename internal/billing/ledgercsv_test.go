package billing

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

const sampleLedger = `time,owner,platform,disk,action,size_gb,note
2026-11-16T10:00:00+08:00,alice,autodl,1,add,80,实验数据
2026-11-25T12:00:00+08:00,bob,Matpool,2,add,200,"数据集, v2"
2026-11-26T00:00:00+08:00,alice,,1,resize,120,
2026-11-27T00:00:00+08:00,bob,,2,stop,,
`

func TestLedgerCSVRoundTrip(t *testing.T) {
	ev, err := ReadLedgerCSV(strings.NewReader(sampleLedger), "feishu/oc_lab")
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
	back, err := ReadLedgerCSV(&buf, "feishu/oc_lab")
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

func TestLedgerCSVErrors(t *testing.T) {
	head := "time,owner,platform,disk,action,size_gb,note\n"
	cases := []struct{ name, body, want string }{
		{"empty", "", "empty"},
		{"wrong header", "when,who,platform,disk,action,size_gb,note\n", "header column 1"},
		{"bad time", head + "yesterday,a,autodl,1,add,80,\n", "line 2: time"},
		{"bad size", head + "2026-11-16T10:00:00+08:00,a,autodl,1,add,eighty,\n", "line 2: size_gb"},
		{"negative size", head + "2026-11-16T10:00:00+08:00,a,autodl,1,add,-5,\n", "line 2"},
		{"bad action", head + "2026-11-16T10:00:00+08:00,a,autodl,1,delete,,\n", "unknown action"},
		{"columns", head + "2026-11-16T10:00:00+08:00,a,autodl\n", "wrong number of fields"},
		{"stop before add", head + "2026-11-16T10:00:00+08:00,a,,1,stop,,\n", "before it was added"},
		{"no owner", head + "2026-11-16T10:00:00+08:00,,autodl,1,add,80,\n", "owner"},
		{"no platform", head + "2026-11-16T10:00:00+08:00,a,,1,add,80,\n", "platform"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev, err := ReadLedgerCSV(strings.NewReader(c.body), "lab")
			if err == nil || !strings.Contains(err.Error(), c.want) || ev != nil {
				t.Errorf("got %v (%d events), want an error with %q", err, len(ev), c.want)
			}
		})
	}
}

func FuzzReadLedgerCSV(f *testing.F) {
	f.Add(sampleLedger)
	f.Add("time,owner,platform,disk,action,size_gb,note\n2026-11-16T10:00:00Z,a,autodl,1,add,1e308,\n")
	f.Add("\ufefftime,owner,platform,disk,action,size_gb,note\n\"unclosed")
	f.Fuzz(func(t *testing.T, body string) {
		ev, err := ReadLedgerCSV(strings.NewReader(body), "lab")
		if err != nil {
			return
		}
		// What is accepted must write and read back to the same events.
		var buf bytes.Buffer
		if err := WriteLedgerCSV(&buf, ev); err != nil {
			t.Fatal(err)
		}
		back, err := ReadLedgerCSV(&buf, "lab")
		if err != nil || len(back) != len(ev) {
			t.Fatalf("accepted %q but not its export: %v", body, err)
		}
	})
}
