package provider_test

import (
	"testing"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
)

func seed(f *testing.F, prefixes ...string) {
	for _, dir := range []string{fixturesDir, verbatimDir, "testdata"} {
		for _, name := range fixtureFiles(f, dir, prefixes...) {
			f.Add(fixture(f, dir, name))
		}
	}
	for _, s := range []string{``, `null`, `[]`, `{}`, `{"code":"Success","data":null}`, `[{"x":{"idle_gpu_num":-1,"total_gpu_num":1e400}}]`,
		`{"offers":{"gpu_name":"RTX 4090","num_gpus":0,"dph_total":"NaN"}}`, `{"data":{"list":[{"gpu_name":"4090","gpu_number":1e30,"gpu_used":-1e30}],"max_page":1e99}}`} {
		f.Add([]byte(s))
	}
}

func checkParsed(t *testing.T, offers []stock.Offer, err error) {
	if err != nil && offers != nil {
		t.Errorf("offers with an error: %v", err)
	}
	for _, o := range offers {
		checkOfferSane(t, o)
	}
}

func FuzzParseAutoDLStock(f *testing.F) {
	seed(f, "autodl-")
	c := loadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := provider.ParseAutoDLStock(c, b, fixedNow)
		checkParsed(t, offers, err)
	})
}

func FuzzParseAutoDLMachines(f *testing.F) {
	seed(f, "autodl-")
	c := loadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := provider.ParseAutoDLMachines(c, b, fixedNow)
		checkParsed(t, offers, err)
		offers, err = provider.ParseAutoDLInstances(c, b, fixedNow)
		checkParsed(t, offers, err)
	})
}

func FuzzParseVastAI(f *testing.F) {
	seed(f, "vastai-")
	c := loadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := provider.ParseVastAI(c, b, fixedNow, fx)
		checkParsed(t, offers, err)
	})
}
