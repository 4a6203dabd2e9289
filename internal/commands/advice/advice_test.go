package advice

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render/adviceview"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
)

// noOffers is a stock source with nothing to show (the advice answers
// here read none).
type noOffers struct{}

func (noOffers) Snapshot(context.Context) stock.Snapshot { return stock.Snapshot{} }

var loadEnv = sync.OnceValues(func() (*answer.Env, error) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		return nil, err
	}
	base, err := kb.Load(configs.FS)
	if err != nil {
		return nil, err
	}
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	return &answer.Env{Cat: cat, KB: base, Est: &estimator.Estimator{Cat: cat}, Offers: noOffers{}, Now: func() time.Time { return now }}, nil
})

func adviceOf(t *testing.T, q understand.Query) adviceview.Advice {
	t.Helper()
	env, err := loadEnv()
	if err != nil {
		t.Fatal(err)
	}
	return Advice(context.Background(), &answer.Ask{Query: q, Env: env}).Payload.(adviceview.Advice)
}

// TestAdvice: the advice payload from the Query alone — no topic, an OOM
// report without and with a job (its error's figures from Query.OOM, its
// kind from Query.Serving), a how-to and a card question naming a
// workload (Query.KBWorkload).
func TestAdvice(t *testing.T) {
	env, err := loadEnv()
	if err != nil {
		t.Fatal(err)
	}
	oomTopic, _ := env.KB.Topic("cuda-oom")
	closest := &kb.Result{Closest: []kb.Hit{{Topic: oomTopic, Score: 0.314}}}
	if p := adviceOf(t, understand.Query{KB: closest}); p.Advice == nil || p.Advice.Topic != "" || p.Advice.Score != 0.31 || len(p.Advice.Closest) != 1 {
		t.Errorf("no topic: %+v", p.Advice)
	}

	oom := &understand.OOMError{AllocGiB: 2, TotalGiB: 23.65, FreeGiB: -1}
	p := adviceOf(t, understand.Query{Topic: "cuda-oom", Score: 0.9, OOM: oom})
	if p.Advice.Topic != "cuda-oom" || p.OOM == nil || !p.OOM.NoJob || p.OOM.Error == nil || p.OOM.Error.TotalGiB != 23.65 || p.OOM.Error.FreeGiB != -1 || p.Estimate != nil || p.HowTo {
		t.Errorf("OOM without a job: %+v %+v", p.Advice, p.OOM)
	}
	job := understand.Query{Topic: "cuda-oom", Score: 0.9, Model: "Qwen2.5-7B", Method: estimator.MethodLoRA, SeqLen: 4096, GPU: "RTX 4090", GPUs: []string{"RTX 4090"}}
	p = adviceOf(t, job)
	if p.Estimate == nil || p.VRAMGB == nil || p.Estimate.Method != estimator.MethodLoRA || len(p.OOM.NeedCards) != 1 || p.OOM.Failed != "RTX 4090" ||
		len(p.OOM.Savings) != 2 || p.OOM.Savings[0].Seq != 0 || p.OOM.Savings[1].Seq != 2048 || len(p.OOM.AsIs)+len(p.OOM.Accum) == 0 {
		t.Errorf("OOM with a job: estimate %v oom %+v", p.Estimate != nil, p.OOM)
	}
	job.Method = estimator.MethodInference
	if p := adviceOf(t, job); p.Estimate == nil || p.Estimate.Method != estimator.MethodLoRA {
		t.Errorf("inference without serving words is read as training")
	}
	job.Serving = true
	if p := adviceOf(t, job); p.Estimate == nil || p.Estimate.Method != estimator.MethodInference {
		t.Errorf("serving OOM is not estimated as inference")
	}

	if p := adviceOf(t, understand.Query{Topic: "test-small-first", Score: 0.8}); !p.HowTo || p.Card != nil {
		t.Errorf("how-to: %+v", p)
	}

	p = adviceOf(t, understand.Query{Topic: "card-choice", Score: 0.8, KBWorkload: "sdxl-images", GPU: "RTX 3090", GPUs: []string{"RTX 3090"}})
	if c := p.Card; c == nil || !p.CardTopic || c.Workload == nil || c.Workload.ID != "sdxl-images" || !c.OneNamed || len(c.Named) != 1 || p.Advice.Workload != c.Workload {
		t.Errorf("card question: %+v", p.Card)
	}
	p = adviceOf(t, understand.Query{Topic: "card-choice", Score: 0.8, GPUs: []string{"RTX 4090", "RTX 3090"}})
	if c := p.Card; c == nil || c.Workload != nil || len(c.Compared) != 2 || len(p.Advice.Cards) != 2 || c.Compared[0].TensorTFLOPS == 0 {
		t.Errorf("two cards named: %+v", p.Card)
	}
}
