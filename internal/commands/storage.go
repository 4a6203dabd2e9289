package commands

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/understand"
)

// Ledger keeps the labs' storage ledgers (both stores implement it).
type Ledger interface {
	AppendStorageEvents(ctx context.Context, events []ledger.StorageEvent) error
	StorageEvents(ctx context.Context, lab string) ([]ledger.StorageEvent, error)
	SetDigestChat(ctx context.Context, chatKey string, on bool) error
	// AddStorageDisk appends the add of a new disk with its number
	// allocated in the same write (billing.NextDiskID) and returns it.
	AddStorageDisk(ctx context.Context, e ledger.StorageEvent) (string, error)
	// AppendStorageEventsIf appends events to lab's ledger only when it
	// still holds have events (as read); else billing.ErrLedgerChanged.
	AppendStorageEventsIf(ctx context.Context, lab string, have int, events []ledger.StorageEvent) error
}

// ledgerTries is how often a change is decided again when another
// write to the lab's ledger came between its read and its write.
const ledgerTries = 8

// StorageOptions configures the storage commands.
type StorageOptions struct {
	Ledger Ledger
	// Price prices data disks (billing.CatalogStoragePrice).
	Price ledger.StoragePrice
	// Admins are sender ids (Feishu open_id, "console") allowed to change
	// any entry of their lab; others change only their own. They never
	// apply to WeChat messages: WeChat admins are bound (storage_admin.go).
	Admins []string
	// Blobs keeps the WeChat admin bindings (WeChatAdminsBlob); nil: no
	// WeChat admins.
	Blobs Blobs
	// Console receives the one-time binding codes; default os.Stderr.
	Console io.Writer
	// Overrides are the configured data disk prices (storage.prices), for
	// the digest's price notes.
	Overrides map[string]float64
	// Labs maps chat keys ("feishu/oc_…") to a lab name; a chat not listed
	// is its own lab.
	Labs map[string]string

	bind *adminBinder // pending binding codes
}

// WithStorage turns on the storage ledger and digest commands.
func WithStorage(o StorageOptions) Option {
	return func(r *Router) {
		s := o
		s.bind = newAdminBinder()
		r.storage = &s
	}
}

// LabOf returns the lab of a chat key: its configured lab or the chat
// itself.
func (o *StorageOptions) LabOf(chatKey string) string {
	if l, ok := o.Labs[chatKey]; ok && l != "" {
		return l
	}
	return chatKey
}

func (r *Router) storageOff(res *Result) bool {
	if r.storage != nil && r.storage.Ledger != nil {
		return false
	}
	res.Reply = chat.Reply{Title: answer.Pick(res.English, "存储账本没有开启（需要数据存储）。", "The storage ledger is not enabled (it needs the data store).")}
	return true
}

func (r *Router) labEvents(ctx context.Context, msg chat.Message) (string, []ledger.StorageEvent, error) {
	lab := r.storage.LabOf(msg.Channel + "/" + msg.ChatID)
	ev, err := r.storage.Ledger.StorageEvents(ctx, lab)
	return lab, ev, err
}

// labDisks returns the sender's lab and its disks now; on a store error
// it sets the reply and returns false. (DisksAt skips inconsistent
// events and never fails.)
func (r *Router) labDisks(ctx context.Context, res *Result) (string, []ledger.DiskState, bool) {
	lab, events, err := r.labEvents(ctx, res.msg)
	if err != nil {
		res.Reply = storeError(res.English, err)
		return "", nil, false
	}
	disks, _ := ledger.DisksAt(events, r.now())
	return lab, disks, true
}

