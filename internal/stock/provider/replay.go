package provider

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// replayParser parses one recorded file.
type replayParser func(c *catalog.Catalog, body []byte, at time.Time, fx float64) ([]stock.Offer, error)

type replay struct {
	c   *catalog.Catalog
	dir string
	fx  float64
	log *slog.Logger
}

// RecordedAtFile is the name of the optional file in a replay directory
// whose first line (an RFC 3339 time or a YYYY-MM-DD date) gives the
// recording time of every file whose name carries none.
const RecordedAtFile = "RECORDED_AT"

// NewReplay returns a provider (Name "replay") that reads every *.json file
// in dir, in file name order, and parses it by its name prefix:
// autodl-esd-*, autodl-private-esd-*, autodl-web-machine-region-gpu_type*
// (AutoDL stock), autodl-web-user-machine-list* (machine list),
// autodl-web-instance-list* (instance list), any other autodl-* (tried as
// stock, then machine list, then instance list; the first giving an offer
// wins), vastai-* (bundles, USD converted at fx, the catalog's rate when
// fx <= 0), gpushare-* (恒源云 machine list), matpool-* (矩池云 machines),
// runpod-* (REST v2 catalog, GraphQL gpuTypes or runpodctl output, told
// apart by content) and lambda-* (instance types); runpod-rest-v2-error-*
// and lambda-error-* are recorded error answers and carry no offers. Offers
// are marked stock.Source replay with the file name in Note.
//
// Recording time. A file's modification time is never used (a fresh clone
// would make old recordings look new). stock.Offer.ObservedAt is, in order:
//
//   - a UTC date-time in the file name: ...-20261129T1000Z.json,
//     ...-20261129T100000Z.json, ...-2026-11-29T10-00-00Z.json,
//     ...-2026-11-29T10:00Z.json (the trailing Z may be left out; the time
//     is UTC anyway), or a date ...-2026-11-29.json meaning 00:00 UTC;
//   - else the first line of a RECORDED_AT file in dir, an RFC 3339 time
//     or a YYYY-MM-DD date (00:00 UTC), applying to all such files;
//   - else the zero time: recording time unknown.
//
// A date without a time adds "recorded 2026-11-29 (date only)" to Note, an
// unknown time "recording time unknown"; show the age only when ObservedAt
// is not zero.
//
// Errors. Fetch fails when dir cannot be read, holds no recognised
// recording, or every recognised file failed to read or parse. When some
// failed and others parsed, it returns the offers and a *stock.PartialError
// (errors.Is(err, stock.ErrPartial)): callers should keep the offers and show the
// error as a warning.
//
// Empty recordings. A recording is read by its platform's rule (see each
// platform package): one that lists nothing where the endpoint lists every
// machine or GPU type (AutoDL, 恒源云, 矩池云, RunPod, Lambda) is a failed
// file (stock.ErrEmpty, "answered an empty list"), so its platform is
// unknown, never sold out; when every failed file is such, the whole
// Fetch's error wraps stock.ErrEmpty. An empty vast.ai search (which may
// have been a narrow one) or AutoDL instance list is no failure and yields
// no offers; a platform with no known offer in a replay is never counted
// as sold out. Files with other names (other platforms, notes) are
// not failures: they are logged at Debug level, once per process. A parse
// failure is logged at Warn level once per file version (name, size,
// modification time) per process.
func NewReplay(c *catalog.Catalog, dir string, fx float64, log *slog.Logger) stock.Provider {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if fx <= 0 && c != nil {
		fx = c.FXUSDCNY
	}
	return &replay{c: c, dir: dir, fx: fx, log: log}
}

func (r *replay) Name() string { return string(stock.SourceReplay) }

// Identity names the directory, so a snapshot stored for another directory
// is not restored as this one's.
func (r *replay) Identity() string { return "replay:" + r.dir }

// Per-process log de-duplication, keyed by file path.
var (
	// replaySkipLogged holds paths whose "skipped" Debug line was logged.
	replaySkipLogged sync.Map // string → struct{}
	// replayWarned holds, per path, the fileStamp last warned about.
	replayWarned sync.Map // string → fileStamp
)

// fileStamp identifies one version of a file.
type fileStamp struct {
	size int64
	mod  int64 // UnixNano
}

func stampOf(info fs.FileInfo) fileStamp {
	if info == nil {
		return fileStamp{size: -1}
	}
	return fileStamp{size: info.Size(), mod: info.ModTime().UnixNano()}
}

// warnOnce logs msg at Warn level unless it was logged for this version
// of the file already.
func (r *replay) warnOnce(path string, st fileStamp, msg string, args ...any) {
	if prev, loaded := replayWarned.Swap(path, st); loaded && prev == st {
		return
	}
	r.log.Warn(msg, args...)
}

// recTime is a recording time and how precise it is.
type recTime struct {
	t        time.Time
	dateOnly bool
}

