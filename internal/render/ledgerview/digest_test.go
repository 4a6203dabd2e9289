package ledgerview_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/billing/ledger/ledgertest"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/ledgerview"
)

var update = flag.Bool("update", false, "rewrite testdata/digest_*.golden")

// digestOf builds the digest of week from events at now, priced from the
// embedded catalog (overrides as config storage.prices), as the bot does.
func digestOf(t testing.TB, events []ledger.StorageEvent, week string, now time.Time, overrides map[string]float64) (ledger.Digest, func(string, bool) string) {
	t.Helper()
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	d, err := ledger.BuildDigest(events, ledgertest.LabChat, week, ledgertest.Shanghai, ledger.CatalogStoragePrice(cat, overrides), now)
	if err != nil {
		t.Fatal(err)
	}
	ledger.PriceNotes(&d, cat, overrides)
	d.ReleaseSoon, d.ReleaseAsOf = ledger.ReleaseRisks(events, cat, now), now // as the app does
	name := func(id string, en bool) string {
		if p, ok := cat.Platform(id); ok {
			return p.DisplayName(en)
		}
		return id
	}
	return d, name
}

// digestText is a digest's chat form and, after a separator, what "详情"
// shows.
func digestText(d ledger.Digest, en bool, name func(string, bool) string) string {
	r := ledgerview.Digest(d, en, name)
	if r.Full == nil {
		return chat.PlainText(r)
	}
	return chat.PlainText(r) + "\n--- 详情 (the full form) ---\n" + chat.PlainText(*r.Full)
}

// TestDigestGolden: the digest of a realistic lab (8 members, AutoDL,
// 恒源云 and 秘塔智算, six weeks), in Chinese and English; the same lab with
// a disk on a platform without a price; a lab registered a minute ago;
// a chat with no ledger. go test ./internal/render/ledgerview -run DigestGolden
// -update rewrites the files after a deliberate change.
func TestDigestGolden(t *testing.T) {
	justNow := ledgertest.LabNow.Add(-time.Minute)
	newLab := []ledger.StorageEvent{{Time: justNow, Lab: ledgertest.LabChat, Owner: "ou_zw01", OwnerName: "张伟", Platform: "autodl",
		Disk: "1", Action: ledger.ActionAdd, SizeGB: 500, Note: "预训练语料"}}
	cases := []struct {
		file   string
		events []ledger.StorageEvent
		week   string
		en     bool
	}{
		{"digest_lab.golden", ledgertest.Lab(), ledgertest.LabWeek, false},
		{"digest_lab_en.golden", ledgertest.Lab(), ledgertest.LabWeek, true},
		{"digest_unpriced.golden", ledgertest.LabUnpriced(), ledgertest.LabWeek, false},
		{"digest_new_lab.golden", newLab, "2026-W49", false},
		{"digest_empty.golden", nil, "2026-W49", false},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			d, name := digestOf(t, c.events, c.week, ledgertest.LabNow, nil)
			got := digestText(d, c.en, name)
			path := filepath.Join("testdata", c.file)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./internal/render/ledgerview -run DigestGolden -update creates it)", err)
			}
			if got != string(want) {
				t.Errorf("%s changed (go test ./internal/render/ledgerview -run DigestGolden -update to accept):\n%s", c.file, got)
			}
		})
	}
}

// shortLines counts a reply's text lines as a phone shows them (80
// columns; the table and the chart not counted), as the router does.
func shortLines(r chat.Reply) int {
	n := 0
	for _, l := range append(append([]string{r.Title}, r.Lines...), r.Notes...) {
		n += max(1, (runewidth.StringWidth(l)+79)/80)
	}
	return n
}

