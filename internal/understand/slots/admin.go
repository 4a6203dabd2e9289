package slots

import "strings"

// The storage admin commands (Query.AdminCommand).
const (
	AdminBind   = "bind"
	AdminList   = "list"
	AdminUnbind = "unbind"
)

// AdminCommand reads a storage admin command said to the bot whole
// (configs/slots/router.yaml, admin): "绑定管理员" (AdminBind, arg the
// one-time code when given), "管理员列表" (AdminList) or "解除管理员
// 张三" (AdminUnbind, arg the name). text is the message as written,
// not folded or simplified: a name keeps its case and characters.
// ("", "") when the text is no admin command.
func AdminCommand(text string) (cmd, arg string) {
	text = strings.TrimSpace(text)
	switch {
	case adminBind.MatchString(text):
		return AdminBind, adminBind.FindStringSubmatch(text)[1]
	case adminList.MatchString(text):
		return AdminList, ""
	case adminUnbind.MatchString(text):
		return AdminUnbind, adminUnbind.FindStringSubmatch(text)[1]
	}
	return "", ""
}
