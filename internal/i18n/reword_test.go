package i18n

import "testing"

// TestReword: a catalog sentence found in a text, whatever its
// arguments, is replaced by another filled with the same arguments (as
// written), or removed; the text around it stays.
func TestReword(t *testing.T) {
	cases := []struct {
		l         Lang
		text, key string
		to, want  string
		found     bool
	}{
		{ZH, "标题。" + ZH.T("jobs.budget.reached", 80), "jobs.budget.reached", "webhook.push.budget_reached", "标题。本月存储花费已达到预算的 80%。", true},
		{EN, EN.T("jobs.budget.reached", 100), "jobs.budget.reached", "webhook.push.budget_reached", "Storage spend this month has reached 100% of the budget.", true},
		{ZH, ZH.T("release.warning.counted", "11-27 08:00", "3"), "release.warning.counted", "webhook.push.release_counted", "按账本记的关机时间（11-27 08:00）算；实际关机更早的话会更早。", true},
		{ZH, ZH.T("alert.footer"), "alert.footer", "", "", true},
		{ZH, "没有这句话", "alert.footer", "", "没有这句话", false},
		{ZH, "x", "no.such.key", "", "x", false},
	}
	for _, c := range cases {
		got, found := c.l.Reword(c.text, c.key, c.to)
		if got != c.want || found != c.found {
			t.Errorf("Reword(%q, %s) = %q, %v; want %q, %v", c.text, c.key, got, found, c.want, c.found)
		}
	}
}

// TestAsText: a format's verbs become text by index, its percent signs
// stay.
func TestAsText(t *testing.T) {
	for in, want := range map[string]string{"%d%% of %s": "%[1]s%% of %[2]s", "%[2]s then %[1]s": "%[2]s then %[1]s", "%.2f元": "%[1]s元", "plain": "plain"} {
		if got := asText(in); got != want {
			t.Errorf("asText(%q) = %q, want %q", in, got, want)
		}
	}
}
