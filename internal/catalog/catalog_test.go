package catalog_test

import (
	"encoding/csv"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

// sharedData holds the seed articles' platform table and the estimator's
// GPU and model lists, copied from the project's reference data.
const sharedData = "testdata/"

func loadEmbedded(t *testing.T) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatalf("embedded catalog does not load: %v", err)
	}
	return c
}

// readColumn returns the values of column col (by header name) in a CSV
// file, skipping the test when the file is absent.
func readColumn(t *testing.T, path, col string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s is empty", path)
	}
	idx := -1
	for i, h := range rows[0] {
		if strings.TrimSpace(h) == col {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatalf("%s: no column %q in %v", path, col, rows[0])
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range rows[1:] {
		v := strings.TrimSpace(r[idx])
		if v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func TestEmbeddedCatalogLoads(t *testing.T) {
	c := loadEmbedded(t)
	if len(c.Platforms) == 0 || len(c.GPUs) == 0 || len(c.Models) == 0 {
		t.Fatalf("empty catalog: %d platforms, %d GPUs, %d models", len(c.Platforms), len(c.GPUs), len(c.Models))
	}
	if c.FXUSDCNY <= 0 {
		t.Errorf("fx_usd_cny = %v", c.FXUSDCNY)
	}
	// Extra platforms the brief asks for beyond the seed table.
	for _, id := range []string{"vastai", "runpod", "lambda", "featurize"} {
		if _, ok := c.Platform(id); !ok {
			t.Errorf("platform %q missing", id)
		}
	}
}

func TestEverySeedPlatformHasAnEntry(t *testing.T) {
	c := loadEmbedded(t)
	ids := readColumn(t, sharedData+"seed-platform-facts.csv", "platform_id")
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			p, ok := c.Platform(id)
			if !ok {
				t.Fatalf("no catalog entry for seed platform %q", id)
			}
			if p.Name.Zh == "" || p.Name.En == "" {
				t.Errorf("name incomplete: %+v", p.Name)
			}
			if p.Kind == "" {
				t.Errorf("kind empty")
			}
		})
	}
}

func TestEstimatorGPUsResolve(t *testing.T) {
	c := loadEmbedded(t)
	for _, name := range readColumn(t, sharedData+"gpus.csv", "gpu") {
		t.Run(name, func(t *testing.T) {
			if id, ok := c.ResolveGPU(name); !ok {
				t.Errorf("ResolveGPU(%q) failed", name)
			} else if _, ok := c.GPU(id); !ok {
				t.Errorf("ResolveGPU(%q) = %q, not a GPU id", name, id)
			}
		})
	}
}

func TestEstimatorModelsResolve(t *testing.T) {
	c := loadEmbedded(t)
	for _, name := range readColumn(t, sharedData+"models.csv", "model") {
		t.Run(name, func(t *testing.T) {
			if id, ok := c.ResolveModel(name); !ok {
				t.Errorf("ResolveModel(%q) failed", name)
			} else if _, ok := c.Model(id); !ok {
				t.Errorf("ResolveModel(%q) = %q, not a model id", name, id)
			}
		})
	}
}

// Every figure in the shipped catalog must be dated and sourced; seed-only
// figures must say so.
func TestEmbeddedFiguresAreSourced(t *testing.T) {
	c := loadEmbedded(t)
	check := func(where string, f *catalog.Figure) {
		if f == nil {
			return
		}
		if f.AsOf == "" || f.Source == "" {
			t.Errorf("%s: as_of %q / source %q", where, f.AsOf, f.Source)
		}
		if strings.HasPrefix(f.Source, "seed ") && f.Verified {
			t.Errorf("%s: seed-only figure marked verified (source %q)", where, f.Source)
		}
	}
	for i := range c.Platforms {
		p := &c.Platforms[i]
		check(p.ID+" data disk", p.Storage.DataDiskCNYPerGBDay)
		check(p.ID+" no-card", p.Storage.NoCard.CNYPerHour)
		for _, pr := range p.Prices {
			check(p.ID+" "+pr.GPU, &pr.CNYPerHour)
		}
		if p.Billing.Source == "" {
			t.Errorf("%s: billing.source empty", p.ID)
		}
	}
}

