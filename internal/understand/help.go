package understand

import (
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// HelpArea is a section of the help menu: its id (the intents' area),
// its name and the words that ask for it ("帮助 告警").
type HelpArea struct {
	ID    string
	Name  AreaName
	Words *words.Expr
}

// AreaName is a help area's name: its key in the message catalog.
type AreaName string

// Pick is the name in English when en is set, else in Chinese.
func (n AreaName) Pick(en bool) string { return i18n.Of(en).T(string(n)) }

// HelpAreas are the help menu's sections, in order; their names are the
// catalog's (understand.help_area.*), their words
// configs/slots/pipeline.yaml's.
var HelpAreas = []HelpArea{
	{"price", "understand.help_area.price", words.NewExpr("pipeline.help_price")},
	{"estimate", "understand.help_area.estimate", words.NewExpr("pipeline.help_estimate")},
	{"alerts", "understand.help_area.alerts", words.NewExpr("pipeline.help_alerts")},
	{"storage", "understand.help_area.storage", words.NewExpr("pipeline.help_storage")},
	{"advice", "understand.help_area.advice", words.NewExpr("pipeline.help_advice")},
}

// helpArea is the area a help question names ("" for the menu).
func helpArea(s string) string {
	for _, a := range HelpAreas {
		if a.Words.MatchString(s) {
			return a.ID
		}
	}
	return ""
}
