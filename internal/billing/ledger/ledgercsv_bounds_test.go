package ledger

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// csvNow is the import time of the bounds tests.
var csvNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// TestLedgerCSVBounds: what an import refuses, each by its line and its
// column: text that is no UTF-8, control characters (NUL, tab, the
// bidirectional overrides), dates far in the past or in the future,
// cells over their length, lines over their size.
func TestLedgerCSVBounds(t *testing.T) {
	cat := ledgerCatalog(t)
	head := "time,owner,platform,disk,action,size_gb,note\n"
	row := func(owner, disk, note string) string {
		return head + "2026-11-16T10:00:00+08:00," + owner + ",autodl," + disk + ",add,80," + note + "\n"
	}
	cases := []struct{ name, body, want string }{
		{"NUL in an owner", row("a\x00b", "1", ""), "line 2: owner: a control character (U+0000) at character 2"},
		{"owner not UTF-8", row("caf\xe9", "1", ""), "line 2: owner: not UTF-8 text"},
		{"note not UTF-8", row("a", "1", "x\xff\xfe"), "line 2: note: not UTF-8 text"},
		{"platform not UTF-8", head + "2026-11-16T10:00:00+08:00,a,auto\xc3,1,add,80,\n", "line 2: platform: not UTF-8 text"},
		{"tab in a note", row("a", "1", "x\ty"), "line 2: note: a control character (U+0009)"},
		{"DEL in a disk", row("a", "1\x7f", ""), "line 2: disk: a control character (U+007F)"},
		{"C1 in a note", row("a", "1", "x\u0085y"), "line 2: note: a control character (U+0085)"},
		{"bidi override", row("a", "1", "\u202eevil"), "line 2: note: a control character (U+202E) at character 1"},
		{"bidi isolate", row("a\u2066", "1", ""), "line 2: owner: a control character (U+2066)"},
		{"year 9999", head + "9999-12-31T23:59:59Z,a,autodl,1,add,80,\n", `line 2: time "9999-12-31T23:59:59Z" is in the future`},
		{"a day and an hour ahead", head + "2026-12-02T13:00:00Z,a,autodl,1,add,80,\n", "is in the future (the latest is 2026-12-02T12:00:00Z)"},
		{"year 1999", head + "1999-01-01T00:00:00Z,a,autodl,1,add,80,\n", "is more than 10 years before the import (the earliest is 2016-12-01)"},
		{"year 0001", head + "0001-01-01T00:00:00Z,a,autodl,1,add,80,\n", "line 2: time"},
		{"long note", row("a", "1", strings.Repeat("数", MaxNoteRunes+1)), "line 2: note: 201 characters; at most 200"},
		{"long owner", row(strings.Repeat("o", MaxOwnerRunes+1), "1", ""), "line 2: owner: 129 characters; at most 128"},
		{"long disk", row("a", strings.Repeat("d", MaxDiskRunes+1), ""), "line 2: disk: 33 characters; at most 32"},
		{"long platform", head + "2026-11-16T10:00:00+08:00,a," + strings.Repeat("p", MaxPlatformRunes+1) + ",1,add,80,\n", "line 2: platform: 65 characters; at most 64"},
		{"long line", row("a", "1", "ok") + "2026-11-16T10:00:00+08:00,b,autodl,2,add,80,\"" + strings.Repeat("x", MaxLedgerLineBytes) + "\"\n",
			"line 3: longer than 4096 bytes"},
		{"long header", strings.Repeat("t", MaxLedgerLineBytes+1), "line 1: longer than 4096 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev, err := ReadLedgerCSVAt(strings.NewReader(c.body), "lab", cat, csvNow)
			if err == nil || !strings.Contains(err.Error(), c.want) || ev != nil {
				t.Errorf("got %v (%d events), want an error with %q", err, len(ev), c.want)
			}
		})
	}
	// At the bounds: accepted.
	ok := head + "2016-12-01T12:00:00Z," + strings.Repeat("o", MaxOwnerRunes) + ",autodl," + strings.Repeat("d", MaxDiskRunes) + ",add,80," + strings.Repeat("数", MaxNoteRunes) + "\n" +
		"2026-12-02T12:00:00Z,a,autodl,2,add,80,ImageNet 子集 'quoted' «ok»\n"
	if ev, err := ReadLedgerCSVAt(strings.NewReader(ok), "lab", cat, csvNow); err != nil || len(ev) != 2 {
		t.Errorf("at the bounds: %v (%d events)", err, len(ev))
	}
}

// repeatReader streams head, n copies of b, then tail, without holding
// the copies.
type repeatReader struct {
	head, b, tail string
	n             int
	at            int // bytes of the current piece read
}