// gpusYAML and modelsYAML are minimal valid files for the validation tests.
const gpusYAML = `gpus:
  - id: "RTX 4090"
    family: "RTX 4090"
    aliases: ["4090"]
    arch: Ada
    class: consumer
    memory_gb: 24
    bandwidth_gbs: 1008
    tensor_tflops: 165
    fp32_tflops: 82.6
    bf16: true
    flash_attn2: true
    source: test
`

const modelsYAML = `models:
  - id: "Qwen2.5-7B"
    hf_repo: Qwen/Qwen2.5-7B
    params_b: 7.6
    layers: 28
    hidden: 3584
    heads: 28
    kv_heads: 4
    head_dim: 128
    vocab: 152064
    intermediate: 18944
    max_position: 32768
    source: test
`

func platformYAML(id, prices string) string {
	return `  - id: ` + id + `
    name: {zh: "X", en: "X"}
    kind: marketplace
    billing: {modes: [hourly], granularity: second, minimum_minutes: 0, as_of: "2026", source: test}
    storage: {system_disk_free_gb: 0, data_disk_free_gb: 0, billed_while_stopped: false, no_card: {available: false}}
` + prices
}

func fsWith(catalogYAML string) fstest.MapFS {
	return fstest.MapFS{
		catalog.PlatformsFile: {Data: []byte(catalogYAML)},
		catalog.GPUsFile:      {Data: []byte(gpusYAML)},
		catalog.ModelsFile:    {Data: []byte(modelsYAML)},
	}
}

