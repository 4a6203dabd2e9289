package provider_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
)

// replayLogger logs at Debug level into a buffer.
func replayLogger() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), &buf
}

// noteFile returns the *.json file name an offer's Note mentions.
func noteFile(note string) string {
	for _, f := range strings.FieldsFunc(note, func(r rune) bool { return strings.ContainsRune(" (),", r) }) {
		if strings.HasSuffix(f, ".json") {
			return f
		}
	}
	return ""
}

// replayDir is a temporary replay directory.
type replayDir struct {
	t   *testing.T
	dir string
}

func newReplayDir(t *testing.T) replayDir { return replayDir{t: t, dir: t.TempDir()} }

// write creates a file, with a modification time far from every time the
// tests expect, so that a fallback to it would show.
func (d replayDir) write(name string, body []byte) {
	d.t.Helper()
	p := filepath.Join(d.dir, name)
	if err := os.WriteFile(p, body, 0o644); err != nil {
		d.t.Fatal(err)
	}
	mod := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	if err := os.Chtimes(p, mod, mod); err != nil {
		d.t.Fatal(err)
	}
}

func (d replayDir) fetch(log *slog.Logger) ([]stock.Offer, error) {
	return provider.NewReplay(providertest.LoadCatalog(d.t), d.dir, providertest.FX, log).Fetch(context.Background())
}

// byFile groups offers by the file their Note names.
func byFile(offers []stock.Offer) map[string][]stock.Offer {
	m := map[string][]stock.Offer{}
	for _, o := range offers {
		m[noteFile(o.Note)] = append(m[noteFile(o.Note)], o)
	}
	return m
}

func TestReplayFixtures(t *testing.T) {
	c := providertest.LoadCatalog(t)
	log, buf := replayLogger()
	p := provider.NewReplay(c, providertest.FixturesDir, providertest.FX, log)
	if p.Name() != "replay" {
		t.Errorf("Name %q", p.Name())
	}
	got, err := p.Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	perFile := map[string]int{}
	for _, o := range got {
		providertest.CheckOfferSane(t, o)
		if o.Source != stock.SourceReplay {
			t.Errorf("offer not marked replay: %+v", o)
		}
		switch o.Platform {
		case "autodl", "vastai", "hengyuan", "matpool", "runpod", "lambda":
		default:
			t.Errorf("platform %q", o.Platform)
		}
		// The fixtures carry no time stamp and no RECORDED_AT: the
		// recording time is unknown, not the checkout's file time.
		if !o.ObservedAt.IsZero() || !strings.HasSuffix(o.Note, ", recording time unknown") {
			t.Errorf("ObservedAt %v, note %q: want zero time, unknown", o.ObservedAt, o.Note)
		}
		name := noteFile(o.Note)
		perFile[name]++
		if _, err := os.Stat(filepath.Join(providertest.FixturesDir, name)); err != nil {
			t.Errorf("note %q does not name the file: %v", o.Note, err)
		}
	}
	wantPerFile := map[string]int{
		"autodl-esd-gpu_stock-global.json":         2,
		"autodl-esd-region-gpu_stock.json":         4,
		"autodl-web-machine-region-gpu_type.json":  2,
		"autodl-web-user-machine-list.json":        2,
		"vastai-bundles.json":                      2,
		"gpushare-market-machine-list.json":        2,
		"matpool-machines.json":                    2,
		"runpod-graphql-gpuTypes-lowestPrice.json": 2,
		"runpod-runpodctl-gpu-list.json":           2,
		"lambda-instance-types.json":               1,
		"lambda-instance-types-multi.json":         2,
	}
	for f, n := range wantPerFile {
		if perFile[f] != n {
			t.Errorf("%s: %d offers, want %d (all: %v)", f, perFile[f], n, perFile)
		}
	}
	if len(perFile) != len(wantPerFile) {
		t.Errorf("offers from files %v, want %v", perFile, wantPerFile)
	}
	// A concrete value from each platform.
	if m := providertest.Find(got, func(o stock.Offer) bool { return o.Platform == "autodl" && o.Region == "西北B区" && o.HasPrice() }); len(m) != 1 || !providertest.Approx(m[0].CNYPerGPUHour, 2.18) || providertest.IntP(m[0].Free) != "2" {
		t.Errorf("AutoDL west-B machine: %+v", m)
	}
	if m := providertest.Find(got, func(o stock.Offer) bool { return o.Platform == "vastai" && o.GPUsPerInstance == 2 }); len(m) != 1 || !providertest.Approx(m[0].CNYPerGPUHour, 0.7347/2*providertest.FX) {
		t.Errorf("vast 2x4090: %+v", m)
	}
	// Other platforms' files are no failures: nothing above Debug.
	if strings.Contains(buf.String(), "level=WARN") || strings.Contains(buf.String(), "level=ERROR") {
		t.Errorf("warnings for the fixtures:\n%s", buf.String())
	}
	// Deterministic order.
	again, err := p.Fetch(context.Background())
	if err != nil || len(again) != len(got) {
		t.Fatalf("second fetch: %d offers, %v", len(again), err)
	}
	for i := range got {
		if got[i].Note != again[i].Note || got[i].GPU != again[i].GPU || got[i].Region != again[i].Region {
			t.Fatalf("order differs at %d", i)
		}
	}
}

