package storage

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/ledgerview"
	"github.com/labgpu/bot/internal/understand"
)

func init() {
	answer.Register(answer.Intent{Name: understand.IntentStorageAdd, Answer: storageAddAnswer})
}

// storageAddAnswer answers "登记存储 AutoDL 数据盘 80G 实验数据": the disk
// added to the lab's ledger under a number the store allocates in the
// same write (members registering at the same moment get numbers of
// their own), and what it costs.
func storageAddAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	if off := Off(a); off != nil {
		return a.Out(off)
	}
	l := i18n.Of(a.English)
	if p, bad := storageAddProblem(a); bad {
		return a.Out(ledgerview.NotAdded{Lang: l, Problem: p, Problems: a.Problems, UnknownGPU: a.UnknownGPU})
	}
	e := ledger.StorageEvent{Time: a.Now(), Lab: a.Storage.LabOf(a.From.ChatKey()), Owner: a.From.SenderID, OwnerName: a.From.SenderName,
		Platform: a.Platform, Action: ledger.ActionAdd, SizeGB: a.SizeGB, Note: a.Note}
	id, err := a.Storage.Ledger.AddStorageDisk(ctx, e)
	if err != nil {
		return a.Out(answer.StoreError(a.English, err))
	}
	out := a.Out(ledgerview.Added{Lang: l, ID: id, Platform: a.Platform, SizeGB: a.SizeGB, Note: a.Note,
		Cost: diskCost(a, a.Platform, a.SizeGB, false), WeakWeChat: a.From.WeakWeChat()})
	out.Query.DiskRef = id // the disk a follow-up asks about ("这个一个月多少钱")
	return out
}

// storageAddProblem is why a registration cannot be made: a size that is
// no disk size (named as written), an unknown platform (with the closest
// names the catalog knows), a missing platform or size, a note cut or
// too long; false when it can.
func storageAddProblem(a *answer.Ask) (ledgerview.Problem, bool) {
	q := a.Query
	switch {
	case q.MoreSizes:
		return ledgerview.Problem{Kind: ledgerview.ProblemMoreSizes}, true
	case q.SizeText != "" || q.SizeGB < 0:
		return sizeProblem(q), true
	case q.Platform == "":
		return platformProblem(a, q), true
	case q.SizeGB == 0:
		return ledgerview.Problem{Kind: ledgerview.ProblemNoSize}, true
	case q.NoteCut:
		return ledgerview.Problem{Kind: ledgerview.ProblemNoteCut}, true
	case utf8.RuneCountInString(q.Note) > ledger.MaxNoteRunes:
		return ledgerview.Problem{Kind: ledgerview.ProblemNoteLong, Runes: utf8.RuneCountInString(q.Note), Max: ledger.MaxNoteRunes}, true
	}
	return ledgerview.Problem{}, false
}

// platformProblem is the platform a registration lacks: the first word
// left in the note when it is close to a platform's name ("恒原" →
// 恒源云), else none (the answer offers the catalog's first).
func platformProblem(a *answer.Ask, q understand.Query) ledgerview.Problem {
	p := ledgerview.Problem{Kind: ledgerview.ProblemPlatform}
	if words := strings.Fields(q.Note); len(words) > 0 {
		p.Word, p.Near = words[0], a.Cat.ClosestPlatforms(words[0], 3)
	}
	return p
}
