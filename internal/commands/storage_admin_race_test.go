package commands_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
)

// TestConcurrentAdminBindings: eight WeChat members confirm their admin
// binding codes at the same moment, half on each of two replicas over
// one Redis (each asked for the code on the replica it confirms on, as a
// private chat stays on one connection): all eight are admins afterwards,
// none overwritten by another's write.
func TestConcurrentAdminBindings(t *testing.T) {
	cat := testCatalog(t)
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	sts := redisLedgers(t, 2)
	var routers []*commands.Router
	var consoles []*bytes.Buffer
	for _, st := range sts {
		console := &bytes.Buffer{}
		consoles = append(consoles, console)
		routers = append(routers, newRouterWith(t, commands.WithClock(func() time.Time { return now }),
			commands.WithStorage(commands.StorageOptions{Ledger: st, Blobs: st, Console: console, Price: ledger.CatalogStoragePrice(cat, nil)})))
	}
	const n = 8
	codes := make([]string, n)
	for i := range n {
		r := routers[i%2]
		if res := wx(r, chat.P2P, fmt.Sprintf("m%d", i), fmt.Sprintf("remark:m%d", i), fmt.Sprintf("m%d", i), "绑定管理员"); !strings.Contains(res.Reply.Title, "验证码已打印") {
			t.Fatalf("member %d: %s", i, res.Reply.Title)
		}
		codes[i] = lastCode(t, consoles[i%2])
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	titles := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			titles[i] = wx(routers[i%2], chat.P2P, fmt.Sprintf("m%d", i), fmt.Sprintf("remark:m%d", i), fmt.Sprintf("m%d", i), "绑定管理员 "+codes[i]).Reply.Title
		}()
	}
	close(start)
	wg.Wait()
	if count(titles, "已绑定") != n {
		t.Fatalf("confirmations: %q", titles)
	}
	for i := range n {
		// Only an admin may list the admins: each must be one, on either
		// replica.
		res := wx(routers[(i+1)%2], chat.P2P, fmt.Sprintf("m%d", i), fmt.Sprintf("remark:m%d", i), fmt.Sprintf("m%d", i), "管理员列表")
		table := res.Reply.Table
		if res.Reply.Full != nil {
			table = res.Reply.Full.Table // the whole list, behind 详情
		}
		if table == nil || len(table.Rows) != n {
			t.Errorf("member %d lists: %s", i, res.Text)
		}
	}
}
