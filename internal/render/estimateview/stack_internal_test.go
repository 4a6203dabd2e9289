package estimateview

import (
	"testing"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/i18n"
)

// TestStackName: every stack has a name in both languages.
func TestStackName(t *testing.T) {
	for _, s := range estimator.Stacks {
		zh, en := stackName(s, i18n.ZH), stackName(s, i18n.EN)
		if zh == "" || en == "" || (s != estimator.StackFA2 && zh == stackName(estimator.StackFA2, i18n.ZH)) {
			t.Errorf("stack %q: %q / %q", s, zh, en)
		}
	}
}
