package webhook

import (
	"strings"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// pushWords are the catalog's sentences that ask the reader to write to
// the bot ("“静音 2小时”暂停提醒", "问“本周存储花费”…") in what is pushed
// (alerts, the digest, budget notices, release warnings), each with what
// a push-only webhook says instead ("" leaves it out): the readers of a
// custom bot's or a group robot's messages cannot write to it. The
// catalog's other such sentences are in answers, which never go to a
// webhook (TestPushWordsCoverCatalog holds the list to the catalog).
var pushWords = []struct{ key, push string }{
	{"alert.footer", "webhook.push.alert_footer"},
	{"release.warning.counted", "webhook.push.release_counted"},
	{"jobs.budget.reached", "webhook.push.budget_reached"},
	{"digest.start", ""}, // the digest's title already says the ledger is empty
	{"chat.more_hint", ""},
}

// PushOnly is r as a push-only webhook sends it: without what asks its
// readers to write to the bot (pushWords, in either language) and without
// its full form, which nobody there can ask for with "详情".
func PushOnly(r chat.Reply) chat.Reply {
	r.Full = nil
	r.Title = reword(r.Title)
	r.Lines = rewordAll(r.Lines)
	r.Notes = rewordAll(r.Notes)
	return r
}

// rewordAll rewords each line, leaving out those left empty.
func rewordAll(lines []string) []string {
	var out []string
	changed := false
	for _, l := range lines {
		w := reword(l)
		if w != l {
			changed = true
			if strings.TrimSpace(w) == "" {
				continue
			}
		}
		out = append(out, w)
	}
	if !changed {
		return lines
	}
	return out
}

// reword replaces the pushWords sentences in one text.
func reword(s string) string {
	if s == "" {
		return s
	}
	for _, l := range []i18n.Lang{i18n.ZH, i18n.EN} {
		for _, w := range pushWords {
			s, _ = l.Reword(s, w.key, w.push)
		}
	}
	return s
}