func TestReplayVerbatim(t *testing.T) {
	log, buf := replayLogger()
	got, err := provider.NewReplay(providertest.LoadCatalog(t), providertest.VerbatimDir, providertest.FX, log).Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	perFile := map[string]int{}
	for _, o := range got {
		providertest.CheckOfferSane(t, o)
		perFile[noteFile(o.Note)]++
	}
	want := map[string]int{
		"autodl-esd-gpu_stock-global-1.json":                2,
		"autodl-private-esd-gpu_stock-data-excerpt-1.json":  2,
		"autodl-web-instance-list-1.json":                   1,
		"autodl-web-machine-region-gpu_type-excerpt-1.json": 2,
		"autodl-web-user-machine-list-excerpt-1.json":       1,
		"vastai-bundles-1.json":                             1,
		"vastai-bundles-2.json":                             1,
		"vastai-bundles-docs-example-1.json":                1,
		"runpod-rest-v2-catalog-gpus-1.json":                1,
		"runpod-runpodctl-datacenter-list-1.json":           2,
		"runpod-runpodctl-gpu-list-1.json":                  2,
		"runpod-sdk-get_gpu-1.json":                         1,
		"lambda-instance-types-1.json":                      1,
	}
	for f, n := range want {
		if perFile[f] != n {
			t.Errorf("%s: %d offers, want %d", f, perFile[f], n)
		}
	}
	if strings.Contains(buf.String(), "level=WARN") {
		t.Errorf("a verbatim sample failed:\n%s", buf.String())
	}
}

