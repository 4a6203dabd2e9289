package app_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/jobs"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// TestDigestPostedOnceByTwoReplicas: two replicas on one Redis run the
// Monday job; each chat that turned the digest on gets last week's digest
// once; a failed send is retried by the next run.
func TestDigestPostedOnceByTwoReplicas(t *testing.T) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	prefix := fmt.Sprintf("labgpu-digest-%d:", time.Now().UnixNano())
	probe, err := redisstore.Open(context.Background(), url, prefix)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no Redis at %s under CI: %v", url, err)
		}
		t.Skipf("no Redis at %s: %v", url, err)
	}
	defer func() {
		ctx := context.Background()
		if keys, _ := probe.Client().Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
			probe.Client().Del(ctx, keys...)
		}
		probe.Close()
	}()
	cfg := manualConfig(t.TempDir())
	cfg.Store = config.StoreConf{Kind: "redis", RedisURL: url, Prefix: prefix}
	cfg.Storage.Prices = map[string]float64{"autodl": 0.01}
	var replicas []*app.App
	for range 2 {
		a := openApp(t, cfg)
		defer a.Close()
		replicas = append(replicas, a)
	}
	ctx := context.Background()
	st := replicas[0].Store
	loc := replicas[0].Location
	// Lab "feishu/oc_a": 80 GB on AutoDL since W47: (80−50)×0.01×7 = 2.10 in W48.
	if err := st.AppendStorageEvents(ctx, []ledger.StorageEvent{{Time: time.Date(2026, 11, 16, 0, 0, 0, 0, loc), Lab: "feishu/oc_a",
		Owner: "ou_alice", Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 80}}); err != nil {
		t.Fatal(err)
	}
	for _, ck := range []string{"feishu/oc_a", "webhook/lab"} {
		if err := st.SetDigestChat(ctx, ck, true); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	got := map[string][]string{}
	failWebhook := true
	send := func(_ context.Context, ck string, r chat.Reply, _ chat.SendOptions) error {
		mu.Lock()
		defer mu.Unlock()
		if ck == "webhook/lab" && failWebhook {
			return context.DeadlineExceeded
		}
		got[ck] = append(got[ck], chat.PlainText(r))
		return nil
	}
	monday := time.Date(2026, 11, 30, 9, 0, 0, 0, loc)
	var wg sync.WaitGroup
	for _, a := range replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := a.NewDigestJob(send)
			p.Now = func() time.Time { return monday }
			p.RunOnce(ctx)
		}()
	}
	wg.Wait()
	if len(got["feishu/oc_a"]) != 1 || !strings.Contains(got["feishu/oc_a"][0], "2026-W48") || !strings.Contains(got["feishu/oc_a"][0], "合计 2.10 元") {
		t.Fatalf("oc_a got %q", got["feishu/oc_a"])
	}
	if len(got["webhook/lab"]) != 0 {
		t.Fatalf("the failed send was recorded: %q", got["webhook/lab"])
	}
	// The next run (an hour later, same week) retries only the failed chat.
	mu.Lock()
	failWebhook = false
	mu.Unlock()
	p := replicas[1].NewDigestJob(send)
	p.Now = func() time.Time { return monday.Add(time.Hour) }
	if n, err := p.RunOnce(ctx); n != 1 || err != nil {
		t.Errorf("retry run sent %d, %v", n, err)
	}
	if len(got["feishu/oc_a"]) != 1 || len(got["webhook/lab"]) != 1 {
		t.Errorf("after the retry: %d and %d digests", len(got["feishu/oc_a"]), len(got["webhook/lab"]))
	}
}

