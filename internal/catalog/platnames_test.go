package catalog_test

import (
	"reflect"
	"testing"
)

// TestPlatformID: a name written on its own resolves to its platform
// whether it is the id, the Chinese or English name, pinyin or a common
// misspelling (configs/catalog.yaml aliases); a longer text or an unknown
// name does not.
func TestPlatformID(t *testing.T) {
	c := loadEmbedded(t)
	for raw, want := range map[string]string{
		"autodl": "autodl", "AutoDL": "autodl", "auto dl": "autodl", "Auto-DL": "autodl", "autodl云": "autodl", "ＡｕｔｏＤＬ": "autodl", "atuodl": "autodl",
		"恒源云": "hengyuan", "恒原云": "hengyuan", "hengyuanyun": "hengyuan", "hengyuan yun": "hengyuan", "GPUShare (Hengyuan Cloud)": "hengyuan",
		"矩池云": "matpool", "矩池": "matpool", "juchiyun": "matpool", "巨池云": "matpool",
		"揽睿星舟": "lanrui", "lanrui": "lanrui", "LanRui Xingzhou": "lanrui",
		"秘塔智算": "mita", "mita": "mita", "秘塔": "mita", "密塔智算": "mita",
		"vast": "vastai", "vast.ai": "vastai", "run pod": "runpod", "Lambda Labs": "lambda",
		"AutoDL 或 恒源云": "", "阿巴云": "", "": "", "autodl-fs": "",
	} {
		got, ok := c.PlatformID(raw)
		if got != want || ok != (want != "") {
			t.Errorf("PlatformID(%q) = %q, %v; want %q", raw, got, ok, want)
		}
	}
}

// TestClosestPlatforms: the nearest names by edit distance, nearest
// first; nothing for a word like no platform.
func TestClosestPlatforms(t *testing.T) {
	c := loadEmbedded(t)
	for _, tc := range []struct {
		raw  string
		want []string
	}{
		{"autdll", []string{"autodl"}},
		{"hengyun", []string{"hengyuan"}},
		{"阿巴云", []string{"aliyun", "hengyuan", "matpool"}},
		{"ruonpod", []string{"runpod"}},
		{"my own server", nil},
		{"", nil},
	} {
		if got := c.ClosestPlatforms(tc.raw, 3); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ClosestPlatforms(%q) = %v, want %v", tc.raw, got, tc.want)
		}
	}
}

// TestDataDiskPricesPlausible: data disk prices are CNY per GB-day. The
// dearest sourced one is Featurize's 0.01 CNY/GB-hour (0.24 a day); a
// figure far above it is a per-month price read as per-day (as the
// seed's "1 元/GB/天" for 秘塔智算 was: 1 TB at 1000 CNY a day).
func TestDataDiskPricesPlausible(t *testing.T) {
	for _, p := range loadEmbedded(t).Platforms {
		if f := p.Storage.DataDiskCNYPerGBDay; f != nil && f.High > 0.3 {
			t.Errorf("%s: data disk %v-%v CNY/GB-day: 1 TB would cost %.0f CNY a day", p.ID, f.Low, f.High, f.High*1000)
		}
	}
}

// TestNearPlatform: a Latin word one letter off one platform's name is
// that platform; an exact name, a word near two platforms alike or near
// none, or one with another first letter finds none.
func TestNearPlatform(t *testing.T) {
	c := loadEmbedded(t)
	for _, tc := range []struct {
		word string
		want string
	}{
		{"lamda", "lambda"},
		{"henyuan", "hengyuan"},
		{"runpood", "runpod"},
		{"matpol", "matpool"},
		{"lambda", ""}, // exact: the matcher reads it
		{"about", ""},
		{"there", ""},
		{"ambda", ""}, // another first letter
		{"恒远云", ""},
	} {
		got, _ := c.NearPlatform(tc.word, 1)
		if got != tc.want {
			t.Errorf("NearPlatform(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}
