package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/labgpu/bot/internal/admin"
	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/render/ledgerview"
)

// errNoStore explains why ledger commands cannot run without the store.
var errNoStore = errors.New("the store is in use by a running bot (bot serve or a console with the same BOT_DATA_DIR); " + admin.HowTo)

// LabFor returns the lab of a chat key ("console/console") per config.
func (a *App) LabFor(chatKey string) string {
	o := a.StorageOptions()
	return o.LabOf(chatKey)
}

// ImportStorage reads a ledger CSV (ledger.LedgerCSVHeader) into lab's
// ledger, all rows or none, checked together with what the lab's ledger
// already holds; platform names go through the catalog's names (a
// *ledger.CSVError lists every bad line). It returns the number of
// events added.
func (a *App) ImportStorage(ctx context.Context, lab string, r io.Reader) (int, error) {
	if a.Store == nil {
		return 0, errNoStore
	}
	ev, err := ledger.ReadLedgerCSVAt(r, lab, a.Cat, a.now())
	if err != nil {
		return 0, err
	}
	// Checked against the ledger as read and written only if it still
	// holds that (a registration in chat meanwhile: checked again).
	for range importTries {
		old, err := a.Store.StorageEvents(ctx, lab)
		if err != nil {
			return 0, err
		}
		had := map[string]bool{}
		for _, e := range ledger.CheckLedger(old) {
			had[e.Error()] = true
		}
		for _, e := range ledger.CheckLedger(append(old[:len(old):len(old)], ev...)) {
			if !had[e.Error()] {
				return 0, fmt.Errorf("the file does not fit lab %s's ledger: %w", lab, e)
			}
		}
		err = a.Store.AppendStorageEventsIf(ctx, lab, len(old), ev)
		if errors.Is(err, ledger.ErrLedgerChanged) {
			continue
		}
		if err != nil {
			return 0, err
		}
		return len(ev), nil
	}
	return 0, fmt.Errorf("nothing imported: lab %s's ledger kept changing while the file was checked; try again", lab)
}

// importTries is how often an import is checked again when the lab's
// ledger changed between its read and its write.
const importTries = 8

// ExportStorage writes lab's ledger as CSV ("" = every lab, without the
// lab column: export one lab at a time to re-import), its times in the
// configured zone (the same instants, with their offset).
func (a *App) ExportStorage(ctx context.Context, lab string, w io.Writer) error {
	if a.Store == nil {
		return errNoStore
	}
	ev, err := a.Store.StorageEvents(ctx, lab)
	if err != nil {
		return err
	}
	for i := range ev {
		ev[i].Time = a.Clock().In(ev[i].Time)
	}
	return ledger.WriteLedgerCSV(w, ev)
}

// WriteDigest writes a digest (BuildDigest) as text or JSON
// (ledger.Digest).
func (a *App) WriteDigest(w io.Writer, d ledger.Digest, format string) error {
	if format == FormatJSON {
		return writeJSON(w, d.Rounded())
	}
	_, err := io.WriteString(w, chat.PlainText(ledgerview.DigestFull(d, false, a.platformName)))
	return err
}

// BuildDigest computes lab's digest for week ("" = the current week, in
// the poll time zone).
func (a *App) BuildDigest(ctx context.Context, lab, week string) (ledger.Digest, error) {
	return a.buildDigestAt(ctx, lab, week, a.now())
}

func (a *App) buildDigestAt(ctx context.Context, lab, week string, now time.Time) (ledger.Digest, error) {
	if a.Store == nil {
		return ledger.Digest{}, errNoStore
	}
	if week == "" {
		week = ledger.WeekOf(now, a.Location)
	}
	if _, _, err := ledger.ISOWeek(week, a.Location); err != nil {
		return ledger.Digest{}, err
	}
	ev, err := a.Store.StorageEvents(ctx, lab)
	if err != nil {
		return ledger.Digest{}, err
	}
	d, err := ledger.BuildDigest(ev, lab, week, a.Location, a.StorageOptions().Price, now)
	if err == nil {
		ledger.PriceNotes(&d, a.Cat, a.Cfg.Storage.Prices)
		d.ReleaseSoon, d.ReleaseAsOf = ledger.ReleaseRisks(ev, a.Cat, now), now
	}
	return d, err
}

// buildPeriodDigestAt is lab's digest over a scheduled digest's period
// (jobs.NextPeriod) as of now.
func (a *App) buildPeriodDigestAt(ctx context.Context, lab string, p jobs.Period, now time.Time) (ledger.Digest, error) {
	if a.Store == nil {
		return ledger.Digest{}, errNoStore
	}
	ev, err := a.Store.StorageEvents(ctx, lab)
	if err != nil {
		return ledger.Digest{}, err
	}
	d, err := ledger.BuildPeriodDigest(ev, lab, p.From, p.To, a.Location, a.StorageOptions().Price, now)
	if err == nil {
		ledger.PriceNotes(&d, a.Cat, a.Cfg.Storage.Prices)
		d.ReleaseSoon, d.ReleaseAsOf = ledger.ReleaseRisks(ev, a.Cat, now), now
	}
	return d, err
}

func (a *App) platformName(id string, en bool) string {
	if p, ok := a.Cat.Platform(id); ok {
		return p.DisplayName(en)
	}
	return id
}
