package app

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chart"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/render/ledgerview"
)

// NewDigestJob builds the scheduled digest job over the app's store,
// sending through send: each run covers, per chat, the period since its
// last scheduled digest (jobs.NextPeriod). The app must have its store.
func (a *App) NewDigestJob(send jobs.SendFunc) *jobs.Digest {
	return &jobs.Digest{Chats: a.Store, Claims: a.Store, Marks: a.Store, Lab: a.LabFor, Send: send, Location: a.Location, Now: a.now, Log: a.Log,
		Render: func(ctx context.Context, ck string, p jobs.Period, now time.Time) (chat.Reply, error) {
			d, err := a.buildPeriodDigestAt(ctx, a.LabFor(ck), p, now)
			if err != nil {
				return chat.Reply{}, err
			}
			r := ledgerview.Digest(d, false, a.platformName)
			if r.Full != nil && a.Router != nil {
				// "详情" in that chat then shows the rest of the digest.
				a.Router.RememberPosted(ck, *r.Full)
			}
			return r, nil
		}}
}

// NewBudgetJob builds the storage budget check over the app's store and
// config (storage.budgets), sending through send. The app must have its
// store.
func (a *App) NewBudgetJob(send jobs.SendFunc) *jobs.Budget {
	return &jobs.Budget{Events: a.Store, Claims: a.Store, Budgets: a.Cfg.Storage.Budgets, Price: a.StorageOptions().Price,
		Chats: a.labChats, Send: send, Location: a.Location, Now: a.now, Log: a.Log}
}

// labChats are the chat keys of a lab: its storage.labs entry, or the lab
// itself when it is a chat key.
func (a *App) labChats(lab string) []string {
	if chats, ok := a.Cfg.Storage.Labs[lab]; ok {
		return chats
	}
	if strings.Contains(lab, "/") {
		return []string{lab}
	}
	return nil
}

// SendDigest posts lab's digest d (BuildDigest) to the lab's chats now
// (`bot digest --send`), through the configured webhooks and the Feishu
// app; WeChat needs `bot serve`'s login and is refused. It is sent every
// time it is asked for: it takes no claim and no idempotency key of the
// scheduled digest, whose periods it leaves as they are. It returns the
// chats served.
func (a *App) SendDigest(ctx context.Context, lab string, d ledger.Digest) ([]string, error) {
	chats := a.labChats(lab)
	if len(chats) == 0 {
		return nil, fmt.Errorf("lab %q has no chats: name a chat key (feishu/oc_…, webhook/<name>) or list its chats in storage.labs", lab)
	}
	r := ledgerview.Digest(d, false, a.platformName)
	chans, closeAll, err := a.commandLineChannels(ctx, chats)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	var sent []string
	for _, ck := range chats {
		if err := chans.Send(ctx, ck, r, chat.SendOptions{}); err != nil {
			return sent, fmt.Errorf("%s: %w", ck, err)
		}
		sent = append(sent, ck)
	}
	return sent, nil
}

// WriteDigestPNG draws digest d's weekly history chart, the one its chat
// form carries (ledgerview.Digest: Chinese, from the lab's first week with an
// entry), as a 1080×720 PNG at path. It fails when the digest has no
// chart (nothing spent, or under two weeks of history).
func (a *App) WriteDigestPNG(d ledger.Digest, path string) error {
	c := ledgerview.Digest(d, false, a.platformName).Chart
	if c == nil || c.Heat != nil {
		return fmt.Errorf("the %s digest has no weekly chart: nothing was spent, or the ledger covers under two weeks", d.Week)
	}
	var buf bytes.Buffer
	if err := chart.BarsPNG(&buf, c); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// chartPNG draws a reply's chart as a PNG for the channels that show
// images but cannot draw a chart (WeChat, the WeCom robot): the digest's
// weekly bars with their Chinese or English title (chart.BarsPNG), or the
// availability heat map (chart.HeatPNG, in the chart's language).
func chartPNG(c *chat.BarChart) ([]byte, error) {
	var buf bytes.Buffer
	if c != nil && c.Heat != nil {
		// The chart's own title and day names, in the reader's language
		// (the bundled font has the Chinese ones).
		title := c.Title
		if title == "" {
			title = i18n.EN.T("chart.heat.title")
		}
		if err := chart.HeatPNG(&buf, c, title); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	if err := chart.BarsPNG(&buf, c); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