// TestDigestScheduleFiresMonday: the default schedule, read in Asia/Shanghai
// under an injected clock, fires at Monday 09:00 local (01:00 UTC).
func TestDigestScheduleFiresMonday(t *testing.T) {
	cfg := config.Default()
	loc, _ := cfg.Location()
	for _, c := range []struct{ from, want time.Time }{
		{time.Date(2026, 11, 29, 23, 0, 0, 0, loc), time.Date(2026, 11, 30, 9, 0, 0, 0, loc)},
		{time.Date(2026, 11, 30, 9, 0, 0, 0, loc), time.Date(2026, 12, 7, 9, 0, 0, 0, loc)},
		// 00:30 UTC Monday is 08:30 in Shanghai: today 09:00 local.
		{time.Date(2026, 11, 30, 0, 30, 0, 0, time.UTC), time.Date(2026, 11, 30, 9, 0, 0, 0, loc)},
		{time.Date(2026, 11, 30, 1, 30, 0, 0, time.UTC), time.Date(2026, 12, 7, 9, 0, 0, 0, loc)},
	} {
		if next, err := jobs.Next(cfg.Storage.DigestSchedule, c.from.In(loc)); err != nil || !next.Equal(c.want) {
			t.Errorf("after %v: next %v, want %v", c.from, next, c.want)
		}
	}
}

// TestBudgetThresholdsOncePerMonth: 50% and 80% are announced once each in
// a month, in the lab's configured chats; a new month starts over.
func TestBudgetThresholdsOncePerMonth(t *testing.T) {
	cfg := manualConfig(t.TempDir())
	cfg.Storage.Prices = map[string]float64{"autodl": 0.01}
	cfg.Storage.Labs = map[string][]string{"nlp": {"feishu/oc_a", "webhook/lab"}}
	cfg.Storage.Budgets = map[string]float64{"nlp": 100}
	a := openApp(t, cfg)
	defer a.Close()
	loc := a.Location
	// 1050 GB on AutoDL: (1050−50)×0.01 = 10 CNY a day from 1 Nov 00:00.
	a.Store.AppendStorageEvents(context.Background(), []ledger.StorageEvent{{Time: time.Date(2026, 11, 1, 0, 0, 0, 0, loc), Lab: "nlp",
		Owner: "ou_a", Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 1050}})
	var got []string
	send := func(_ context.Context, ck string, r chat.Reply, _ chat.SendOptions) error {
		got = append(got, ck+" "+r.Title)
		return nil
	}
	run := func(at time.Time) int {
		w := a.NewBudgetJob(send)
		w.Now = func() time.Time { return at }
		n, err := w.RunOnce(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := run(time.Date(2026, 11, 4, 0, 0, 0, 0, loc)); n != 0 { // 30 CNY: 30%
		t.Errorf("at 30%%: %d sent", n)
	}
	if n := run(time.Date(2026, 11, 6, 0, 0, 0, 0, loc)); n != 2 || !strings.Contains(got[0], "50%") { // 50 CNY
		t.Errorf("at 50%%: %d sent %q", n, got)
	}
	if n := run(time.Date(2026, 11, 6, 1, 0, 0, 0, loc)); n != 0 {
		t.Errorf("50%% again: %d sent", n)
	}
	if n := run(time.Date(2026, 11, 15, 0, 0, 0, 0, loc)); n != 2 || !strings.Contains(got[2], "140%") { // 140 CNY: 80 and 100 at once
		t.Errorf("at 140%%: %d sent %q", n, got)
	}
	if n := run(time.Date(2026, 11, 20, 0, 0, 0, 0, loc)); n != 0 {
		t.Errorf("after 100%%: %d sent", n)
	}
	if n := run(time.Date(2026, 12, 6, 0, 0, 0, 0, loc)); n != 2 { // December: 50 CNY again
		t.Errorf("new month at 50%%: %d sent", n)
	}
}

// TestDigestPosterStartFires: the poster's cron job runs RunOnce with the
// injected clock (here a Monday), posting last week's digest once even
// though the job fires every second.
func TestDigestPosterStartFires(t *testing.T) {
	cfg := manualConfig(t.TempDir())
	a := openApp(t, cfg)
	defer a.Close()
	if err := a.Store.SetDigestChat(context.Background(), "webhook/lab", true); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	monday := time.Date(2026, 11, 30, 9, 0, 0, 0, a.Location)
	p := a.NewDigestJob(func(_ context.Context, ck string, r chat.Reply, _ chat.SendOptions) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, ck+" "+r.Title)
		return nil
	})
	p.Now = func() time.Time { return monday }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := jobs.NewScheduler(a.Location, nil)
	if err := s.Add(ctx, "@every 1s", p.Run); err != nil {
		t.Fatal(err)
	}
	s.Start()
	time.Sleep(2500 * time.Millisecond) // two or three firings
	s.Stop()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !strings.Contains(got[0], "webhook/lab") || !strings.Contains(got[0], "2026-W48") {
		t.Errorf("posted %q; want last week's (W48) digest once", got)
	}
	if err := s.Add(ctx, "every monday", p.Run); err == nil {
		t.Error("a bad schedule was accepted")
	}
}

