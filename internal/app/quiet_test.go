package app

import (
	"testing"
	"time"
)

func TestQuietHours(t *testing.T) {
	sh, _ := time.LoadLocation("Asia/Shanghai")
	q := quietHours(map[string]string{"feishu/oc_lab": "23:00-08:00", "*": "12:00-13:00"}, sh)
	at := func(h, m int) time.Time { return time.Date(2026, 11, 29, h, m, 0, 0, sh) }
	cases := []struct {
		chat string
		t    time.Time
		want bool
	}{
		{"feishu/oc_lab", at(23, 30), true},
		{"feishu/oc_lab", at(7, 59), true},
		{"feishu/oc_lab", at(8, 0), false},
		{"feishu/oc_lab", at(12, 30), false}, // its own window replaces "*"
		{"console/console", at(12, 30), true},
		{"console/console", at(23, 30), false},
	}
	for _, c := range cases {
		if got := q(c.chat, c.t); got != c.want {
			t.Errorf("%s at %s: %v, want %v", c.chat, c.t.Format("15:04"), got, c.want)
		}
	}
	if quietHours(nil, sh) != nil {
		t.Error("no windows should mean no check")
	}
}
