package ledger

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/catalog"
)

// LedgerCSVHeader is the header of `bot storage import/export` files. time
// is RFC 3339; action is add, resize, stop, start or remove; size_gb is in
// GB (1e9 bytes) for add and resize, empty otherwise.
//
// Bounds of an import (each refusal names the line and the column): the
// file at most MaxLedgerCSVBytes and each line at most
// MaxLedgerLineBytes, read through a limited reader so memory stays
// bounded whatever the file; every cell UTF-8 text without control
// characters (C0, DEL, C1, and the bidirectional overrides and isolates
// U+202A–U+202E, U+2066–U+2069, which reorder what a spreadsheet or a
// chat list shows); owner at most MaxOwnerRunes characters, platform
// MaxPlatformRunes, disk MaxDiskRunes, note MaxNoteRunes; time at most
// LedgerMaxAge before the import and at most LedgerMaxAhead after it.
//
// Formula cells: a spreadsheet runs a cell that starts with =, +, -, @,
// a tab or a carriage return as a formula (the OWASP CSV injection rule),
// so the export writes such a cell with a leading apostrophe ("'=1+1"),
// and also a cell that starts with an apostrophe followed by one of those
// or by another apostrophe (a note "'=x" is written with two). The import
// drops that one apostrophe (a cell that starts with an apostrophe
// followed by anything else is read as it is), so an exported file
// imports back to the very values the ledger held.
var LedgerCSVHeader = []string{"time", "owner", "platform", "disk", "action", "size_gb", "note"}

// Bounds of a ledger CSV (see LedgerCSVHeader).
const (
	MaxLedgerCSVBytes  = 8 << 20 // a whole file, bytes
	MaxLedgerLineBytes = 4096    // one line, bytes
	MaxOwnerRunes      = 128
	MaxPlatformRunes   = 64
	MaxDiskRunes       = 32
	// LedgerMaxAhead is how far after the import an event may be dated
	// (clocks and zones differ); LedgerMaxAge how far before, in years.
	LedgerMaxAhead = 24 * time.Hour
	LedgerMaxAge   = 10
)

// MaxNoteRunes caps a ledger note, in characters (runes): a note is a
// label ("ImageNet 子集"), and the ledger is read in chat lists and
// digests. Registrations in chat and CSV imports refuse longer notes.
const MaxNoteRunes = 200

// maxLedgerRows bounds one import (a lab's ledger is hundreds of rows).
const maxLedgerRows = 100000

// maxListedLines is how many bad lines a refused import names.
const maxListedLines = 10

// LineError is one bad line of a ledger CSV.
type LineError struct {
	Line int // 1-based line number in the file (the header is line 1)
	Err  error
}

func (e LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

func (e LineError) Unwrap() error { return e.Err }

// CSVError refuses a whole ledger CSV: every bad line found, in file
// order. Nothing of the file is imported.
type CSVError struct {
	Lines []LineError
}

// Error names the bad lines, the first maxListedLines of them.
func (e *CSVError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "nothing imported: %d bad line", len(e.Lines))
	if len(e.Lines) != 1 {
		b.WriteString("s")
	}
	for i, l := range e.Lines {
		if i == maxListedLines {
			fmt.Fprintf(&b, "\n… and %d more", len(e.Lines)-maxListedLines)
			break
		}
		b.WriteString("\n" + l.Error())
	}
	return b.String()
}

// Unwrap gives the lines' errors (errors.Is and errors.As see them).
func (e *CSVError) Unwrap() []error {
	out := make([]error, len(e.Lines))
	for i, l := range e.Lines {
		out[i] = l
	}
	return out
}

// ReadLedgerCSV parses a ledger CSV for lab. Every row is checked (time,
// owner, disk, action, size, platform) and so is the sequence (an add
// before any other action on a disk); the platform column goes through
// the catalog's names (cat.PlatformID: id, Chinese or English name,
// pinyin, common misspellings) and is stored as the platform's id. An
// unknown platform is refused with the closest names. Any bad line
// refuses the whole file: the error is a *CSVError listing every bad line
// and no event is returned, so an import is all or nothing.
func ReadLedgerCSV(r io.Reader, lab string, cat *catalog.Catalog) ([]StorageEvent, error) {
	return ReadLedgerCSVAt(r, lab, cat, time.Now())
}

