package provider_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/gpushare"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/matpool"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
	"github.com/labgpu/bot/internal/stock/provider/runpod"
)

// benchLatency is how long the benchmarks' servers take per request: a
// slow platform API seen from a campus network.
const benchLatency = 200 * time.Millisecond

// benchConcurrency are the bounds the poll benchmarks compare: 1 is
// one page after another, as before pages were fetched concurrently; 0
// is the default (httpx.DefaultConcurrency).
var benchConcurrency = []int{1, 0}

// slowServer answers every request after benchLatency with body(r).
func slowServer(tb testing.TB, body func(r *http.Request) []byte) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(benchLatency):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body(r))
	}))
	tb.Cleanup(srv.Close)
	return srv.URL
}

// pagedBody answers page (query key) of a list of rows machines, 50 a
// page, each row made by row, with the total.
func pagedBody(key string, rows int, wrap func(list string, total int) string, row string) func(r *http.Request) []byte {
	return func(r *http.Request) []byte {
		n, _ := strconv.Atoi(r.URL.Query().Get(key))
		k := min(max(rows-(n-1)*50, 0), 50)
		return []byte(wrap(strings.TrimSuffix(strings.Repeat(row+",", k), ","), rows))
	}
}

const (
	benchGPUShareRow = `{"id":"a","machineName":"M","isOnline":true,"gpuNum":4,"gpuUsed":1,"baseInfo":{"gpuName":"RTX 4090"},"skuList":[{"skuName":"payg","price":2}]}`
	benchMatpoolRow  = `{"agentId":1,"domain":16,"hardware":{"priceMillicent":55000,"gpu":{"gpuName":"RTX 4090"}},"gpu":{"available":1,"total":1}}`
)

func benchGPUShare(tb testing.TB, c *catalog.Catalog, pages, concurrency int) stock.Provider {
	u := slowServer(tb, pagedBody("pn", pages*50, func(list string, total int) string {
		return fmt.Sprintf(`{"code":0,"msg":"success","data":{"total":%d,"list":[%s]}}`, total, list)
	}, benchGPUShareRow))
	return gpushare.New(c, gpushare.Options{Options: httpx.Options{BaseURL: u, Concurrency: concurrency}, Token: "t"})
}

func benchMatpool(tb testing.TB, c *catalog.Catalog, pages, concurrency int) stock.Provider {
	u := slowServer(tb, pagedBody("page", pages*50, func(list string, total int) string {
		return fmt.Sprintf(`{"code":0,"data":{"machines":[%s],"total":%d}}`, list, total)
	}, benchMatpoolRow))
	return matpool.New(c, matpool.Options{Options: httpx.Options{BaseURL: u, Concurrency: concurrency}, Token: "t", UserID: "1"})
}

func benchRunPod(tb testing.TB, c *catalog.Catalog, concurrency int) stock.Provider {
	body := providertest.Fixture(tb, providertest.VerbatimDir, "runpod-rest-v2-catalog-gpus-1.json")
	u := slowServer(tb, func(*http.Request) []byte { return body })
	return runpod.New(c, runpod.Options{Options: httpx.Options{BaseURL: u, Concurrency: concurrency}, APIKey: "k"})
}

// BenchmarkPagedPoll is one poll of 恒源云 with 20 full pages (1,000
// machines), each request taking 200 ms: about 4 s one page after
// another, about 0.6 s (page 1, then two rounds of 10) by default.
func BenchmarkPagedPoll(b *testing.B) {
	c := providertest.LoadCatalog(b)
	for _, conc := range benchConcurrency {
		b.Run(fmt.Sprintf("pages=20/concurrency=%d", conc), func(b *testing.B) {
			p := benchGPUShare(b, c, 20, conc)
			for b.Loop() {
				offers, err := p.Fetch(context.Background())
				if err != nil || len(offers) != 1000 {
					b.Fatalf("%d offers, %v; want 1000", len(offers), err)
				}
			}
		})
	}
}

// named gives a provider another name, so that the board keeps each of
// several providers of one platform.
type named struct {
	stock.Provider
	name string
}

func (n named) Name() string { return n.name }

// BenchmarkBoardPoll is one Board.Refresh over ten providers at 200 ms a
// request: 恒源云 with 20, 12, 5 and 1 pages, 矩池云 with 20, 8 and 2,
// three RunPods (two requests each, at once unless the bound is 1). The board fetches providers in
// parallel, so a poll takes about as long as its slowest provider (the
// 20-page ones, BenchmarkPagedPoll).
func BenchmarkBoardPoll(b *testing.B) {
	c := providertest.LoadCatalog(b)
	for _, conc := range benchConcurrency {
		b.Run(fmt.Sprintf("providers=10/concurrency=%d", conc), func(b *testing.B) {
			var ps []stock.Provider
			for _, n := range []int{20, 12, 5, 1} {
				ps = append(ps, named{benchGPUShare(b, c, n, conc), fmt.Sprintf("hengyuan-%d", n)})
			}
			for _, n := range []int{20, 8, 2} {
				ps = append(ps, named{benchMatpool(b, c, n, conc), fmt.Sprintf("matpool-%d", n)})
			}
			for i := range 3 {
				ps = append(ps, named{benchRunPod(b, c, conc), fmt.Sprintf("runpod-%d", i)})
			}
			board := stock.NewBoard(ps, stock.BoardOptions{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
			for b.Loop() {
				snap := board.Refresh(context.Background())
				for _, s := range snap.Providers {
					if s.Status != stock.StatusOK {
						b.Fatalf("provider %s: %s %s", s.Provider, s.Status, s.Err)
					}
				}
			}
		})
	}
}
