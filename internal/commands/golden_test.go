package commands_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// recordedAt is the recording time given to the replay recordings (in
// their RECORDED_AT file); the router's clock runs 5 minutes later, so ages
// read "5 分钟前".
var recordedAt = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

// newRouter builds a router over the embedded catalog, catalog list prices
// and the replay recordings in testdata/replay (copied to a temp dir with
// a RECORDED_AT file).
func newRouter(tb testing.TB, opts ...commands.Option) *commands.Router {
	tb.Helper()
	return routerOver(tb, "testdata/replay", opts...)
}

// sharedCatalog is the catalog every test router reads: one load, and one
// pointer, so the understanding trained for it is cached across tests
// (understand caches per catalog and knowledge base). No test changes it.
var sharedCatalog = sync.OnceValues(func() (*catalog.Catalog, error) { return catalog.Load(configs.FS) })

// testCatalog is sharedCatalog, or the test fails.
func testCatalog(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	cat, err := sharedCatalog()
	if err != nil {
		tb.Fatal(err)
	}
	return cat
}

// routerOver is newRouter over the recordings in src.
func routerOver(tb testing.TB, src string, opts ...commands.Option) *commands.Router {
	tb.Helper()
	cat := testCatalog(tb)
	dir := tb.TempDir()
	files, _ := filepath.Glob(filepath.Join(src, "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(dst, b, 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, provider.RecordedAtFile), []byte(recordedAt.Format(time.RFC3339)+"\n"), 0o600); err != nil {
		tb.Fatal(err)
	}
	now := func() time.Time { return recordedAt.Add(5 * time.Minute) }
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	board := stock.NewBoard([]stock.Provider{provider.NewCatalog(cat, provider.CatalogOptions{Now: now}), provider.NewReplay(cat, dir, cat.FXUSDCNY, log)},
		stock.BoardOptions{Now: now, MaxAge: -1, Log: log})
	board.Refresh(context.Background())
	return commands.NewRouter(cat, board, append([]commands.Option{commands.WithClock(now)}, opts...)...)
}

// newRouterWith is newRouter with extra options.
func newRouterWith(tb testing.TB, opts ...commands.Option) *commands.Router {
	return newRouter(tb, opts...)
}

func ask(r *commands.Router, text string) commands.Result {
	return r.Answer(context.Background(), chat.Message{Text: text, ChatType: chat.P2P})
}

func TestGolden(t *testing.T) {
	r := adviceRouter(t)
	cases := []struct{ file, question string }{
		{"stock_4090.golden", "哪家有4090"},
		{"stock_4090_en.golden", "which platform has a 4090 right now"},
		{"estimate_chatglm3.golden", "ChatGLM3-6B 4-bit LoRA，5万条数据，seq 2048，batch 4，3个epoch，3090和4090哪个划算"},
		{"estimate_7b_en.golden", "how much would 7B LoRA cost"},
		{"help.golden", "帮助"},
		{"compare_platforms.golden", "恒源云和AutoDL哪个便宜"},
		{"plan_monthly.golden", "A100 80G 包月多少"},
		{"factcheck_disk.golden", "文章里说AutoDL数据盘0.5元/GB/天，是真的吗"},
		{"workload_resnet.golden", "训练一个ResNet50要多少钱"},
		{"advice_killed.golden", "nohup python train.py & 跑了一晚上…日志最后是 Killed"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			res := ask(r, c.question)
			got := res.Text
			if res.FullText != "" {
				got += "\n--- 详情 (the full form) ---\n" + res.FullText
			}
			checkGolden(t, c.file, c.question, got)
		})
	}
}

// checkGolden compares an answer with testdata/file (rewritten with
// -update).
func checkGolden(t *testing.T, file, question, got string) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("answer to %q changed (go test ./internal/commands -run Golden -update to accept):\n--- got\n%s\n--- want\n%s", question, got, want)
	}
}

// TestSeedWorkedExample reproduces the seed's comparison (ChatGLM3-6B
// 4-bit LoRA, 50k samples, seq 2048, batch 4, 3 epochs; 3090 against 4090
// at AutoDL prices): the 4090 is the cheaper job, and the answer shows the
// figures for both cards.
func TestSeedWorkedExample(t *testing.T) {
	r := newRouter(t)
	res := ask(r, "ChatGLM3-6B 4-bit LoRA r=16 q_proj+v_proj，5万条数据，seq 2048，batch 4，3个epoch，AutoDL 上 3090 和 4090 哪个划算")
	if figures(res).Estimate == nil {
		t.Fatalf("no estimate: %s", res.Text)
	}
	var c3090, c4090 *float64
	for _, o := range figures(res).Options {
		if o.Platform != "autodl" {
			t.Errorf("option on %s, asked AutoDL only", o.Platform)
		}
		total := o.TotalCNY
		switch o.GPU {
		case "RTX 3090":
			c3090 = &total
		case "RTX 4090":
			c4090 = &total
		}
	}
	if c3090 == nil || c4090 == nil || !(*c4090 < *c3090) {
		t.Fatalf("want both cards with the 4090 cheaper; options %+v", figures(res).Options)
	}
	for _, want := range []string{"贵的卡反而省钱", "RTX 4090", "RTX 3090", money2(*c4090), money2(*c3090)} {
		if !strings.Contains(whole(res), want) {
			t.Errorf("answer lacks %q:\n%s", want, res.Text)
		}
	}
}

func money2(x float64) string { return fmt.Sprintf("%.2f", x) }

// whole is an answer's short and full forms together, for checks of what
// the answer says anywhere.
func whole(res commands.Result) string { return res.Text + "\n" + res.FullText }
