package slots

import (
	"testing"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/slots/claim"
	"github.com/labgpu/bot/internal/understand/slots/oom"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// TestReadClaim: what a fact check's claim names, beside its prices.
func TestReadClaim(t *testing.T) {
	for _, c := range []struct {
		text string
		want claim.Claim
	}{
		{"文章说 AutoDL 数据盘免费，是真的吗", claim.Claim{Disk: true, Free: true}},
		{"听说 autodl 数据盘 0.5元/GB/天", claim.Claim{Disk: true}},
		{"有人说恒源云无卡模式 0.1 元一小时", claim.Claim{NoCard: true}},
		{"听说 AutoDL 关机 15 天会删数据", claim.Claim{Delete: true, Days: 15, HasDays: true}},
		{"据说关机十五天就释放实例", claim.Claim{Delete: true, Days: 15, HasDays: true}},
		{"AutoDL 是按秒计费的吗", claim.Claim{Grain: "second"}},
		{"听说恒源云按 分钟 计费", claim.Claim{Grain: "minute"}},
		{"is it true that vast.ai bills per hour", claim.Claim{Grain: "hour"}},
		{"矩池云有竞价实例吗", claim.Claim{Spot: true}},
		{"4090 比 3090 快 1.5-2 倍？", claim.Claim{TimesLow: 1.5, TimesHigh: 2, HasTimes: true}},
		{"they say an h100 is 3x an a100", claim.Claim{TimesLow: 3, TimesHigh: 3, HasTimes: true}},
		{"is the free tier real", claim.Claim{Free: true}},
		{"is it freely available", claim.Claim{}},
		{"A100 真的 1.5 块一小时吗", claim.Claim{}},
	} {
		got := claim.Read(catalog.Fold(c.text))
		if *got != c.want {
			t.Errorf("%q: %+v, want %+v", c.text, *got, c.want)
		}
	}
}

// TestReadOOMError: the figures of the last pasted CUDA OOM error, 1.x
// and 2.x formats, MiB as GiB; none without a request, nor an
// implausible one.
func TestReadOOMError(t *testing.T) {
	for _, c := range []struct {
		text string
		want *oom.Error
	}{
		{"RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total capacity; 21.40 GiB already allocated; 1.02 GiB free; 21.50 GiB reserved)",
			&oom.Error{AllocGiB: 2, TotalGiB: 23.65, FreeGiB: 1.02}},
		{"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 1.06 GiB is free.",
			&oom.Error{AllocGiB: 0.5, TotalGiB: 23.65, FreeGiB: 1.06}},
		{"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB.", &oom.Error{AllocGiB: 1.96, TotalGiB: -1, FreeGiB: -1}},
		// The last error of a paste is read, from its line on.
		{"Tried to allocate 9.00 GiB (GPU 0; 79.00 GiB total capacity)\nTraceback …\nTRIED TO ALLOCATE 3.00 GIB (GPU 0; 23.65 GIB TOTAL CAPACITY; 512 MIB FREE)",
			&oom.Error{AllocGiB: 3, TotalGiB: 23.65, FreeGiB: 0.5}},
		// The asker's own words after the error: the whole paste.
		{"CUDA out of memory. Tried to allocate 2.00 GiB\n为什么 tried to allocate 这么多", &oom.Error{AllocGiB: 2, TotalGiB: -1, FreeGiB: -1}},
		{"Tried to allocate 99999999999999999999 GiB", nil},
		{"CUDA out of memory 怎么办", nil},
		{"", nil},
	} {
		got := oom.Read(c.text)
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%q: %+v, want %+v", c.text, got, c.want)
		}
	}
}

// TestServingWords: an OOM report that speaks of inference or serving;
// an English word only as a whole word.
func TestServingWords(t *testing.T) {
	serving := servingWords.List()
	for text, want := range map[string]bool{
		"vllm 部署 7b 爆显存": true, "7B 推理 OOM": true, "serving qwen 7b oom": true, "7b lora oom": false,
		"observe the oom": false, "generated text oom": false, "inference oom": true,
	} {
		if got := words.ContainsAny(catalog.Fold(text), serving); got != want {
			t.Errorf("%q: serving %v, want %v", text, got, want)
		}
	}
}

// FuzzAdviceSlots: any text reads without a panic into a claim and an
// OOM error whose figures are plausible (or absent).
func FuzzAdviceSlots(f *testing.F) {
	for _, s := range []string{"关机 15 天删数据", "按分钟计费", "快 1.5-2 倍", "Tried to allocate 1.96 GiB", "tried to allocate 9e999 gib", "TRIED TO ALLOCATE 1 MIB\n", "\xffried to allocate"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := claim.Read(catalog.Fold(s))
		if c.Grain != "" && c.Grain != "second" && c.Grain != "minute" && c.Grain != "hour" {
			t.Fatalf("%q: grain %q", s, c.Grain)
		}
		if e := oom.Read(s); e != nil && (e.AllocGiB < 0 || e.AllocGiB > 1e6 || e.TotalGiB < -1 || e.FreeGiB < -1) {
			t.Fatalf("%q: %+v", s, *e)
		}
	})
}
