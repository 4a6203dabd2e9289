package commands_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/commands"
)

// Platform names in chat go through the catalog's names: the Chinese
// name, the English one, pinyin and common misspellings register the
// platform the digest prices.
func TestStorageAddPlatformNames(t *testing.T) {
	cases := []struct{ text, want string }{
		{"登记存储 矩池云 数据盘 500G", "matpool"},
		{"登记存储 恒源云 数据盘 200G", "hengyuan"},
		{"登记存储 恒原云 数据盘 200G", "hengyuan"},
		{"登记存储 hengyuanyun 200G", "hengyuan"},
		{"登记存储 juchiyun 200G 数据集", "matpool"},
		{"登记存储 矩池 64G", "matpool"},
		{"登记存储 autodl云 100G 放权重", "autodl"},
		{"登记存储 auto dl 100G", "autodl"},
		{"登记存储 lanrui 100G", "lanrui"},
		{"登记存储 秘塔智算 数据盘 1T", "mita"},
		{"register storage Mita Compute 100GB", "mita"},
		{"storage add vast 250GB", "vastai"},
		{"storage add run pod 100GB", "runpod"},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			r, st, _ := storageRouter(t)
			res := from(r, "lab1", "alice", c.text)
			ev, _ := st.StorageEvents(context.Background(), "test/lab1")
			if res.Intent != commands.IntentStorageAdd || len(ev) != 1 || ev[0].Platform != c.want {
				t.Fatalf("%q: intent %s, events %+v, want one add on %s: %s", c.text, res.Intent, ev, c.want, res.Text)
			}
		})
	}
}

// Sizes that are no disk size, platforms the catalog does not know and
// ids no disk has are refused with a short line naming the problem, never
// answered with the price overview, and nothing is written.
func TestStorageRefusals(t *testing.T) {
	cases := []struct {
		text   string
		intent string
		want   []string
	}{
		{"登记存储 AutoDL 数据盘 -50G", commands.IntentStorageAdd, []string{"没有登记", "“-50G”", "要大于 0"}},
		{"登记存储 AutoDL 数据盘 0G", commands.IntentStorageAdd, []string{"没有登记", "“0G”"}},
		{"登记存储 AutoDL 数据盘 2000T", commands.IntentStorageAdd, []string{"没有登记", "“2000T”", "太大"}},
		{"storage add autodl -50GB", commands.IntentStorageAdd, []string{"Nothing registered", "“-50GB”"}},
		{"登记存储 阿巴云 数据盘 80G", commands.IntentStorageAdd, []string{"没有登记", "不认识平台“阿巴云”", "阿里云"}},
		{"登记存储 数据盘 80G", commands.IntentStorageAdd, []string{"没有登记", "需要平台"}},
		{"登记存储 AutoDL 实验数据", commands.IntentStorageAdd, []string{"没有登记", "需要大小"}},
		{"存储 1 扩容到 -5G", commands.IntentStorageResize, []string{"#1 没有修改", "“-5G”"}},
		{"存储 1 扩容到 0G", commands.IntentStorageResize, []string{"#1 没有修改", "“0G”"}},
		{"storage resize 1 -5GB", commands.IntentStorageResize, []string{"#1 not changed", "“-5GB”"}},
		{"删除存储 abc", commands.IntentStorageRemove, []string{"没有编号 #abc", "什么都没改"}},
		{"存储 abc 删掉吧", commands.IntentStorageRemove, []string{"没有编号 #abc"}},
		{"删除存储 12a", commands.IntentStorageRemove, []string{"没有编号 #12a"}},
		{"storage remove abc", commands.IntentStorageRemove, []string{"no storage #abc"}},
		{"存储 9 已关机", commands.IntentStorageStop, []string{"没有编号 #9"}},
		// No number, one disk in the lab: that disk named, and asked first.
		{"删除存储", commands.IntentStorageRemove, []string{"#1", "确认"}},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			r, st, _ := storageRouter(t)
			from(r, "lab1", "alice", "登记存储 AutoDL 数据盘 80G")
			res := from(r, "lab1", "alice", c.text)
			if res.Intent != c.intent {
				t.Errorf("intent %s, want %s", res.Intent, c.intent)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("%q lacks %q", res.Text, w)
				}
			}
			if strings.Contains(res.Text, "计费概览") || strings.Contains(res.Text, "billing overview") || len(strings.Split(strings.TrimSpace(res.Text), "\n")) > 3 {
				t.Errorf("not a short refusal: %s", res.Text)
			}
			if ev, _ := st.StorageEvents(context.Background(), "test/lab1"); len(ev) != 1 {
				t.Errorf("the ledger changed: %+v", ev)
			}
		})
	}
}

