package billing

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// LedgerCSVHeader is the header of `bot storage import/export` files. time
// is RFC 3339; action is add, resize, stop, start or remove; size_gb is in
// GB (1e9 bytes) for add and resize, empty otherwise.
var LedgerCSVHeader = []string{"time", "owner", "platform", "disk", "action", "size_gb", "note"}

// maxLedgerRows bounds one import (a lab's ledger is hundreds of rows).
const maxLedgerRows = 100000

// ReadLedgerCSV parses a ledger CSV for lab. Every row is checked (time,
// action, size, an add before any other action on the disk) and the first
// problem is returned with its line number; nothing is returned then, so
// an import is all or nothing.
func ReadLedgerCSV(r io.Reader, lab string) ([]StorageEvent, error) {
	if lab == "" {
		return nil, errors.New("ledger csv: no lab given")
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(LedgerCSVHeader)
	cr.TrimLeadingSpace = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("ledger csv: the file is empty; want the header " + strings.Join(LedgerCSVHeader, ","))
	}
	if err != nil {
		return nil, fmt.Errorf("ledger csv: header: %w", err)
	}
	for i, h := range head {
		if strings.TrimSpace(strings.TrimPrefix(strings.ToLower(h), "\ufeff")) != LedgerCSVHeader[i] {
			return nil, fmt.Errorf("ledger csv: header column %d is %q; want %s", i+1, h, strings.Join(LedgerCSVHeader, ","))
		}
	}
	var out []StorageEvent
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("ledger csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		if len(out) >= maxLedgerRows {
			return nil, fmt.Errorf("ledger csv: more than %d rows", maxLedgerRows)
		}
		e, err := parseLedgerRow(rec, lab)
		if err != nil {
			return nil, fmt.Errorf("ledger csv line %d: %w", line, err)
		}
		out = append(out, e)
	}
	// Check the sequence as a whole (adds before changes, no double adds).
	disks := map[string]*DiskState{}
	for _, e := range sortEvents(out) {
		if err := apply(disks, e); err != nil {
			return nil, fmt.Errorf("ledger csv: %w", err)
		}
	}
	return out, nil
}

func parseLedgerRow(rec []string, lab string) (StorageEvent, error) {
	for i := range rec {
		rec[i] = strings.TrimSpace(rec[i])
	}
	t, err := time.Parse(time.RFC3339, rec[0])
	if err != nil {
		return StorageEvent{}, fmt.Errorf("time %q is not RFC 3339 (2026-11-23T09:00:00+08:00)", rec[0])
	}
	e := StorageEvent{Time: t, Lab: lab, Owner: rec[1], Platform: strings.ToLower(rec[2]), Disk: rec[3],
		Action: StorageAction(strings.ToLower(rec[4])), Note: rec[6]}
	if e.Owner == "" || e.Disk == "" {
		return e, errors.New("owner and disk are required")
	}
	if rec[5] != "" {
		gb, err := strconv.ParseFloat(rec[5], 64)
		if err != nil || math.IsNaN(gb) || math.IsInf(gb, 0) {
			return e, fmt.Errorf("size_gb %q is not a number", rec[5])
		}
		e.SizeGB = gb
	}
	if e.Action == ActionAdd && e.Platform == "" {
		return e, errors.New("platform is required")
	}
	return e, e.validate()
}

// WriteLedgerCSV writes events (in the given order) with LedgerCSVHeader;
// times in RFC 3339 with their offset.
func WriteLedgerCSV(w io.Writer, events []StorageEvent) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(LedgerCSVHeader); err != nil {
		return err
	}
	for _, e := range events {
		size := ""
		if e.Action == ActionAdd || e.Action == ActionResize {
			size = strconv.FormatFloat(e.SizeGB, 'f', -1, 64)
		}
		if err := cw.Write([]string{e.Time.Format(time.RFC3339), e.Owner, e.Platform, e.Disk, string(e.Action), size, e.Note}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