// TestDigestChatFormIsSmall: the chat form of a 100,000-event ledger
// (200 members, ~11,000 disks, a platform without a price, a seed-only
// price) is under 2 KB and fits a phone screen (12 lines, 5 rows) in
// both languages; "详情" shows DigestMoreRows rows of each list and
// counts the rest; DigestFull (bot digest) lists every member, idle and
// unpriced disk.
func TestDigestChatFormIsSmall(t *testing.T) {
	events := ledgertest.ChurnLedger(100_000)
	now := ledgertest.ChurnEnd.Add(9 * time.Hour)
	d, name := digestOf(t, events, "2026-W48", now, nil)
	if len(d.Members) < 150 || len(d.Idle) < 1000 || len(d.UnpricedDisks) < 100 {
		t.Fatalf("the ledger is not the big one: %d members, %d idle, %d unpriced", len(d.Members), len(d.Idle), len(d.UnpricedDisks))
	}
	for _, en := range []bool{false, true} {
		r := ledgerview.Digest(d, en, name)
		text, more := chat.PlainText(r), chat.PlainText(*r.Full)
		t.Logf("en=%v: chat form %d bytes, %d lines; 详情 %d bytes", en, len(text), shortLines(r), len(more))
		if len(text) >= 2048 || shortLines(r) > 12 || r.Table == nil || len(r.Table.Rows) > ledgerview.DigestTopN {
			t.Errorf("en=%v: %d bytes, %d lines, table %v:\n%s", en, len(text), shortLines(r), r.Table != nil, text)
		}
		if len(more) > 16<<10 || r.Full.Table == nil || len(r.Full.Table.Rows) != ledgerview.DigestMoreRows ||
			!strings.Contains(more, map[bool]string{false: "还有 150 人", true: "and 150 more members"}[en]) {
			t.Errorf("en=%v: 详情 is %d bytes, its idle table or member list not cut to %d:\n%.3000s", en, len(more), ledgerview.DigestMoreRows, more)
		}
		all := ledgerview.DigestFull(d, en, name)
		text = chat.PlainText(all)
		last := "#" + d.UnpricedDisks[len(d.UnpricedDisks)-1].Disk + map[bool]string{false: "（", true: " ("}[en]
		if !strings.Contains(text, last) || !strings.Contains(text, "  "+d.Members[len(d.Members)-1].Name+" ") || all.Table == nil || len(all.Table.Rows) < 1000 {
			t.Errorf("en=%v: bot digest's text is not complete (%d bytes)", en, len(text))
		}
	}
}

// TestDigestMarksAndZeros: the unverified mark and its legend come only
// with a figure resting on a seed-only price; shares that show as 0.00
// and idle disks that save nothing are left out; an unpriced idle disk
// says so instead of a saving of 0.
func TestDigestMarksAndZeros(t *testing.T) {
	loc := ledgertest.Shanghai
	from := time.Date(2026, 11, 23, 0, 0, 0, 0, loc)
	base := ledger.Digest{Week: "2026-W48", From: from, To: from.AddDate(0, 0, 7), AsOf: from.AddDate(0, 0, 7), Month: "2026-11",
		FirstEntry: from.AddDate(0, 0, -30), LastEntry: from.AddDate(0, 0, 3), TotalCNY: 10, MonthToDateCNY: 30, ForecastCNY: 31,
		Members:   []ledger.Share{{Name: "alice", CNY: 10, Share: 1, Platforms: []string{"autodl"}}, {Name: "bob", CNY: 0.004, Platforms: []string{"autodl"}}},
		Platforms: []ledger.Share{{Name: "autodl", CNY: 10, Share: 1}}, MonthPlatforms: []string{"autodl"},
		Prices: []ledger.PriceNote{{Platform: "autodl", Priced: true, CNYPerGBDay: 0.0083, Verified: true}}}
	zero, saves := 0.0, 12.5
	base.Idle = []ledger.IdleDisk{{Disk: "7", Owner: "bob", Platform: "autodl", SizeGB: 40, Reason: "stopped", Days: 9, MonthlyCNY: &zero},
		{Disk: "8", Owner: "carol", Platform: "lanrui", SizeGB: 200, Reason: "stopped", Days: 9}}
	withMita := base
	withMita.Members = []ledger.Share{{Name: "alice", CNY: 10, Share: 1, Platforms: []string{"autodl", "mita"}}}
	withMita.Platforms = []ledger.Share{{Name: "autodl", CNY: 8, Share: 0.8}, {Name: "mita", CNY: 2, Share: 0.2}}
	withMita.MonthPlatforms = []string{"autodl", "mita"}
	withMita.Prices = append(base.Prices, ledger.PriceNote{Platform: "mita", Priced: true, CNYPerGBDay: 1})
	withMita.Idle = append([]ledger.IdleDisk{{Disk: "9", Owner: "alice", Platform: "mita", SizeGB: 20, Reason: "unchanged", Days: 40, MonthlyCNY: &saves}}, base.Idle...)
	name := func(id string, en bool) string {
		return map[string]string{"autodl": "AutoDL", "mita": "秘塔智算", "lanrui": "揽睿星舟"}[id]
	}
	cases := []struct {
		name      string
		d         ledger.Digest
		want, not []string
	}{
		{"verified prices only", base, []string{"合计 10.00 元", "alice 10.00（100%）", "#8", "未计价"}, []string{"*", "bob", "#7", "省 0.00"}},
		{"a seed-only price", withMita, []string{"合计 10.00* 元", "alice 10.00*（100%）", "秘塔智算 2.00*（20%）", "至今 30.00* 元", "全月 31.00* 元", "12.5*",
			render.UnverifiedFigureNote(false)}, []string{"AutoDL 8.00*"}},
	}
	for _, c := range cases {
		r := ledgerview.Digest(c.d, false, name)
		for _, form := range []string{chat.PlainText(r), chat.PlainText(*r.Full)} {
			for _, w := range c.want {
				if !strings.Contains(form, w) {
					t.Errorf("%s: lacks %q:\n%s", c.name, w, form)
				}
			}
			for _, n := range c.not {
				if strings.Contains(form, n) {
					t.Errorf("%s: has %q:\n%s", c.name, n, form)
				}
			}
		}
	}
}

