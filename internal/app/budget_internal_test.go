package app

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/config"
)

// captured is a chat.Sender that keeps what it is given.
type captured struct {
	name string
	mu   sync.Mutex
	got  []string
}

func (c *captured) Name() string { return c.name }

func (c *captured) Send(_ context.Context, chatID string, r chat.Reply, _ chat.SendOptions) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, chatID+" "+r.Title)
	return nil
}

func (c *captured) titles() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.got...)
}

// TestBudgetSchedule: bot serve checks the budgets on
// storage.budget_schedule, not on a schedule of its own.
func TestBudgetSchedule(t *testing.T) {
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.Stock.Poll.Schedule = ""
	cfg.Storage.DigestSchedule = ""
	cfg.Storage.ReleaseWarnings.Schedule = ""
	cfg.Storage.Prices = map[string]float64{"autodl": 0.01}
	cfg.Storage.Labs = map[string][]string{"nlp": {"webhook/lab"}}
	// The webhook is configured (a lab may name only a configured one);
	// the jobs send through the capture below.
	cfg.Webhooks = []config.WebhookConf{{Name: "lab", Kind: "wecom", URL: "http://127.0.0.1:9/cgi-bin/webhook/send?key=k"}}
	cfg.Storage.Budgets = map[string]float64{"nlp": 100}
	cfg.Storage.BudgetSchedule = "@every 1s"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	loc, _ := cfg.Location()
	now := time.Date(2026, 11, 6, 0, 0, 0, 0, loc)
	a, err := New(context.Background(), cfg, Options{Log: NewLogger(io.Discard, "error"), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	// 1050 GB on AutoDL since 1 Nov: (1050−50)×0.01 = 10 CNY a day, 50 by the 6th.
	if err := a.Store.AppendStorageEvents(context.Background(), []ledger.StorageEvent{{Time: time.Date(2026, 11, 1, 0, 0, 0, 0, loc), Lab: "nlp",
		Owner: "ou_a", Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 1050}}); err != nil {
		t.Fatal(err)
	}
	hook := &captured{name: "webhook"}
	stop, err := a.startJobs(context.Background(), chat.Channels{"webhook": hook}, NewMetrics())
	defer stop()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); len(hook.titles()) == 0 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	if got := hook.titles(); len(got) != 1 || !strings.HasPrefix(got[0], "lab ") || !strings.Contains(got[0], "50%") {
		t.Errorf("sent %q; want the 50%% notice once in webhook/lab", got)
	}
}
