package storage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/ledgerview"
	"github.com/labgpu/bot/internal/understand"
)

// storageAdminAnswer answers the storage admin commands said to the bot
// (Query.AdminCommand; who may change whose entries: answer/admins.go).
func storageAdminAnswer(ctx context.Context, a *answer.Ask) render.Payload {
	switch a.AdminCommand {
	case understand.AdminBind:
		return bindAdmin(ctx, a)
	case understand.AdminList:
		return listAdmins(ctx, a)
	}
	return unbindAdmin(ctx, a)
}

// adminSays is an admin command's one-line answer.
func adminSays(a *answer.Ask, say string) ledgerview.Admin {
	return ledgerview.Admin{Lang: i18n.Of(a.English), Say: say}
}

// bindAdmin is "绑定管理员" (a code is printed on the console) and
// "绑定管理员 <code>" (the code checked: the sender is bound).
func bindAdmin(ctx context.Context, a *answer.Ask) render.Payload {
	from := a.From
	switch {
	case !from.IsWeChat():
		return adminSays(a, ledgerview.AdminNotWeChat)
	case from.ChatType != chat.P2P:
		return adminSays(a, ledgerview.AdminNotPrivate)
	case !answer.StrongWeChat(from.SenderID):
		return adminSays(a, ledgerview.AdminWeakID)
	case a.Storage.Blobs == nil:
		return adminSays(a, ledgerview.AdminNoStore)
	case a.AdminArg == "":
		return issueBindCode(a)
	}
	now := a.Now()
	verdict, left := a.Storage.CheckCode(from.SenderID, a.AdminArg, now)
	switch verdict {
	case answer.CodeNone:
		return adminSays(a, ledgerview.AdminNoCode)
	case answer.CodeExpired:
		return adminSays(a, ledgerview.AdminExpired)
	case answer.CodeSpent:
		return adminSays(a, ledgerview.AdminSpent)
	case answer.CodeWrong:
		p := adminSays(a, ledgerview.AdminWrong)
		p.N = left
		return p
	}
	err := a.Storage.UpdateWeChatAdmins(ctx, func(list []answer.WeChatAdmin) []answer.WeChatAdmin {
		out := list[:0:0]
		for _, x := range list {
			if x.ID != from.SenderID {
				out = append(out, x)
			}
		}
		return append(out, answer.WeChatAdmin{ID: from.SenderID, Name: from.SenderName, BoundAt: now})
	})
	if err != nil {
		return answer.StoreError(a.English, err)
	}
	slog.Info("storage: WeChat admin bound", "name", from.SenderName)
	return adminSays(a, ledgerview.AdminBound)
}

// issueBindCode makes a code for the sender and prints it on the
// console (Storage.Console, default stderr), for whoever runs the bot to
// give in person.
func issueBindCode(a *answer.Ask) render.Payload {
	code, err := a.Storage.IssueCode(a.From.SenderID, a.Now())
	switch {
	case errors.Is(err, answer.ErrTooManyCodes):
		p := adminSays(a, ledgerview.AdminTooManyCodes)
		p.N = answer.BindCodesPerHour
		return p
	case err != nil:
		return answer.StoreError(a.English, err)
	}
	out := a.Storage.Console
	if out == nil {
		out = os.Stderr
	}
	minutes := int(answer.BindCodeTTL / time.Minute)
	fmt.Fprint(out, i18n.EN.T("storage.admin.console", a.From.SenderName, code, minutes, code))
	slog.Info("storage: WeChat admin binding code issued (printed on the console)", "name", a.From.SenderName)
	p := adminSays(a, ledgerview.AdminCodeIssued)
	p.N = minutes
	return p
}

// listAdmins is "管理员列表": the bound WeChat admins (admins only).
func listAdmins(ctx context.Context, a *answer.Ask) render.Payload {
	if !a.Storage.IsAdmin(ctx, a.From) {
		return adminSays(a, ledgerview.AdminListNotAdmin)
	}
	admins, err := a.Storage.WeChatAdmins(ctx)
	if err != nil {
		return answer.StoreError(a.English, err)
	}
	if len(admins) == 0 {
		return adminSays(a, ledgerview.AdminNoneBound)
	}
	p := ledgerview.AdminList{Lang: i18n.Of(a.English)}
	for _, x := range admins {
		p.Admins = append(p.Admins, ledgerview.AdminRow{Name: x.Name, Remark: strings.TrimPrefix(x.ID, answer.WeChatStrongPrefix), BoundAt: x.BoundAt})
	}
	return p
}

// unbindAdmin is "解除管理员 <name>": an admin removes a binding, by the
// nickname it was bound with or the remark name.
func unbindAdmin(ctx context.Context, a *answer.Ask) render.Payload {
	name := a.AdminArg
	switch {
	case !a.Storage.IsAdmin(ctx, a.From):
		return adminSays(a, ledgerview.AdminUnbindNoAdmin)
	case name == "":
		return adminSays(a, ledgerview.AdminUnbindWho)
	case a.Storage.Blobs == nil:
		return adminSays(a, ledgerview.AdminNoBindings)
	}
	removed := 0
	err := a.Storage.UpdateWeChatAdmins(ctx, func(list []answer.WeChatAdmin) []answer.WeChatAdmin {
		var hits []int
		for i, x := range list {
			if x.ID == answer.WeChatStrongPrefix+name {
				hits = []int{i} // the remark name is unique: it wins
				break
			}
			if x.Name == name {
				hits = append(hits, i)
			}
		}
		if removed = len(hits); removed != 1 {
			return list
		}
		return append(list[:hits[0]:hits[0]], list[hits[0]+1:]...)
	})
	p := ledgerview.Admin{Lang: i18n.Of(a.English), Name: name, N: removed}
	switch {
	case err != nil:
		return answer.StoreError(a.English, err)
	case removed == 0:
		p.Say = ledgerview.AdminNoSuch
	case removed > 1:
		p.Say = ledgerview.AdminAmbiguous
	default:
		p.Say = ledgerview.AdminUnbound
	}
	return p
}
