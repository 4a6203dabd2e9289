package app_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/config"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// TestRegistrationsOnTwoReplicas: two replicas (two Apps, as `bot serve`
// builds them) on one Redis take 16 registrations in one chat at the
// same moment, half each, through their routers. The export holds 16
// adds with 16 distinct numbers, each member's, and the digest counts and
// prices 16 disks with nothing skipped.
func TestRegistrationsOnTwoReplicas(t *testing.T) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = redisstore.DefaultURL
	}
	prefix := fmt.Sprintf("labgpu-ledger-%d:", time.Now().UnixNano())
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
	const n = 16
	var wg sync.WaitGroup
	start := make(chan struct{})
	titles := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			msg := chat.Message{Channel: "feishu", ChatID: "oc_lab", ChatType: chat.Group, SenderID: fmt.Sprintf("ou_%02d", i),
				SenderName: fmt.Sprintf("m%02d", i), Text: fmt.Sprintf("登记存储 AutoDL 数据盘 80G 实验 M%02d", i)}
			titles[i] = replicas[i%2].Router.Answer(context.Background(), msg).Reply.Title
		}()
	}
	close(start)
	wg.Wait()

	re := regexp.MustCompile(`#(\d+)`)
	told := map[string]string{} // disk → owner
	for i, title := range titles {
		m := re.FindStringSubmatch(title)
		if m == nil {
			t.Fatalf("member %d: %q", i, title)
		}
		if o, dup := told[m[1]]; dup {
			t.Errorf("#%s told to %s and to ou_%02d", m[1], o, i)
		}
		told[m[1]] = fmt.Sprintf("ou_%02d", i)
	}

	lab := replicas[0].LabFor("feishu/oc_lab")
	for ri, a := range replicas {
		var buf bytes.Buffer
		if err := a.ExportStorage(context.Background(), lab, &buf); err != nil {
			t.Fatal(err)
		}
		rows := strings.Split(strings.TrimSpace(buf.String()), "\n")[1:]
		seen := map[string]bool{}
		for _, row := range rows {
			f := strings.Split(row, ",")
			if len(f) != 7 || f[4] != "add" || told[f[3]] != f[1] || seen[f[3]] || f[6] != "实验 M"+f[1][3:] {
				t.Errorf("replica %d exports %q; want one add per member, as told", ri, row)
			}
			seen[f[3]] = true
		}
		if len(rows) != n {
			t.Errorf("replica %d exports %d rows, want %d", ri, len(rows), n)
		}
		d, err := a.BuildDigest(context.Background(), lab, "")
		if err != nil {
			t.Fatal(err)
		}
		// Each disk: (80 − 50 free) × 0.01 = 0.30 a day.
		if d.Disks != n || d.Skipped != 0 || d.DailyCNY < 0.30*n-1e-9 || d.DailyCNY > 0.30*n+1e-9 || len(d.Unpriced) != 0 {
			t.Errorf("replica %d digest: %d disks, %d skipped, %.4f a day, unpriced %v; want %d, 0, %.2f", ri, d.Disks, d.Skipped, d.DailyCNY, d.Unpriced, n, 0.30*n)
		}
	}
}