func (r *repeatReader) piece() (string, bool) {
	switch {
	case r.head != "":
		return r.head, true
	case r.n > 0:
		return r.b, true
	case r.tail != "":
		return r.tail, true
	}
	return "", false
}

func (r *repeatReader) Read(p []byte) (int, error) {
	for {
		piece, ok := r.piece()
		if !ok {
			return 0, io.EOF
		}
		if r.at < len(piece) {
			n := copy(p, piece[r.at:])
			r.at += n
			return n, nil
		}
		r.at = 0
		switch {
		case r.head != "":
			r.head = ""
		case r.n > 0:
			r.n--
		default:
			r.tail = ""
		}
	}
}

// TestLedgerCSVMemoryBounded: a 50 MB note and a 9 MB file of rows are
// refused after reading what their bounds allow, naming the line; the
// note's import allocates kilobytes, not its 50 MB.
func TestLedgerCSVMemoryBounded(t *testing.T) {
	cat := ledgerCatalog(t)
	head := "time,owner,platform,disk,action,size_gb,note\n"
	note := &repeatReader{head: head + "2026-11-16T10:00:00+08:00,a,autodl,1,add,80,\"", b: strings.Repeat("x", 1<<20), n: 50, tail: "\"\n"}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ev, err := ReadLedgerCSVAt(note, "lab", cat, csvNow)
	runtime.ReadMemStats(&after)
	if err == nil || ev != nil || !strings.Contains(err.Error(), "line 2: longer than 4096 bytes") {
		t.Errorf("50 MB note: %v (%d events)", err, len(ev))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("reading a 50 MB note allocated %d bytes, want at most 1 MiB", alloc)
	}

	line := "2026-11-16T10:00:00+08:00,a,autodl,1,resize,80," + strings.Repeat("x", 150) + "\n"
	big := &repeatReader{head: head, b: line, n: (9 << 20) / len(line)}
	ev, err = ReadLedgerCSVAt(big, "lab", cat, csvNow)
	if err == nil || ev != nil || !strings.Contains(err.Error(), "larger than 8 MiB") {
		t.Errorf("9 MB file: %v (%d events)", err, len(ev))
	}
}

// TestLedgerCSVFormulaCells: cells a spreadsheet would run as formulas
// are exported behind an apostrophe and import back as they were; an
// apostrophe a member wrote stays where it escapes nothing.
func TestLedgerCSVFormulaCells(t *testing.T) {
	cat := ledgerCatalog(t)
	at := time.Date(2026, 11, 16, 10, 0, 0, 0, time.FixedZone("CST", 8*3600))
	cases := []struct{ value, cell string }{
		{"=1+1", "'=1+1"},
		{`=HYPERLINK("http://x","y")`, `'=HYPERLINK("http://x","y")`},
		{"+86 138", "'+86 138"},
		{"-5 GB left", "'-5 GB left"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"'=x", "''=x"},
		{"''", "'''"},
		{"'hello", "'hello"},
		{"'", "'"},
		{"a=b", "a=b"},
		{"实验数据", "实验数据"},
	}
	var events []StorageEvent
	for i, c := range cases {
		events = append(events, StorageEvent{Time: at, Lab: "lab", Owner: c.value, Platform: "autodl", Disk: fmt.Sprint(i + 1), Action: ActionAdd, SizeGB: 80, Note: c.value})
	}
	var buf bytes.Buffer
	if err := WriteLedgerCSV(&buf, events); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if got := rows[i+1]; got[1] != c.cell || got[6] != c.cell {
			t.Errorf("%q exported as owner %q, note %q; want %q", c.value, got[1], got[6], c.cell)
		}
	}
	back, err := ReadLedgerCSVAt(&buf, "lab", cat, csvNow)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if back[i].Owner != c.value || back[i].Note != c.value {
			t.Errorf("%q reads back as owner %q, note %q", c.value, back[i].Owner, back[i].Note)
		}
	}
	// Tab and carriage return never reach the ledger (control
	// characters), but are escaped all the same.
	for _, c := range []struct{ in, want string }{{"\t=x", "'\t=x"}, {"\r=x", "'\r=x"}, {"", ""}} {
		if got := escapeCell(c.in); got != c.want || unescapeCell(got) != c.in {
			t.Errorf("escapeCell(%q) = %q, back %q", c.in, got, unescapeCell(got))
		}
	}
}

