package adviceview

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// TestAdviceReply: a diagnosis with its confidence and the likeliest
// cause first, the tie's lines, the first steps; the sources behind 详情;
// an unknown question names the closest topics.
func TestAdviceReply(t *testing.T) {
	rd := renderer(t)
	entry := &Entry{Topic: "cuda-oom", Title: "显存不够（CUDA OOM）", Score: 0.86, Causes: []string{"batch 太大", "序列太长"},
		Steps: []string{"减小 batch", "开梯度检查点", "用 QLoRA", "换大卡"}, Source: "seed 000 §2 (VRAM first); PyTorch FAQ (x)",
		Related: []Ref{{Topic: "host-oom-killed", Title: "内存不够被杀"}}, Matched: []string{"out of memory"}}
	p := Advice{Advice: entry, Confidence: 0.855, OOM: &OOM{Error: &OOMError{AllocGiB: 1.96, TotalGiB: 23.65, FreeGiB: -1}, NoJob: true}}
	rep := p.Reply(rd)
	short := chat.PlainText(rep)
	for _, want := range []string{"很可能是：显存不够（CUDA OOM）（把握 86%）", "最常见的原因：batch 太大", "报错里：这一步还要 1.96 GiB，卡总共 23.65 GiB。",
		"告诉我模型", "1. 减小 batch", "2. 开梯度检查点", "相关：内存不够被杀"} {
		if !strings.Contains(short, want) {
			t.Errorf("short form lacks %q:\n%s", want, short)
		}
	}
	if strings.Contains(short, "3. 用 QLoRA") || rep.Full == nil {
		t.Errorf("short form has a third step beside the ask, or no 详情:\n%s", short)
	}
	if strings.Index(short, "告诉我模型") < strings.Index(short, "2. 开梯度检查点") {
		t.Errorf("the ask for the job comes before the steps:\n%s", short)
	}
	full := chat.PlainText(*rep.Full)
	for _, want := range []string{"可能的原因：", "• 序列太长", "4. 换大卡", "依据：文字里有 “out of memory”", "来源：一篇 2025 年的高校租卡横评；PyTorch FAQ"} {
		if !strings.Contains(full, want) {
			t.Errorf("详情 lacks %q:\n%s", want, full)
		}
	}
	p.Confidence, p.Lang = 0.6, i18n.EN
	if got := p.Reply(rd).Title; got != "Possibly: 显存不够（CUDA OOM） (confidence 60%)" {
		t.Errorf("English title %q", got)
	}
	unknown := Advice{Advice: &Entry{Closest: []Ref{{Title: "A"}, {Title: "B"}}}}
	if got := chat.PlainText(unknown.Reply(rd)); !strings.Contains(got, "最接近的话题：A；B") || !strings.HasPrefix(got, "这个问题我不认识") {
		t.Errorf("unknown: %q", got)
	}
}

// TestStockTie: live offers counted with each platform named once, and
// the alert offered when alerts are on.
func TestStockTie(t *testing.T) {
	rd := renderer(t)
	var rep chat.Reply
	(&Stock{GPU: "RTX 4090", Live: 3, Where: []string{"autodl", "autodl", "vastai"}, Alerts: true}).reply(rd, i18n.ZH, &rep)
	if len(rep.Lines) != 2 || !strings.Contains(rep.Lines[0], "有货的报价 3 条：AutoDL、vast.ai") || !strings.Contains(rep.Lines[1], "RTX 4090 有货了提醒我") {
		t.Errorf("lines %q", rep.Lines)
	}
}