// storageAddAnswer handles "登记存储 AutoDL 数据盘 80G 实验数据".
func (r *Router) storageAddAnswer(ctx context.Context, res *Result) {
	q, en := res.Query, res.English
	if r.storageOff(res) {
		return
	}
	if why := r.storageAddProblem(q, en); why != "" {
		rep := chat.Reply{Title: answer.Pick(en, "没有登记：", "Nothing registered: ") + why}
		rep.Lines = append(answer.ProblemLines(q, en), answer.Pick(en, "例如：登记存储 AutoDL 数据盘 80G 实验数据", "For example: storage add autodl 80GB experiment data"))
		res.Reply = rep
		return
	}
	lab := r.storage.LabOf(res.msg.Channel + "/" + res.msg.ChatID)
	e := ledger.StorageEvent{Time: r.now(), Lab: lab, Owner: res.msg.SenderID, OwnerName: res.msg.SenderName, Platform: q.Platform,
		Action: ledger.ActionAdd, SizeGB: q.SizeGB, Note: q.Note}
	// The number is allocated in the store, in the write that adds the
	// disk: members registering at the same moment get numbers of their own.
	id, err := r.storage.Ledger.AddStorageDisk(ctx, e)
	if err != nil {
		res.Reply = storeError(en, err)
		return
	}
	rep := chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "已登记存储 #%s：%s %s", "Registered storage #%s: %s %s"), id, r.rd.PlatformName(q.Platform, en), render.GBText(q.SizeGB))}
	if q.Note != "" {
		rep.Title += answer.Pick(en, "（"+q.Note+"）", " ("+q.Note+")")
	}
	r.addDiskCost(&rep, q.Platform, q.SizeGB, false, en)
	if n := weakWeChatNote(res.msg, en); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	rep.Notes = append(rep.Notes, answer.Pick(en, "实例关机后说“存储 "+id+" 已关机”，删除后说“删除存储 "+id+"”，这样周报才准。",
		"Say “storage stop "+id+"” when its instance is shut down and “storage remove "+id+"” when it is deleted, so the digest stays right."))
	res.Reply = rep
}

// storageAddProblem says, after "没有登记：", why a registration cannot
// be made: a size that is no disk size (named as written), an unknown
// platform (with the closest names the catalog knows), or a missing
// platform or size; "" when it can.
func (r *Router) storageAddProblem(q Query, en bool) string {
	switch {
	case q.MoreSizes:
		return answer.Pick(en, "一次登记一块盘，这条里有两个大小；请分两条发。", "one disk per message, and this one has two sizes; send them one by one.")
	case q.SizeText != "" || q.SizeGB < 0:
		return sizeProblem(q, en)
	case q.Platform == "":
		return r.platformProblem(q.Note, en)
	case q.SizeGB == 0:
		return answer.Pick(en, "需要大小，例如 80G 或 1.5T。", "a size is needed, e.g. 80GB or 1.5TB.")
	case q.NoteCut:
		return answer.Pick(en, "这条太长，备注没能完整读到；请把备注写短一点再登记。", "the message is too long to read whole, so the note would be cut; please shorten the note.")
	case utf8.RuneCountInString(q.Note) > ledger.MaxNoteRunes:
		return fmt.Sprintf(answer.Pick(en, "备注太长（%d 字，最多 %d 字），请写短一点。", "the note is too long (%d characters, at most %d); please shorten it."),
			utf8.RuneCountInString(q.Note), ledger.MaxNoteRunes)
	}
	return ""
}

// sizeProblem names a size that is no disk size, as the asker wrote it.
func sizeProblem(q Query, en bool) string {
	text := q.SizeText
	if text == "" {
		text = render.GBText(q.SizeGB)
	}
	if q.SizeGB > understand.MaxDiskGB {
		return fmt.Sprintf(answer.Pick(en, "大小“%s”太大，最多 1000 TB。", "the size “%s” is too large (at most 1000 TB)."), text)
	}
	return fmt.Sprintf(answer.Pick(en, "大小“%s”不对，要大于 0，例如 80G。", "the size “%s” is not a size: it must be more than 0, e.g. 80GB."), text)
}

// platformProblem names the platform a registration lacks: the first
// word left in the note when it is close to a platform's name ("恒原" →
// 恒源云), else the platforms to choose from.
func (r *Router) platformProblem(note string, en bool) string {
	if words := strings.Fields(note); len(words) > 0 {
		var near []string
		for _, id := range r.cat.ClosestPlatforms(words[0], 3) {
			near = append(near, r.rd.PlatformName(id, en))
		}
		if len(near) > 0 {
			return fmt.Sprintf(answer.Pick(en, "不认识平台“%s”，最接近的是 %s。", "no platform is called “%s”; the closest are %s."),
				words[0], strings.Join(near, answer.Pick(en, "、", ", ")))
		}
	}
	var some []string
	for i := range r.cat.Platforms[:min(5, len(r.cat.Platforms))] {
		some = append(some, r.cat.Platforms[i].DisplayName(en))
	}
	return fmt.Sprintf(answer.Pick(en, "需要平台，例如 %s。", "a platform is needed, e.g. %s."), strings.Join(some, answer.Pick(en, "、", ", ")))
}

