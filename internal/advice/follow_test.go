package advice_test

import (
	"testing"

	"github.com/labgpu/bot/internal/advice"
)

// TestFindings: a follow-up names the branch of its topic (a fix asked
// about, a finding); a message naming none finds none.
func TestFindings(t *testing.T) {
	b := loadKB(t)
	tests := []struct {
		topic, text string
		verdict     string
		want        bool
	}{
		{"loss-nan", "换bf16行吗", advice.VerdictYes, true},
		{"loss-nan", "would bf16 fix it?", advice.VerdictYes, true},
		{"cuda-oom", "开梯度检查点有用吗", advice.VerdictYes, true},
		{"cuda-unavailable", "nvidia-smi能看到卡", "", true},
		{"cuda-unavailable", "nvidia-smi works fine though", "", true},
		{"nccl-error", "单卡没问题", "", true},
		{"nccl-error", "是平台的问题吗", advice.VerdictMaybe, true},
		{"nccl-error", "换bf16行吗", "", false},
		{"cuda-oom", "4090多少钱", "", false},
		{"loss-nan", "my loss is fine now, thanks", "", false},
	}
	for _, tc := range tests {
		br, n, ok := b.FindingOf(tc.topic, b.Findings(tc.text))
		if ok != tc.want {
			t.Errorf("%s %q: found %v, want %v", tc.topic, tc.text, ok, tc.want)
			continue
		}
		if ok && (br.Verdict != tc.verdict || n < 1) {
			t.Errorf("%s %q: verdict %q (branch %d), want %q", tc.topic, tc.text, br.Verdict, n, tc.verdict)
		}
	}
}
