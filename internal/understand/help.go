package understand

import (
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/textgate"
)

// HelpAreas are the help menu's sections, in order, with the words that ask
// for one ("帮助 告警").
var HelpAreas = []struct {
	ID    string
	Name  catalog.Text
	Words *textgate.Regexp
}{
	{"price", catalog.Text{Zh: "查价和库存", En: "prices and stock"}, textgate.MustCompile(`价|库存|有货|报价|包月|对比|price|stock|compare|plan`)},
	{"estimate", catalog.Text{Zh: "估算费用", En: "cost estimates"}, textgate.MustCompile(`估算|费用|多少钱|显存|estimate|cost|vram`)},
	{"alerts", catalog.Text{Zh: "有货提醒", En: "stock alerts"}, textgate.MustCompile(`告警|提醒|订阅|通知|静音|alert|subscri|notif|mute`)},
	{"storage", catalog.Text{Zh: "存储账本和周报", En: "storage ledger and digest"}, textgate.MustCompile(`存储|周报|硬盘|数据盘|账本|storage|digest|disk|ledger`)},
	{"advice", catalog.Text{Zh: "排错和选卡", En: "troubleshooting and card choice"}, textgate.MustCompile(`排错|报错|错误|选卡|用什么卡|error|troubleshoot|card|gpu`)},
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
