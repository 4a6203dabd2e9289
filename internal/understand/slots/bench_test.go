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

// BenchmarkConditionSlots is the conditions read over the same questions
// and some that state several (what a message costs beyond Extract).
func BenchmarkConditionSlots(b *testing.B) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		b.Fatal(err)
	}
	texts := []string{
		"哪家有4090",
		"用4090做Qwen2.5-7B的QLoRA，5万条数据，3个epoch，大概多少钱",
		"每天晚上7点到11点跑，一个月，包月划算吗，ddl是下周五",
		"华东 40G以上 两张 一小时总共12以内",
		"need 2x 48GB cards in europe under $3/hr total",
		"预算3000 租两张3090一个月够吗 只看国内平台",
	}
	xs := make([]*Extraction, len(texts))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		for i, t := range texts {
			xs[i] = Extract(cat, t, false)
		}
		b.StartTimer()
		for _, x := range xs {
			x.ConditionSlots()
		}
	}
}
