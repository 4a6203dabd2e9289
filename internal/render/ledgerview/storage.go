package ledgerview

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// Off: the storage ledger is not enabled (it needs the data store).
type Off struct {
	Lang i18n.Lang `json:"-"`
}

// Reply says so.
func (o Off) Reply(*render.Renderer) chat.Reply { return chat.Reply{Title: o.Lang.T("storage.off")} }

// Why a storage command does nothing, before the ledger is read
// (Problem.Kind).
const (
	ProblemMoreSizes = "more_sizes" // a registration with two sizes
	ProblemSize      = "size"       // a size that is no disk size
	ProblemPlatform  = "platform"   // no platform (or one nobody knows)
	ProblemNoSize    = "no_size"    // a registration without a size
	ProblemNoteCut   = "note_cut"   // a note cut from a message too long
	ProblemNoteLong  = "note_long"  // a note over ledger.MaxNoteRunes
	ProblemNewSize   = "new_size"   // a resize without its new size
)

// Problem is why a storage command does nothing, with what names it.
type Problem struct {
	Kind string
	// Size is the size as written and TooLarge whether it is over the
	// largest disk (ProblemSize).
	Size     string
	TooLarge bool
	// Word is the first word left where a platform was expected and Near
	// the platforms (ids) closest to it (ProblemPlatform; none: the
	// catalog's first platforms are offered).
	Word string
	Near []string
	// Runes and Max are the note's length and the most allowed
	// (ProblemNoteLong).
	Runes, Max int
}

// text is the problem in a clause (after "没有登记：").
func (p Problem) text(rd *render.Renderer, l i18n.Lang) string {
	en := l.English()
	switch p.Kind {
	case ProblemMoreSizes:
		return l.T("storage.problem.more_sizes")
	case ProblemSize:
		if p.TooLarge {
			return l.T("storage.problem.size_too_large", p.Size)
		}
		return l.T("storage.problem.size_bad", p.Size)
	case ProblemPlatform:
		if len(p.Near) > 0 {
			return l.T("storage.problem.platform_near", p.Word, rd.PlatformNames(p.Near, en))
		}
		var some []string
		for i := range rd.Cat.Platforms[:min(5, len(rd.Cat.Platforms))] {
			some = append(some, rd.Cat.Platforms[i].DisplayName(en))
		}
		return l.T("storage.problem.platform_none", strings.Join(some, l.T("list.sep")))
	case ProblemNoSize:
		return l.T("storage.problem.no_size")
	case ProblemNoteCut:
		return l.T("storage.problem.note_cut")
	case ProblemNoteLong:
		return l.T("storage.problem.note_long", p.Runes, p.Max)
	}
	return l.T("storage.problem.new_size")
}

// DiskCost is what a data disk costs as the ledger prices it: per GB-day
// with the free GB, from the lab's configured price or the catalog's
// (cited), or no price at all; nothing while stopped on a platform that
// does not bill stopped disks.
type DiskCost struct {
	// Priced: there is a price (PerDay CNY per GB-day, FreeGB free).
	Priced         bool
	PerDay, FreeGB float64
	// BillableGB is the disk's size beyond the free GB.
	BillableGB float64
	// FreeWhileStopped: the disk is stopped on a platform that bills
	// nothing then (per the catalog).
	FreeWhileStopped bool
	// Unverified: the price is one only the seed articles give (marked
	// with render.MarkUnverified). Override: the lab's configured price;
	// Cite the catalog figure's source otherwise ("" when none).
	Unverified bool
	Override   bool
	Cite       string
}

// addTo adds the cost line to rep and, for a seed-only price, the
// mark's legend.
func (c DiskCost) addTo(rep *chat.Reply, l i18n.Lang) {
	rep.Lines = append(rep.Lines, c.line(l))
	if c.Priced && c.PerDay > 0 && c.Unverified {
		rep.Notes = append(rep.Notes, render.UnverifiedFigureNote(l.English()))
	}
}

// line prices the disk per day and per 30 days, with the price's source.
func (c DiskCost) line(l i18n.Lang) string {
	switch {
	case !c.Priced:
		return l.T("storage.cost.no_price")
	case c.FreeWhileStopped:
		return l.T("storage.cost.free_stopped")
	}
	mark, src := "", ""
	if c.Unverified {
		mark = render.MarkUnverified
	}
	switch {
	case c.Override:
		src = l.T("storage.cost.override")
	case c.Cite != "":
		src = l.T("storage.cost.cite", c.Cite)
	}
	perDay := c.BillableGB * c.PerDay
	return l.T("storage.cost.line", c.PerDay, mark, c.FreeGB, perDay, mark, perDay*30, mark, src)
}