// addDiskCost adds a disk's price line to rep and, when the price is one
// only the seed articles give, the unverified mark's legend.
func (r *Router) addDiskCost(rep *chat.Reply, platform string, sizeGB float64, stopped bool, en bool) {
	rep.Lines = append(rep.Lines, r.diskCostLine(platform, sizeGB, stopped, en))
	if perDay, _, ok := r.storage.Price(platform, stopped); ok && perDay > 0 && r.diskPriceUnverified(platform) {
		rep.Notes = append(rep.Notes, render.UnverifiedFigureNote(en))
	}
}

// diskPriceUnverified reports whether the data disk price the ledger uses
// for platform is one only the seed articles give (no lab override, a
// catalog figure not verified): answers mark it with render.MarkUnverified.
func (r *Router) diskPriceUnverified(platform string) bool {
	if _, ok := r.storage.Overrides[platform]; ok {
		return false
	}
	p, ok := r.cat.Platform(platform)
	return ok && p.Storage.DataDiskCNYPerGBDay != nil && !p.Storage.DataDiskCNYPerGBDay.Verified
}

// diskCostLine prices a disk per day and per 30 days, with the price's
// source; a seed-only price and what follows from it carry the
// unverified mark (addDiskCost adds its legend).
func (r *Router) diskCostLine(platform string, sizeGB float64, stopped bool, en bool) string {
	perDay, free, ok := r.storage.Price(platform, stopped)
	if !ok {
		return answer.Pick(en, "目录里没有这个平台的数据盘价格，周报里不计费用（只计 GB·天）。", "The catalog has no data-disk price for this platform; the digest counts GB-days but no CNY.")
	}
	if p, ok := r.cat.Platform(platform); ok && stopped && perDay == 0 && !p.Storage.BilledWhileStopped {
		return answer.Pick(en, "这个平台关机期间不收数据盘费用（按目录），开机后照常计费。", "This platform does not bill the data disk while the instance is stopped (per the catalog); billing resumes when it runs.")
	}
	billable := sizeGB - free
	if billable < 0 {
		billable = 0
	}
	mark := ""
	if r.diskPriceUnverified(platform) {
		mark = render.MarkUnverified
	}
	src := ""
	if _, over := r.storage.Overrides[platform]; over {
		src = answer.Pick(en, "（本实验室配置的价格）", " (the lab's configured price)")
	} else if p, ok := r.cat.Platform(platform); ok && p.Storage.DataDiskCNYPerGBDay != nil {
		f := p.Storage.DataDiskCNYPerGBDay
		src = answer.Pick(en, "（", " (") + answer.Cite(r.cat, platform, *f, en) + answer.Pick(en, "）", ")")
	}
	return fmt.Sprintf(answer.Pick(en, "按 %.4g%s 元/GB·天、免费 %g GB 计：约 %.2f%s 元/天，%.1f%s 元/30天%s。", "At %.4g%s CNY per GB-day with %g GB free: about %.2f%s CNY a day, %.1f%s CNY per 30 days%s."),
		perDay, mark, free, billable*perDay, mark, billable*perDay*30, mark, src)
}

// sortDisks orders disks by number ("#2" before "#10"), ids that are no
// number after.
func sortDisks(disks []ledger.DiskState) {
	slices.SortStableFunc(disks, func(a, b ledger.DiskState) int {
		an, aErr := strconv.Atoi(a.Disk)
		bn, bErr := strconv.Atoi(b.Disk)
		switch {
		case aErr == nil && bErr == nil:
			return cmp.Compare(an, bn)
		case aErr == nil:
			return -1
		case bErr == nil:
			return 1
		}
		return strings.Compare(a.Disk, b.Disk)
	})
}

