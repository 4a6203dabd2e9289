package fakes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
)

// VastBody builds vast.ai bundles answers from the recording
// testdata/stock/vastai-bundles.json: its RTX 4090 offers while the
// 4090 is in stock, and always an RTX 3090 offer derived from the first
// one (vast.ai lists only what is rentable: without the 4090 rows the
// answer must still list something, or it is an empty search).
func VastBody(fixtures string) (func(map[string]bool) []byte, error) {
	b, err := os.ReadFile(filepath.Join(fixtures, "stock", "vastai-bundles.json"))
	if err != nil {
		return nil, err
	}
	var rec struct {
		Offers []map[string]any `json:"offers"`
	}
	if err := json.Unmarshal(b, &rec); err != nil || len(rec.Offers) == 0 {
		return nil, fmt.Errorf("vastai-bundles.json: no offers (%v)", err)
	}
	other := map[string]any{}
	for k, v := range rec.Offers[0] {
		other[k] = v
	}
	other["id"], other["ask_contract_id"], other["machine_id"] = 31847001, 31847001, 43001
	other["gpu_name"], other["dph_base"], other["dph_total"], other["discounted_dph_total"] = "RTX 3090", 0.18, 0.2031, 0.2031
	return func(in map[string]bool) []byte {
		var offers []map[string]any
		for _, o := range rec.Offers {
			if in[fmt.Sprint(o["gpu_name"])] {
				offers = append(offers, o)
			}
		}
		offers = append(offers, other)
		out, _ := json.Marshal(map[string]any{"offers": offers})
		return out
	}, nil
}

// RunPodBody builds RunPod REST v2 catalog answers (GET
// /v2/catalog/gpus) from the recording
// testdata/stock-verbatim/runpod-rest-v2-catalog-gpus-1.json, each GPU's
// availability (and its data centers') HIGH while in stock, else NONE.
func RunPodBody(fixtures string) (func(map[string]bool) []byte, error) {
	b, err := os.ReadFile(filepath.Join(fixtures, "stock-verbatim", "runpod-rest-v2-catalog-gpus-1.json"))
	if err != nil {
		return nil, err
	}
	var probe struct {
		GPUs []map[string]any `json:"gpus"`
	}
	if err := json.Unmarshal(b, &probe); err != nil || len(probe.GPUs) == 0 {
		return nil, fmt.Errorf("runpod-rest-v2-catalog-gpus-1.json: no gpus (%v)", err)
	}
	return func(in map[string]bool) []byte {
		var rec struct {
			GPUs []map[string]any `json:"gpus"`
		}
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		_ = d.Decode(&rec)
		for _, g := range rec.GPUs {
			level := "NONE"
			if in[fmt.Sprint(g["name"])] {
				level = "HIGH"
			}
			g["availability"] = level
			if dcs, ok := g["dataCenters"].([]any); ok {
				for _, dc := range dcs {
					if m, ok := dc.(map[string]any); ok {
						m["availability"] = level
					}
				}
			}
		}
		out, _ := json.Marshal(rec)
		return out
	}, nil
}

// RunPodCloud is the request kind of a RunPod catalog request: its cloud.
func RunPodCloud(r *http.Request) string { return r.URL.Query().Get("cloud") }