// checkAccepted fails the test unless every event an import returned is
// within the bounds LedgerCSVHeader names.
func checkAccepted(t *testing.T, ev []StorageEvent) {
	t.Helper()
	for i, e := range ev {
		for col, v := range map[string]string{"owner": e.Owner, "platform": e.Platform, "disk": e.Disk, "note": e.Note} {
			if err := checkCell(v, 0); err != nil {
				t.Fatalf("event %d: %s %q accepted: %v", i, col, v, err)
			}
		}
		if utf8.RuneCountInString(e.Note) > MaxNoteRunes || utf8.RuneCountInString(e.Owner) > MaxOwnerRunes || utf8.RuneCountInString(e.Disk) > MaxDiskRunes {
			t.Fatalf("event %d: a cell over its length accepted: %+v", i, e)
		}
		if e.Time.Before(csvNow.AddDate(-LedgerMaxAge, 0, 0)) || e.Time.After(csvNow.Add(LedgerMaxAhead)) {
			t.Fatalf("event %d: time %v accepted", i, e.Time)
		}
	}
}

// sameEvents fails the test unless a and b are the same events (times
// as instants).
func sameEvents(t *testing.T, what string, a, b []StorageEvent) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d events, then %d", what, len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if !x.Time.Equal(y.Time) {
			t.Fatalf("%s: event %d time %v, then %v", what, i, x.Time, y.Time)
		}
		x.Time, y.Time = time.Time{}, time.Time{}
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("%s: event %d %+v, then %+v", what, i, x, y)
		}
	}
}

// FuzzReadLedgerCSV: an import never panics; what it accepts is within
// the bounds, and exports and imports back to the same events.
func FuzzReadLedgerCSV(f *testing.F) {
	f.Add(sampleLedger)
	f.Add("time,owner,platform,disk,action,size_gb,note\n2026-11-16T10:00:00Z,a,autodl,1,add,1e308,\n")
	f.Add("\ufefftime,owner,platform,disk,action,size_gb,note\n\"unclosed")
	f.Add("time,owner,platform,disk,action,size_gb,note\n2026-11-16T10:00:00Z,a,恒原云,1,add,80,\n2026-11-16T10:00:00Z,a\n")
	f.Add("time,owner,platform,disk,action,size_gb,note\n2026-11-16T10:00:00Z,'=a,autodl,'-1,add,80,''=x\n")
	f.Add("time,owner,platform,disk,action,size_gb,note\n9999-11-16T10:00:00Z,a\x00,autodl,1,add,80,\xff\n")
	cat := ledgerCatalog(f)
	f.Fuzz(func(t *testing.T, body string) {
		ev, err := ReadLedgerCSVAt(strings.NewReader(body), "lab", cat, csvNow)
		if err != nil {
			if ev != nil {
				t.Fatalf("refused %q but returned %d events", body, len(ev))
			}
			return
		}
		checkAccepted(t, ev)
		var buf bytes.Buffer
		if err := WriteLedgerCSV(&buf, ev); err != nil {
			t.Fatal(err)
		}
		back, err := ReadLedgerCSVAt(&buf, "lab", cat, csvNow)
		if err != nil {
			t.Fatalf("accepted %q but not its export: %v", body, err)
		}
		sameEvents(t, "import, export, import", ev, back)
	})
}

// FuzzLedgerCSVCells: any owner, disk and note the ledger may hold (text
// within the bounds, no surrounding spaces) exports to cells no
// spreadsheet runs as a formula and imports back unchanged.
func FuzzLedgerCSVCells(f *testing.F) {
	f.Add("ou_1", "1", "实验数据")
	f.Add("=cmd|' /C calc'!A0", "-1", "@SUM(1+1)*cmd|' /C calc'!A0")
	f.Add("'", "''", "'=x")
	f.Add("a,b", `"q"`, `x"y,z`)
	cat := ledgerCatalog(f)
	at := time.Date(2026, 11, 16, 10, 0, 0, 0, time.FixedZone("CST", 8*3600))
	f.Fuzz(func(t *testing.T, owner, disk, note string) {
		for _, c := range []struct {
			v   string
			max int
		}{{owner, MaxOwnerRunes}, {disk, MaxDiskRunes}, {note, MaxNoteRunes}} {
			if checkCell(c.v, c.max) != nil || strings.TrimSpace(c.v) != c.v {
				return
			}
		}
		if owner == "" || disk == "" {
			return
		}
		ev := []StorageEvent{{Time: at, Lab: "lab", Owner: owner, Platform: "autodl", Disk: disk, Action: ActionAdd, SizeGB: 80, Note: note}}
		var buf bytes.Buffer
		if err := WriteLedgerCSV(&buf, ev); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("export %q does not read as CSV: %v", buf.String(), err)
		}
		for _, cell := range rows[1] {
			if cell != "" && strings.IndexByte(formulaStarts, cell[0]) >= 0 {
				t.Fatalf("exported cell %q starts a formula", cell)
			}
		}
		back, err := ReadLedgerCSVAt(&buf, "lab", cat, csvNow)
		if err != nil {
			t.Fatalf("export of %+v not imported: %v", ev[0], err)
		}
		sameEvents(t, "export, import", ev, back)
	})
}