// A disk an imported ledger named ("SSD-1") is found by that id, in any
// case; a near miss is not read as another disk.
func TestStorageImportedDiskIDs(t *testing.T) {
	r, st, now := storageRouter(t)
	ctx := context.Background()
	st.AppendStorageEvents(ctx, []ledger.StorageEvent{{Time: now.Add(-time.Hour), Lab: "test/lab1", Owner: "alice", Platform: "autodl",
		Disk: "SSD-1", Action: ledger.ActionAdd, SizeGB: 100}})
	if res := from(r, "lab1", "alice", "存储 ssd-1 已关机"); !strings.Contains(res.Text, "#SSD-1 已记为关机") {
		t.Errorf("stop by an imported id: %s", res.Text)
	}
	if res := from(r, "lab1", "alice", "删除存储 ssd-2"); !strings.Contains(res.Text, "没有编号 #ssd-2") {
		t.Errorf("near miss: %s", res.Text)
	}
	if res := from(r, "lab1", "alice", "storage remove SSD-1"); !strings.Contains(res.Text, "#SSD-1 (AutoDL 100 GB) is removed") {
		t.Errorf("remove by an imported id: %s", res.Text)
	}
}

// A data disk price only the seed articles give carries the unverified
// mark wherever a ledger answer shows it (the price, the amounts derived
// from it, the list's total) with the legend line; a sourced or
// lab-configured price carries none.
func TestStorageSeedOnlyPriceMarked(t *testing.T) {
	r, _, now := storageRouter(t)
	const legend = "* 只有 2025 年的租卡测评文章这么写，未经其他来源核实"
	res := from(r, "lab1", "alice", "登记存储 秘塔智算 数据盘 1T")
	// 1000 GB × 1/30 CNY per GB-month: 33.30 a day, 999.0 per 30 days
	// (the seed's "1 元/GB/天" read per month, as its other disk figures).
	for _, w := range []string{"0.0333* 元/GB·天", "33.30* 元/天", "999.0* 元/30天", legend} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("seed-only add lacks %q: %s", w, res.Text)
		}
	}
	for _, text := range []string{"登记存储 恒源云 数据盘 200G", "登记存储 AutoDL 数据盘 80G"} {
		// 恒源云: a sourced catalog price; AutoDL: the lab's configured one.
		if res := from(r, "lab1", "alice", text); strings.Contains(res.Text, "*") {
			t.Errorf("%s: a verified price is marked: %s", text, res.Text)
		}
	}
	*now = now.Add(time.Hour)
	res = from(r, "lab1", "alice", "存储列表")
	// 999.0 + 200 × 0.0168 × 30 (100.8) + (80 − 50) × 0.01 × 30 (9.0).
	if !strings.Contains(res.Text, "999.0*") || !strings.Contains(res.Text, "100.8\n") || !strings.Contains(res.Text, "合计约 1108.8* 元/30天") || !strings.Contains(res.Text, legend) {
		t.Errorf("list: %s", res.Text)
	}
	if res := from(r, "lab1", "alice", "存储 1 已关机"); strings.Contains(res.Text, "*") || !strings.Contains(res.Text, "不收数据盘费用") {
		// 秘塔智算 does not bill a stopped disk: no seed price is shown.
		t.Errorf("stop: %s", res.Text)
	}
	if res := from(r, "lab1", "alice", "存储 1 扩容到 2T"); !strings.Contains(res.Text, "#1 已改为 2 TB") || !strings.Contains(res.Text, "不收数据盘费用") || strings.Contains(res.Text, "*") {
		t.Errorf("resize while stopped: %s", res.Text)
	}
}