func TestReplayTimeFromFileName(t *testing.T) {
	d := newReplayDir(t)
	stockBody := providertest.Fixture(t, providertest.FixturesDir, "autodl-esd-gpu_stock-global.json")
	vastBody := providertest.Fixture(t, providertest.FixturesDir, "vastai-bundles.json")
	d.write("autodl-esd-gpu_stock-global-20261129T1000Z.json", stockBody)
	d.write("autodl-esd-secs-20261129T103015Z.json", stockBody)
	d.write("vastai-bundles-2026-11-29T10-00-00Z.json", vastBody)
	d.write("vastai-colons-2026-11-28T09:05Z.json", vastBody)
	d.write("autodl-esd-day-2026-11-29.json", stockBody)
	d.write("autodl-esd-bad-date-2026-13-40.json", stockBody)
	// A RECORDED_AT applies only to files without a stamp in the name.
	if err := os.WriteFile(filepath.Join(d.dir, provider.RecordedAtFile), []byte("2025-01-02T03:04:05Z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := d.fetch(nil)
	if err != nil {
		t.Fatal(err)
	}
	files := byFile(got)
	tests := []struct {
		file     string
		at       time.Time
		dateNote string
	}{
		{"autodl-esd-gpu_stock-global-20261129T1000Z.json", time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC), ""},
		{"autodl-esd-secs-20261129T103015Z.json", time.Date(2026, 11, 29, 10, 30, 15, 0, time.UTC), ""},
		{"vastai-bundles-2026-11-29T10-00-00Z.json", time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC), ""},
		{"vastai-colons-2026-11-28T09:05Z.json", time.Date(2026, 11, 28, 9, 5, 0, 0, time.UTC), ""},
		{"autodl-esd-day-2026-11-29.json", time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), "recorded 2026-11-29 (date only)"},
		{"autodl-esd-bad-date-2026-13-40.json", time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), ""},
	}
	for _, tt := range tests {
		offers := files[tt.file]
		if len(offers) != 2 {
			t.Errorf("%s: %d offers, want 2", tt.file, len(offers))
			continue
		}
		for _, o := range offers {
			if !o.ObservedAt.Equal(tt.at) || o.ObservedAt.Location() != time.UTC {
				t.Errorf("%s: ObservedAt %v, want %v", tt.file, o.ObservedAt, tt.at)
			}
			if tt.dateNote != "" && !strings.HasSuffix(o.Note, ", "+tt.dateNote) {
				t.Errorf("%s: note %q lacks %q", tt.file, o.Note, tt.dateNote)
			}
			if tt.dateNote == "" && (strings.Contains(o.Note, "date only") || strings.Contains(o.Note, "unknown")) {
				t.Errorf("%s: note %q", tt.file, o.Note)
			}
			if o.DateOnly != strings.Contains(tt.dateNote, "date only") {
				t.Errorf("%s: DateOnly %v with note %q", tt.file, o.DateOnly, tt.dateNote)
			}
		}
	}
}

func TestNameRecordedAt(t *testing.T) {
	tests := []struct {
		name     string
		want     string // RFC 3339, "" for none
		dateOnly bool
	}{
		{"autodl-esd-gpu_stock-global-20261129T1000Z.json", "2026-11-29T10:00:00Z", false},
		{"x-20261129t1000z.json", "2026-11-29T10:00:00Z", false},
		{"x-20261129T235959Z.json", "2026-11-29T23:59:59Z", false},
		{"x-2026-11-29T10-00-00Z.json", "2026-11-29T10:00:00Z", false},
		{"x-2026-11-29T10-00-00.json", "2026-11-29T10:00:00Z", false},
		{"x-2026-11-29T1000Z-2.json", "2026-11-29T10:00:00Z", false},
		{"x-2026-11-29.json", "2026-11-29T00:00:00Z", true},
		{"2026-11-29_vastai.json", "2026-11-29T00:00:00Z", true},
		{"x-2026-01-01-then-2026-11-29.json", "2026-11-29T00:00:00Z", true},
		{"x-2026-02-30.json", "", false},
		{"x-20261129T2500Z.json", "", false},
		{"x-120261129T1000Z.json", "", false},
		{"x-20261129.json", "", false},
		{"vastai-bundles-1.json", "", false},
		{"autodl-esd-gpu_stock-global.json", "", false},
	}
	for _, tt := range tests {
		at, dateOnly, ok := provider.NameRecordedAt(tt.name)
		if tt.want == "" {
			if ok {
				t.Errorf("%s: got %v, want none", tt.name, at)
			}
			continue
		}
		if !ok || at.Format(time.RFC3339) != tt.want || dateOnly != tt.dateOnly || at.Location() != time.UTC {
			t.Errorf("%s: got %v date-only %v ok %v, want %s date-only %v", tt.name, at, dateOnly, ok, tt.want, tt.dateOnly)
		}
	}
}

