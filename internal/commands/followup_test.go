package commands_test

import (
	"context"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
)

func say(r *commands.Router, chatID, sender, text string) commands.Result {
	return r.Answer(context.Background(), chat.Message{Channel: "test", ChatID: chatID, SenderID: sender, Text: text, ChatType: chat.Group})
}

// TestFollowUp: the hints an estimate prints ("可以说 seq 4096 修改") work,
// per conversation and per sender.
func TestFollowUp(t *testing.T) {
	r := newRouter(t)
	first := say(r, "g1", "alice", "7B LoRA 要多少钱")
	if first.Intent != commands.IntentEstimate || figures(first).Estimate == nil || figures(first).Estimate.SeqLen != 2048 {
		t.Fatalf("first: %+v", first.Query)
	}
	res := say(r, "g1", "alice", "seq 4096")
	if res.Intent != commands.IntentEstimate || figures(res).Estimate == nil || figures(res).Estimate.SeqLen != 4096 || figures(res).Estimate.ParamsB != 7 {
		t.Fatalf("follow-up seq: intent %q est %+v", res.Intent, figures(res).Estimate)
	}
	if res.English {
		t.Error("a Latin-only follow-up to a Chinese question switched to English")
	}
	res = say(r, "g1", "alice", "5万条")
	if figures(res).Estimate == nil || figures(res).Estimate.SeqLen != 4096 || figures(res).Estimate.Job.Samples != 50000 {
		t.Fatalf("second follow-up lost earlier changes: %+v", figures(res).Estimate)
	}
	// Another member's "seq 4096" is not a follow-up to alice's question.
	if res := say(r, "g1", "bob", "seq 4096"); res.Intent == commands.IntentEstimate {
		t.Errorf("bob's message merged into alice's estimate: %q", res.Intent)
	}
	// A new question replaces the old one.
	res = say(r, "g1", "alice", "Qwen2.5-14B 推理要多大显存")
	if figures(res).Estimate == nil || figures(res).Estimate.Method != "inference" || figures(res).Estimate.ModelID != "Qwen2.5-14B" {
		t.Fatalf("new question: %+v", figures(res).Estimate)
	}
}

// TestFollowUpAnswersSizeQuestion: "LoRA 多少钱" asks for the size; "7B"
// answers it.
func TestFollowUpAnswersSizeQuestion(t *testing.T) {
	r := newRouter(t)
	res := say(r, "g2", "alice", "LoRA 微调要多少钱")
	if question(res) == "" || !strings.Contains(whole(res), "参数量") {
		t.Fatalf("no size question: %+v", res)
	}
	res = say(r, "g2", "alice", "7B")
	if figures(res).Estimate == nil || figures(res).Estimate.ParamsB != 7 || figures(res).Estimate.Method != "lora" {
		t.Fatalf("size answer not merged: %+v %+v", res.Query, figures(res).Estimate)
	}
}

// TestFollowUpSwitchesCardAndPlatform: "用4090" and "在恒源云呢" after an
// estimate re-run it on that card and platform, not a stock lookup.
func TestFollowUpSwitchesCardAndPlatform(t *testing.T) {
	r := newRouter(t)
	say(r, "g3", "alice", "7B LoRA 要多少钱")
	res := say(r, "g3", "alice", "用4090")
	if res.Intent != commands.IntentEstimate || figures(res).Estimate == nil || len(figures(res).Estimate.Fits) != 1 || figures(res).Estimate.Fits[0].GPU != "RTX 4090" {
		t.Fatalf("用4090: intent %q", res.Intent)
	}
	res = say(r, "g3", "alice", "在恒源云呢")
	if res.Intent != commands.IntentEstimate || len(figures(res).Options) == 0 {
		t.Fatalf("在恒源云呢: intent %q, %d options", res.Intent, len(figures(res).Options))
	}
	for _, o := range figures(res).Options {
		if o.Platform != "hengyuan" || o.GPU != "RTX 4090" {
			t.Errorf("option %s %s, want hengyuan RTX 4090", o.Platform, o.GPU)
		}
	}
	// A stock question is still a stock question.
	if res := say(r, "g3", "alice", "哪家有4090"); res.Intent != commands.IntentStock {
		t.Errorf("哪家有4090 after an estimate: %q", res.Intent)
	}
}