// storageListAnswer handles "我的存储" and "存储列表".
func (r *Router) storageListAnswer(ctx context.Context, res *Result) {
	en := res.English
	if r.storageOff(res) {
		return
	}
	if r.storageAdminAnswer(ctx, res) {
		// "绑定管理员", "管理员列表", "解除管理员 …" (storage_admin.go).
		return
	}
	_, disks, ok := r.labDisks(ctx, res)
	if !ok {
		return
	}
	rows := [][]string{}
	total, totalMark, unpriced := 0.0, "", 0
	sortDisks(disks)
	for _, d := range disks {
		if res.Mine && d.Owner != res.msg.SenderID {
			continue
		}
		state := answer.Pick(en, "运行中", "running")
		if d.Stopped {
			state = answer.Pick(en, "已关机", "stopped")
		}
		state += fmt.Sprintf(answer.Pick(en, " %d天", " %dd"), int(r.now().Sub(d.Since).Hours()/24))
		monthly := answer.Pick(en, "未知", "unknown")
		perDay, free, ok := r.storage.Price(d.Platform, d.Stopped)
		if !ok {
			unpriced++
		}
		if ok {
			m := max(d.SizeGB-free, 0) * perDay * 30
			total += m
			monthly = fmt.Sprintf("%.1f", m)
			if perDay > 0 && r.diskPriceUnverified(d.Platform) {
				// A seed-only price, and the total it goes into.
				monthly += render.MarkUnverified
				totalMark = render.MarkUnverified
			}
		}
		rows = append(rows, []string{"#" + d.Disk, r.rd.PlatformName(d.Platform, en), render.GBText(d.SizeGB), state, ownerText(d, res.msg.SenderID, en), monthly, d.Note})
	}
	if len(rows) == 0 {
		res.Reply = chat.Reply{Title: answer.Pick(en, "这里还没有登记的存储。例如说“登记存储 AutoDL 数据盘 80G 实验数据”。", "No storage registered here yet. Try “storage add autodl 80GB experiment data”.")}
		return
	}
	title := answer.Pick(en, "本群登记的存储", "Storage registered in this chat")
	if res.Mine {
		title = answer.Pick(en, "你登记的存储", "Your storage")
	}
	res.Reply = chat.Reply{
		Title: fmt.Sprintf("%s（%d）", title, len(rows)),
		Table: &chat.Table{Header: strings.Split(answer.Pick(en, "编号|平台|大小|状态|持有人|元/30天|备注", "#|platform|size|state|owner|CNY/30d|note"), "|"), Rows: rows},
		Notes: []string{fmt.Sprintf(answer.Pick(en, "按目录数据盘价估算，合计约 %.1f%s 元/30天；数据来自本群账本，截至 %s。", "Estimated from catalog data-disk prices: about %.1f%s CNY per 30 days in all; from this chat's ledger as of %s."),
			total, totalMark, r.rd.Clock.Minute(r.now()))},
	}
	if unpriced > 0 {
		// Never a silent zero: the total leaves the unpriced disks out.
		res.Reply.Notes[0] = fmt.Sprintf(answer.Pick(en, "按目录数据盘价估算，合计至少 %.1f%s 元/30天，不含未计价的 %d 块（配置 storage.prices.<平台> 后计入）；数据来自本群账本，截至 %s。",
			"Estimated from catalog data-disk prices: at least %.1f%s CNY per 30 days, not counting %d unpriced disks (price them with storage.prices.<platform>); from this chat's ledger as of %s."),
			total, totalMark, unpriced, r.rd.Clock.Minute(r.now()))
	}
	if totalMark != "" {
		res.Reply.Notes = append(res.Reply.Notes, render.UnverifiedFigureNote(en))
	}
}

// ownerText names a disk's owner for the asker: "你" for their own, the
// display name, else a short member label (never a raw id).
// Display only: rights are ownsDisk's.
func ownerText(d ledger.DiskState, asker string, en bool) string {
	switch {
	case d.Owner == asker && asker != "":
		return answer.Pick(en, "你", "you")
	case d.OwnerName != "":
		return d.OwnerName
	}
	return ledger.MemberLabel(d.Owner)
}

// stopWarnings are the platform's release rules that now run for a disk
// just stopped ("恒源云 /hy-tmp 约 24 小时后清空"), from the same rules as
// the release-warning job, so the owner hears them at once.
func (r *Router) stopWarnings(disk ledger.DiskState, stop ledger.StorageEvent, en bool) []string {
	add := ledger.StorageEvent{Time: stop.Time.Add(-time.Second), Lab: stop.Lab, Owner: disk.Owner, OwnerName: disk.OwnerName,
		Platform: disk.Platform, Disk: disk.Disk, Action: ledger.ActionAdd, SizeGB: disk.SizeGB, Note: disk.Note}
	return r.rd.StopWarnings(ledger.ReleaseRisks([]ledger.StorageEvent{add, stop}, r.cat, stop.Time), stop.Time, en)
}

