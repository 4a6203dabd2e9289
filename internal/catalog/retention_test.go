package catalog_test

import (
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/catalog"
)

// TestTimedRules: the platforms the seeds' data-loss stories are about
// carry timed rules with sources and dates (AutoDL 15 days, 恒源云 /hy-tmp
// 24 h and 10 days, also after a plan ends, 秘塔智算 at shutdown, seed
// only); platforms without a known deletion rule carry none.
func TestTimedRules(t *testing.T) {
	c := loadEmbedded(t)
	want := map[string][]string{
		"autodl":   {"instance 360h0m0s verified"},
		"hengyuan": {"scratch 24h0m0s verified plan", "instance 240h0m0s verified plan"},
		"mita":     {"instance 0s seed"},
		"matpool":  nil, "lanrui": nil, "runpod": nil, "vastai": nil, "lambda": nil,
	}
	for id, rules := range want {
		p, ok := c.Platform(id)
		if !ok {
			t.Fatalf("no platform %s", id)
		}
		var got []string
		for _, r := range p.Retention {
			if !r.Timed() {
				continue
			}
			s := r.Wipes + " " + r.After().String()
			if r.Verified {
				s += " verified"
			} else {
				s += " seed"
			}
			if r.PlanExpiry {
				s += " plan"
			}
			if r.Cite.Zh == "" || r.Lost.Zh == "" || r.AsOf == "" || r.Source == "" {
				t.Errorf("%s: a timed rule without its cite, loss, date or source: %+v", id, r)
			}
			got = append(got, s)
		}
		if strings.Join(got, "|") != strings.Join(rules, "|") {
			t.Errorf("%s: timed rules %q, want %q", id, got, rules)
		}
	}
}

// TestDiskKind reads a ledger note as the platform's storage.
func TestDiskKind(t *testing.T) {
	c := loadEmbedded(t)
	cases := []struct{ platform, note, want string }{
		{"autodl", "autodl-fs 脚本", catalog.DiskPersistent},
		{"autodl", "-fs 脚本", catalog.DiskPersistent},
		{"autodl", "文件存储 放权重", catalog.DiskPersistent},
		{"autodl", "实验数据", catalog.DiskUnknown},
		{"autodl", "offset 数据", catalog.DiskUnknown}, // "fs" glued inside a word
		{"hengyuan", "/hy-tmp 数据集", catalog.DiskScratch},
		{"hengyuan", "ＨＹ－ＴＭＰ 数据", catalog.DiskScratch},
		{"hengyuan", "hy-nas 权重", catalog.DiskPersistent},
		{"hengyuan", "boss 的数据", catalog.DiskUnknown}, // "oss" glued inside a word
		{"hengyuan", "OSS 备份", catalog.DiskPersistent},
		{"mita", "hy-tmp", catalog.DiskUnknown},
	}
	for _, cs := range cases {
		p, _ := c.Platform(cs.platform)
		if got := p.DiskKind(cs.note); got != cs.want {
			t.Errorf("%s %q: kind %q, want %q", cs.platform, cs.note, got, cs.want)
		}
	}
}

// TestRetentionValidation: a timed rule needs a known clock and wipes,
// days ≥ 0, what is lost and a cite in both languages, a dated source.
func TestRetentionValidation(t *testing.T) {
	const head = "fx_usd_cny: 7.2\nplatforms:\n"
	good := `{days: 15, text: {zh: a, en: a}, source: s, clock: stopped, wipes: instance, lost: {zh: a, en: a}, cite: {zh: c, en: c}, as_of: "2026"}`
	rule := func(r string) string { return head + platformYAML("x", "    retention:\n      - "+r+"\n") }
	cases := []struct{ name, yaml, want string }{
		{"valid", rule(good), ""},
		{"untimed rule needs nothing more", rule(`{days: 0, text: {zh: a, en: a}, source: s}`), ""},
		{"unknown clock", rule(strings.Replace(good, "clock: stopped", "clock: arrears", 1)), `clock "arrears"`},
		{"unknown wipes", rule(strings.Replace(good, "wipes: instance", "wipes: gpu", 1)), `wipes "gpu"`},
		{"negative days", rule(strings.Replace(good, "days: 15", "days: -1", 1)), "negative"},
		{"no cite", rule(strings.Replace(good, "cite: {zh: c, en: c}", "cite: {zh: c}", 1)), "cite"},
		{"no date", rule(strings.Replace(good, `as_of: "2026"`, `as_of: "soon"`, 1)), "no year"},
		{"no source", rule(strings.Replace(good, "source: s", `source: ""`, 1)), "source is empty"},
	}
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			c, err := catalog.Load(fsWith(cs.yaml))
			if cs.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				p, _ := c.Platform("x")
				if got := p.Retention[0].After(); got != time.Duration(p.Retention[0].Days*24)*time.Hour {
					t.Errorf("After = %v", got)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), cs.want) || !strings.Contains(err.Error(), `platform "x": retention #1`) {
				t.Errorf("error %v, want one naming the rule and %q", err, cs.want)
			}
		})
	}
}
