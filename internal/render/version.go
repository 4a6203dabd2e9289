package render

import (
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// Version is the "version" answer: the build (its module version, VCS
// revision and time when the binary carries them), the newest date among
// the catalog's figures, and each stock source with its state.
type Version struct {
	Lang i18n.Lang `json:"-"`
	// Build is the module version ("v1.4.0", "(devel)"); Revision the
	// VCS commit (12 hex digits) and Modified whether the tree had
	// uncommitted changes; BuiltAt the commit's time, nil when unknown.
	// GoVersion is the toolchain ("go1.26.8").
	Build     string     `json:"build"`
	Revision  string     `json:"revision,omitempty"`
	Modified  bool       `json:"modified,omitempty"`
	BuiltAt   *time.Time `json:"built_at,omitempty"`
	GoVersion string     `json:"go_version"`
	// CatalogAsOf is the newest as-of date of the catalog's list prices
	// ("2026-08"); Platforms how many platforms the catalog knows.
	CatalogAsOf string `json:"catalog_as_of,omitempty"`
	Platforms   int    `json:"catalog_platforms"`
	// Sources are the stock sources the bot reads, as the board reports
	// them: a platform's live API, the recordings, the list prices.
	Sources []VersionSource `json:"sources"`
}

// VersionSource is one stock source: its provider name and status (ok,
// stale, error, not_configured).
type VersionSource struct {
	Provider string `json:"provider"`
	Status   string `json:"status"`
}

// Reply says the build first, then the catalog and the sources.
func (v Version) Reply(rd *Renderer) chat.Reply {
	l := v.Lang
	build := v.Build
	if v.Revision != "" {
		build += " (" + v.Revision
		if v.Modified {
			build += l.T("version.modified")
		}
		build += ")"
	}
	rep := chat.Reply{Title: l.T("version.title", build), English: l.English()}
	if v.BuiltAt != nil {
		rep.Lines = append(rep.Lines, l.T("version.built", rd.Clock.DateMinute(*v.BuiltAt), v.GoVersion))
	} else {
		rep.Lines = append(rep.Lines, l.T("version.toolchain", v.GoVersion))
	}
	if v.CatalogAsOf != "" {
		rep.Lines = append(rep.Lines, l.T("version.catalog", v.Platforms, v.CatalogAsOf))
	}
	var on, off []string
	for _, s := range v.Sources {
		if s.Status == "not_configured" {
			off = append(off, rd.SourceName(s.Provider, l))
			continue
		}
		on = append(on, rd.SourceName(s.Provider, l)+" "+sourceStatus(s.Status, l))
	}
	if len(on) > 0 {
		rep.Lines = append(rep.Lines, l.T("version.sources", strings.Join(on, l.T("list.sep"))))
	}
	if len(off) > 0 {
		rep.Lines = append(rep.Lines, l.T("version.unconfigured", strings.Join(off, l.T("list.sep"))))
	}
	return rep
}

// sourceStatus names a provider status in words.
func sourceStatus(status string, l i18n.Lang) string {
	switch status {
	case "ok":
		return l.T("source.status.ok")
	case "stale":
		return l.T("source.status.stale")
	}
	return l.T("source.status.failing")
}

// SourceName is a stock provider's name for readers: a platform's display
// name, or what the recordings and list prices are.
func (r *Renderer) SourceName(provider string, l i18n.Lang) string {
	switch provider {
	case "catalog":
		return l.T("source.catalog")
	case "replay":
		return l.T("source.replay")
	}
	return r.PlatformName(provider, l.English())
}