// BenchmarkDigestChat is a digest from the ledger to the chat's text:
// BuildDigest, PriceNotes at catalog prices, render.Digest and the plain
// text of its short and full forms, on churning ledgers of 1k, 10k and
// 100k events (ledgertest.ChurnLedger).
//
//	go test ./internal/render/ledgerview -run '^$' -bench DigestChat -benchtime 5x
func BenchmarkDigestChat(b *testing.B) {
	now := ledgertest.ChurnEnd.Add(9 * time.Hour)
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		b.Fatal(err)
	}
	price := ledger.CatalogStoragePrice(cat, nil)
	name := func(id string, en bool) string {
		if p, ok := cat.Platform(id); ok {
			return p.DisplayName(en)
		}
		return id
	}
	for _, n := range []int{1_000, 10_000, 100_000} {
		events := ledgertest.ChurnLedger(n)
		b.Run(fmt.Sprintf("events=%dk", n/1000), func(b *testing.B) {
			b.ReportAllocs()
			size := 0
			for b.Loop() {
				d, err := ledger.BuildDigest(events, "nlp", "2026-W48", time.UTC, price, now)
				if err != nil {
					b.Fatal(err)
				}
				ledger.PriceNotes(&d, cat, nil)
				r := ledgerview.Digest(d, false, name)
				size = len(chat.PlainText(r))
				_ = chat.PlainText(*r.Full)
			}
			b.ReportMetric(float64(size), "chat-bytes")
		})
	}
}

// TestDigestPeriodGolden: a scheduled digest of one day (a daily
// schedule: jobs.NextPeriod) and of three days, titled by their days and
// compared with as many days before, in Chinese and English.
func TestDigestPeriodGolden(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	name := func(id string, en bool) string {
		if p, ok := cat.Platform(id); ok {
			return p.DisplayName(en)
		}
		return id
	}
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, ledgertest.Shanghai) }
	cases := []struct {
		file     string
		from, to time.Time
		en       bool
	}{
		{"digest_day.golden", day(29), day(30), false},
		{"digest_day_en.golden", day(29), day(30), true},
		{"digest_days.golden", day(27), day(30), false},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			d, err := ledger.BuildPeriodDigest(ledgertest.Lab(), ledgertest.LabChat, c.from, c.to, ledgertest.Shanghai, ledger.CatalogStoragePrice(cat, nil), ledgertest.LabNow)
			if err != nil {
				t.Fatal(err)
			}
			ledger.PriceNotes(&d, cat, nil)
			got := digestText(d, c.en, name)
			path := filepath.Join("testdata", c.file)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./internal/render/ledgerview -run DigestPeriodGolden -update creates it)", err)
			}
			if got != string(want) {
				t.Errorf("%s changed (go test ./internal/render/ledgerview -run DigestPeriodGolden -update to accept):\n%s", c.file, got)
			}
		})
	}
}
