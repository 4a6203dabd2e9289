package commands_test

import (
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/commands"
)

// BenchmarkTrain is the intent model's start-up cost: extracting the
// slots of every corpus phrasing and counting its features.
func BenchmarkTrain(b *testing.B) {
	cat, kb, in := corpus(b)
	b.ReportAllocs()
	for b.Loop() {
		commands.NewUnderstander(cat, kb, in, commands.UnderstanderOptions{})
	}
}

// BenchmarkLoadIntents is reading and checking configs/intents.
func BenchmarkLoadIntents(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := commands.LoadIntents(configs.FS); err != nil {
			b.Fatal(err)
		}
	}
}