// note is the Note suffix for the time ("" for a full time).
func (rt recTime) note() string {
	switch {
	case rt.t.IsZero():
		return "recording time unknown"
	case rt.dateOnly:
		return "recorded " + rt.t.Format(time.DateOnly) + " (date only)"
	}
	return ""
}

func (r *replay) Fetch(ctx context.Context) ([]stock.Offer, error) {
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		return nil, fmt.Errorf("replay: read directory %s: %w", r.dir, err)
	}
	dirTime := r.dirRecordedAt()
	var t tally
	for _, e := range entries { // os.ReadDir sorts by name
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(strings.ToLower(name), ".json") {
			continue
		}
		path := filepath.Join(r.dir, name)
		parse, known := replayParserFor(name)
		if parse == nil {
			r.skip(&t, path, name, known)
			continue
		}
		t.recognised++
		info, _ := e.Info()
		offers, err := r.parseFile(path, name, parse, dirTime)
		if err != nil {
			t.fail(name, err)
			r.warnOnce(path, stampOf(info), "replay: cannot parse file, skipped", "file", name, "err", err)
			continue
		}
		replayWarned.Delete(path)
		t.parsed++
		t.out = append(t.out, offers...)
	}
	return r.result(t)
}

// tally is what a Fetch found in the directory.
type tally struct {
	out                 []stock.Offer
	failed              []string
	failedPlatforms     []string
	someNotEmpty        bool // a failure other than an empty answer
	recognised, parsed  int
	unknown, otherFiles int
}

// fail counts a recording that failed to read or parse.
func (t *tally) fail(name string, err error) {
	t.failed = append(t.failed, name+": "+err.Error())
	t.someNotEmpty = t.someNotEmpty || !errors.Is(err, stock.ErrEmpty)
	if p := platformOfFile(name); p != "" && !slices.Contains(t.failedPlatforms, p) {
		t.failedPlatforms = append(t.failedPlatforms, p)
	}
}

// skip counts a JSON file that is no recording with offers, logged once
// per process at Debug level.
func (r *replay) skip(t *tally, path, name string, known bool) {
	if known {
		t.otherFiles++
	} else {
		t.unknown++
	}
	if _, logged := replaySkipLogged.LoadOrStore(path, struct{}{}); !logged {
		if known {
			r.log.Debug("replay: file carries no offers, skipped", "file", name)
		} else {
			r.log.Debug("replay: file name not recognised, skipped", "file", name)
		}
	}
}

// result is a Fetch's offers and error from its tally.
func (r *replay) result(t tally) ([]stock.Offer, error) {
	switch {
	case t.recognised == 0:
		hint := "want " + recordingNames() + ".json files"
		if n := t.unknown + t.otherFiles; n > 0 {
			files := "files"
			if n == 1 {
				files = "file"
			}
			hint += fmt.Sprintf("; it has %d other JSON %s", n, files)
		}
		return nil, fmt.Errorf("replay: %w in %s (%s)", stock.ErrNoRecordings, r.dir, hint)
	case t.parsed == 0 && t.recognised == 1:
		return nil, fmt.Errorf("replay: the only recording in %s failed: %s: %w", r.dir, stock.FailureList(t.failed), failKind(!t.someNotEmpty))
	case t.parsed == 0:
		return nil, fmt.Errorf("replay: all %d recordings in %s failed: %s: %w", t.recognised, r.dir, stock.FailureList(t.failed), failKind(!t.someNotEmpty))
	case len(t.failed) > 0:
		return t.out, &stock.PartialError{Provider: r.Name(), Inputs: t.recognised, Failed: t.failed, Platforms: t.failedPlatforms}
	}
	return t.out, nil
}

// failKind is the error kind of a replay whose every recording failed:
// stock.ErrEmpty when each was an empty answer, else stock.ErrBadResponse.
func failKind(onlyEmpty bool) error {
	if onlyEmpty {
		return stock.ErrEmpty
	}
	return stock.ErrBadResponse
}

// parseFile reads and parses one recording and marks its offers.
func (r *replay) parseFile(path, name string, parse replayParser, dirTime recTime) ([]stock.Offer, error) {
	body, err := readReplayFile(path)
	if err != nil {
		return nil, err
	}
	rt, ok := nameRecordedAt(name)
	if !ok {
		rt = dirTime
	}
	offers, err := parse(r.c, body, rt.t, r.fx)
	if err != nil {
		return nil, err
	}
	extra := rt.note()
	for i := range offers {
		offers[i].Source = stock.SourceReplay
		offers[i].ObservedAt = rt.t
		offers[i].DateOnly = rt.dateOnly
		note := name
		if offers[i].Note != "" {
			note = offers[i].Note + " (" + name + ")"
		}
		if extra != "" {
			note += ", " + extra
		}
		offers[i].Note = note
	}
	return offers, nil
}

