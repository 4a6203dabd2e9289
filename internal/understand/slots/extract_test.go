package slots

import (
	"slices"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

// TestExtract: the extractors fill the slots, show names and figures to
// the scorer as placeholders and tag what they found.
func TestExtract(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text   string
		check  func(q *Query) bool
		scorer string
		tags   []string
	}{
		{"1块5以下的4090", func(q *Query) bool { return q.GPU == "RTX 4090" && q.MaxPriceCNY == 1.5 && q.PriceCNY == 0 },
			" §money 以下的 §gpu ", []string{"ceiling"}},
		{"两块五的a100有吗", func(q *Query) bool { return q.GPU == "A100" && q.PriceCNY == 2.5 && q.MaxPriceCNY == 0 },
			" §money 的 §gpu 有吗", nil},
		{"autodl 和 恒源云 哪个便宜", func(q *Query) bool { return slices.Equal(q.Platforms, []string{"autodl", "hengyuan"}) },
			" §plat  和  §plat  哪个便宜", []string{"two_platforms"}},
		{"两张4090 训练7b lora 5万条 3轮", func(q *Query) bool {
			return q.GPUCount == 2 && q.ParamsB == 7 && q.Method == "lora" && q.Samples == 50000 && q.Epochs == 3
		}, "两张 §gpu  训练 §params lora 5万条 3轮", []string{"job", "method"}},
		{"登记存储 autodl 200G 实验数据", func(q *Query) bool { return q.Platform == "autodl" && q.SizeGB == 200 },
			"登记存储  §plat   §size  实验数据", []string{"size"}},
		{"上周存储花了多少", func(q *Query) bool { return q.Period == PeriodLastWeek }, "上周存储花了多少", []string{"period"}},
		{"包月 a100 多少钱", func(q *Query) bool { return q.BillingMode == ModeMonthly && q.GPU == "A100" },
			" §mode   §gpu  多少钱", []string{"mode"}},
		{"4o90 有货吗", func(q *Query) bool { return q.GPU == "RTX 4090" }, " §gpu  有货吗", nil},
		{"我们组5个人每人一张4090跑一个月", func(q *Query) bool { return q.GPUCount == 5 && q.People == 5 && q.PerPerson == 1 },
			"我们组5个人每人一张 §gpu 跑 §mode ", []string{"mode"}},
		{"我跟两个师妹各一张3090", func(q *Query) bool { return q.GPUCount == 3 && q.People == 3 }, "我跟两个师妹各一张 §gpu ", nil},
		{"3个人总共两张a100", func(q *Query) bool { return q.GPUCount == 2 && q.People == 0 }, "3个人总共两张 §gpu ", nil},
		{"4 of us, two 3090s each", func(q *Query) bool { return q.GPUCount == 8 && q.People == 4 && q.PerPerson == 2 },
			"4 of us, two  §gpu s each", nil},
		{"横源云呢", func(q *Query) bool { return q.Platform == "hengyuan" }, " §plat 呢", []string{"short"}},
		{"资源呢", func(q *Query) bool { return len(q.Platforms) == 0 }, "资源呢", []string{"no_domain", "short"}},
		{"henyuan云呢", func(q *Query) bool { return q.Platform == "hengyuan" }, " §plat 呢", nil},
		{"and lamda?", func(q *Query) bool { return slices.Equal(q.Platforms, []string{"lambda"}) }, "and  §plat ?", nil},
		{"不要runpood", func(q *Query) bool {
			return len(q.Platforms) == 0 && slices.Equal(q.ExcludePlatforms, []string{"runpod"})
		},
			"不要 §plat ", []string{"off", "no_domain"}},
	} {
		x := Extract(cat, c.text, false)
		if !c.check(x.Query()) {
			t.Errorf("%q: slots %+v", c.text, *x.Query())
		}
		if got := x.ScorerText(); got != c.scorer {
			t.Errorf("%q: scorer text %q, want %q", c.text, got, c.scorer)
		}
		if got := x.SlotTags(); !slices.Equal(got, c.tags) {
			t.Errorf("%q: tags %v, want %v", c.text, got, c.tags)
		}
	}
}

// TestExtractionFinishers: the intent's own slots, read after the
// pipeline chose the intent.
func TestExtractionFinishers(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		"登记存储 autodl 200G 实验数据":                "实验数据",
		"登记存储 恒源云 200G 赵六 数据集":                 "赵六 数据集", // (fresh pass S: "赵 集")
		"登记存储 恒源云 100G 张三 数据":                  "张三 数据",
		"storage add autodl 120GB alice ckpts": "alice ckpts",
	} {
		if got := Extract(cat, text, false).StorageNote(); got != want {
			t.Errorf("storage note of %q: %q, want %q", text, got, want)
		}
	}
	x := Extract(cat, "4090 至少2张空闲时提醒我", false)
	if x.SubscribeSlots(); x.Query().MinFree != 2 || x.Query().GPUCount != 0 {
		t.Errorf("subscribe: min free %d, gpu count %d", x.Query().MinFree, x.Query().GPUCount)
	}
	x = Extract(cat, "取消全部订阅", false)
	if x.UnsubscribeSlots(); !x.Query().All {
		t.Errorf("unsubscribe: not all")
	}
	x = Extract(cat, "静音 2小时", false)
	if x.MuteSlots(); x.Query().MuteMinutes != 120 {
		t.Errorf("mute: %d minutes", x.Query().MuteMinutes)
	}
}
