package slots

import (
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

// BenchmarkExtract is the slot extractors over questions of every kind
// (stock, estimate, plan with times, mute, storage), the data already
// read.
func BenchmarkExtract(b *testing.B) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		b.Fatal(err)
	}
	texts := []string{
		"哪家有4090",
		"用4090做Qwen2.5-7B的QLoRA，5万条数据，3个epoch，大概多少钱",
		"每天晚上7点到11点跑，一个月，包月划算吗，ddl是下周五",
		"静音到明早8点",
		"登记存储 autodl 200G 实验数据",
		"how much is a 4090 on runpod for 2 weeks",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			x := Extract(cat, t, false)
			x.MuteSlots()
		}
	}
}