// ReadLedgerCSVAt is ReadLedgerCSV for an import at now (the bounds of
// its dates, see LedgerCSVHeader).
func ReadLedgerCSVAt(r io.Reader, lab string, cat *catalog.Catalog, now time.Time) ([]StorageEvent, error) {
	if lab == "" {
		return nil, errors.New("ledger csv: no lab given")
	}
	if cat == nil {
		return nil, errors.New("ledger csv: no catalog to check platform names against")
	}
	br := &boundedReader{r: r, left: MaxLedgerCSVBytes, line: 1}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = len(LedgerCSVHeader)
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	if err := readLedgerHeader(cr); err != nil {
		if br.err != nil {
			return nil, fmt.Errorf("ledger csv: %w", br.err)
		}
		return nil, err
	}
	bounds := timeBounds{from: now.AddDate(-LedgerMaxAge, 0, 0), to: now.Add(LedgerMaxAhead)}
	var out []StorageEvent
	var lines []int
	bad := &CSVError{}
	for {
		rec, err := cr.Read()
		if br.err != nil {
			// Too large a file or line: what is left cannot be read.
			var le LineError
			if errors.As(br.err, &le) {
				bad.Lines = append(bad.Lines, le)
				break
			}
			return nil, fmt.Errorf("ledger csv: %w", br.err)
		}
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount) {
			// One short or long row: name it and read on.
			bad.Lines = append(bad.Lines, LineError{Line: pe.StartLine, Err: fmt.Errorf("%d fields; want %d (%s)", len(rec), len(LedgerCSVHeader), strings.Join(LedgerCSVHeader, ","))})
			continue
		}
		if err != nil {
			// Broken quoting: the rest of the file cannot be read.
			bad.Lines = append(bad.Lines, LineError{Line: lineOf(err), Err: err})
			break
		}
		line, _ := cr.FieldPos(0)
		if len(out)+len(bad.Lines) >= maxLedgerRows {
			return nil, fmt.Errorf("ledger csv: more than %d rows", maxLedgerRows)
		}
		e, err := parseLedgerRow(rec, lab, cat, bounds)
		if err != nil {
			bad.Lines = append(bad.Lines, LineError{Line: line, Err: err})
			continue
		}
		out = append(out, e)
		lines = append(lines, line)
	}
	if len(bad.Lines) == 0 {
		bad.Lines = checkSequence(out, lines)
	}
	if len(bad.Lines) > 0 {
		sort.SliceStable(bad.Lines, func(i, j int) bool { return bad.Lines[i].Line < bad.Lines[j].Line })
		return nil, bad
	}
	return out, nil
}

// readLedgerHeader reads and checks the header row.
func readLedgerHeader(cr *csv.Reader) error {
	head, err := cr.Read()
	if err == io.EOF {
		return errors.New("ledger csv: the file is empty; want the header " + strings.Join(LedgerCSVHeader, ","))
	}
	if err != nil {
		return fmt.Errorf("ledger csv: header: %w", err)
	}
	for i, h := range head {
		if strings.TrimSpace(strings.TrimPrefix(strings.ToLower(h), "\ufeff")) != LedgerCSVHeader[i] {
			return fmt.Errorf("ledger csv: header column %d is %q; want %s", i+1, h, strings.Join(LedgerCSVHeader, ","))
		}
	}
	return nil
}

// lineOf is the line a csv error names (0 when it names none).
func lineOf(err error) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Line
	}
	return 0
}

// checkSequence replays the parsed rows (lines[i] is event i's line) in
// time order and names each one that does not fit: a change before the
// disk's add, a second add of a disk.
func checkSequence(events []StorageEvent, lines []int) []LineError {
	idx := make([]int, len(events))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return events[idx[a]].Time.Before(events[idx[b]].Time) })
	disks := map[string]*DiskState{}
	var out []LineError
	for _, i := range idx {
		if err := apply(disks, events[i]); err != nil {
			out = append(out, LineError{Line: lines[i], Err: err})
		}
	}
	return out
}

// ledgerLimits are the longest text of each column, in characters (0:
// the column's own parse bounds it).
var ledgerLimits = [...]int{0, MaxOwnerRunes, MaxPlatformRunes, MaxDiskRunes, 0, 0, MaxNoteRunes}

// timeBounds are the dates an import takes: [from, to].
type timeBounds struct{ from, to time.Time }

func parseLedgerRow(rec []string, lab string, cat *catalog.Catalog, bounds timeBounds) (StorageEvent, error) {
	for i := range rec {
		rec[i] = unescapeCell(strings.TrimSpace(rec[i]))
		if err := checkCell(rec[i], ledgerLimits[i]); err != nil {
			return StorageEvent{}, fmt.Errorf("%s: %w", LedgerCSVHeader[i], err)
		}
	}
	t, err := time.Parse(time.RFC3339, rec[0])
	if err != nil {
		return StorageEvent{}, fmt.Errorf("time %q is not RFC 3339 (2026-11-23T09:00:00+08:00)", rec[0])
	}
	switch {
	case t.Before(bounds.from):
		return StorageEvent{}, fmt.Errorf("time %q is more than %d years before the import (the earliest is %s)", rec[0], LedgerMaxAge, bounds.from.Format(time.DateOnly))
	case t.After(bounds.to):
		return StorageEvent{}, fmt.Errorf("time %q is in the future (the latest is %s)", rec[0], bounds.to.Format(time.RFC3339))
	}
	e := StorageEvent{Time: t, Lab: lab, Owner: rec[1], Disk: rec[3],
		Action: StorageAction(strings.ToLower(rec[4])), Note: rec[6]}
	if e.Owner == "" || e.Disk == "" {
		return e, errors.New("owner and disk are required")
	}
	if rec[5] != "" {
		gb, err := strconv.ParseFloat(rec[5], 64)
		if err != nil || math.IsNaN(gb) || math.IsInf(gb, 0) {
			return e, fmt.Errorf("size_gb %q is not a number", rec[5])
		}
		e.SizeGB = gb
	}
	switch {
	case rec[2] != "":
		id, ok := cat.PlatformID(rec[2])
		if !ok {
			return e, unknownPlatform(rec[2], cat)
		}
		e.Platform = id
	case e.Action == ActionAdd:
		return e, errors.New("platform is required")
	}
	return e, e.validate()
}

