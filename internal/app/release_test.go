package app_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/config"
)

// releaseSink is a chat channel that keeps what it was sent.
type releaseSink struct {
	name string
	mu   sync.Mutex
	got  []string
}

func (r *releaseSink) Name() string { return r.name }
func (r *releaseSink) Send(_ context.Context, chatID string, rep chat.Reply, _ chat.SendOptions) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, r.name+"/"+chatID+" "+strings.Join(rep.Mentions, ",")+" "+chat.PlainText(rep))
	return nil
}

// TestReleaseJob: the app's release job warns the owner of a disk
// AutoDL releases in 3 days, in the lab's reachable chats (a console lab
// is nobody to tell), once, in chat.language.
func TestReleaseJob(t *testing.T) {
	for _, lang := range []string{"zh", "en"} {
		t.Run(lang, func(t *testing.T) {
			cfg := manualConfig(t.TempDir())
			cfg.Chat.Language = lang
			now := time.Date(2026, 5, 16, 2, 0, 0, 0, time.UTC)
			a := openAppAt(t, cfg, func() time.Time { return now })
			defer a.Close()
			ctx := context.Background()
			stopped := now.Add(-12 * 24 * time.Hour)
			var ev []ledger.StorageEvent
			for _, lab := range []string{"webhook/lab", "console/console"} {
				ev = append(ev, ledger.StorageEvent{Time: stopped.Add(-time.Hour), Lab: lab, Owner: "ou_wang", OwnerName: "小王", Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 80},
					ledger.StorageEvent{Time: stopped, Lab: lab, Owner: "ou_wang", Platform: "autodl", Disk: "1", Action: ledger.ActionStop})
			}
			if err := a.Store.AppendStorageEvents(ctx, ev); err != nil {
				t.Fatal(err)
			}
			hook := &releaseSink{name: "webhook"}
			job := a.NewReleaseJob(chat.Channels{"webhook": hook})
			for range 2 {
				if _, err := job.RunOnce(ctx); err != nil {
					t.Fatal(err)
				}
			}
			want := "约 3 天后（05-19 10:00）随实例释放"
			if lang == "en" {
				want = "goes with its instance in about 3 days (05-19 10:00)"
			}
			if len(hook.got) != 1 || !strings.HasPrefix(hook.got[0], "webhook/lab ou_wang ") || !strings.Contains(hook.got[0], want) {
				t.Errorf("sent %q, want one warning to webhook/lab mentioning ou_wang with %q", hook.got, want)
			}
		})
	}
}

// TestServeWarnsBeforeRelease: `bot serve` runs the release warnings on
// their schedule: a WeCom robot lab hears once that AutoDL releases a
// disk stopped 12 days ago, however often the check runs.
func TestServeWarnsBeforeRelease(t *testing.T) {
	wecom := newFakeWeCom(t)
	cfg := manualConfig(t.TempDir())
	cfg.Webhooks = []config.WebhookConf{{Name: "lab", Kind: "wecom", URL: wecom.url}}
	cfg.Storage.ReleaseWarnings.Schedule = "@every 1s" // config refuses under a minute; the test may
	a := openApp(t, cfg)
	stopped := time.Now().Add(-12*24*time.Hour - time.Minute)
	if err := a.Store.AppendStorageEvents(context.Background(), []ledger.StorageEvent{
		{Time: stopped.Add(-time.Hour), Lab: "webhook/lab", Owner: "wang", OwnerName: "小王", Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 80},
		{Time: stopped, Lab: "webhook/lab", Owner: "wang", Platform: "autodl", Disk: "1", Action: ledger.ActionStop},
	}); err != nil {
		t.Fatal(err)
	}
	_, stop := serve(t, a, true)
	defer stop()
	waitFor(t, "the release warning", func() bool { return len(wecom.got()) >= 1 })
	time.Sleep(2500 * time.Millisecond) // two more checks
	if got := wecom.got(); len(got) != 1 || !strings.Contains(got[0], "随实例释放") || !strings.Contains(got[0], "@小王") {
		t.Fatalf("WeCom got %q, want one release warning", got)
	}
}
