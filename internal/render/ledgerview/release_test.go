package ledgerview_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/ledgerview"
)

var updateRelease = flag.Bool("update-release", false, "rewrite testdata/release.golden")

// releaseT0 is when the test disks are shut down (Shanghai 10:00).
var releaseT0 = time.Date(2026, 5, 4, 2, 0, 0, 0, time.UTC)

// releaseLab: 小王's AutoDL disk, 小李's 恒源云 disk (place unknown) and
// 小张's 秘塔智算 disk, all stopped at releaseT0; 小赵's 矩池云 disk too
// (no known rule).
func releaseLab() []ledger.StorageEvent {
	var ev []ledger.StorageEvent
	for i, d := range []struct{ owner, name, platform, note string }{
		{"ou_wang", "小王", "autodl", "实验数据"}, {"ou_li", "小李", "hengyuan", "ImageNet"},
		{"ou_zhang", "小张", "mita", "LoRA 权重"}, {"ou_zhao", "小赵", "matpool", ""},
	} {
		disk := string(rune('1' + i))
		ev = append(ev, ledger.StorageEvent{Time: releaseT0.Add(-72 * time.Hour), Lab: "feishu/oc_lab", Owner: d.owner, OwnerName: d.name,
			Platform: d.platform, Disk: disk, Action: ledger.ActionAdd, SizeGB: 200, Note: d.note},
			ledger.StorageEvent{Time: releaseT0, Lab: "feishu/oc_lab", Owner: d.owner, Platform: d.platform, Disk: disk, Action: ledger.ActionStop})
	}
	return ev
}

// TestReleaseTexts: every warning the lab gets over 20 days, and the
// answer to "哪些盘快被释放了" at three moments, in Chinese and English,
// against testdata/release.golden (go test ./internal/render/ledgerview -run
// ReleaseTexts -update-release to accept a change).
func TestReleaseTexts(t *testing.T) {
	r := renderer(t)
	clk := r.Clock // the default zone, Asia/Shanghai
	ev := releaseLab()
	var b strings.Builder
	sent := map[string]bool{}
	for now := releaseT0; now.Before(releaseT0.Add(20 * 24 * time.Hour)); now = now.Add(time.Hour) {
		for _, w := range ledger.DueWarnings(ledger.ReleaseRisks(ev, r.Cat, now), ledger.DefaultReleasePolicy(), now) {
			k := w.Disk + w.RuleID + w.Threshold()
			if sent[k] {
				continue
			}
			sent[k] = true
			for _, en := range []bool{false, true} {
				rep := ledgerview.ReleaseWarning(r, w, now, en)
				if len(rep.Mentions) != 1 || !strings.HasPrefix(rep.Mentions[0], "ou_") {
					t.Errorf("warning for #%s mentions %v, want its owner", w.Disk, rep.Mentions)
				}
				b.WriteString("=== warning at " + clk.Minute(now) + "\n" + chat.PlainText(rep) + "\n")
			}
		}
	}
	for _, at := range []time.Duration{-time.Hour, 30 * time.Hour, 16 * 24 * time.Hour} {
		now := releaseT0.Add(at)
		for _, en := range []bool{false, true} {
			rep := ledgerview.ReleaseList(r, ledger.ReleaseRisks(ev, r.Cat, now), now, en)
			b.WriteString("=== list at " + clk.Minute(now) + "\n" + chat.PlainText(rep) + "\n")
		}
	}
	got := b.String()
	for _, bad := range []string{"ou_", "matpool", "矩池云", "hengyuan", "price-facts", "seed 00"} {
		if strings.Contains(got, bad) {
			t.Errorf("the texts show %q (an id, a file or a platform without rules)", bad)
		}
	}
	path := filepath.Join("testdata", "release.golden")
	if *updateRelease {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-release to create it)", err)
	}
	if got != string(want) {
		t.Errorf("release texts changed (go test ./internal/render/ledgerview -run ReleaseTexts -update-release to accept):\n%s", got)
	}
}

// TestLeft rounds the time left as a reader wants it.
func TestLeft(t *testing.T) {
	cases := []struct {
		d      time.Duration
		zh, en string
	}{
		{72 * time.Hour, " 3 天", "3 days"},
		{47 * time.Hour, " 2 天", "2 days"},
		{24 * time.Hour, " 24 小时", "24 hours"},
		{90 * time.Minute, " 2 小时", "2 hours"},
		{10 * time.Minute, " 1 小时", "an hour"},
	}
	for _, c := range cases {
		if got := ledgerview.Left(c.d, false); got != c.zh {
			t.Errorf("Left(%v) = %q, want %q", c.d, got, c.zh)
		}
		if got := ledgerview.Left(c.d, true); got != c.en {
			t.Errorf("Left(%v, en) = %q, want %q", c.d, got, c.en)
		}
	}
}

// renderer renders with the embedded catalog's names.
func renderer(t *testing.T) *render.Renderer {
	t.Helper()
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	return &render.Renderer{Cat: cat}
}
