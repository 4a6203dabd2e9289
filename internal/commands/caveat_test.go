package commands_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/fixture"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
)

// recordingsRouter answers from every recorded platform body
// (testdata/stock of the repository).
func recordingsRouter(t *testing.T) *commands.Router {
	return routerOver(t, fixture.Dir(fixture.Stock))
}

// TestStockRecordingsGolden: the stock answer over every recording.
func TestStockRecordingsGolden(t *testing.T) {
	r := recordingsRouter(t)
	for file, question := range map[string]string{"stock_4090_recordings.golden": "哪家有4090", "stock_4090_recordings_en.golden": "which platform has a 4090 right now"} {
		t.Run(file, func(t *testing.T) {
			res := ask(r, question)
			checkGolden(t, file, question, res.Text+"\n--- 详情 (the full form) ---\n"+res.FullText)
		})
	}
}

// tableLines returns the RTX 4090 table rows of a platform in text.
func tableLines(text, platform string) []string {
	var out []string
	row := regexp.MustCompile(`^` + regexp.QuoteMeta(platform) + `\s{2,}RTX 4090\s`)
	for _, l := range strings.Split(text, "\n") {
		if row.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// TestStockCaveatsTravel: every caveat a provider attaches is in the chat
// text next to its figure, with a legend, in both languages.
func TestStockCaveatsTravel(t *testing.T) {
	r := recordingsRouter(t)
	zh := ask(r, "哪家有4090")
	full := zh.FullText
	// 恒源云: price unit unverified → ‡, and not ranked above a verified price.
	if l := tableLines(full, "恒源云"); len(l) == 0 || !strings.Contains(l[0], "2.09‡") {
		t.Errorf("恒源云 row without the ‡ mark: %q", l)
	}
	mustContain(t, full, "‡ 恒源云接口的价格单位未核实")
	if first := tableLines(full, "AutoDL"); !strings.Contains(full, "平台") || len(first) == 0 {
		t.Fatalf("no AutoDL rows:\n%s", full)
	}
	if i, j := strings.Index(full, "2.09‡"), strings.Index(full, "AutoDL   RTX 4090  2.18"); i < 0 || j < 0 || i < j {
		t.Errorf("the unverified 恒源云 price is ranked above AutoDL's verified one:\n%s", full)
	}
	mustContain(t, zh.Text, "恒源云 2.09‡ 更低，但价格单位未核实")
	// 矩池云: an unreliable count → "3?" with its legend.
	if l := tableLines(full, "矩池云"); len(l) == 0 || !regexp.MustCompile(`\s3\?\s`).MatchString(l[0]) {
		t.Errorf("矩池云 row without the ? mark: %q", l)
	}
	mustContain(t, full, "空闲数带“?”的：矩池云接口的空闲数常不准")
	// RunPod: a level, never "1".
	rp := tableLines(full, "RunPod")
	if len(rp) == 0 || !strings.Contains(rp[0], "充足") {
		t.Errorf("RunPod row does not show its level: %q", rp)
	}
	// AutoDL: one row per region, the disagreement said.
	regions := map[string]int{}
	for _, l := range tableLines(full, "AutoDL") {
		for _, reg := range []string{"西北B区", "西北企业区"} {
			if strings.Contains(l, reg) {
				regions[reg]++
			}
		}
	}
	if len(tableLines(full, "AutoDL")) != 2 || regions["西北B区"] != 1 || regions["西北企业区"] != 1 {
		t.Errorf("want one AutoDL 4090 row per region, got %q", tableLines(full, "AutoDL"))
	}
	mustContain(t, full, "AutoDL RTX 4090 其他接口给的空闲数", "开发者库存接口（全平台）215?", "表中用机器列表（西北B区）的 2", "AutoDL开发者库存接口的空闲数不一定开得出来")
	// No example rows from API documentation.
	all := ask(r, "各平台都有什么卡")
	for _, text := range []string{full, all.Text, all.FullText} {
		if strings.Contains(strings.ToLower(text), "example") {
			t.Errorf("an API example row reached the answer:\n%s", text)
		}
	}
	// The short form carries the marks' legend too, in a few words; 详情
	// says why.
	mustContain(t, zh.Text, "带“?”的空闲数不一定准")
	mustContain(t, zh.FullText, "空闲数带“?”的：矩池云接口的空闲数常不准")

	en := ask(r, "which platform has a 4090 right now")
	mustContain(t, en.FullText, "2.09‡", "‡ GPUShare (Hengyuan Cloud) does not document its price unit", "plenty", "other endpoints' free counts", "(all regions) 215?")
	if strings.Contains(en.FullText, "充足") {
		t.Errorf("English answer shows a Chinese level:\n%s", en.FullText)
	}
}

// TestStaleListPricesMarked: a 2021 list price is marked old wherever it
// is shown, and ranked after current ones.
func TestStaleListPricesMarked(t *testing.T) {
	r := newRouter(t)
	mustContain(t, ask(r, "Featurize 怎么收费").Text, "3.60（过时）", "过时：Featurize的标价已超过 12 个月")
	mustContain(t, ask(r, "2080ti 多少钱").Text, "2021-06-15（过时）")
	res := ask(r, "3090 哪家有")
	text := res.FullText
	if text == "" {
		text = res.Text
	}
	var last string
	for _, row := range offersOf(res) {
		if row.Source == "catalog" {
			last = row.Platform
		}
	}
	if last != "featurize" {
		t.Errorf("the stale Featurize price is not ranked after the other list prices (last %q):\n%s", last, text)
	}
	if got := ask(routerOver(t, "testdata/replay", commands.WithListPriceMaxAge(120)), "Featurize 怎么收费").Text; strings.Contains(got, "过时") {
		t.Errorf("with a 120-month limit a 2021 price is not stale:\n%s", got)
	}
}

// failing is a provider that always fails with err.
type failing struct {
	name string
	err  error
}

func (f failing) Name() string                                 { return f.name }
func (f failing) Fetch(context.Context) ([]stock.Offer, error) { return nil, f.err }

// TestStockSaysWhatFailed: a missing replay directory and a failing
// provider are named near the top in words a person can act on; the
// header never claims recordings that were not read.
func TestStockSaysWhatFailed(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	now := func() time.Time { return recordedAt }
	missing := filepath.Join(t.TempDir(), "nope")
	board := stock.NewBoard([]stock.Provider{
		provider.NewCatalog(cat, provider.CatalogOptions{Now: now}),
		provider.NewReplay(cat, missing, cat.FXUSDCNY, log),
		failing{"hengyuan", context.DeadlineExceeded},
		failing{"matpool", errors.Join(errors.New("matpool: credentials rejected (HTTP 401) from GET /api/machines"), stock.ErrUnauthorized)},
	}, stock.BoardOptions{Now: now, MaxAge: -1, Log: log})
	board.Refresh(context.Background())
	r := commands.NewRouter(cat, board, commands.WithClock(now))
	for _, q := range []string{"哪家有4090", "which platform has a 4090 right now"} {
		res := ask(r, q)
		lines := strings.Split(res.Text, "\n")
		top := strings.Join(lines[:min(4, len(lines))], "\n")
		en := strings.HasPrefix(q, "which")
		wants := []string{"录下的数据没有读到：存数据的目录不存在或读不了", "恒源云 数据获取失败：超时", "矩池云 数据获取失败：登录凭证被拒"}
		if en {
			wants = []string{"No recording was read: the directory of recorded data is missing", "GPUShare (Hengyuan Cloud) could not be read: timed out", "Matpool could not be read: credentials rejected"}
		}
		mustContain(t, top, wants...)
		for _, text := range []string{res.Text, res.FullText} {
			for _, bad := range []string{"以下是录下的数据", "recorded data and", missing, "no such file", "deadline exceeded", "/api/"} {
				if strings.Contains(text, bad) {
					t.Errorf("%q: the answer shows %q:\n%s", q, bad, text)
				}
			}
		}
	}
}

// TestExcludedPlatforms: "不要vast" / "除了autodl" / "not on vast" rule a
// platform out; they never narrow the answer to it.
func TestExcludedPlatforms(t *testing.T) {
	r := recordingsRouter(t)
	cases := []struct{ q, out string }{
		{"4090现在还有货吗 不要vast", "vastai"},
		{"4090 不要autodl 哪家有", "autodl"},
		{"除了vast还有哪家有4090", "vastai"},
		{"any 4090 free, not on vast pls", "vastai"},
		{"autodl 除外 哪家有3090", "autodl"},
		{"不要 autodl 的 4090 报价", "autodl"},
	}
	for _, c := range cases {
		res := ask(r, c.q)
		if !slices.Contains(res.Query.ExcludePlatforms, c.out) || slices.Contains(res.Query.Platforms, c.out) {
			t.Errorf("%q: platforms %v, excluded %v; want %s excluded", c.q, res.Query.Platforms, res.Query.ExcludePlatforms, c.out)
		}
		if len(offersOf(res)) == 0 {
			t.Errorf("%q: no offers at all:\n%s", c.q, res.Text)
		}
		for _, o := range offersOf(res) {
			if o.Platform == c.out {
				t.Errorf("%q: the answer lists %s:\n%s", c.q, c.out, res.Text)
				break
			}
		}
	}
	if res := ask(r, "autodl的4090还有吗"); !slices.Equal(res.Query.Platforms, []string{"autodl"}) {
		t.Errorf("a plainly named platform: %v", res.Query.Platforms)
	}
}

// panicky is an offers source that panics, standing in for a bug.
type panicky struct{}

func (panicky) Snapshot(context.Context) stock.Snapshot { panic("bug") }

// TestAnswerNeverPanics: a bug in one answer gets a short apology in the
// asker's language, not a crash or silence.
func TestAnswerNeverPanics(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	r := commands.NewRouter(cat, panicky{})
	if got := ask(r, "哪家有4090").Text; !strings.Contains(got, "出错了") {
		t.Errorf("zh: %q", got)
	}
	if got := ask(r, "which platform has a 4090 right now").Text; !strings.Contains(got, "went wrong") {
		t.Errorf("en: %q", got)
	}
}

// fixed is a provider that returns the same offers every time.
type fixed struct {
	name   string
	offers []stock.Offer
}

func (f fixed) Name() string                                 { return f.name }
func (f fixed) Fetch(context.Context) ([]stock.Offer, error) { return f.offers, nil }

// TestMergedMachinesHonest: machines of one region are one row priced
// "from" the cheapest, and under a price limit the row counts only the
// machines at that price.
func TestMergedMachinesHonest(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return recordedAt }
	m := func(free int, price float64) stock.Offer {
		return stock.Offer{Platform: "autodl", GPU: "RTX 4090", Region: "west-B", Free: stock.IntPtr(free), CNYPerGPUHour: price,
			Source: stock.SourceLive, Scope: stock.ScopeMachine, Endpoint: stock.EndpointWebMachines, ObservedAt: recordedAt, Verified: true}
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	board := stock.NewBoard([]stock.Provider{fixed{"autodl", []stock.Offer{m(2, 2.18), m(3, 2.05)}}}, stock.BoardOptions{Now: now, MaxAge: -1, Log: log})
	board.Refresh(context.Background())
	r := commands.NewRouter(cat, board, commands.WithClock(now))
	all := ask(r, "autodl 4090 还有吗")
	if rows := offersOf(all); len(rows) != 1 || *rows[0].Free != 5 || !rows[0].PriceFrom || rows[0].Region != "西北B区" {
		t.Fatalf("want one 西北B区 row, 5 free, priced from 2.05: %+v\n%s", rows, all.Text)
	}
	mustContain(t, all.Text, "2.05起")
	under := ask(r, "autodl 4090 2块1以下")
	if rows := offersOf(under); len(rows) != 1 || *rows[0].Free != 3 || rows[0].PriceFrom {
		t.Fatalf("under 2.1: want the 2.05 machine's 3 free only: %+v\n%s", rows, under.Text)
	}
}
