package commands_test

import (
	"testing"
)

// BenchmarkStockQuestion is parse + answer of "哪家有4090" over the catalog
// and the replay recordings (no network, data already fetched).
func BenchmarkStockQuestion(b *testing.B) {
	r := newRouter(b)
	b.ReportAllocs()
	for b.Loop() {
		if res := ask(r, "哪家有4090"); len(offersOf(res)) == 0 {
			b.Fatal("no offers")
		}
	}
}

// BenchmarkEstimateQuestion is parse + answer of a full estimate question,
// across every GPU and platform in the catalog.
func BenchmarkEstimateQuestion(b *testing.B) {
	r := newRouter(b)
	b.ReportAllocs()
	for b.Loop() {
		if res := ask(r, "用4090做Qwen2.5-7B的QLoRA，5万条数据，3个epoch，大概多少钱"); figures(res).Estimate == nil {
			b.Fatal("no estimate")
		}
	}
}

// BenchmarkEstimateAllGPUs is "7B LoRA 要多少钱": every GPU, every platform.
func BenchmarkEstimateAllGPUs(b *testing.B) {
	r := newRouter(b)
	b.ReportAllocs()
	for b.Loop() {
		if res := ask(r, "7B LoRA 要多少钱"); len(figures(res).Options) == 0 {
			b.Fatal("no options")
		}
	}
}

// BenchmarkStockQuestionInChat is "哪家有4090" in a group chat: the
// member's frame read, the answer, the frame kept (in memory).
func BenchmarkStockQuestionInChat(b *testing.B) {
	r := newRouter(b)
	b.ReportAllocs()
	for b.Loop() {
		if res := say(r, "bench", "alice", "哪家有4090"); len(offersOf(res)) == 0 {
			b.Fatal("no offers")
		}
	}
}

// BenchmarkFollowUp is "那A100呢" after "哪家有4090" in a group chat: the
// frame edited and the answer said again for the other card.
func BenchmarkFollowUp(b *testing.B) {
	r := newRouter(b)
	b.ReportAllocs()
	for b.Loop() {
		say(r, "bench", "alice", "哪家有4090")
		if res := say(r, "bench", "alice", "那A100呢"); res.Intent != "stock" {
			b.Fatalf("intent %s", res.Intent)
		}
	}
}