// storageChangeAnswer handles resize, stop, start and remove. The change
// is decided on the ledger as read and written only if the ledger still
// holds what was read (AppendStorageEventsIf); when another write came
// between, it is decided again on the new ledger (a remove and a resize
// of one disk at the same moment: the second sees the disk gone).
func (r *Router) storageChangeAnswer(ctx context.Context, res *Result) {
	q, en := res.Query, res.English
	if r.storageOff(res) {
		return
	}
	if refusal := r.changeRefusal(q, res.Intent, en); refusal != "" {
		res.Reply = chat.Reply{Title: refusal}
		return
	}
	for range ledgerTries {
		lab, events, err := r.labEvents(ctx, res.msg)
		if err != nil {
			res.Reply = storeError(en, err)
			return
		}
		disks, _ := ledger.DisksAt(events, r.now())
		c, ok := r.decideChange(ctx, res, lab, disks)
		if !ok {
			return // answered without a change
		}
		err = r.storage.Ledger.AppendStorageEventsIf(ctx, lab, len(events), []ledger.StorageEvent{c.event})
		if errors.Is(err, ledger.ErrLedgerChanged) {
			continue
		}
		if err != nil {
			res.Reply = storeError(en, err)
			return
		}
		res.Reply = r.changeReply(c, en)
		return
	}
	res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "本群账本这会儿一直在被改，#%s 这次没有修改，请再发一次。",
		"This chat's ledger kept changing while I tried, so #%s was not changed; please send it again."), q.DiskRef)}
}

// diskChange is a change decided on the ledger as read: the event to
// write, the disk as it was, and the answer's first line.
type diskChange struct {
	event ledger.StorageEvent
	disk  ledger.DiskState
	done  string
}

// decideChange decides the change the message asks for on disks; false
// when it answers without one (no such disk, not the sender's, already
// in that state), the answer in res.
func (r *Router) decideChange(ctx context.Context, res *Result, lab string, disks []ledger.DiskState) (diskChange, bool) {
	q, en := res.Query, res.English
	disk := findDisk(disks, q.DiskRef)
	if disk == nil {
		res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "本群没有编号 #%s 的存储，什么都没改。说“存储列表”看编号。", "There is no storage #%s in this chat; nothing changed. “storage list” shows the numbers."), q.DiskRef)}
		return diskChange{}, false
	}
	if !ownsDisk(disk.Owner, res.msg) && !r.isStorageAdmin(ctx, res.msg) {
		if disk.Owner == res.msg.SenderID {
			// A WeChat entry owned by a nickname: anyone can take one.
			res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "#%s 是按微信昵称登记的，昵称谁都能改，不能证明是本人：请管理员修改。", "#%s was registered under a WeChat nickname, which anyone can take, so it proves nothing: ask an admin."), disk.Disk)}
			return diskChange{}, false
		}
		res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "#%s 是 %s 登记的，只有本人或管理员可以修改。", "#%s belongs to %s; only they or an admin can change it."), disk.Disk, ownerText(*disk, res.msg.SenderID, en))}
		return diskChange{}, false
	}
	e := ledger.StorageEvent{Time: r.now(), Lab: lab, Owner: disk.Owner, OwnerName: disk.OwnerName, Platform: disk.Platform, Disk: disk.Disk, SizeGB: q.SizeGB}
	var done string
	switch res.Intent {
	case IntentStorageResize:
		e.Action = ledger.ActionResize
		done = fmt.Sprintf(answer.Pick(en, "#%s 已改为 %s。", "#%s is now %s."), disk.Disk, render.GBText(q.SizeGB))
	case IntentStorageStop:
		if disk.Stopped {
			res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "#%s 已经是关机状态。", "#%s is already stopped."), disk.Disk)}
			return diskChange{}, false
		}
		e.Action = ledger.ActionStop
		done = fmt.Sprintf(answer.Pick(en, "#%s 已记为关机。", "#%s is marked stopped."), disk.Disk)
	case IntentStorageStart:
		if !disk.Stopped {
			res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "#%s 已经是运行状态。", "#%s is already running."), disk.Disk)}
			return diskChange{}, false
		}
		e.Action = ledger.ActionStart
		done = fmt.Sprintf(answer.Pick(en, "#%s 已记为开机。", "#%s is marked running."), disk.Disk)
	case IntentStorageRemove:
		e.Action = ledger.ActionRemove
		done = fmt.Sprintf(answer.Pick(en, "#%s（%s %s）已从账本删除，不再计费。", "#%s (%s %s) is removed from the ledger and no longer counted."), disk.Disk, r.rd.PlatformName(disk.Platform, en), render.GBText(disk.SizeGB))
	}
	if e.Action != ledger.ActionResize {
		e.SizeGB = 0
	}
	return diskChange{event: e, disk: *disk, done: done}, true
}

