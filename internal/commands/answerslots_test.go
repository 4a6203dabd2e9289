package commands_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/labgpu/bot/internal/commands"
)

// TestAnswerSlots: the understanding fills what the advice, fact-check
// and availability answers read from the text (the answers never read
// it), for their intents and for an ask-back whose pick they may answer.
func TestAnswerSlots(t *testing.T) {
	r := adviceRouter(t)
	q := r.Understand("7B LoRA 爆显存了 torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.06 GiB is free.")
	if q.Intent != commands.IntentAdvice || q.OOM == nil || q.OOM.AllocGiB != 1.96 || q.OOM.TotalGiB != 23.65 || q.OOM.FreeGiB != 1.06 || q.Serving {
		t.Errorf("OOM paste: intent %s oom %+v serving %v", q.Intent, q.OOM, q.Serving)
	}
	if q := r.Understand("vllm 部署 Qwen2.5-7B 用 4090 OOM 了"); q.Intent != commands.IntentAdvice || !q.Serving || q.OOM != nil {
		t.Errorf("serving OOM: intent %s serving %v oom %+v", q.Intent, q.Serving, q.OOM)
	}
	if q := r.Understand("微调 BERT 用什么卡"); q.KBWorkload != "bert-base-finetune" {
		t.Errorf("card question: workload %q", q.KBWorkload)
	}
	if q := r.Understand("文章里说AutoDL数据盘0.5元/GB/天，是真的吗"); q.Intent != commands.IntentFactCheck || q.Claim == nil || !q.Claim.Disk {
		t.Errorf("claim: intent %s claim %+v", q.Intent, q.Claim)
	}
	if q := r.Understand("周末晚上A100 80G好抢吗"); q.Intent != commands.IntentAvailability || q.When == nil || q.When.Set != "weekend" || q.When.Part != "evening" {
		t.Errorf("window: intent %s when %+v", q.Intent, q.When)
	}
	if q := r.Understand("哪家有4090"); q.OOM != nil || q.Claim != nil || q.When != nil {
		t.Errorf("stock question: oom %+v claim %+v when %+v", q.OOM, q.Claim, q.When)
	}
}

// TestAnswerJSONKeys: `bot ask --format json` prints each answer's rows
// under the keys it always had, beside the Query's.
func TestAnswerJSONKeys(t *testing.T) {
	r := adviceRouter(t)
	for _, c := range []struct {
		q    string
		keys []string
	}{
		{"CUDA out of memory 怎么办", []string{"intent", "topic", "advice", "text"}},
		{"7B LoRA seq 4096 在 4090 上 OOM 了", []string{"advice", "estimate", "vram_gb", "fits"}},
		{"7B 推理用什么卡", []string{"estimate", "options", "fits"}},
		{"文章里说AutoDL数据盘0.5元/GB/天，是真的吗", []string{"intent", "check", "text"}},
		{"4090 什么时候好抢", []string{"intent", "availability", "text"}},
	} {
		b, err := json.Marshal(ask(r, c.q))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%q: %v", c.q, err)
		}
		for _, k := range c.keys {
			if _, ok := got[k]; !ok {
				t.Errorf("%q: no %q in %s", c.q, k, b)
			}
		}
	}
	// Availability without a card asks which (a reading an ask-back's
	// pick can choose).
	b, err := json.Marshal(r.AnswerQuery(context.Background(), commands.Query{Intent: commands.IntentAvailability}))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Question string `json:"question"`
	}
	if err := json.Unmarshal(b, &got); err != nil || got.Question == "" {
		t.Errorf("availability without a card: %s (%v)", b, err)
	}
}