func TestReplayRecordedAtFile(t *testing.T) {
	body := providertest.Fixture(t, providertest.FixturesDir, "vastai-bundles.json")
	tests := []struct {
		name    string
		content string
		at      time.Time
		note    string
		warn    bool
	}{
		{"RFC 3339 with offset", "2026-11-29T18:00:00+08:00\nsecond line ignored\n", time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC), "", false},
		{"RFC 3339 UTC, no newline", "  2026-11-29T10:00:00Z  ", time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC), "", false},
		{"date only", "2026-11-29\n", time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), ", recorded 2026-11-29 (date only)", false},
		{"garbage", "last Tuesday\n2026-11-29\n", time.Time{}, ", recording time unknown", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newReplayDir(t)
			d.write("vastai-bundles.json", body)
			if err := os.WriteFile(filepath.Join(d.dir, provider.RecordedAtFile), []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			log, buf := replayLogger()
			for range 2 {
				got, err := d.fetch(log)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 2 {
					t.Fatalf("%d offers", len(got))
				}
				for _, o := range got {
					if !o.ObservedAt.Equal(tt.at) {
						t.Errorf("ObservedAt %v, want %v", o.ObservedAt, tt.at)
					}
					if tt.note != "" && !strings.HasSuffix(o.Note, tt.note) || tt.note == "" && strings.Contains(o.Note, "recorded") {
						t.Errorf("note %q, want suffix %q", o.Note, tt.note)
					}
				}
			}
			if n := strings.Count(buf.String(), "level=WARN"); tt.warn != (n == 1) || n > 1 {
				t.Errorf("%d warnings, want warning %v (once):\n%s", n, tt.warn, buf.String())
			}
		})
	}
}

func TestReplayTimeUnknown(t *testing.T) {
	d := newReplayDir(t)
	d.write("vastai-bundles.json", providertest.Fixture(t, providertest.FixturesDir, "vastai-bundles.json"))
	d.write("autodl-esd-a.json", providertest.Fixture(t, providertest.FixturesDir, "autodl-esd-gpu_stock-global.json"))
	got, err := d.fetch(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("%d offers", len(got))
	}
	for _, o := range got {
		if !o.ObservedAt.IsZero() {
			t.Errorf("ObservedAt %v from the file time, want zero", o.ObservedAt)
		}
		if !strings.HasSuffix(o.Note, ", recording time unknown") {
			t.Errorf("note %q", o.Note)
		}
	}
	if n := got[0].Note; n != "stock API, no price (autodl-esd-a.json), recording time unknown" {
		t.Errorf("note %q", n)
	}
}