func TestValidationErrors(t *testing.T) {
	const head = "fx_usd_cny: 7.2\nplatforms:\n"
	price := func(gpu, fig string) string {
		return "    prices:\n      - gpu: \"" + gpu + "\"\n        cny_per_hour: " + fig + "\n"
	}
	tests := []struct {
		name string
		yaml string
		want []string
	}{
		{
			name: "valid",
			yaml: head + platformYAML("x", price("RTX 4090", `{low: 1, high: 2, as_of: "2026", source: s, verified: true}`)),
		},
		{
			name: "unknown GPU id",
			yaml: head + platformYAML("x", price("RTX 9999", `{low: 1, high: 1, as_of: "2026", source: s, verified: true}`)),
			want: []string{"catalog.yaml", `platform "x"`, `"RTX 9999"`, "unknown GPU id"},
		},
		{
			name: "negative price",
			yaml: head + platformYAML("x", price("RTX 4090", `{low: -1, high: 1, as_of: "2026", source: s, verified: true}`)),
			want: []string{"catalog.yaml", `platform "x"`, `"RTX 4090"`, "negative"},
		},
		{
			name: "price without as_of",
			yaml: head + platformYAML("x", price("RTX 4090", `{low: 1, high: 1, source: s, verified: true}`)),
			want: []string{"catalog.yaml", `platform "x"`, `"RTX 4090"`, "as_of"},
		},
		{
			name: "as_of without a year",
			yaml: head + platformYAML("x", price("RTX 4090", `{low: 1, high: 1, as_of: "recently", source: s, verified: true}`)),
			want: []string{"catalog.yaml", `platform "x"`, `"RTX 4090"`, "no year"},
		},
		{
			name: "price without source",
			yaml: head + platformYAML("x", price("RTX 4090", `{low: 1, high: 1, as_of: "2026"}`)),
			want: []string{"catalog.yaml", `platform "x"`, `"RTX 4090"`, "source"},
		},
		{
			name: "high below low",
			yaml: head + platformYAML("x", price("RTX 4090", `{low: 3, high: 1, as_of: "2026", source: s}`)),
			want: []string{"catalog.yaml", `platform "x"`, "below"},
		},
		{
			name: "unknown yaml key",
			yaml: head + platformYAML("x", "    colour: blue\n"),
			want: []string{"catalog.yaml", "colour"},
		},
		{
			name: "duplicate platform id",
			yaml: head + platformYAML("x", "") + platformYAML("x", ""),
			want: []string{"catalog.yaml", `platform "x"`, "duplicate"},
		},
		{
			name: "bad granularity",
			yaml: head + strings.Replace(platformYAML("x", ""), "granularity: second", "granularity: fortnight", 1),
			want: []string{"catalog.yaml", `platform "x"`, "fortnight"},
		},
		{
			name: "missing fx rate",
			yaml: "platforms:\n" + platformYAML("x", ""),
			want: []string{"catalog.yaml", "fx_usd_cny"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := catalog.Load(fsWith(tt.yaml))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("valid catalog rejected: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Load accepted a broken catalog:\n%s", tt.yaml)
			}
			t.Logf("error: %v", err)
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestMissingFile(t *testing.T) {
	fsys := fsWith("fx_usd_cny: 7.2\nplatforms: []\n")
	delete(fsys, catalog.ModelsFile)
	_, err := catalog.Load(fsys)
	if err == nil || !strings.Contains(err.Error(), catalog.ModelsFile) {
		t.Fatalf("Load without models.yaml: err = %v", err)
	}
}

func TestResolveGPU(t *testing.T) {
	c := loadEmbedded(t)
	tests := []struct {
		in   string
		want string // "" = must not resolve to one GPU
	}{
		{"４０９０", "RTX 4090"},
		{"rtx4090", "RTX 4090"},
		{"RTX-4090", "RTX 4090"},
		{"RTX 4090", "RTX 4090"},
		{"4090 24G", "RTX 4090"},
		{"NVIDIA GeForce RTX 4090", "RTX 4090"},
		{"4090D", "RTX 4090D"},
		{"RTX 4090D", "RTX 4090D"},
		{"ＲＴＸ４０９０Ｄ", "RTX 4090D"},
		{"A100 80G", "A100 80GB"},
		{"A100-80GB", "A100 80GB"},
		{"A100-SXM4-80GB", "A100 80GB"},
		{"A100 PCIe 80GB", "A100 80GB"},
		{"A100 40G", "A100 40GB"},
		{"3090", "RTX 3090"},
		{"910B", "Ascend 910B"},
		// Lambda's instance descriptions: the form factor, not the first
		// family member with that memory size, decides.
		{"1x H100 (80 GB PCIe)", "H100 PCIe"},
		{"1x H100 (80 GB SXM5)", "H100 SXM"},
		{"H100 (80 GB PCIe)", "H100 PCIe"},
		{"H100 (PCIe)", "H100 PCIe"},
		{"A100 (40 GB SXM4)", "A100 40GB"},
		{"Tesla V100 (16 GB)", "V100 16GB"},
		{"GeForce RTX 3090,24GB", "RTX 3090"},
		{"NVIDIA GeForce RTX 4090 PCIe 24GB", "RTX 4090"},
		{"A100", ""},
		{"A100 PCIe", ""},
		{"V100", ""},
		{"40900", ""},
		{"RTX 9999", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := c.ResolveGPU(tt.in)
			if tt.want == "" {
				if ok {
					t.Errorf("ResolveGPU(%q) = %q, want no single GPU", tt.in, got)
				}
				return
			}
			if !ok || got != tt.want {
				t.Errorf("ResolveGPU(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestFindGPUsInText(t *testing.T) {
	c := loadEmbedded(t)
	tests := []struct {
		text   string
		ids    []string
		family []bool
	}{
		{"哪家有４０９０", []string{"RTX 4090"}, []bool{false}},
		{"4090D 和 4090 哪个便宜", []string{"RTX 4090D", "RTX 4090"}, []bool{false, false}},
		{"A100 多少钱", []string{"A100"}, []bool{true}},
		{"A100 80G 多少钱", []string{"A100 80GB"}, []bool{false}},
		{"订阅 4090 低于2.5元", []string{"RTX 4090"}, []bool{false}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			ms := c.FindGPUs(catalog.Fold(tt.text))
			var ids []string
			var fam []bool
			for _, m := range ms {
				ids = append(ids, m.ID)
				fam = append(fam, m.Family)
			}
			if !reflect.DeepEqual(ids, tt.ids) || !reflect.DeepEqual(fam, tt.family) {
				t.Errorf("FindGPUs(%q) = %v %v, want %v %v", tt.text, ids, fam, tt.ids, tt.family)
			}
		})
	}
}

func TestBareFamily(t *testing.T) {
	c := loadEmbedded(t)
	ms := c.FindGPUs(catalog.Fold("A100"))
	if len(ms) != 1 || !ms[0].Family || ms[0].ID != "A100" {
		t.Fatalf("FindGPUs(A100) = %+v, want one family match", ms)
	}
	got := c.FamilyMembers(ms[0].ID)
	want := []string{"A100 40GB", "A100 80GB"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FamilyMembers(A100) = %v, want %v", got, want)
	}
	if got := c.FamilyMembers("RTX 4090"); !reflect.DeepEqual(got, []string{"RTX 4090"}) {
		t.Errorf("FamilyMembers(RTX 4090) = %v", got)
	}
}

func TestResolveModel(t *testing.T) {
	c := loadEmbedded(t)
	tests := []struct{ in, want string }{
		{"Qwen2.5-7B", "Qwen2.5-7B"},
		{"qwen2.5 7b", "Qwen2.5-7B"},
		{"QWEN2.5-7B", "Qwen2.5-7B"},
		{"Qwen2.5-72B", "Qwen2.5-72B"},
		{"llama2 7b", "Llama-2-7B"},
		{"ChatGLM3-6B", "ChatGLM3-6B"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got, ok := c.ResolveModel(tt.in); !ok || got != tt.want {
				t.Errorf("ResolveModel(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
	if got, ok := c.ResolveModel("GPT-9"); ok {
		t.Errorf("ResolveModel(GPT-9) = %q, want no match", got)
	}
}

func TestResolvePlatform(t *testing.T) {
	c := loadEmbedded(t)
	tests := []struct{ in, want string }{
		{"恒源云", "hengyuan"},
		{"恒源", "hengyuan"},
		{"gpushare", "hengyuan"},
		{"GPUShare", "hengyuan"},
		{"AutoDL", "autodl"},
		{"autodl", "autodl"},
		{"矩池云", "matpool"},
		{"矩池", "matpool"},
		{"揽睿", "lanrui"},
		{"揽睿星舟", "lanrui"},
		{"vast.ai", "vastai"},
		{"vast", "vastai"},
		{"秘塔智算", "mita"},
		{"阿里云", "aliyun"},
		{"腾讯云", "tencent"},
		{"Colab", "colab"},
		{"RunPod", "runpod"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got, ok := c.ResolvePlatform(tt.in); !ok || got != tt.want {
				t.Errorf("ResolvePlatform(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestSourcedFiguresWin(t *testing.T) {
	c := loadEmbedded(t)
	autodl, ok := c.Platform("autodl")
	if !ok {
		t.Fatal("autodl missing")
	}
	d := autodl.Storage.DataDiskCNYPerGBDay
	if d == nil {
		t.Fatal("autodl data disk figure missing")
	}
	if d.High >= 0.02 || d.Low >= 0.02 {
		t.Errorf("autodl data disk %v-%v CNY/GB-day; the seed's 0.5 is wrong, sourced figure is ~0.0066", d.Low, d.High)
	}
	hy, ok := c.Platform("hengyuan")
	if !ok {
		t.Fatal("hengyuan missing")
	}
	if hy.Billing.Granularity != "second" {
		t.Errorf("hengyuan granularity %q, want second (seed's per-minute is wrong)", hy.Billing.Granularity)
	}
	if g := hy.Billing.GranularityHours(); g != 1.0/3600 {
		t.Errorf("hengyuan GranularityHours = %v", g)
	}
}
