package commands_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/understand"
)

// conditionSlots are the corpus's slots that state a condition (issue 28
// item 3), each with the condition kinds that carry it: a price ceiling
// over several cards is read per card or as their total.
var conditionSlots = map[string][]string{
	"vram_min_gb":      {understand.CondVRAMMin},
	"vram_max_gb":      {understand.CondVRAMMax},
	"period_days":      {understand.CondPeriod},
	"region":           {understand.CondRegion},
	"platform_group":   {understand.CondPlatformGroup},
	"budget_total_cny": {understand.CondBudget},
	"currency":         {understand.CondCurrency},
	"schedule":         {understand.CondSchedule},
}

// stated are the conditions a corpus turn expects, as slot names: its
// condition slots, and a price ceiling with two or more cards.
func stated(tn turnSpec) []string {
	var out []string
	for k := range tn.Slots {
		if _, ok := conditionSlots[k]; ok {
			out = append(out, k)
		}
	}
	if n, ok := tn.Slots["gpu_count"].(int); ok && n >= 2 && tn.Slots["max_price_cny"] != nil {
		out = append(out, "max_price_cny")
	}
	slices.Sort(out)
	return out
}

// TestCorpusConditions: every condition a corpus turn states (the
// condition class and any turn whose expected slots hold one) is in the
// Query as a Condition of its kind, and the answer either applied it or
// says in its reply, in one line, that it did not and why. A follow-up
// that brings only a condition ("西北的呢") is answered in the context of
// the question before it once the conversation frame lands (issue 28 item
// 1); until then its answer is checked only when the corpus test is
// strict (dialogueStrict, DIALOGUE_STRICT=1), and reported otherwise.
func TestCorpusConditions(t *testing.T) {
	all := loadDialogues(t)
	r, _ := dialogueRouter(t)
	ctx := context.Background()
	strict := dialogueStrict || os.Getenv("DIALOGUE_STRICT") == "1"
	checked, later := 0, 0
	for _, d := range all {
		chatID := "cond-" + d.ID
		for i, tn := range d.Turns {
			res := r.Answer(ctx, chat.Message{Channel: "test", ChatID: chatID, SenderID: tn.sender(), SenderName: tn.sender(),
				Text: tn.Say, ChatType: chat.Group, Time: dialogueNow})
			for _, slot := range stated(tn) {
				checked++
				why := conditionMiss(res, slot)
				switch {
				case why == "":
				case i == 0 || strict || strings.Contains(why, "in the Query"):
					t.Errorf("%s#%d %q: %s", d.ID, i+1, tn.Say, why)
				default:
					later++
					t.Logf("follow-up, waits for the conversation frame: %s#%d %q: %s", d.ID, i+1, tn.Say, why)
				}
			}
		}
	}
	t.Logf("%d stated conditions checked; %d in follow-ups not applied or named yet", checked, later)
	if checked < 70 {
		t.Errorf("only %d stated conditions in the corpus; the condition class alone states more", checked)
	}
}

// conditionMiss says why the answer did not apply or name a condition
// the slot states ("" when it did).
func conditionMiss(res commands.Result, slot string) string {
	kinds := conditionSlots[slot]
	if slot == "max_price_cny" {
		kinds = []string{understand.CondPriceTotal, understand.CondPricePerCard}
	}
	found := slices.ContainsFunc(res.Query.Conditions, func(c understand.Condition) bool { return slices.Contains(kinds, c.Kind) })
	if !found {
		return fmt.Sprintf("%s: no condition of kind %v in the Query", slot, kinds)
	}
	for _, u := range res.Uses {
		if !slices.Contains(kinds, u.Kind) {
			continue
		}
		if u.Applied {
			return ""
		}
		name := render.ConditionName(i18n.Of(res.English), u)
		if strings.Contains(res.Text, name) {
			return ""
		}
		return fmt.Sprintf("%s: not applied, and the reply does not name %q", slot, name)
	}
	return fmt.Sprintf("%s: the %s answer says nothing of it", slot, res.Intent)
}