// TestManualDigestDoesNotClaim: `bot digest --send` (SendDigest) posts
// every time it is asked and never takes the scheduled digest's place:
// the schedule still sends its period, before or after it, and then the
// next day's.
func TestManualDigestDoesNotClaim(t *testing.T) {
	for _, manualFirst := range []bool{true, false} {
		t.Run(fmt.Sprintf("manual first %v", manualFirst), func(t *testing.T) {
			wc := newRecorder(t, `{"errcode":0,"errmsg":"ok"}`)
			cfg := manualConfig(t.TempDir())
			cfg.Storage.Prices = map[string]float64{"autodl": 0.01}
			cfg.Storage.Labs = map[string][]string{"nlp": {"webhook/wc"}}
			cfg.Webhooks = []config.WebhookConf{{Name: "wc", Kind: "wecom", URL: wc.srv.URL + "/cgi-bin/webhook/send?key=k3y"}}
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			a := openApp(t, cfg)
			defer a.Close()
			ctx := context.Background()
			loc := a.Location
			if err := a.Store.AppendStorageEvents(ctx, []ledger.StorageEvent{{Time: time.Date(2026, 11, 16, 0, 0, 0, 0, loc), Lab: "nlp",
				Owner: "ou_alice", Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 80}}); err != nil {
				t.Fatal(err)
			}
			if err := a.Store.SetDigestChat(ctx, "webhook/wc", true); err != nil {
				t.Fatal(err)
			}
			var scheduled []string
			schedule := func(at time.Time) {
				t.Helper()
				j := a.NewDigestJob(func(_ context.Context, ck string, r chat.Reply, o chat.SendOptions) error {
					scheduled = append(scheduled, r.Title+" "+o.IdempotencyKey)
					return nil
				})
				j.Now = func() time.Time { return at }
				if _, err := j.RunOnce(ctx); err != nil {
					t.Fatal(err)
				}
			}
			manual := func() {
				t.Helper()
				d, err := a.BuildDigest(ctx, "nlp", "2026-W48")
				if err != nil {
					t.Fatal(err)
				}
				if sent, err := a.SendDigest(ctx, "nlp", d); err != nil || len(sent) != 1 {
					t.Fatalf("manual send: %v, %v", sent, err)
				}
			}
			monday := time.Date(2026, 11, 30, 9, 0, 0, 0, loc)
			if manualFirst {
				manual()
				schedule(monday)
			} else {
				schedule(monday)
				manual()
			}
			manual()
			schedule(monday.Add(24 * time.Hour))
			n := 0
			for _, b := range wc.got() {
				if strings.Contains(string(b), "2026-W48") {
					n++
				}
			}
			if n != 2 {
				t.Errorf("the webhook got %d manual digests, want 2 (one per --send)", n)
			}
			want := []string{"存储花费 2026-W48（11-23 – 11-29）：合计 2.10 元；比上周 +0.00 元（+0%）。 digest:nlp:2026-11-23T00:00:00+08:00/2026-11-30T00:00:00+08:00",
				"存储花费（11-30）：合计 0.30 元；比前一天 +0.00 元（+0%）。 digest:nlp:2026-11-30T00:00:00+08:00/2026-12-01T00:00:00+08:00"}
			if strings.Join(scheduled, "\n") != strings.Join(want, "\n") {
				t.Errorf("scheduled:\n%s\nwant\n%s", strings.Join(scheduled, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
