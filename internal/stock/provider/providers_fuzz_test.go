package provider_test

import (
	"testing"

	"github.com/labgpu/bot/internal/stock/provider"
)

// Fuzz tests for the GPUShare, Matpool, RunPod and Lambda parsers, seeded
// with their fixtures: no panic, no offers beside an error, sane offers.

func seedMore(f *testing.F, bodies ...string) {
	for _, b := range bodies {
		f.Add([]byte(b))
	}
}

func FuzzParseGPUShare(f *testing.F) {
	seed(f, "gpushare-")
	seedMore(f, `{"code":0,"data":{"total":1e99,"list":[{"isOnline":"x","gpuNum":1e30,"gpuUsed":-1e30,"baseInfo":{"gpuName":"4090"},"skuList":[{"skuName":"payg","price":1e308}]}]}}`,
		`{"code":401,"msg":"token"}`, `{"code":null,"data":[{"gpuName":"x","gpuNum":"NaN"}]}`)
	c := loadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := provider.ParseGPUShare(c, b, fixedNow)
		checkParsed(t, offers, err)
	})
}

func FuzzParseMatpool(f *testing.F) {
	seed(f, "matpool-")
	seedMore(f, `{"code":0,"machines":[{"domain":{},"hardware":{"priceMillicent":1e308,"gpu":{"gpuName":"4090"}},"gpu":{"available":1e30,"total":-1}}]}`,
		`{"code":176,"msg":"check jwt token failed"}`, `{"code":0,"data":{"machines":"x"}}`)
	c := loadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := provider.ParseMatpool(c, b, fixedNow)
		checkParsed(t, offers, err)
	})
}

func FuzzParseRunPod(f *testing.F) {
	seed(f, "runpod-")
	seedMore(f, `{"gpus":[{"id":"x","price":{"secure":-1,"community":1e308},"availability":"HIGH","dataCenters":[{"id":"A","availability":"LOW"},{"availability":null}]}]}`,
		`{"data":{"gpuTypes":[{"id":"x","securePrice":"1","lowestPrice":{"stockStatus":null}}]},"errors":[{}]}`,
		`[{"gpuAvailability":[{"gpuId":"x","stockStatus":"Low"}]},{"gpuId":"y","available":false},{"pool":"z"}]`,
		`{"title":"x","status":429}`, `{"errors":[{"message":"api key"}]}`)
	c := loadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := provider.ParseRunPod(c, b, fixedNow, fx)
		checkParsed(t, offers, err)
		for _, o := range offers {
			if o.Free != nil && *o.Free > 1 {
				t.Errorf("a RunPod level read as a count: %+v", o)
			}
		}
	})
}

func FuzzParseLambda(f *testing.F) {
	seed(f, "lambda-")
	seedMore(f, `{"data":{"a":{"instance_type":{"name":"gpu_999x_a","description":"0x A","price_cents_per_hour":1e308,"specs":{"gpus":1e30}},"regions_with_capacity_available":[1,"r",{"name":2}]}}}`,
		`{"error":"x"}`, `{"error":{"code":"provider/x"}}`, `{"data":{"b":{"instance_type":{"description":"1x H100","specs":{"gpus":-1}}}}}`)
	c := loadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := provider.ParseLambda(c, b, fixedNow, fx)
		checkParsed(t, offers, err)
	})
}
