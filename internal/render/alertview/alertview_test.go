package alertview

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/i18n"
)

func TestDuration(t *testing.T) {
	cases := []struct {
		d      time.Duration
		zh, en string
	}{
		{48 * time.Hour, "2 天", "2 days"},
		{3 * time.Hour, "3 小时", "3 h"},
		{90 * time.Minute, "1 小时 30 分钟", "1 h 30 min"},
		{25 * time.Hour, "25 小时", "25 h"},
		{5 * time.Minute, "5 分钟", "5 min"},
		{30 * time.Second, "30 秒", "30 s"},
	}
	for _, c := range cases {
		if zh, en := Duration(c.d, i18n.ZH), Duration(c.d, i18n.EN); zh != c.zh || en != c.en {
			t.Errorf("%v: %q %q, want %q %q", c.d, zh, en, c.zh, c.en)
		}
	}
}

// TestAskBackJSON: an ask-back's JSON is its question, as the reply asks
// it, in the asker's language.
func TestAskBackJSON(t *testing.T) {
	for _, c := range []struct {
		p    interface{ Question() string }
		want string
	}{
		{WhichGPU{Lang: i18n.ZH}, "订阅哪张卡？例如“4090 有货了提醒我”或“AutoDL 3090 低于1.5元通知我”。"},
		{WhichGPU{Lang: i18n.EN, UnknownGPU: "b300"}, "The catalog has no GPU “b300” to subscribe to."},
		{WhichToCancel{Lang: i18n.EN}, "Cancel which one? Say “unsubscribe 4090”, “unsubscribe 1” (its number in “my subscriptions”) or “unsubscribe all”."},
	} {
		b, err := json.Marshal(c.p)
		var got struct{ Question string }
		if err != nil || json.Unmarshal(b, &got) != nil || got.Question != c.want || c.p.Question() != c.want {
			t.Errorf("%T: %s (%v), want %q", c.p, b, err, c.want)
		}
	}
}