// NotAdded: a registration refused before it was written, and why.
type NotAdded struct {
	Lang    i18n.Lang `json:"-"`
	Problem Problem   `json:"-"`
	// Problems and UnknownGPU are what the question held that was not
	// used.
	Problems   []string `json:"-"`
	UnknownGPU string   `json:"-"`
}

// Reply says why, with an example.
func (n NotAdded) Reply(rd *render.Renderer) chat.Reply {
	l := n.Lang
	rep := chat.Reply{Title: l.T("storage.add.refused", n.Problem.text(rd, l))}
	rep.Lines = append(render.ProblemLines(n.Problems, n.UnknownGPU, l.English()), l.T("storage.add.example"))
	return rep
}

// Added is a disk registered: its number, platform, size and note, what
// it costs, and whether its owner is only a WeChat nickname (nobody but
// an admin can change it later).
type Added struct {
	Lang       i18n.Lang `json:"-"`
	ID         string    `json:"-"`
	Platform   string    `json:"-"`
	SizeGB     float64   `json:"-"`
	Note       string    `json:"-"`
	Cost       DiskCost  `json:"-"`
	WeakWeChat bool      `json:"-"`
}

// Reply names the disk, its cost, and how to keep the ledger right.
func (a Added) Reply(rd *render.Renderer) chat.Reply {
	l, en := a.Lang, a.Lang.English()
	rep := chat.Reply{Title: l.T("storage.add.done", a.ID, rd.PlatformName(a.Platform, en), GBText(a.SizeGB))}
	if a.Note != "" {
		rep.Title = l.T("storage.add.done_note", a.ID, rd.PlatformName(a.Platform, en), GBText(a.SizeGB), a.Note)
	}
	a.Cost.addTo(&rep, l)
	if a.WeakWeChat {
		rep.Notes = append(rep.Notes, l.T("storage.add.weak_wechat"))
	}
	rep.Notes = append(rep.Notes, l.T("storage.add.hint", a.ID))
	return rep
}

// List is the lab's disks now (or the asker's, Mine), by number, with
// what each costs per 30 days and the total, as of AsOf.
type List struct {
	Lang  i18n.Lang  `json:"-"`
	Mine  bool       `json:"-"`
	Disks []ListDisk `json:"-"`
	// Total is the priced disks' CNY per 30 days, Marked when a
	// seed-only price is in it; Unpriced counts the disks without price.
	Total    float64   `json:"-"`
	Marked   bool      `json:"-"`
	Unpriced int       `json:"-"`
	AsOf     time.Time `json:"-"`
	// Asked is what a question about a disk named ("do we still have
	// that 500G disk on hengyuan?"): the list answers it first (nil: a
	// plain list). Focus is the one disk a follow-up asks the cost of
	// ("这个一个月多少钱" after registering it; "": none).
	Asked *ListAsked `json:"-"`
	Focus string     `json:"-"`
	// At is a size the follow-up asks the Focus disk's cost at ("200G
	// 一个月多少钱", "1T呢"), and AtMonthly what that would cost per 30
	// days (At 0: none; the ledger is not changed).
	At        float64 `json:"-"`
	AtMonthly float64 `json:"-"`
	// Yearly: the question asked per year (the Focus disk's or the
	// total's cost times 12). Total asks for all the disks added up,
	// Stopped for the one stopped longest.
	Yearly     bool `json:"-"`
	AskTotal   bool `json:"-"`
	AskStopped bool `json:"-"`
	// Budget is the advice for a monthly budget: which disks to drop to
	// get under it (nil: not asked).
	Budget *ListBudget `json:"-"`
	// Idle is the advice on which disks could be deleted ("哪块盘可以删";
	// nil: not asked).
	Idle *ListIdle `json:"-"`
	// PerOwner asks each member's GB and CNY a month, largest first
	// ("谁的盘最多"). AskDisk asks about the Focus disk: "state" (is it
	// stopped), "backup" (back it up before removing it); "": neither.
	PerOwner bool   `json:"-"`
	AskDisk  string `json:"-"`
}

// ListIdle is which disks could be deleted (Drop: stopped, or unchanged
// for 30 days; the ones to name first first) and what deleting them all
// saves a month (their priced part).
type ListIdle struct {
	Drop   []string
	Saving float64
}