// dirRecordedAt reads the directory's RECORDED_AT file; the zero recTime
// when it is absent or unusable (the latter logged once per version).
func (r *replay) dirRecordedAt() recTime {
	path := filepath.Join(r.dir, RecordedAtFile)
	f, err := os.Open(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			r.warnOnce(path, fileStamp{size: -1}, "replay: cannot read "+RecordedAtFile+", recording time unknown", "err", err)
		}
		return recTime{}
	}
	defer f.Close()
	info, _ := f.Stat()
	line, err := bufio.NewReader(io.LimitReader(f, 1024)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		r.warnOnce(path, stampOf(info), "replay: cannot read "+RecordedAtFile+", recording time unknown", "err", err)
		return recTime{}
	}
	rt, err := parseRecordedAt(line)
	if err != nil {
		r.warnOnce(path, stampOf(info), "replay: bad "+RecordedAtFile+", recording time unknown", "err", err)
		return recTime{}
	}
	replayWarned.Delete(path)
	return rt
}

// parseRecordedAt parses a RECORDED_AT line: RFC 3339 or YYYY-MM-DD.
func parseRecordedAt(line string) (recTime, error) {
	s := strings.TrimSpace(strings.TrimPrefix(line, "\ufeff"))
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return recTime{t: t.UTC()}, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return recTime{t: t, dateOnly: true}, nil
	}
	return recTime{}, fmt.Errorf("first line %q is neither an RFC 3339 time nor a YYYY-MM-DD date", httpx.Snippet([]byte(s)))
}

// File name time stamps: 20261129T1000Z, 20261129T100000Z,
// 2026-11-29T10-00-00Z, 2026-11-29T10:00Z, 2026-11-29 (Z optional,
// case-insensitive), not glued to other digits.
var (
	nameStampCompact = regexp.MustCompile(`(?i)(?:^|[^0-9])(2[0-9]{3})([0-9]{2})([0-9]{2})t([0-9]{2})([0-9]{2})([0-9]{2})?z?(?:[^0-9]|$)`)
	nameStampDashed  = regexp.MustCompile(`(?i)(?:^|[^0-9])(2[0-9]{3})-([0-9]{2})-([0-9]{2})(?:t([0-9]{2})[-:]?([0-9]{2})(?:[-:]?([0-9]{2}))?z?)?(?:[^0-9]|$)`)
)

// nameRecordedAt finds the rightmost valid time stamp in a file name.
func nameRecordedAt(name string) (recTime, bool) {
	stem := name
	if i := strings.LastIndexByte(stem, '.'); i > 0 {
		stem = stem[:i]
	}
	best, bestPos, found := recTime{}, -1, false
	for _, re := range []*regexp.Regexp{nameStampCompact, nameStampDashed} {
		for _, m := range re.FindAllStringSubmatchIndex(stem, -1) {
			group := func(i int) string {
				if m[2*i] < 0 {
					return ""
				}
				return stem[m[2*i]:m[2*i+1]]
			}
			rt, ok := stampTime(group(1), group(2), group(3), group(4), group(5), group(6))
			if ok && m[2] > bestPos {
				best, bestPos, found = rt, m[2], true
			}
		}
	}
	return best, found
}

// stampTime validates and builds a UTC time; hh and mm empty mean a date.
func stampTime(y, mo, d, hh, mm, ss string) (recTime, bool) {
	if hh == "" {
		t, err := time.Parse(time.DateOnly, y+"-"+mo+"-"+d)
		return recTime{t: t, dateOnly: true}, err == nil
	}
	if ss == "" {
		ss = "00"
	}
	t, err := time.Parse(time.RFC3339, y+"-"+mo+"-"+d+"T"+hh+":"+mm+":"+ss+"Z")
	return recTime{t: t}, err == nil
}

// replayParserFor returns the parser for a file name (the first
// recording kind of Platforms whose prefix it has), and whether the name
// is a known kind at all.
func replayParserFor(name string) (replayParser, bool) {
	for _, p := range Platforms {
		for _, k := range p.Replay {
			if strings.HasPrefix(name, k.Prefix) {
				return k.Parse, true
			}
		}
	}
	return nil, false
}

// recordingNames are the platforms' recording patterns, for an error:
// "autodl-*, vastai-* … or lambda-*".
func recordingNames() string {
	var names []string
	for _, p := range Platforms {
		names = append(names, p.Name+"-*")
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// readReplayFile reads a regular file of at most httpx.MaxResponseBytes.
func readReplayFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open: %w", unwrapPathError(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot stat: %w", unwrapPathError(err))
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, httpx.MaxResponseBytes+1)); err != nil {
		return nil, fmt.Errorf("cannot read: %w", unwrapPathError(err))
	}
	if buf.Len() > httpx.MaxResponseBytes {
		return nil, fmt.Errorf("larger than %d bytes", httpx.MaxResponseBytes)
	}
	return buf.Bytes(), nil
}

// unwrapPathError drops the path from an *fs.PathError: the caller names
// the file already.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// platformOfFile maps a recording's name to its platform id by prefix.
func platformOfFile(name string) string {
	for _, p := range Platforms {
		if strings.HasPrefix(name, p.Name+"-") {
			return p.PlatformID()
		}
	}
	return ""
}
