package stock

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
)

// replayParser parses one recorded file.
type replayParser func(c *catalog.Catalog, body []byte, at time.Time, fx float64) ([]Offer, error)

// replayKinds maps file name prefixes to parsers; a nil parser marks a
// known file that carries no offers. Longer prefixes come first.
var replayKinds = []struct {
	prefix string
	parse  replayParser
}{
	{"autodl-web-machine-region-gpu_type", stockParser(ParseAutoDLStock)},
	{"autodl-web-user-machine-list", stockParser(ParseAutoDLMachines)},
	{"autodl-web-instance-list", stockParser(ParseAutoDLInstances)},
	{"autodl-web-region-list", nil},
	{"autodl-private-esd-", stockParser(ParseAutoDLStock)},
	{"autodl-esd-", stockParser(ParseAutoDLStock)},
	{"vastai-", ParseVastAI},
}

func stockParser(f func(*catalog.Catalog, []byte, time.Time) ([]Offer, error)) replayParser {
	return func(c *catalog.Catalog, b []byte, at time.Time, _ float64) ([]Offer, error) { return f(c, b, at) }
}

type replay struct {
	c   *catalog.Catalog
	dir string
	fx  float64
	log *slog.Logger
}

// NewReplay returns a provider (Name "replay") that reads every *.json file
// in dir, in file name order, and parses it by its name prefix:
// autodl-esd-*, autodl-private-esd-*, autodl-web-machine-region-gpu_type*
// (AutoDL stock), autodl-web-user-machine-list* (machine list),
// autodl-web-instance-list* (instance list) and vastai-* (bundles, USD
// converted at fx, the catalog's rate when fx <= 0). Other files, and files
// that fail to parse, are skipped with a warning on log (nil: discarded).
// Offers are marked Source replay with ObservedAt the file's modification
// time and the file name in Note. Fetch fails only when dir cannot be read.
func NewReplay(c *catalog.Catalog, dir string, fx float64, log *slog.Logger) Provider {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if fx <= 0 && c != nil {
		fx = c.FXUSDCNY
	}
	return &replay{c: c, dir: dir, fx: fx, log: log}
}

func (r *replay) Name() string { return string(SourceReplay) }

func (r *replay) Fetch(ctx context.Context) ([]Offer, error) {
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		return nil, fmt.Errorf("replay: read directory %s: %w", r.dir, err)
	}
	var out []Offer
	for _, e := range entries { // os.ReadDir sorts by name
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(strings.ToLower(name), ".json") {
			continue
		}
		parse, known := replayParserFor(name)
		if parse == nil {
			if known {
				r.log.Warn("replay: file carries no offers, skipped", "file", name)
			} else {
				r.log.Warn("replay: no parser for file, skipped", "file", name)
			}
			continue
		}
		body, mod, err := readReplayFile(filepath.Join(r.dir, name))
		if err != nil {
			r.log.Warn("replay: cannot read file, skipped", "file", name, "err", err)
			continue
		}
		offers, err := parse(r.c, body, mod, r.fx)
		if err != nil {
			r.log.Warn("replay: cannot parse file, skipped", "file", name, "err", err)
			continue
		}
		for i := range offers {
			offers[i].Source = SourceReplay
			offers[i].ObservedAt = mod
			if offers[i].Note == "" {
				offers[i].Note = name
			} else {
				offers[i].Note += " (" + name + ")"
			}
		}
		out = append(out, offers...)
	}
	return out, nil
}

// replayParserFor returns the parser for a file name, and whether the
// name is a known kind at all.
func replayParserFor(name string) (replayParser, bool) {
	for _, k := range replayKinds {
		if strings.HasPrefix(name, k.prefix) {
			return k.parse, true
		}
	}
	return nil, false
}

// readReplayFile reads a regular file of at most MaxResponseBytes.
func readReplayFile(path string) ([]byte, time.Time, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	if !st.Mode().IsRegular() {
		return nil, time.Time{}, fmt.Errorf("not a regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxResponseBytes+1))
	if err != nil {
		return nil, time.Time{}, err
	}
	if len(b) > MaxResponseBytes {
		return nil, time.Time{}, fmt.Errorf("larger than %d bytes", MaxResponseBytes)
	}
	return b, st.ModTime(), nil
}