// unknownPlatform refuses a platform name the catalog does not know,
// with the closest names it does.
func unknownPlatform(name string, cat *catalog.Catalog) error {
	var near []string
	for _, id := range cat.ClosestPlatforms(name, 3) {
		p, _ := cat.Platform(id)
		near = append(near, fmt.Sprintf("%s (%s)", p.DisplayName(false), id))
	}
	if len(near) == 0 {
		return fmt.Errorf("platform %q is not a platform the catalog knows (write its id, Chinese or English name)", name)
	}
	return fmt.Errorf("platform %q is not a platform the catalog knows; closest: %s", name, strings.Join(near, ", "))
}

// WriteLedgerCSV writes events (in the given order) with LedgerCSVHeader;
// times in RFC 3339 with their offset; cells a spreadsheet would run as
// formulas escaped with an apostrophe (see LedgerCSVHeader), which the
// import drops again.
func WriteLedgerCSV(w io.Writer, events []StorageEvent) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(LedgerCSVHeader); err != nil {
		return err
	}
	row := make([]string, len(LedgerCSVHeader))
	for _, e := range events {
		size := ""
		if e.Action == ActionAdd || e.Action == ActionResize {
			size = strconv.FormatFloat(e.SizeGB, 'f', -1, 64)
		}
		row = append(row[:0], e.Time.Format(time.RFC3339), e.Owner, e.Platform, e.Disk, string(e.Action), size, e.Note)
		for i := range row {
			row[i] = escapeCell(row[i])
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// formulaStarts are the first characters that make a spreadsheet read a
// cell as a formula (OWASP, CSV injection).
const formulaStarts = "=+-@\t\r"

// escapeCell puts an apostrophe before a cell a spreadsheet would run as
// a formula, and before one that starts with an apostrophe which the
// import would drop (see LedgerCSVHeader).
func escapeCell(v string) string {
	if v == "" {
		return v
	}
	if strings.IndexByte(formulaStarts, v[0]) >= 0 || v[0] == '\'' && len(v) > 1 && strings.IndexByte(formulaStarts+"'", v[1]) >= 0 {
		return "'" + v
	}
	return v
}

// unescapeCell drops the apostrophe escapeCell adds: one leading
// apostrophe followed by a formula's first character or by another
// apostrophe.
func unescapeCell(v string) string {
	if len(v) > 1 && v[0] == '\'' && strings.IndexByte(formulaStarts+"'", v[1]) >= 0 {
		return v[1:]
	}
	return v
}

// checkCell refuses a cell that is not UTF-8 text, holds a control
// character (see noControl) or is longer than max characters (0: no
// limit).
func checkCell(v string, max int) error {
	if !utf8.ValidString(v) {
		return errors.New("not UTF-8 text")
	}
	n := 0
	for _, r := range v {
		n++
		if isControl(r) {
			return fmt.Errorf("a control character (U+%04X) at character %d", r, n)
		}
	}
	if max > 0 && n > max {
		return fmt.Errorf("%d characters; at most %d", n, max)
	}
	return nil
}

// isControl reports a control character (C0, DEL, C1) or a bidirectional
// override or isolate (U+202A–U+202E, U+2066–U+2069).
func isControl(r rune) bool {
	return unicode.IsControl(r) || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
}

// boundedReader reads at most left bytes and lines of at most
// MaxLedgerLineBytes, counting lines from line; past either bound it
// fails with err set (a LineError for a line too long).
type boundedReader struct {
	r         io.Reader
	left      int64
	line      int
	lineBytes int
	err       error
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.r.Read(p)
	for i := 0; i < n; i++ {
		if b.left == 0 {
			b.err = fmt.Errorf("the file is larger than %d MiB (at line %d); import it in parts", MaxLedgerCSVBytes>>20, b.line)
			return i, b.err
		}
		b.left--
		if p[i] == '\n' {
			b.line++
			b.lineBytes = 0
			continue
		}
		if b.lineBytes++; b.lineBytes > MaxLedgerLineBytes {
			b.err = LineError{Line: b.line, Err: fmt.Errorf("longer than %d bytes; nothing after it was read", MaxLedgerLineBytes)}
			return i, b.err
		}
	}
	return n, err
}
