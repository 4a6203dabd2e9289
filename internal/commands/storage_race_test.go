package commands_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// ledgerRouter is storageRouter's router over the given ledger (a store
// of either kind), with the same clock, zone, admin and prices.
func ledgerRouter(t *testing.T, lg commands.Ledger) *commands.Router {
	t.Helper()
	cat := testCatalog(t)
	loc, _ := time.LoadLocation("Asia/Shanghai")
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, loc) // Monday of 2026-W48
	overrides := map[string]float64{"autodl": 0.01, "matpool": 0.02}
	return newRouterWith(t, commands.WithClock(func() time.Time { return now }), commands.WithLocation(loc),
		commands.WithStorage(commands.StorageOptions{Ledger: lg, Admins: []string{"boss"}, Overrides: overrides,
			Price: ledger.CatalogStoragePrice(cat, overrides)}))
}

// redisLedgers opens n stores, each on its own connection (n replicas),
// over one fresh key prefix deleted at the end. Without a Redis server
// the test is skipped, or fails when CI is set.
func redisLedgers(t *testing.T, n int) []*redisstore.Store {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = redisstore.DefaultURL
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	prefix := "labgpu-test:" + hex.EncodeToString(b[:]) + ":"
	var out []*redisstore.Store
	for range n {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		s, err := redisstore.Open(ctx, url, prefix)
		cancel()
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("no Redis at %s (CI is set): %v", url, err)
			}
			t.Skipf("no Redis at %s: %v", url, err)
		}
		t.Cleanup(func() { s.Close() })
		out = append(out, s)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		if keys, _ := out[0].Client().Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
			out[0].Client().Del(ctx, keys...)
		}
	})
	return out
}

// raceStore is what the race tests' routers keep their state in: the
// embedded store or the Redis store.
type raceStore interface {
	commands.Ledger
	stock.SubscriptionStore
	stock.AlertStore
}

// storeSetups are the stores the race tests run on: the embedded store;
// Redis; two Redis stores on their own connections (two replicas) over
// one prefix.
var storeSetups = []struct {
	name   string
	stores func(t *testing.T) []raceStore
}{
	{"embedded", func(t *testing.T) []raceStore {
		st, err := embedded.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return []raceStore{st}
	}},
	{"redis", func(t *testing.T) []raceStore { return []raceStore{redisLedgers(t, 1)[0]} }},
	{"redis two replicas", func(t *testing.T) []raceStore {
		sts := redisLedgers(t, 2)
		return []raceStore{sts[0], sts[1]}
	}},
}

// ledgerCase is a setup of routers over one ledger: one router on the
// embedded store, one on Redis, two (two replicas) on one Redis prefix.
type ledgerCase struct {
	name string
	// routers builds the routers and returns them with (one of) their
	// stores.
	routers func(t *testing.T) ([]*commands.Router, commands.Ledger)
}

func ledgerCases() []ledgerCase {
	var out []ledgerCase
	for _, setup := range storeSetups {
		out = append(out, ledgerCase{setup.name, func(t *testing.T) ([]*commands.Router, commands.Ledger) {
			sts := setup.stores(t)
			var rs []*commands.Router
			for _, st := range sts {
				rs = append(rs, ledgerRouter(t, st))
			}
			return rs, sts[0]
		}})
	}
	return out
}

var reRegistered = regexp.MustCompile(`已登记存储 #(\d+)`)