func TestReplayPartial(t *testing.T) {
	d := newReplayDir(t)
	d.write("autodl-esd-a.json", providertest.Fixture(t, providertest.FixturesDir, "autodl-esd-gpu_stock-global.json"))
	d.write("autodl-esd-broken.json", []byte(`{"code":`))
	d.write("autodl-esd-denied.json", []byte(`{"code":"AuthorizeFailed","msg":"expired"}`))
	d.write("vastai-b.json", []byte(`{"offers":[{"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.5}]}`))
	d.write("notes.txt", []byte(`not json`))
	d.write("other.json", []byte(`{}`))
	d.write("qingjiao-gpus.json", []byte(`[]`))
	d.write("autodl-web-region-list.json", []byte(`{"code":"Success","data":[]}`))
	if err := os.Mkdir(filepath.Join(d.dir, "vastai-dir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	log, buf := replayLogger()
	got, err := d.fetch(log)
	if len(got) != 3 {
		t.Fatalf("%d offers, want 3: %+v", len(got), got)
	}
	if v := got[2]; v.Platform != "vastai" || v.Source != stock.SourceReplay || !providertest.Approx(v.CNYPerGPUHour, 0.5*providertest.FX) {
		t.Errorf("vast replay offer %+v", v)
	}
	var pe *stock.PartialError
	if !errors.Is(err, stock.ErrPartial) || !errors.As(err, &pe) {
		t.Fatalf("err %v, want a *PartialError", err)
	}
	if pe.Provider != "replay" || pe.Inputs != 4 || len(pe.Failed) != 2 {
		t.Errorf("PartialError %+v", pe)
	}
	want := "replay: 2 of 4 files failed: autodl-esd-broken.json: autodl: malformed JSON in AutoDL response: unexpected EOF; " +
		"autodl-esd-denied.json: autodl: token rejected (AuthorizeFailed): expired"
	if err.Error() != want {
		t.Errorf("error\n%s\nwant\n%s", err, want)
	}
	logs := buf.String()
	for _, s := range []string{"level=WARN msg=\"replay: cannot parse file, skipped\" file=autodl-esd-broken.json",
		"level=WARN msg=\"replay: cannot parse file, skipped\" file=autodl-esd-denied.json",
		"level=DEBUG msg=\"replay: file name not recognised, skipped\" file=other.json",
		"level=DEBUG msg=\"replay: file name not recognised, skipped\" file=qingjiao-gpus.json",
		"level=DEBUG msg=\"replay: file carries no offers, skipped\" file=autodl-web-region-list.json"} {
		if strings.Count(logs, s) != 1 {
			t.Errorf("log lacks %q once:\n%s", s, logs)
		}
	}
	if strings.Contains(logs, "notes.txt") || strings.Contains(logs, "vastai-dir") {
		t.Errorf("non-JSON file or directory mentioned:\n%s", logs)
	}
	if n := strings.Count(logs, "level="); n != 5 {
		t.Errorf("%d log lines, want 5:\n%s", n, logs)
	}

	// Fetching again logs nothing new but returns the same error.
	buf.Reset()
	got, err = d.fetch(log)
	if len(got) != 3 || !errors.Is(err, stock.ErrPartial) || err.Error() != want {
		t.Errorf("second fetch: %d offers, %v", len(got), err)
	}
	if buf.Len() != 0 {
		t.Errorf("second fetch logged again:\n%s", buf.String())
	}
	// A changed file is warned about again; a fixed one leaves the list.
	d.write("autodl-esd-broken.json", []byte(`{"code":"Success","data":[`))
	d.write("autodl-esd-denied.json", []byte(`{"code":"Success","data":[{"RTX 4090":{"idle_gpu_num":1,"total_gpu_num":2}}]}`))
	got, err = d.fetch(log)
	if len(got) != 4 || !errors.As(err, &pe) || len(pe.Failed) != 1 || !strings.HasPrefix(err.Error(), "replay: 1 of 4 files failed: autodl-esd-broken.json: ") {
		t.Errorf("after edits: %d offers, %v", len(got), err)
	}
	if logs := buf.String(); strings.Count(logs, "level=") != 1 || !strings.Contains(logs, "file=autodl-esd-broken.json") {
		t.Errorf("after edits, log:\n%s", logs)
	}
}

func TestReplayAllFailed(t *testing.T) {
	d := newReplayDir(t)
	d.write("autodl-esd-broken.json", []byte(`{"code":`))
	d.write("vastai-bundles.json", []byte(`not json`))
	d.write("qingjiao-x.json", []byte(`{}`))
	got, err := d.fetch(nil)
	if got != nil || err == nil {
		t.Fatalf("offers %v, err %v", got, err)
	}
	if errors.Is(err, stock.ErrPartial) {
		t.Errorf("all failed, yet ErrPartial: %v", err)
	}
	msg := err.Error()
	for _, s := range []string{"replay: all 2 recordings in " + d.dir + " failed: ", "autodl-esd-broken.json: ", "vastai-bundles.json: vastai: malformed JSON"} {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q lacks %q", msg, s)
		}
	}
	if strings.Contains(msg, "qingjiao") {
		t.Errorf("unknown file reported as failed: %q", msg)
	}
}

func TestReplayEmptyAndMissingDir(t *testing.T) {
	d := newReplayDir(t)
	got, err := d.fetch(nil)
	if got != nil || err == nil || !strings.Contains(err.Error(), "replay: no recordings in "+d.dir) {
		t.Errorf("empty dir: %v, %v", got, err)
	}
	d.write("qingjiao-gpus.json", []byte(`[]`))
	d.write("autodl-web-region-list.json", []byte(`[]`))
	if _, err := d.fetch(nil); err == nil || !strings.Contains(err.Error(), "replay: no recordings in "+d.dir) || !strings.Contains(err.Error(), "it has 2 other JSON files") {
		t.Errorf("dir without recordings: %v", err)
	}

	missing := filepath.Join(d.dir, "missing")
	_, err = provider.NewReplay(nil, missing, providertest.FX, nil).Fetch(context.Background())
	if err == nil || !strings.Contains(err.Error(), "replay") || !strings.Contains(err.Error(), missing) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing dir: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d.write("vastai-b.json", []byte(`[]`))
	if _, err := provider.NewReplay(nil, d.dir, providertest.FX, nil).Fetch(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

// TestReplayEmptyRecordings: a recording that lists nothing where its
// endpoint lists every machine or GPU type is a failed file, so its
// platform is unknown, never sold out; when it is the only one, the
// whole fetch is an empty answer (stock.ErrEmpty). An empty vast.ai
// search is no failure (it may have been a narrow one).
func TestReplayEmptyRecordings(t *testing.T) {
	d := newReplayDir(t)
	d.write("autodl-esd-gpu_stock-global-20261129T1000Z.json", []byte(`{"code":"Success","msg":"","data":[]}`))
	got, err := d.fetch(nil)
	if got != nil || !errors.Is(err, stock.ErrEmpty) || stock.Classify(err) != stock.ReasonEmpty || errors.Is(err, stock.ErrBadResponse) {
		t.Fatalf("only an empty recording: %v, %v; want stock.ErrEmpty", got, err)
	}
	empties := map[string]string{
		"gpushare-a.json": `{"code":0,"data":{"total":0,"list":[]}}`,
		"matpool-a.json":  `{"code":0,"data":{"machines":[]}}`,
		"runpod-a.json":   `{"gpus":[]}`,
		"lambda-a.json":   `{"data":{}}`,
		"vastai-a.json":   `{"offers":[]}`,
	}
	for name, body := range empties {
		d.write(name, []byte(body))
	}
	d.write("vastai-b.json", []byte(`{"offers":[{"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.5}]}`))
	got, err = d.fetch(nil)
	var pe *stock.PartialError
	if len(got) != 1 || !errors.As(err, &pe) || pe.Inputs != 7 || len(pe.Failed) != 5 {
		t.Fatalf("%d offers, err %v; want 1 offer and 5 of 7 failed", len(got), err)
	}
	for _, f := range pe.Failed {
		if !strings.Contains(f, "answered an empty list") {
			t.Errorf("failure %q does not say the answer was empty", f)
		}
	}
	if want := []string{"autodl", "hengyuan", "lambda", "matpool", "runpod"}; strings.Join(pe.Platforms, ",") != strings.Join(want, ",") {
		t.Errorf("failed platforms %v, want %v", pe.Platforms, want)
	}
}

func TestReplayGenericNames(t *testing.T) {
	machines := providertest.Fixture(t, providertest.FixturesDir, "autodl-web-user-machine-list.json")
	instances := providertest.Fixture(t, providertest.VerbatimDir, "autodl-web-instance-list-1.json")
	d := newReplayDir(t)
	d.write("autodl-capture-1.json", providertest.Fixture(t, providertest.FixturesDir, "autodl-esd-gpu_stock-global.json"))
	d.write("autodl-capture-2.json", machines)
	d.write("autodl-capture-3.json", instances)
	// An instance row that also names gpu_name stays an instance: its
	// price covers req_gpu_amount GPUs.
	d.write("autodl-capture-4.json", []byte(`{"code":"Success","data":{"list":[{"gpu_name":"RTX 4090","snapshot_gpu_alias_name":"RTX 4090","req_gpu_amount":2,"payg_price":4000,"gpu_all_num":8,"gpu_idle_num":3}]}}`))
	d.write("autodl-capture-5.json", []byte(`{"code":"Success","msg":"","data":{"list":[],"max_page":0}}`))
	d.write("autodl-capture-6.json", []byte(`{"code":"Success","data":{"foo":1}}`))
	d.write("autodl-capture-7.json", []byte(`{"code":"AuthorizeFailed","msg":"expired"}`))
	d.write("vastai-capture.json", []byte(`{"instances":[]}`))
	got, err := d.fetch(nil)
	files := byFile(got)
	for f, n := range map[string]int{"autodl-capture-1.json": 2, "autodl-capture-2.json": 2, "autodl-capture-3.json": 1, "autodl-capture-4.json": 1} {
		if len(files[f]) != n {
			t.Errorf("%s: %d offers, want %d", f, len(files[f]), n)
		}
	}
	if o := files["autodl-capture-2.json"]; len(o) == 2 && !providertest.Approx(o[0].CNYPerGPUHour, 2.18) {
		t.Errorf("machine list read wrongly: %+v", o[0])
	}
	if o := files["autodl-capture-3.json"]; len(o) == 1 && (!providertest.Approx(o[0].CNYPerGPUHour, 1.577) || o[0].GPU != "RTX 3090") {
		t.Errorf("instance list read wrongly: %+v", o[0])
	}
	if o := files["autodl-capture-4.json"]; len(o) == 1 && (!providertest.Approx(o[0].CNYPerGPUHour, 2) || providertest.IntP(o[0].Total) != "8") {
		t.Errorf("instance with gpu_name read as a machine: %+v", o[0])
	}
	var pe *stock.PartialError
	if !errors.As(err, &pe) || pe.Inputs != 8 {
		t.Fatalf("err %v, want a PartialError over 8 files", err)
	}
	want := []string{
		// An empty list of unknown kind says nothing: unknown, a failure.
		"autodl-capture-5.json: autodl: recording answered an empty list",
		"autodl-capture-6.json: autodl: no AutoDL response shape recognised",
		"autodl-capture-7.json: autodl: token rejected (AuthorizeFailed): expired",
		"vastai-capture.json: ",
	}
	if len(pe.Failed) != len(want) {
		t.Fatalf("failed %q, want %q", pe.Failed, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(pe.Failed[i], w) {
			t.Errorf("failure %d %q, want prefix %q", i, pe.Failed[i], w)
		}
	}
}

func TestPartialErrorText(t *testing.T) {
	e := &stock.PartialError{Provider: "replay", Inputs: 5, Failed: []string{
		"autodl-x.json: no parser for this name", "vastai-bundles.json: malformed JSON"}}
	if got, want := e.Error(), "replay: 2 of 5 files failed: autodl-x.json: no parser for this name; vastai-bundles.json: malformed JSON"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	e = &stock.PartialError{Provider: "replay", Inputs: 9, Failed: []string{"a.json: r1", "b.json: two\nlines", "c.json: r3", "d.json: r4", "e.json: r5"}}
	if got, want := e.Error(), "replay: 5 of 9 files failed: a.json: r1; b.json: two lines; c.json: r3; …"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	e = &stock.PartialError{Failed: []string{"a.json: r1"}}
	if got, want := e.Error(), "stock: 1 file failed: a.json: r1"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	var err error = e
	if !errors.Is(err, stock.ErrPartial) || errors.Is(err, stock.ErrBadResponse) {
		t.Errorf("Is: ErrPartial %v, ErrBadResponse %v", errors.Is(err, stock.ErrPartial), errors.Is(err, stock.ErrBadResponse))
	}
	var nilErr *stock.PartialError
	if nilErr.Error() == "" {
		t.Error("nil PartialError has no text")
	}
}
