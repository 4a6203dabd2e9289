package estimate_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/commands/estimate"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
	"github.com/labgpu/bot/internal/understand/slots"
	"github.com/labgpu/bot/internal/workload"
)

// env is what the answers read, over the embedded catalog's list prices
// at a fixed time.
func env(t *testing.T) (*answer.Env, *catalog.Catalog) {
	t.Helper()
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC) }
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	board := stock.NewBoard([]stock.Provider{provider.NewCatalog(cat, provider.CatalogOptions{Now: now})}, stock.BoardOptions{Now: now, MaxAge: -1, Log: log})
	board.Refresh(context.Background())
	return &answer.Env{Cat: cat, Offers: board, Now: now, Rd: &render.Renderer{Cat: cat}, Est: &estimator.Estimator{Cat: cat}, Work: workload.Default()}, cat
}

// TestRun: estimate.Run, which the advice answers call for the job a
// question describes, answers with the payload the question needs: an
// LLM estimate, a workload estimate, the ask-back for the size, or the
// estimator's refusal; its figures and its reply.
func TestRun(t *testing.T) {
	e, cat := env(t)
	for _, c := range []struct {
		ask   string
		check func(estimateview.Answer) bool
		title string
	}{
		{"7B LoRA 要多少钱", func(p estimateview.Answer) bool {
			est, ok := p.(estimateview.Estimate)
			return ok && est.Estimate != nil && len(p.EstimateFigures().Options) > 0 && est.Plan != nil
		}, "LoRA：最便宜"},
		{"训练一个ResNet50要多少钱", func(p estimateview.Answer) bool {
			w, ok := p.(estimateview.Workload)
			return ok && w.Est.Job.Model == "resnet50" && len(p.EstimateFigures().Options) > 0 && p.EstimateFigures().Estimate == nil
		}, "ResNet-50"},
		{"微调要多少钱", func(p estimateview.Answer) bool {
			_, ok := p.(estimateview.AskSize)
			return ok && p.EstimateFigures().Estimate == nil
		}, "模型多大参数量？"},
		{"how much for a 7B LoRA on 9 GPUs", func(p estimateview.Answer) bool {
			_, ok := p.(estimateview.TooManyGPUs)
			return ok
		}, "One machine has at most 8 GPUs"},
	} {
		x := slots.Extract(cat, c.ask, false)
		x.WorkloadNames(e.Work)
		p := estimate.Run(context.Background(), e, *x.Query())
		if !c.check(p) {
			t.Errorf("%q: payload %T %+v", c.ask, p, p.EstimateFigures())
			continue
		}
		if rep := p.Reply(e.Rd); !strings.Contains(chat.PlainText(rep), c.title) {
			t.Errorf("%q: reply lacks %q:\n%s", c.ask, c.title, chat.PlainText(rep))
		}
	}
	b, err := json.Marshal(estimateview.AskSize{ModelText: "Foo"})
	if err != nil || !strings.Contains(string(b), `"question":"不认识模型“Foo”`) {
		t.Errorf("ask-back JSON %s (%v)", b, err)
	}
}
