package render

import (
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// StoreError is the answer of a command whose store call failed: when
// the store cannot be reached (Redis down or stalled), that it was not
// done and that the rest still works; else a short cause.
type StoreError struct {
	Lang i18n.Lang `json:"-"`
	// Unreachable: the store did not answer (a timeout, a refused or
	// reset connection); Cause is the error, cut short, otherwise.
	Unreachable bool   `json:"-"`
	Cause       string `json:"-"`
}

// Reply says it in one line (and, unreachable, what still works).
func (e StoreError) Reply(*Renderer) chat.Reply {
	l := e.Lang
	if e.Unreachable {
		return chat.Reply{Title: l.T("meta.store.unreachable"), Lines: []string{l.T("meta.store.unreachable_rest")}}
	}
	return chat.Reply{Title: l.T("meta.store.failed", e.Cause)}
}