// changeReply is the answer to a change written to the ledger.
func (r *Router) changeReply(c diskChange, en bool) chat.Reply {
	disk, e := c.disk, c.event
	rep := chat.Reply{Title: c.done}
	switch e.Action {
	case ledger.ActionResize:
		r.addDiskCost(&rep, disk.Platform, e.SizeGB, disk.Stopped, en)
	case ledger.ActionStop:
		rep.Lines = append(rep.Lines, r.stopWarnings(disk, e, en)...) // a loss first: it costs more than the disk
		r.addDiskCost(&rep, disk.Platform, disk.SizeGB, true, en)
		if p, ok := r.cat.Platform(disk.Platform); ok && p.Storage.BilledWhileStopped {
			rep.Notes = append(rep.Notes, answer.Pick(en, "这个平台关机后数据盘照样计费；长期不用请删除或迁走。", "This platform keeps billing disks while stopped; delete or move data you will not use soon."))
		}
	}
	return rep
}

// changeRefusal is the one line that refuses a change the command
// itself rules out, before the ledger is read: no disk named, or a new
// size that is no disk size; "" when there is none.
func (r *Router) changeRefusal(q Query, intent string, en bool) string {
	if q.MoreDisks {
		return answer.Pick(en, "一次改一块盘，这条里有两个编号；请分两条发，什么都没改。", "one disk per message, and this one names two; send them one by one. Nothing was changed.")
	}
	if q.DiskRef == "" {
		return fmt.Sprintf(answer.Pick(en, "要改哪块存储？说它的编号，例如“%s”；“存储列表”看编号。", "Which storage? Give its number, e.g. “%s”; “storage list” shows the numbers."), r.changeExample(intent, en))
	}
	if intent != IntentStorageResize || q.SizeText == "" && q.SizeGB > 0 {
		return ""
	}
	why := answer.Pick(en, "需要新的大小，例如“存储 3 扩容到 200G”。", "a new size is needed, e.g. “storage resize 3 200GB”.")
	if q.SizeText != "" || q.SizeGB < 0 {
		why = sizeProblem(q, en)
	}
	return fmt.Sprintf(answer.Pick(en, "#%s 没有修改：", "#%s not changed: "), q.DiskRef) + why
}

// findDisk is the disk a command names: its id as listed (ids an
// imported ledger gave are matched without regard to case), or nil.
func findDisk(disks []ledger.DiskState, ref string) *ledger.DiskState {
	for i := range disks {
		if strings.EqualFold(disks[i].Disk, ref) {
			return &disks[i]
		}
	}
	return nil
}

// changeExample is the intent's own example as help shows it
// (configs/intents/*.yaml: Chinese first, then English).
func (r *Router) changeExample(intent string, en bool) string {
	d := r.in.Def(intent)
	if d == nil || len(d.Help) == 0 {
		return answer.Pick(en, "删除存储 3", "storage remove 3")
	}
	if en {
		for _, h := range d.Help {
			if !understand.HasCJK(h) {
				return h
			}
		}
	}
	return d.Help[0]
}

// digestAnswer handles "本周存储花费" and "存储周报 2026-W47".
func (r *Router) digestAnswer(ctx context.Context, res *Result) {
	en := res.English
	if r.storageOff(res) {
		return
	}
	lab, events, err := r.labEvents(ctx, res.msg)
	if err != nil {
		res.Reply = storeError(en, err)
		return
	}
	week := digestWeek(res.Query, r.now().In(r.loc()), r.loc())
	d, err := ledger.BuildDigest(events, lab, week, r.loc(), r.storage.Price, r.now())
	if err != nil {
		res.Reply = chat.Reply{Title: answer.Pick(en, "做不了周报：", "No digest: ") + err.Error()}
		return
	}
	ledger.PriceNotes(&d, r.cat, r.storage.Overrides)
	d.ReleaseSoon, d.ReleaseAsOf = ledger.ReleaseRisks(events, r.cat, r.now()), r.now()
	rounded := d.Rounded()
	res.Digest = &rounded
	rep := DigestReply(d, en, r.rd.PlatformName)
	if res.Period == PeriodThisMonth || res.Period == PeriodLastMonth {
		// A month question: the month first, the week after.
		rep = r.monthFirst(rep, d, events, res.Period, en)
	}
	res.Reply = rep
}