// ListBudget is which disks to drop to get a lab's monthly storage
// total under Budget: the fewest, stopped longest first (Drop, their
// numbers), the total now and after.
type ListBudget struct {
	Budget, Total, After float64
	Drop                 []string
	// AskOver: asked whether the total is over the budget ("现在超了吗"):
	// the verdict first.
	AskOver bool
}

// ListAsked is the disk a question named and how many match it (the
// rows are the matches, or every disk when none does).
type ListAsked struct {
	Platform string
	SizeGB   float64
	Found    int
}

// ListDisk is one disk of a List.
type ListDisk struct {
	ledger.DiskState
	// Days is how long it has been in its state; Yours whether the
	// asker registered it; NoteOwner the member its note names as
	// holding it ("张三的模型"; "": none).
	Days      int
	Yours     bool
	NoteOwner string
	// Monthly is its CNY per 30 days (nil: no price), Marked when the
	// price is seed-only.
	Monthly *float64
	Marked  bool
}

// Reply is the table, and the total with where it comes from.
func (s List) Reply(rd *render.Renderer) chat.Reply {
	l, en := s.Lang, s.Lang.English()
	if len(s.Disks) == 0 {
		return chat.Reply{Title: l.T("storage.list.none")}
	}
	rows := make([][]string, 0, len(s.Disks))
	for _, d := range s.Disks {
		state := l.T("storage.list.running")
		if d.Stopped {
			state = l.T("storage.list.stopped")
		}
		monthly := l.T("storage.list.unknown")
		if d.Monthly != nil {
			monthly = strconv.FormatFloat(*d.Monthly, 'f', 1, 64)
			if d.Marked {
				monthly += render.MarkUnverified
			}
		}
		rows = append(rows, []string{"#" + d.Disk, rd.PlatformName(d.Platform, en), GBText(d.SizeGB), state + l.T("storage.list.days", d.Days),
			ownerText(d.DiskState, d.Yours, l), monthly, d.Note})
	}
	title := l.T("storage.list.title_all", len(rows))
	if s.Mine {
		title = l.T("storage.list.title_mine", len(rows))
	}
	mark := ""
	if s.Marked {
		mark = render.MarkUnverified
	}
	note := l.T("storage.list.total", s.Total, mark, rd.Clock.Minute(s.AsOf))
	switch {
	case s.Unpriced > 0 && s.Unpriced >= len(rows):
		// No disk priced: no total at all, never "at least 0.0".
		note = l.T("storage.list.total_none", rd.Clock.Minute(s.AsOf))
	case s.Unpriced > 0:
		// Never a silent zero: the total leaves the unpriced disks out.
		note = l.T("storage.list.total_unpriced", s.Total, mark, s.Unpriced, rd.Clock.Minute(s.AsOf))
	}
	rep := chat.Reply{Title: title, Table: &chat.Table{Header: l.L("storage.list.header"), Rows: rows}, Notes: []string{note}}
	if lead := s.lead(rd); lead != "" {
		rep.Title, rep.Lines = lead, []string{title}
		if s.Budget != nil && len(s.Budget.Drop) > 0 {
			rep.Lines = []string{l.T("storage.list.budget_why"), title}
		}
	}
	if s.Marked {
		rep.Notes = append(rep.Notes, render.UnverifiedFigureNote(en))
	}
	return rep
}

