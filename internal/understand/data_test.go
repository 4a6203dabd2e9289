package understand

import (
	"testing"

	"github.com/labgpu/bot/internal/understand/slots/words"
)

// TestSlotData: every pattern and word list the slot extractors and the
// pipeline's rules declare is in configs/slots, compiles and is as long
// as the Go reads; none there is left unread.
func TestSlotData(t *testing.T) {
	if err := words.CheckData(); err != nil {
		t.Error(err)
	}
}

// TestHelpAreas: the help areas' names come from the message catalog,
// their words from the slot data.
func TestHelpAreas(t *testing.T) {
	for _, c := range []struct{ text, area, zh, en string }{
		{"帮助 价格", "price", "查价和库存", "prices and stock"},
		{"help estimate", "estimate", "估算费用", "cost estimates"},
		{"帮助 提醒", "alerts", "有货提醒", "stock alerts"},
		{"help storage", "storage", "存储账本和周报", "storage ledger and digest"},
		{"帮助 报错", "advice", "排错和选卡", "troubleshooting and card choice"},
	} {
		if got := helpArea(c.text); got != c.area {
			t.Errorf("helpArea(%q) = %q, want %q", c.text, got, c.area)
		}
		for _, a := range HelpAreas {
			if a.ID == c.area && (a.Name.Pick(false) != c.zh || a.Name.Pick(true) != c.en) {
				t.Errorf("%s: names %q, %q", a.ID, a.Name.Pick(false), a.Name.Pick(true))
			}
		}
	}
	if got := helpArea("帮助"); got != "" {
		t.Errorf("helpArea(帮助) = %q", got)
	}
}
