package ledgerview

import (
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// What an admin command answers (Admin.Say), each with the catalog key
// that says it.
var adminKeys = map[string]string{
	AdminNotWeChat:     "storage.admin.not_wechat",
	AdminNotPrivate:    "storage.admin.not_private",
	AdminWeakID:        "storage.admin.weak_id",
	AdminNoStore:       "storage.admin.no_store",
	AdminNoCode:        "storage.admin.no_code",
	AdminExpired:       "storage.admin.expired",
	AdminSpent:         "storage.admin.spent",
	AdminBound:         "storage.admin.bound",
	AdminListNotAdmin:  "storage.admin.list_not_admin",
	AdminNoneBound:     "storage.admin.none_bound",
	AdminUnbindNoAdmin: "storage.admin.unbind_not_admin",
	AdminUnbindWho:     "storage.admin.unbind_who",
	AdminNoBindings:    "storage.admin.no_bindings",
}

// The answers of the admin commands.
const (
	AdminNotWeChat     = "not_wechat"       // binding is for WeChat only
	AdminNotPrivate    = "not_private"      // bind in a private chat
	AdminWeakID        = "weak_id"          // no remark name of one's own yet
	AdminNoStore       = "no_store"         // binding needs the data store
	AdminNoCode        = "no_code"          // no code is waiting
	AdminExpired       = "expired"          // the code expired
	AdminSpent         = "spent"            // too many wrong codes
	AdminWrong         = "wrong"            // a wrong code, N tries left
	AdminBound         = "bound"            // bound as admin
	AdminTooManyCodes  = "too_many_codes"   // N codes an hour at most
	AdminCodeIssued    = "code_issued"      // a code printed on the console, valid N minutes
	AdminListNotAdmin  = "list_not_admin"   // only admins list admins
	AdminNoneBound     = "none_bound"       // no WeChat admins (a list)
	AdminUnbindNoAdmin = "unbind_not_admin" // only admins unbind
	AdminUnbindWho     = "unbind_who"       // unbind whom?
	AdminNoBindings    = "no_bindings"      // no WeChat admins (an unbind)
	AdminNoSuch        = "no_such"          // no admin named Name
	AdminAmbiguous     = "ambiguous"        // N admins named Name
	AdminUnbound       = "unbound"          // Name is no admin now
)

// Admin is the one-line answer of a storage admin command ("绑定管理员",
// "解除管理员 张三"): what happened (Say), with its count and name.
type Admin struct {
	Lang i18n.Lang `json:"-"`
	Say  string    `json:"-"`
	N    int       `json:"-"`
	Name string    `json:"-"`
}

// Reply says it.
func (a Admin) Reply(*render.Renderer) chat.Reply {
	l := a.Lang
	var t string
	switch a.Say {
	case AdminWrong:
		t = l.T("storage.admin.wrong", a.N)
	case AdminTooManyCodes:
		t = l.T("storage.admin.too_many_codes", a.N)
	case AdminCodeIssued:
		t = l.T("storage.admin.code_issued", a.N)
	case AdminNoSuch:
		t = l.T("storage.admin.no_such", a.Name)
	case AdminAmbiguous:
		t = l.T("storage.admin.ambiguous", a.N, a.Name)
	case AdminUnbound:
		t = l.T("storage.admin.unbound", a.Name)
	default:
		t = l.T(adminKeys[a.Say])
	}
	return chat.Reply{Title: t}
}

// AdminList is "管理员列表": the bound WeChat admins.
type AdminList struct {
	Lang   i18n.Lang  `json:"-"`
	Admins []AdminRow `json:"-"`
}

// AdminRow is one bound WeChat admin: the nickname they had when they
// bound, their remark name, and when.
type AdminRow struct {
	Name, Remark string
	BoundAt      time.Time
}

// Reply is the table, with how to remove one.
func (a AdminList) Reply(rd *render.Renderer) chat.Reply {
	l := a.Lang
	rows := make([][]string, 0, len(a.Admins))
	for _, x := range a.Admins {
		rows = append(rows, []string{x.Name, x.Remark, rd.Clock.Date(x.BoundAt)})
	}
	return chat.Reply{Title: l.T("storage.admin.list_title", len(a.Admins)),
		Table: &chat.Table{Header: l.L("storage.admin.list_header"), Rows: rows},
		Notes: []string{l.T("storage.admin.list_hint")}}
}