// monthFirst puts the month's spend before a digest: this month to date
// and its forecast, or last month's whole total (a month that is over
// has no forecast); marked when a seed-only price is in it.
func (r *Router) monthFirst(rep chat.Reply, d ledger.Digest, events []ledger.StorageEvent, period string, en bool) chat.Reply {
	mark := ""
	for _, p := range d.MonthPlatforms {
		if d.Unverified(p) {
			mark = "*"
		}
	}
	month := fmt.Sprintf(answer.Pick(en, "%s 月存储花费：至今 %.2f%s 元，按现有存储估计全月 %.2f%s 元。", "Storage spend in %s: %.2f%s CNY so far, about %.2f%s CNY for the whole month."),
		d.Month, d.MonthToDateCNY, mark, d.ForecastCNY, mark)
	if period == PeriodLastMonth {
		now := r.now().In(r.loc())
		end := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, r.loc()).Add(-time.Nanosecond)
		if total, err := ledger.MonthToDate(events, end, r.loc(), r.storage.Price); err == nil {
			month = fmt.Sprintf(answer.Pick(en, "%s 月存储花费：共 %.2f%s 元。", "Storage spend in %s: %.2f%s CNY in all."), end.Format("2006-01"), total, mark)
		}
	}
	var lines []string
	for _, l := range rep.Lines {
		if !strings.Contains(l, d.Month) {
			lines = append(lines, l)
		}
	}
	label := answer.Pick(en, "本周：", "This week: ")
	if period == PeriodLastMonth {
		label = answer.Pick(en, "那个月最后一整周：", "Its last whole week: ")
	}
	rep.Lines = append([]string{label + rep.Title}, lines...)
	rep.Title = month
	return rep
}

// digestWeek is the ISO week a digest question asks about: the week it
// names ("2026-W47"; "W47" in the current year), last week, the week
// holding the end of last month, or the current week.
func digestWeek(q Query, now time.Time, loc *time.Location) string {
	switch {
	case strings.HasPrefix(q.Week, "-W") || strings.HasPrefix(q.Week, "W"):
		return fmt.Sprintf("%d-W%s", now.Year(), strings.TrimLeft(q.Week, "-W"))
	case q.Week != "":
		return q.Week
	case q.Period == PeriodLastWeek:
		return ledger.WeekOf(now.AddDate(0, 0, -7), loc)
	case q.Period == PeriodLastMonth:
		// The last week that lies wholly in last month: its digest's
		// month-to-date is last month's.
		first := time.Date(now.Year(), now.Month(), 1, 12, 0, 0, 0, loc)
		return ledger.WeekOf(first.AddDate(0, 0, -7), loc)
	}
	return ledger.WeekOf(now, loc)
}

// digestSwitchAnswer handles "开启周报" and "关闭周报" for this chat.
func (r *Router) digestSwitchAnswer(ctx context.Context, res *Result) {
	en := res.English
	if r.storageOff(res) {
		return
	}
	on := res.Intent == IntentDigestOn
	if err := r.storage.Ledger.SetDigestChat(ctx, res.msg.Channel+"/"+res.msg.ChatID, on); err != nil {
		res.Reply = storeError(en, err)
		return
	}
	if on {
		res.Reply = chat.Reply{Title: answer.Pick(en, "已开启：每周一上午把上周的存储花费周报发到本群。", "On: every Monday morning this chat gets last week's storage spend digest."),
			Notes: []string{answer.Pick(en, "随时可以问“本周存储花费”；“关闭周报”停止。", "Ask “storage spend this week” any time; “digest off” stops it.")}}
		return
	}
	res.Reply = chat.Reply{Title: answer.Pick(en, "已关闭本群的存储周报。", "The weekly storage digest is off for this chat.")}
}

// DigestReply is the digest on one screen with the whole of it behind
// "详情" (render.Digest).
func DigestReply(d ledger.Digest, en bool, name func(id string, en bool) string) chat.Reply {
	return render.Digest(d, en, name)
}
