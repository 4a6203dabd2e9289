package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/chart"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/render"
)

// errNoStore explains why ledger commands cannot run without the store.
var errNoStore = errors.New("the store is in use by another bot process (bot serve or a console) with the same BOT_DATA_DIR: stop it, or use the Redis store (REDIS_URL)")

// LabFor returns the lab of a chat key ("console/console") per config.
func (a *App) LabFor(chatKey string) string {
	o := a.StorageOptions()
	return o.LabOf(chatKey)
}

// ImportStorage reads a ledger CSV (billing.LedgerCSVHeader) into lab's
// ledger, all rows or none, checked together with what the lab's ledger
// already holds. It returns the number of events added.
func (a *App) ImportStorage(ctx context.Context, lab string, r io.Reader) (int, error) {
	if a.Store == nil {
		return 0, errNoStore
	}
	ev, err := billing.ReadLedgerCSV(r, lab)
	if err != nil {
		return 0, err
	}
	old, err := a.Store.StorageEvents(ctx, lab)
	if err != nil {
		return 0, err
	}
	had := map[string]bool{}
	for _, e := range billing.CheckLedger(old) {
		had[e.Error()] = true
	}
	for _, e := range billing.CheckLedger(append(old, ev...)) {
		if !had[e.Error()] {
			return 0, fmt.Errorf("the file does not fit lab %s's ledger: %w", lab, e)
		}
	}
	if err := a.Store.AppendStorageEvents(ctx, ev); err != nil {
		return 0, err
	}
	return len(ev), nil
}

// ExportStorage writes lab's ledger as CSV ("" = every lab, without the
// lab column: export one lab at a time to re-import).
func (a *App) ExportStorage(ctx context.Context, lab string, w io.Writer) error {
	if a.Store == nil {
		return errNoStore
	}
	ev, err := a.Store.StorageEvents(ctx, lab)
	if err != nil {
		return err
	}
	return billing.WriteLedgerCSV(w, ev)
}

// WriteDigest writes a digest (BuildDigest) as text or JSON
// (billing.Digest).
func (a *App) WriteDigest(w io.Writer, d billing.Digest, format string) error {
	if format == FormatJSON {
		return writeJSON(w, d.Rounded())
	}
	_, err := io.WriteString(w, chat.PlainText(render.Digest(d, false, a.platformName)))
	return err
}

// BuildDigest computes lab's digest for week ("" = the current week, in
// the poll time zone).
func (a *App) BuildDigest(ctx context.Context, lab, week string) (billing.Digest, error) {
	return a.buildDigestAt(ctx, lab, week, a.now())
}

func (a *App) buildDigestAt(ctx context.Context, lab, week string, now time.Time) (billing.Digest, error) {
	if a.Store == nil {
		return billing.Digest{}, errNoStore
	}
	if week == "" {
		week = billing.WeekOf(now, a.Location)
	}
	if _, _, err := billing.ISOWeek(week, a.Location); err != nil {
		return billing.Digest{}, err
	}
	ev, err := a.Store.StorageEvents(ctx, lab)
	if err != nil {
		return billing.Digest{}, err
	}
	d, err := billing.BuildDigest(ev, lab, week, a.Location, a.StorageOptions().Price, now)
	if err == nil {
		billing.PriceNotes(&d, a.Cat, a.Cfg.Storage.Prices)
	}
	return d, err
}

func (a *App) platformName(id string, en bool) string {
	if p, ok := a.Cat.Platform(id); ok {
		return p.DisplayName(en)
	}
	return id
}

// WriteDigestPNG draws a digest's last 8 weeks of storage spend (its
// History) as a PNG bar chart at path.
func (a *App) WriteDigestPNG(d billing.Digest, path string) error {
	c := &chat.BarChart{}
	for _, w := range d.History {
		c.Labels = append(c.Labels, w.Week[5:])
		c.Values = append(c.Values, w.CNY)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if err := chart.BarsPNG(f, c, "Storage spend, weeks to "+d.Week, "CNY"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