// lead is the answer to the question the list was asked for: the
// disk a follow-up asks about with what it costs, or whether a disk
// named is on the ledger ("" for a plain list).
func (s List) lead(rd *render.Renderer) string {
	l, en := s.Lang, s.Lang.English()
	mark := ""
	if s.Marked {
		mark = render.MarkUnverified
	}
	switch {
	case s.Budget != nil:
		return s.budgetLead(rd)
	case s.Idle != nil:
		return s.idleLead(rd)
	case s.PerOwner:
		return s.ownerLead()
	case s.AskDisk != "" && s.Focus != "":
		return s.diskLead(rd)
	case s.AskTotal:
		priced := 0
		var top *ListDisk
		for i, d := range s.Disks {
			if d.Monthly != nil {
				priced++
				if top == nil || *d.Monthly > *top.Monthly {
					top = &s.Disks[i]
				}
			}
		}
		if top == nil {
			return ""
		}
		if s.Yearly {
			return l.T("storage.list.total_yearly", s.Total*12, mark, s.Total, priced)
		}
		return l.T("storage.list.total_monthly", s.Total, mark, priced, top.Disk, *top.Monthly)
	case s.AskStopped && s.Focus == "":
		return l.T("storage.list.no_stopped", len(s.Disks))
	}
	if s.Focus != "" {
		for _, d := range s.Disks {
			if d.Disk != s.Focus || d.Monthly == nil {
				continue
			}
			mark := ""
			if d.Marked {
				mark = render.MarkUnverified
			}
			if s.At > 0 {
				return l.T("storage.list.disk_monthly_at", d.Disk, rd.PlatformName(d.Platform, en), GBText(s.At), s.AtMonthly, mark,
					GBText(d.SizeGB), *d.Monthly, d.Disk, GBText(s.At))
			}
			switch {
			case s.Yearly:
				return l.T("storage.list.disk_yearly", d.Disk, rd.PlatformName(d.Platform, en), GBText(d.SizeGB), *d.Monthly*12, mark, *d.Monthly)
			case s.AskStopped && d.Stopped:
				return l.T("storage.list.stopped_one", d.Disk, rd.PlatformName(d.Platform, en), GBText(d.SizeGB), d.Days, *d.Monthly, mark)
			}
			return l.T("storage.list.disk_monthly", d.Disk, rd.PlatformName(d.Platform, en), GBText(d.SizeGB), *d.Monthly, mark)
		}
		return ""
	}
	if s.Asked == nil {
		return ""
	}
	var what []string
	if s.Asked.Platform != "" {
		what = append(what, rd.PlatformName(s.Asked.Platform, en))
	}
	if s.Asked.SizeGB > 0 {
		what = append(what, GBText(s.Asked.SizeGB))
	}
	named := strings.Join(what, " ")
	if s.Asked.Found == 0 {
		return l.T("storage.list.not_found", " "+named)
	}
	return l.T("storage.list.found", named, s.Asked.Found)
}

// budgetLead says which disks to drop to get under the budget, with
// the total now and after, and how they were picked; asked whether the
// total is over, the verdict first.
func (s List) budgetLead(rd *render.Renderer) string {
	l, b := s.Lang, s.Budget
	if !b.AskOver {
		return s.dropLead(rd)
	}
	mark := ""
	if s.Marked {
		mark = render.MarkUnverified
	}
	if b.Total > b.Budget {
		return l.T("storage.list.over_yes", b.Total, mark, b.Budget, b.Total-b.Budget) + s.dropLead(rd)
	}
	lead := l.T("storage.list.over_no", b.Total, mark, b.Budget, b.Budget-b.Total)
	if s.Unpriced > 0 {
		lead += l.T("storage.list.budget_unpriced", s.Unpriced)
	}
	return lead
}

// dropLead says which disks to drop to get under the budget, with the
// total now and after.
func (s List) dropLead(rd *render.Renderer) string {
	l, en, b := s.Lang, s.Lang.English(), s.Budget
	if len(b.Drop) == 0 && s.Unpriced > 0 {
		// Never "within budget" over disks whose cost is unknown.
		return l.T("storage.list.budget_within_unpriced", b.Total, b.Budget, s.Unpriced)
	}
	if len(b.Drop) == 0 {
		return l.T("storage.list.budget_within", b.Total, b.Budget)
	}
	var names []string
	for _, id := range b.Drop {
		for _, d := range s.Disks {
			if d.Disk != id || d.Monthly == nil {
				continue
			}
			state := l.T("storage.list.budget_running")
			if d.Stopped {
				state = l.T("storage.list.budget_stopped", d.Days)
			}
			names = append(names, l.T("storage.list.budget_disk", d.Disk, rd.PlatformName(d.Platform, en), GBText(d.SizeGB), state, *d.Monthly))
		}
	}
	lead := l.T("storage.list.budget_drop", strings.Join(names, l.T("router.frame.join")), b.Total, b.After, b.Budget)
	if s.Unpriced > 0 {
		lead += l.T("storage.list.budget_unpriced", s.Unpriced)
	}
	return lead
}

