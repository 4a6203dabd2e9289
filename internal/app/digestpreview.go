package app

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/webhook"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/render/ledgerview"
)

// DigestPreview is what the scheduled digest would send one chat of a
// lab at its next run.
type DigestPreview struct {
	Chat string
	// Lab is the chat's lab (the chat itself unless storage.labs groups
	// it).
	Lab string
	// On says the chat turned the digest on ("开启周报"); the schedule
	// sends nothing to a chat that did not.
	On bool
	// NextRun is the schedule's next run (zero: storage.digest_schedule
	// is off, and the preview is as of now).
	NextRun time.Time
	// Period is what that run covers; Due is false when it would send
	// nothing (a digest went out that day).
	Period jobs.Period
	Due    bool
	// Reply is the digest as the chat would get it, figures as of now (a
	// push-only webhook's without what asks for a reply).
	Reply chat.Reply
}

// PreviewDigest is what the scheduled digest would send each of lab's
// chats at its next run (`bot digest --preview`): the period that run
// covers (jobs.Digest.Due) and the digest of it as of now. With lab ""
// it is every chat that turned the digest on, each with its own lab's
// digest (none: no chat did). It sends nothing, claims nothing and moves
// no chat's mark, so the scheduled digest goes out as if no preview had
// been made.
func (a *App) PreviewDigest(ctx context.Context, lab string) ([]DigestPreview, error) {
	if a.Store == nil {
		return nil, errNoStore
	}
	on, err := a.Store.DigestChats(ctx)
	if err != nil {
		return nil, err
	}
	chats := a.labChats(lab)
	if lab == "" {
		chats = slices.Sorted(slices.Values(on))
	} else if len(chats) == 0 {
		return nil, fmt.Errorf("lab %q has no chats: name a chat key (feishu/oc_…, webhook/<name>) or list its chats in storage.labs", lab)
	}
	now := a.now()
	at := now
	if spec := a.Cfg.Storage.DigestSchedule; spec != "" {
		if at, err = jobs.Next(spec, now.In(a.Location)); err != nil {
			return nil, fmt.Errorf("storage.digest_schedule: %w", err)
		}
	}
	job := a.NewDigestJob(nil)
	var out []DigestPreview
	for _, ck := range chats {
		p := DigestPreview{Chat: ck, Lab: a.LabFor(ck), On: slices.Contains(on, ck)}
		if a.Cfg.Storage.DigestSchedule != "" {
			p.NextRun = at
		}
		if p.Period, p.Due, err = job.Due(ctx, ck, at); err != nil {
			return nil, fmt.Errorf("%s: %w", ck, err)
		}
		if !p.Due {
			out = append(out, p)
			continue
		}
		d, err := a.buildPeriodDigestAt(ctx, a.LabFor(ck), p.Period, now)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ck, err)
		}
		p.Reply = ledgerview.Digest(d, false, a.platformName)
		if strings.HasPrefix(ck, "webhook/") {
			p.Reply = webhook.PushOnly(p.Reply)
		}
		out = append(out, p)
	}
	return out, nil
}

// WritePreview prints previews as text: per chat, a line on what the
// next run sends (or why it sends nothing), then the digest as the chat
// would show it.
func (a *App) WritePreview(w io.Writer, ps []DigestPreview) {
	c := a.Clock()
	if len(ps) == 0 {
		fmt.Fprintln(w, "no chat has turned the digest on (\"digest on\" in a chat), so the schedule sends nothing; bot digest --preview --lab CHAT shows what a chat would get")
		return
	}
	for i, p := range ps {
		if i > 0 {
			fmt.Fprintln(w)
		}
		chatName := p.Chat
		if p.Lab != "" && p.Lab != p.Chat {
			chatName += " (lab " + p.Lab + ")"
		}
		p.Chat = chatName
		when := "with no schedule (storage.digest_schedule is off), as of now"
		if !p.NextRun.IsZero() {
			when = "at the next scheduled run, " + c.Zoned(p.NextRun)
		}
		switch {
		case !p.Due:
			fmt.Fprintf(w, "== %s: nothing is due %s (a digest went out that day)\n", p.Chat, when)
			continue
		case !p.On:
			fmt.Fprintf(w, "== %s has not turned the digest on (\"digest on\" in that chat), so the schedule sends it nothing; it would get, %s:\n", p.Chat, when)
		default:
			fmt.Fprintf(w, "== %s gets, %s:\n", p.Chat, when)
		}
		fmt.Fprintf(w, "   period %s to %s; figures as of now; nothing sent or claimed\n", c.Date(p.Period.From), c.Date(p.Period.To))
		fmt.Fprint(w, chat.PlainText(p.Reply))
	}
}
