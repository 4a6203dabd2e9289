package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// releaseStore is what the release job and its test need of a store.
type releaseStore interface {
	jobs.StorageEvents
	jobs.Claimer
	AppendStorageEvents(ctx context.Context, events []ledger.StorageEvent) error
}

// relT0 is when the test lab's disks are shut down.
var relT0 = time.Date(2026, 5, 4, 2, 0, 0, 0, time.UTC)

// releaseLedger: lab feishu/oc_a holds disks stopped at relT0 on AutoDL
// (#1, 15-day release), 恒源云 (#2, place unknown: /hy-tmp in 24 h, the
// instance in 10 days), 恒源云 /hy-nas (#3, kept), 矩池云 (#4, no known
// rule), and a running AutoDL disk (#5). Lab webhook/b has nothing
// stopped.
func releaseLedger() []ledger.StorageEvent {
	var ev []ledger.StorageEvent
	add := func(lab, disk, platform, note string, stop bool) {
		ev = append(ev, ledger.StorageEvent{Time: relT0.Add(-48 * time.Hour), Lab: lab, Owner: "ou_alice", OwnerName: "小王", Platform: platform,
			Disk: disk, Action: ledger.ActionAdd, SizeGB: 200, Note: note})
		if stop {
			ev = append(ev, ledger.StorageEvent{Time: relT0, Lab: lab, Owner: "ou_alice", Platform: platform, Disk: disk, Action: ledger.ActionStop})
		}
	}
	add("feishu/oc_a", "1", "autodl", "实验数据", true)
	add("feishu/oc_a", "2", "hengyuan", "数据集", true)
	add("feishu/oc_a", "3", "hengyuan", "hy-nas 权重", true)
	add("feishu/oc_a", "4", "matpool", "", true)
	add("feishu/oc_a", "5", "autodl", "", false)
	add("webhook/b", "1", "autodl", "", false)
	return ev
}

// sink records what the replicas sent; the first send of failFirst (a
// title prefix) fails.
type sink struct {
	mu        sync.Mutex
	got       []string
	failFirst string
	failed    bool
}

func (s *sink) send(_ context.Context, ck string, r chat.Reply, _ chat.SendOptions) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failFirst != "" && !s.failed && strings.HasPrefix(r.Title, s.failFirst) {
		s.failed = true
		return errors.New("channel down")
	}
	s.got = append(s.got, fmt.Sprintf("%s %s @%s", ck, r.Title, strings.Join(r.Mentions, ",")))
	return nil
}

// runReplicas steps a fake clock by the hour from an hour before relT0
// to 20 days after; at each step every replica runs at once. It returns
// what was sent, each with the step ("d12+0h") it went out at.
func runReplicas(t *testing.T, stores []releaseStore, s *sink) []string {
	t.Helper()
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := stores[0].AppendStorageEvents(ctx, releaseLedger()); err != nil {
		t.Fatal(err)
	}
	var now time.Time
	var at []string
	mark := func(n int) {
		h := int(now.Sub(relT0).Hours())
		for range n {
			at = append(at, fmt.Sprintf("d%d+%dh", h/24, h%24))
		}
	}
	var replicas []*jobs.Release
	for _, st := range stores {
		replicas = append(replicas, &jobs.Release{Events: st, Claims: st, Catalog: cat, Policy: ledger.DefaultReleasePolicy(),
			Chats: func(lab string) []string { return []string{lab} }, Send: s.send, Now: func() time.Time { return now },
			Render: func(w ledger.Warning, _ time.Time, _ bool) chat.Reply {
				return chat.Reply{Title: fmt.Sprintf("#%s %s %s", w.Disk, w.RuleID, w.Threshold()), Mentions: []string{w.Owner}}
			}})
	}
	for now = relT0.Add(-time.Hour); now.Before(relT0.Add(20 * 24 * time.Hour)); now = now.Add(time.Hour) {
		s.mu.Lock()
		before := len(s.got)
		s.mu.Unlock()
		var wg sync.WaitGroup
		for _, r := range replicas {
			wg.Add(1)
			go func() { defer wg.Done(); _, _ = r.RunOnce(ctx) }()
		}
		wg.Wait()
		s.mu.Lock()
		mark(len(s.got) - before)
		s.mu.Unlock()
	}
	out := make([]string, len(s.got))
	for i := range s.got {
		out[i] = at[i] + " " + s.got[i]
	}
	sort.Strings(out)
	return out
}

// wantRelease is what the lab hears: AutoDL 3 days and 1 day before the
// 15-day release; 恒源云 right after the stop (/hy-tmp within 24 h; the
// 3-day and 1-day thresholds of that rule are reached then too, in the
// same message), then 3 days and 1 day before the 10-day deletion;
// nothing for /hy-nas, for 矩池云 (no known rule) or for running disks;
// each once.
var wantRelease = []string{
	"d0+0h feishu/oc_a #2 scratch-1d stop @ou_alice",
	"d12+0h feishu/oc_a #1 instance-15d 72h @ou_alice",
	"d14+0h feishu/oc_a #1 instance-15d 24h @ou_alice",
	"d7+0h feishu/oc_a #2 instance-10d 72h @ou_alice",
	"d9+0h feishu/oc_a #2 instance-10d 24h @ou_alice",
}

// TestReleaseOnceEmbedded: two replicas over the embedded store send each
// warning once; a failed send is retried at the next run.
func TestReleaseOnceEmbedded(t *testing.T) {
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := &sink{failFirst: "#1 instance-15d 72h"}
	got := runReplicas(t, []releaseStore{st, st}, s)
	if !s.failed {
		t.Fatal("the failing send was never tried")
	}
	// The failed send is retried by the other replica in the same run or
	// by the next run, an hour later.
	if len(got) > 1 && strings.HasPrefix(got[1], "d12+1h ") {
		got[1] = strings.Replace(got[1], "d12+1h", "d12+0h", 1)
	}
	if !reflect.DeepEqual(got, wantRelease) {
		t.Errorf("sent\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantRelease, "\n"))
	}
}

// TestReleaseOnceRedis: two replicas, each with its own connection to one
// real Redis, send each warning once.
func TestReleaseOnceRedis(t *testing.T) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	ctx := context.Background()
	prefix := fmt.Sprintf("labgpu-release-%d:", time.Now().UnixNano())
	a, err := redisstore.Open(ctx, url, prefix)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no Redis at %s under CI: %v", url, err)
		}
		t.Skipf("no Redis at %s: %v", url, err)
	}
	defer a.Close()
	b, err := redisstore.Open(ctx, url, prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	defer func() {
		if keys, _ := a.Client().Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
			a.Client().Del(ctx, keys...)
		}
	}()
	got := runReplicas(t, []releaseStore{a, b}, &sink{})
	if !reflect.DeepEqual(got, wantRelease) {
		t.Errorf("sent\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantRelease, "\n"))
	}
}