// idleLead says which disks could be deleted, each with its state and
// what deleting it saves a month, or that none is idle.
func (s List) idleLead(rd *render.Renderer) string {
	l, en := s.Lang, s.Lang.English()
	if len(s.Idle.Drop) == 0 {
		return l.T("storage.list.idle_none", len(s.Disks))
	}
	var names []string
	for _, id := range s.Idle.Drop {
		for _, d := range s.Disks {
			if d.Disk != id {
				continue
			}
			state := l.T("storage.list.idle_unchanged", d.Days)
			if d.Stopped {
				state = l.T("storage.list.budget_stopped", d.Days)
			}
			monthly := l.T("storage.list.unknown")
			if d.Monthly != nil {
				monthly = strconv.FormatFloat(*d.Monthly, 'f', 1, 64)
			}
			names = append(names, l.T("storage.list.idle_disk", d.Disk, rd.PlatformName(d.Platform, en), GBText(d.SizeGB), state, monthly))
		}
	}
	return l.T("storage.list.idle_drop", strings.Join(names, l.T("router.frame.join")), s.Idle.Saving)
}

// ownerLead is each member's GB and CNY a month, largest first: the
// member a note names as holding a disk ("张三的模型"), else who
// registered it.
func (s List) ownerLead() string {
	l := s.Lang
	type share struct {
		name    string
		gb, cny float64
		marked  bool
	}
	var shares []*share
	by := map[string]*share{}
	for _, d := range s.Disks {
		name := d.NoteOwner
		if name == "" {
			name = ownerText(d.DiskState, d.Yours, l)
		}
		sh := by[name]
		if sh == nil {
			sh = &share{name: name}
			by[name] = sh
			shares = append(shares, sh)
		}
		sh.gb += d.SizeGB
		if d.Monthly != nil {
			sh.cny += *d.Monthly
		}
		sh.marked = sh.marked || d.Marked
	}
	slices.SortStableFunc(shares, func(x, y *share) int {
		if c := cmp.Compare(y.gb, x.gb); c != 0 {
			return c
		}
		return cmp.Compare(y.cny, x.cny)
	})
	parts := make([]string, 0, len(shares))
	for _, sh := range shares {
		mark := ""
		if sh.marked {
			mark = render.MarkUnverified
		}
		parts = append(parts, l.T("storage.list.owner_share", sh.name, GBText(sh.gb), sh.cny, mark))
	}
	return l.T("storage.list.per_owner", strings.Join(parts, l.T("router.frame.join")))
}

// diskLead answers a question about the Focus disk: whether it is
// stopped (its state first), or whether to back it up before removing
// it (yes, and why).
func (s List) diskLead(rd *render.Renderer) string {
	l, en := s.Lang, s.Lang.English()
	for _, d := range s.Disks {
		if d.Disk != s.Focus {
			continue
		}
		name := l.T("storage.list.disk_name", d.Disk, rd.PlatformName(d.Platform, en), GBText(d.SizeGB))
		switch {
		case s.AskDisk == "backup":
			return l.T("storage.list.backup", name, d.Disk)
		case d.Stopped:
			return l.T("storage.list.state_stopped", d.Days, name, d.Disk)
		}
		return l.T("storage.list.state_running", d.Days, name, d.Disk)
	}
	return ""
}

// ownerText names a disk's owner for the asker: "你" for their own, the
// display name, else a short member label (never a raw id).
func ownerText(d ledger.DiskState, yours bool, l i18n.Lang) string {
	switch {
	case yours:
		return l.T("storage.owner.you")
	case d.OwnerName != "":
		return d.OwnerName
	}
	return ledger.MemberLabel(d.Owner)
}

// Why a storage change changed nothing (Unchanged.Why).
const (
	UnchangedMoreDisks      = "more_disks"      // two disk numbers in one message
	UnchangedWhich          = "which"           // no disk named (Example shows how)
	UnchangedProblem        = "problem"         // a resize without a size it can take (Problem)
	UnchangedNoDisk         = "no_disk"         // no such disk in the lab
	UnchangedWeakOwner      = "weak_owner"      // registered under a WeChat nickname
	UnchangedNotOwner       = "not_owner"       // someone else's (Owner)
	UnchangedAlreadyStopped = "already_stopped" // a stop of a stopped disk
	UnchangedAlreadyRunning = "already_running" // a start of a running one
	UnchangedBusy           = "busy"            // the ledger kept changing under the write
)

// Unchanged: a storage change that changed nothing, and why.
type Unchanged struct {
	Lang i18n.Lang `json:"-"`
	Why  string    `json:"-"`
	// Disk is the disk named; Example a phrasing of the command (its
	// intent's help, "" for the default); Problem what is wrong with the
	// new size; Owner the disk's owner as recorded.
	Disk    string           `json:"-"`
	Example string           `json:"-"`
	Problem Problem          `json:"-"`
	Owner   ledger.DiskState `json:"-"`
	// Disks are the lab's disks to pick from when none was named.
	Disks []ledger.DiskState `json:"-"`
}

