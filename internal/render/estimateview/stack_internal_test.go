package estimateview

import (
	"testing"

	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/i18n"
)

// TestStackName: every stack has a name in both languages.
func TestStackName(t *testing.T) {
	for _, s := range billing.Stacks {
		zh, en := stackName(s, i18n.ZH), stackName(s, i18n.EN)
		if zh == "" || en == "" || (s != billing.StackFA2 && zh == stackName(billing.StackFA2, i18n.ZH)) {
			t.Errorf("stack %q: %q / %q", s, zh, en)
		}
	}
}
