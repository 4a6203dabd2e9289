package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/feishu"
	"github.com/labgpu/bot/internal/config"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// storeConfigs set cfg's store: the embedded file in its data dir, and
// Redis at REDIS_URL under a prefix of the test's own (skipped without a
// server unless CI is set; its keys deleted at the end).
var storeConfigs = []struct {
	name string
	set  func(t *testing.T, cfg *config.Config)
}{
	{"embedded", func(*testing.T, *config.Config) {}},
	{"redis", func(t *testing.T, cfg *config.Config) {
		url := os.Getenv("REDIS_URL")
		if url == "" {
			url = redisstore.DefaultURL
		}
		prefix := fmt.Sprintf("labgpu-appsends-%d:", time.Now().UnixNano())
		probe, err := redisstore.Open(context.Background(), url, prefix)
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("no Redis at %s under CI: %v", url, err)
			}
			t.Skipf("no Redis at %s: %v", url, err)
		}
		t.Cleanup(func() {
			ctx := context.Background()
			if keys, _ := probe.Client().Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
				probe.Client().Del(ctx, keys...)
			}
			probe.Close()
		})
		cfg.Store = config.StoreConf{Kind: "redis", RedisURL: url, Prefix: prefix}
	}},
}

// feishuBot is the Feishu app of cfg over a's store, as serve builds it.
func feishuBot(t *testing.T, cfg config.Config, a *app.App) *feishu.Bot {
	t.Helper()
	fc := cfg.Feishu
	b, err := feishu.New(context.Background(), feishu.Options{AppID: fc.AppID, AppSecret: fc.AppSecret, VerificationToken: fc.VerificationToken,
		EncryptKey: fc.EncryptKey, BaseURL: fc.BaseURL, Mode: fc.Mode, Handler: a.Router, Delivered: a.Store, Inbox: a.Store})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestScheduledDigestOnceThroughFeishu: the Monday digest, posted through
// the Feishu app, whose answers are lost after it created the message
// (three tries); after a restart the schedule runs again and sends the
// same period under the same key: Feishu drops the repeated uuid, and
// the chat has the digest once.
func TestScheduledDigestOnceThroughFeishu(t *testing.T) {
	needShared(t, feishuFixtures)
	for _, sc := range storeConfigs {
		t.Run(sc.name, func(t *testing.T) {
			fake := newFakeFeishu(t)
			fake.DedupUUID()
			cfg := feishuConfig(t, fake.URL, t.TempDir())
			cfg.Storage.Prices = map[string]float64{"autodl": 0.01}
			sc.set(t, &cfg)
			ctx := context.Background()
			a := openApp(t, cfg)
			loc := a.Location
			if err := a.Store.AppendStorageEvents(ctx, []ledger.StorageEvent{{Time: time.Date(2026, 11, 16, 0, 0, 0, 0, loc), Lab: "feishu/oc_a",
				Owner: "ou_alice", Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 80}}); err != nil {
				t.Fatal(err)
			}
			if err := a.Store.SetDigestChat(ctx, "feishu/oc_a", true); err != nil {
				t.Fatal(err)
			}
			monday := time.Date(2026, 11, 30, 9, 0, 0, 0, loc)
			run := func(a *app.App, at time.Time) error {
				b := feishuBot(t, cfg, a)
				defer b.Close()
				j := a.NewDigestJob(chat.Channels{"feishu": b}.Send)
				j.Now = func() time.Time { return at }
				_, err := j.RunOnce(ctx)
				return err
			}
			fake.LoseAnswers(3)
			if err := run(a, monday); err == nil {
				t.Fatal("the lost answers were not reported")
			}
			a.Close()
			a = openApp(t, cfg) // the restart
			defer a.Close()
			if err := run(a, monday.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			if msgs := fake.Messages(); len(msgs) != 1 {
				t.Errorf("Feishu created %d messages, want the digest once", len(msgs))
			}
		})
	}
}

// TestServeKeepsAnswersAcrossRestart: bot serve with twelve questions
// taken (200) from twelve groups, a slow open platform (600 ms a
// message) and a one-second shutdown grace: SIGTERM, then a new start
// over the same store answers what the grace cut off; each question is
// answered exactly once.
func TestServeKeepsAnswersAcrossRestart(t *testing.T) {
	needShared(t, feishuFixtures)
	const n = 12
	for _, sc := range storeConfigs {
		t.Run(sc.name, func(t *testing.T) {
			fake := newFakeFeishu(t)
			fake.DedupUUID()
			fake.SetSlow(600 * time.Millisecond)
			cfg := feishuConfig(t, fake.URL, t.TempDir())
			cfg.HTTP.ShutdownGrace = config.Dur(time.Second)
			sc.set(t, &cfg)
			_, base, stop := startServe(t, cfg)
			for i := range n {
				var ev map[string]any
				if err := json.Unmarshal(groupEvent(t, fmt.Sprintf("ev-sd%d", i), fmt.Sprintf("om_sd%d", i), "help"), &ev); err != nil {
					t.Fatal(err)
				}
				ev["event"].(map[string]any)["message"].(map[string]any)["chat_id"] = fmt.Sprintf("oc_sd%d", i)
				plain, _ := json.Marshal(ev)
				body, hdr := sealed(t, plain, time.Now())
				if code := post(t, base+"/feishu/events", body, hdr); code != http.StatusOK {
					t.Fatalf("event %d: HTTP %d", i, code)
				}
			}
			time.Sleep(300 * time.Millisecond) // answering and sending
			stop()                             // SIGTERM
			before := len(fake.Messages())
			if before >= n {
				t.Fatalf("all %d answered within the grace: nothing was cut off", before)
			}
			_, _, stop = startServe(t, cfg)
			defer stop()
			replies := func() map[string]int {
				c := map[string]int{}
				for _, m := range fake.Messages() {
					c[m.Path]++
				}
				return c
			}
			deadline := time.Now().Add(20 * time.Second)
			for len(replies()) < n && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			time.Sleep(700 * time.Millisecond) // a late duplicate would land by now
			got := replies()
			for i := range n {
				if c := got[fmt.Sprintf("/open-apis/im/v1/messages/om_sd%d/reply", i)]; c != 1 {
					t.Errorf("question %d answered %d times (%d answered before the restart)", i, c, before)
				}
			}
		})
	}
}