// Reply says why in one line (no disk named: the lab's disks listed).
func (u Unchanged) Reply(rd *render.Renderer) chat.Reply {
	l := u.Lang
	var t string
	switch u.Why {
	case UnchangedMoreDisks:
		t = l.T("storage.change.more_disks")
	case UnchangedWhich:
		ex := u.Example
		if ex == "" {
			ex = l.T("storage.change.example")
		}
		t = l.T("storage.change.which", ex)
		if len(u.Disks) > 0 {
			return chat.Reply{Title: l.T("storage.change.which_of", len(u.Disks)), Lines: u.diskLines(rd), Notes: []string{t}}
		}
	case UnchangedProblem:
		t = l.T("storage.change.not_changed", u.Disk, u.Problem.text(rd, l))
	case UnchangedNoDisk:
		t = l.T("storage.change.no_disk", u.Disk)
	case UnchangedWeakOwner:
		t = l.T("storage.change.weak_owner", u.Disk)
	case UnchangedNotOwner:
		t = l.T("storage.change.not_owner", u.Disk, ownerText(u.Owner, false, l))
	case UnchangedAlreadyStopped:
		t = l.T("storage.change.already_stopped", u.Disk)
	case UnchangedAlreadyRunning:
		t = l.T("storage.change.already_running", u.Disk)
	default:
		t = l.T("storage.change.busy", u.Disk)
	}
	return chat.Reply{Title: t}
}

// diskLines are the disks to pick from, one line each: number, platform,
// size, note.
func (u Unchanged) diskLines(rd *render.Renderer) []string {
	l := u.Lang
	out := make([]string, 0, len(u.Disks))
	for _, d := range u.Disks {
		out = append(out, strings.TrimSpace(l.T("storage.change.which_line", d.Disk, rd.PlatformName(d.Platform, l.English()), GBText(d.SizeGB), d.Note)))
	}
	return out
}

// Changed is a change written to the ledger: the disk as it was, the
// change (its action and, resized, its new size) and, for a resize or a
// stop, what the disk costs now. A stop also carries the platform's
// release rules now running on it (Risks, at Now) and whether the
// platform bills disks while stopped.
type Changed struct {
	Lang               i18n.Lang           `json:"-"`
	Disk               ledger.DiskState    `json:"-"`
	Event              ledger.StorageEvent `json:"-"`
	Cost               DiskCost            `json:"-"`
	Risks              []ledger.AtRisk     `json:"-"`
	Now                time.Time           `json:"-"`
	BilledWhileStopped bool                `json:"-"`
}

// Reply says what was done; a stop first says what the platform will
// wipe (a loss costs more than the disk).
func (c Changed) Reply(rd *render.Renderer) chat.Reply {
	l, en, d := c.Lang, c.Lang.English(), c.Disk
	var rep chat.Reply
	switch c.Event.Action {
	case ledger.ActionResize:
		rep.Title = l.T("storage.change.resized", d.Disk, GBText(c.Event.SizeGB))
		c.Cost.addTo(&rep, l)
	case ledger.ActionStop:
		rep.Title = l.T("storage.change.stopped", d.Disk)
		rep.Lines = append(rep.Lines, StopWarnings(rd, c.Risks, c.Now, en)...)
		c.Cost.addTo(&rep, l)
		if c.BilledWhileStopped {
			rep.Notes = append(rep.Notes, l.T("storage.change.billed_stopped"))
		}
	case ledger.ActionStart:
		rep.Title = l.T("storage.change.started", d.Disk)
	default:
		rep.Title = l.T("storage.change.removed", d.Disk, rd.PlatformName(d.Platform, en), GBText(d.SizeGB))
	}
	return rep
}

// Risks are the lab's (or the asker's) stopped disks that their
// platforms' retention rules will release or wipe, soonest first, at
// Now (ReleaseList).
type Risks struct {
	Lang  i18n.Lang       `json:"-"`
	Risks []ledger.AtRisk `json:"risks,omitempty"`
	Now   time.Time       `json:"-"`
}

// Reply lists them.
func (r Risks) Reply(rd *render.Renderer) chat.Reply {
	return ReleaseList(rd, r.Risks, r.Now, r.Lang.English())
}
