package stock_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

func replayLogger() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, nil)), &buf
}

func TestReplayFixtures(t *testing.T) {
	c := loadCatalog(t)
	log, buf := replayLogger()
	p := stock.NewReplay(c, fixturesDir, fx, log)
	if p.Name() != "replay" {
		t.Errorf("Name %q", p.Name())
	}
	got, err := p.Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	perFile := map[string]int{}
	for _, o := range got {
		checkOfferSane(t, o)
		if o.Source != stock.SourceReplay {
			t.Errorf("offer not marked replay: %+v", o)
		}
		if o.Platform != "autodl" && o.Platform != "vastai" {
			t.Errorf("platform %q", o.Platform)
		}
		if o.ObservedAt.IsZero() {
			t.Errorf("no ObservedAt: %+v", o)
		}
		i := strings.LastIndex(o.Note, "(")
		name := strings.TrimSuffix(o.Note[i+1:], ")")
		perFile[name]++
		st, err := os.Stat(filepath.Join(fixturesDir, name))
		if err != nil {
			t.Errorf("note %q does not name the file: %v", o.Note, err)
		} else if !o.ObservedAt.Equal(st.ModTime()) {
			t.Errorf("ObservedAt %v, file time %v", o.ObservedAt, st.ModTime())
		}
	}
	wantPerFile := map[string]int{
		"autodl-esd-gpu_stock-global.json":        2,
		"autodl-esd-region-gpu_stock.json":        4,
		"autodl-web-machine-region-gpu_type.json": 2,
		"autodl-web-user-machine-list.json":       2,
		"vastai-bundles.json":                     2,
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
	if m := find(got, func(o stock.Offer) bool { return o.Platform == "autodl" && o.Region == "西北B区" && o.HasPrice() }); len(m) != 1 || !approx(m[0].CNYPerGPUHour, 2.18) || intp(m[0].Free) != "2" {
		t.Errorf("AutoDL west-B machine: %+v", m)
	}
	if m := find(got, func(o stock.Offer) bool { return o.Platform == "vastai" && o.GPUsPerInstance == 2 }); len(m) != 1 || !approx(m[0].CNYPerGPUHour, 0.7347/2*fx) {
		t.Errorf("vast 2x4090: %+v", m)
	}
	logs := buf.String()
	for _, f := range []string{"runpod-graphql-gpuTypes-lowestPrice.json", "runpod-runpodctl-gpu-list.json", "lambda-instance-types.json",
		"lambda-instance-types-multi.json", "matpool-machines.json", "gpushare-market-machine-list.json",
		"featurize-available_instances.json", "tensordock-v2-locations.json", "autodl-web-region-list.json"} {
		if !strings.Contains(logs, "file="+f) {
			t.Errorf("no warning for skipped %s in log:\n%s", f, logs)
		}
	}
	if strings.Contains(logs, "cannot parse") {
		t.Errorf("a recorded fixture failed to parse:\n%s", logs)
	}
	// Deterministic order.
	again, _ := p.Fetch(context.Background())
	for i := range got {
		if got[i].Note != again[i].Note || got[i].GPU != again[i].GPU || got[i].Region != again[i].Region {
			t.Fatalf("order differs at %d", i)
		}
	}
}

func TestReplayVerbatim(t *testing.T) {
	log, buf := replayLogger()
	got, err := stock.NewReplay(loadCatalog(t), verbatimDir, fx, log).Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	perFile := map[string]int{}
	for _, o := range got {
		checkOfferSane(t, o)
		i := strings.LastIndex(o.Note, "(")
		perFile[strings.TrimSuffix(o.Note[i+1:], ")")]++
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
	}
	for f, n := range want {
		if perFile[f] != n {
			t.Errorf("%s: %d offers, want %d", f, perFile[f], n)
		}
	}
	if strings.Contains(buf.String(), "cannot parse") {
		t.Errorf("a verbatim sample failed to parse:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), "file=lambda-error-401-schema-defaults-1.json") {
		t.Errorf("lambda file not skipped:\n%s", buf.String())
	}
}

func TestReplayBadFilesAndDir(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("autodl-esd-a.json", string(fixture(t, fixturesDir, "autodl-esd-gpu_stock-global.json")))
	write("autodl-esd-broken.json", `{"code":`)
	write("autodl-esd-denied.json", `{"code":"AuthorizeFailed","msg":"expired"}`)
	write("vastai-b.json", `{"offers":[{"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.5}]}`)
	write("notes.txt", `not json`)
	write("other.json", `{}`)
	if err := os.Mkdir(filepath.Join(dir, "vastai-dir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	mod := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "vastai-b.json"), mod, mod); err != nil {
		t.Fatal(err)
	}
	log, buf := replayLogger()
	got, err := stock.NewReplay(loadCatalog(t), dir, 0, log).Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d offers, want 3: %+v", len(got), got)
	}
	v := got[2]
	if v.Platform != "vastai" || !v.ObservedAt.Equal(mod) || v.Source != stock.SourceReplay || !approx(v.CNYPerGPUHour, 0.5*loadCatalog(t).FXUSDCNY) {
		t.Errorf("vast replay offer %+v", v)
	}
	logs := buf.String()
	for _, s := range []string{"file=autodl-esd-broken.json", "file=autodl-esd-denied.json", "AuthorizeFailed", "file=other.json"} {
		if !strings.Contains(logs, s) {
			t.Errorf("log lacks %q:\n%s", s, logs)
		}
	}
	if strings.Contains(logs, "notes.txt") {
		t.Errorf("non-JSON file mentioned:\n%s", logs)
	}

	_, err = stock.NewReplay(nil, filepath.Join(dir, "missing"), fx, nil).Fetch(context.Background())
	if err == nil || !strings.Contains(err.Error(), "replay") {
		t.Errorf("missing dir: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := stock.NewReplay(nil, dir, fx, nil).Fetch(ctx); err == nil {
		t.Errorf("cancelled context: no error")
	}
}