// TestConcurrentRegistrations: 16 members register a disk in the same
// chat at the same moment, through the router as the chat calls it, on
// the embedded store, on Redis and on two replicas (two routers, each
// with its own store, over one Redis prefix). Each gets a number of their
// own, and the list and the digest hold all 16 disks, each priced.
func TestConcurrentRegistrations(t *testing.T) {
	const n = 16
	for _, c := range ledgerCases() {
		t.Run(c.name, func(t *testing.T) {
			routers, _ := c.routers(t)
			titles := make([]string, n)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					res := from(routers[i%len(routers)], "lab1", fmt.Sprintf("m%02d", i), fmt.Sprintf("登记存储 AutoDL 数据盘 80G 数据 m%02d", i))
					titles[i] = res.Reply.Title
				}()
			}
			close(start)
			wg.Wait()

			seen := map[int]string{}
			byNumber := map[string]int{}
			for i, title := range titles {
				m := reRegistered.FindStringSubmatch(title)
				if m == nil {
					t.Errorf("member %d: %q, want 已登记存储 #…", i, title)
					continue
				}
				num, _ := strconv.Atoi(m[1])
				if other, dup := seen[num]; dup {
					t.Errorf("#%d given twice: to m%02d and to %s", num, i, other)
				}
				seen[num] = fmt.Sprintf("m%02d", i)
				byNumber[m[1]] = i
			}
			if len(seen) != n {
				t.Errorf("%d distinct numbers for %d registrations", len(seen), n)
			}

			for ri, r := range routers {
				list := from(r, "lab1", "boss", "存储列表")
				table := list.Reply.Table
				if list.Reply.Full != nil {
					table = list.Reply.Full.Table // the whole list, behind 详情
				}
				if table == nil || len(table.Rows) != n {
					t.Fatalf("router %d: list: %s\n%s", ri, list.Text, list.FullText)
				}
				for _, row := range table.Rows {
					if _, err := strconv.ParseFloat(row[5], 64); err != nil {
						t.Errorf("router %d: disk %s is not priced: %q", ri, row[0], row[5])
					}
					if i, ok := byNumber[strings.TrimPrefix(row[0], "#")]; !ok || row[4] != fmt.Sprintf("m%02d", i) || row[6] != fmt.Sprintf("数据 m%02d", i) {
						t.Errorf("router %d: row %q, want the disk registered by the member told its number", ri, row)
					}
				}
				// Each disk: (80 − 50 free) × 0.01 = 0.30 a day.
				d := digestOf(from(r, "lab1", "boss", "本周存储花费"))
				if d == nil || d.Disks != n || d.Skipped != 0 || !near(d.DailyCNY, 0.30*n) {
					t.Errorf("router %d: digest %+v, want %d disks at %.2f a day, none skipped", ri, d, n, 0.30*n)
				}
			}
		})
	}
}

// race sends each message of texts (sender, text) through the routers in
// turn, all at once, and returns the answers' first lines in that order.
func race(routers []*commands.Router, chatID string, msgs [][2]string) []string {
	titles := make([]string, len(msgs))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, m := range msgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			titles[i] = from(routers[i%len(routers)], chatID, m[0], m[1]).Reply.Title
		}()
	}
	close(start)
	wg.Wait()
	return titles
}

// count is how many of titles contain want.
func count(titles []string, want string) int {
	n := 0
	for _, t := range titles {
		if strings.Contains(t, want) {
			n++
		}
	}
	return n
}

// TestConcurrentChanges: changes of one disk sent at the same moment are
// decided one after another on the ledger as each finds it, on each
// store and across two replicas: of eight "stopped" messages one records
// the stop and seven hear it is already stopped; of removes and resizes
// of one disk at once exactly one remove is recorded, no change comes
// after it, and every answer says what the ledger holds.
func TestConcurrentChanges(t *testing.T) {
	ctx := context.Background()
	for _, c := range ledgerCases() {
		t.Run(c.name, func(t *testing.T) {
			routers, st := c.routers(t)
			for _, text := range []string{"登记存储 AutoDL 80G", "登记存储 AutoDL 100G"} {
				if res := from(routers[0], "lab1", "alice", text); !strings.Contains(res.Reply.Title, "已登记") {
					t.Fatalf("%s: %s", text, res.Text)
				}
			}
			var msgs [][2]string
			for range 8 {
				msgs = append(msgs, [2]string{"alice", "存储 1 已关机"})
			}
			titles := race(routers, "lab1", msgs)
			if count(titles, "已记为关机") != 1 || count(titles, "已经是关机") != 7 {
				t.Errorf("eight stops of #1: %q; want one recorded, seven already stopped", titles)
			}

			msgs = nil
			for range 4 {
				msgs = append(msgs, [2]string{"alice", "删除存储 2"}, [2]string{"alice", "存储 2 扩容到 200G"})
			}
			titles = race(routers, "lab1", msgs)
			if count(titles, "已从账本删除") != 1 {
				t.Errorf("removes and resizes of #2: %q; want one removal", titles)
			}
			ev, err := st.StorageEvents(ctx, "test/lab1")
			if err != nil {
				t.Fatal(err)
			}
			if errs := ledger.CheckLedger(ev); len(errs) > 0 {
				t.Errorf("the ledger is inconsistent: %v", errs)
			}
			stops, resizes := 0, 0
			for _, e := range ev {
				switch e.Action {
				case ledger.ActionStop:
					stops++
				case ledger.ActionResize:
					resizes++
				}
			}
			if resized := count(titles, "已改为 200 GB"); stops != 1 || resizes != resized || count(titles, "没有编号 #2")+resized+1 != len(titles) {
				t.Errorf("%d stops and %d resizes recorded; answers %q", stops, resizes, titles)
			}
		})
	}
}
