package app

import (
	"strings"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/render/ledgerview"
)

// NewReleaseJob builds the release warnings (storage.release_warnings)
// over the app's store and catalog: a lab's chats that reach (a channel
// in chans) hear, in chat.language, before a platform deletes a stopped
// disk. The app must have its store.
func (a *App) NewReleaseJob(chans chat.Channels) *jobs.Release {
	rw := a.Cfg.Storage.ReleaseWarnings
	return &jobs.Release{Events: a.Store, Claims: a.Store, Catalog: a.Cat, Now: a.now, Log: a.Log, Send: sendTo(chans),
		Policy: ledger.ReleasePolicy{Before: rw.BeforeDurations(), AfterStop: rw.AfterStop.D()},
		Chats: func(lab string) []string {
			var out []string
			for _, ck := range a.labChats(lab) {
				if name, _, _ := strings.Cut(ck, "/"); chans[name] != nil {
					out = append(out, ck)
				}
			}
			return out
		},
		English: func(string) bool { return a.Cfg.Chat.Language == "en" },
		Render: func(w ledger.Warning, now time.Time, en bool) chat.Reply {
			return ledgerview.ReleaseWarning(a.Render, w, now, en)
		}}
}
