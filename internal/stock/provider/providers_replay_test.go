package provider_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
)

// TestReplayNewPlatforms replays every GPUShare, Matpool, RunPod and
// Lambda recording of both fixture directories from one directory.
func TestReplayNewPlatforms(t *testing.T) {
	d := newReplayDir(t)
	prefixes := []string{"gpushare-", "matpool-", "runpod-", "lambda-"}
	n := 0
	for _, dir := range []string{providertest.FixturesDir, providertest.VerbatimDir} {
		for _, name := range providertest.FixtureFiles(t, dir, prefixes...) {
			d.write(name, providertest.Fixture(t, dir, name))
			n++
		}
	}
	if n < 15 {
		t.Fatalf("only %d fixtures found", n)
	}
	log, buf := replayLogger()
	got, err := d.fetch(log)
	if err != nil {
		// The recorded error answers (runpod-rest-v2-error-*, lambda-error-*)
		// carry no offers and are no failures.
		t.Fatalf("Fetch: %v", err)
	}
	if strings.Contains(buf.String(), "level=WARN") {
		t.Errorf("warnings:\n%s", buf.String())
	}
	perPlatform := map[string]int{}
	for _, o := range got {
		providertest.CheckOfferSane(t, o)
		perPlatform[o.Platform]++
		if o.Source != stock.SourceReplay || !o.ObservedAt.IsZero() || !strings.HasSuffix(o.Note, ", recording time unknown") || noteFile(o.Note) == "" {
			t.Errorf("replay marking: %+v", o)
		}
	}
	for p, want := range map[string]int{"hengyuan": 2, "matpool": 2, "runpod": 10, "lambda": 4} {
		if perPlatform[p] != want {
			t.Errorf("%s: %d offers, want %d (all: %v)", p, perPlatform[p], want, perPlatform)
		}
	}
	files := byFile(got)
	one := func(file string, pred func(stock.Offer) bool) stock.Offer {
		t.Helper()
		m := providertest.Find(files[file], pred)
		if len(m) != 1 {
			t.Fatalf("%s: %d matching offers in %+v", file, len(m), files[file])
		}
		return m[0]
	}
	if o := one("gpushare-market-machine-list.json", func(o stock.Offer) bool { return o.GPU == "RTX 4090" }); providertest.IntP(o.Free) != "2" || !providertest.Approx(o.CNYPerGPUHour, 2.09) ||
		!strings.HasPrefix(o.Note, "machine N204, price unit unverified (gpushare-market-machine-list.json)") {
		t.Errorf("GPUShare 4090: %+v", o)
	}
	if o := one("matpool-machines.json", func(o stock.Offer) bool { return o.GPU == "RTX 4090" }); o.Region != "1区" || providertest.IntP(o.Free) != "3" || !providertest.Approx(o.CNYPerGPUHour, 2.2) ||
		!strings.Contains(o.Note, "free count unreliable") {
		t.Errorf("Matpool 4090: %+v", o)
	}
	if o := one("runpod-rest-v2-catalog-gpus-1.json", func(o stock.Offer) bool { return true }); o.Region != "US-KS-2" || providertest.IntP(o.Free) != "1" || !providertest.Approx(o.CNYPerGPUHour, 0.31*providertest.FX) ||
		!strings.HasPrefix(o.Note, "stock level HIGH (a level, not a count), community cloud price (") {
		t.Errorf("RunPod REST: %+v", o)
	}
	// stockStatus null: unknown, not sold out.
	if o := one("runpod-graphql-gpuTypes-lowestPrice.json", func(o stock.Offer) bool { return o.GPU == "H100 SXM" }); o.State() != stock.Unknown || !providertest.Approx(o.OriginalPrice, 2.69) {
		t.Errorf("RunPod GraphQL H100: %+v", o)
	}
	if o := one("runpod-runpodctl-datacenter-list-1.json", func(o stock.Offer) bool { return o.GPU == "A100 80GB" }); o.Region != "EU-RO-1" || o.HasPrice() || o.State() != stock.InStock {
		t.Errorf("runpodctl data center A100: %+v", o)
	}
	if o := one("runpod-sdk-get_gpu-1.json", func(o stock.Offer) bool { return true }); o.State() != stock.Unknown || !providertest.Approx(o.OriginalPrice, 1.59) {
		t.Errorf("RunPod SDK get_gpu: %+v", o)
	}
	if o := one("lambda-instance-types-multi.json", func(o stock.Offer) bool { return o.GPU == "H100 SXM" }); o.Region != "us-east-1" || providertest.IntP(o.Free) != "1" || !providertest.Approx(o.CNYPerGPUHour, 3.29*providertest.FX) {
		t.Errorf("Lambda H100: %+v", o)
	}
	if o := one("lambda-instance-types-multi.json", func(o stock.Offer) bool { return o.GPU == "A10" }); o.State() != stock.SoldOut || o.Region != "" {
		t.Errorf("Lambda A10: %+v", o)
	}
	if o := one("lambda-instance-types-1.json", func(o stock.Offer) bool { return true }); o.GPUsPerInstance != 8 || providertest.IntP(o.Free) != "8" || !providertest.Approx(o.CNYPerGPUHour, 15.92/8*providertest.FX) {
		t.Errorf("Lambda 8x: %+v", o)
	}
}

// TestReplayNewPlatformErrors: an error answer recorded under an ordinary
// name is a failed recording, reported with the platform's wording.
func TestReplayNewPlatformErrors(t *testing.T) {
	d := newReplayDir(t)
	d.write("gpushare-a.json", providertest.Fixture(t, providertest.FixturesDir, "gpushare-market-machine-list.json"))
	d.write("gpushare-expired.json", []byte(`{"code":401,"msg":"token expired"}`))
	d.write("lambda-capture.json", providertest.Fixture(t, providertest.VerbatimDir, "lambda-error-401-schema-defaults-1.json"))
	d.write("matpool-jwt.json", []byte(`{"code":176,"msg":"check jwt token failed"}`))
	d.write("runpod-capture.json", providertest.Fixture(t, providertest.VerbatimDir, "runpod-rest-v2-error-429-1.json"))
	got, err := d.fetch(nil)
	var pe *stock.PartialError
	if len(got) != 2 || !errors.As(err, &pe) || pe.Inputs != 5 || len(pe.Failed) != 4 {
		t.Fatalf("%d offers, err %v; want 2 offers and 4 of 5 failed", len(got), err)
	}
	want := []string{
		"gpushare-expired.json: hengyuan: token expired or invalid (code 401): token expired",
		"lambda-capture.json: lambda: API key rejected (global/invalid-api-key)",
		"matpool-jwt.json: matpool: token expired or invalid (code 176)",
		"runpod-capture.json: runpod: rate limited (status 429)",
	}
	for i, w := range want {
		if !strings.HasPrefix(pe.Failed[i], w) {
			t.Errorf("failure %d %q, want prefix %q", i, pe.Failed[i], w)
		}
	}
}
