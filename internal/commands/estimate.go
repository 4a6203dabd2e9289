package commands

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/stock"
)

// maxOptionRows caps the cost table.
const maxOptionRows = 10

// JobFromQuery maps parsed parameters onto an estimator job.
func JobFromQuery(q Query) billing.Job {
	j := billing.Job{Model: q.Model, ParamsB: q.ParamsB, Method: q.Method, Bits: q.Bits, SeqLen: q.SeqLen,
		Batch: q.Batch, Samples: q.Samples, Tokens: q.Tokens, Epochs: q.Epochs, GPUCount: q.GPUCount, Platform: q.Platform}
	if q.GPU != "" {
		j.GPUs = q.GPUs
	}
	return j
}

// quotes returns, for a GPU, the best known price per platform: the
// cheapest live or replay offer with a price, else the catalog list price.
func (r *Router) quotes(snap stock.Snapshot, now time.Time) billing.Quotes {
	type key struct{ p, g string }
	best := map[key]billing.PriceQuote{}
	for _, ps := range snap.Providers {
		for _, o := range ps.Offers {
			if !o.HasPrice() || o.State() == stock.SoldOut {
				continue
			}
			k := key{o.Platform, o.GPU}
			price := o.CNYPerGPUHour
			if o.PriceHigh > price {
				// A list-price range from disagreeing sources: cost at its midpoint.
				price = (price + o.PriceHigh) / 2
			}
			q := billing.PriceQuote{Platform: o.Platform, GPU: o.GPU, CNYPerGPUHour: price, Source: string(o.Source),
				Verified: o.Verified || o.Source != stock.SourceCatalog}
			if o.Source == stock.SourceCatalog {
				q.AsOf = o.AsOfText
			} else {
				q.AsOf = Age(now.Sub(o.ObservedAt), false)
			}
			prev, ok := best[k]
			better := !ok ||
				(prev.Source == string(stock.SourceCatalog) && q.Source != string(stock.SourceCatalog)) ||
				((prev.Source == string(stock.SourceCatalog)) == (q.Source == string(stock.SourceCatalog)) && q.CNYPerGPUHour < prev.CNYPerGPUHour)
			if better {
				best[k] = q
			}
		}
	}
	return func(gpu string) []billing.PriceQuote {
		var out []billing.PriceQuote
		for k, q := range best {
			if k.g == gpu {
				out = append(out, q)
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Platform < out[j].Platform })
		return out
	}
}

// estimateAnswer answers "7B LoRA 要多少钱".
func (r *Router) estimateAnswer(ctx context.Context, res *Result) {
	q := res.Query
	now := r.now()
	job := JobFromQuery(q)
	snap := r.offers.Snapshot(ctx)
	est, err := r.est.Estimate(job, r.quotes(snap, now))
	if errors.Is(err, billing.ErrUnknownModel) {
		r.askSize(res)
		return
	}
	if err != nil {
		res.Reply = chat.Reply{Title: "估算失败：" + err.Error()}
		return
	}
	res.Estimate = est
	res.Options = est.Options
	res.Reply = r.renderEstimate(est, q)
}

func (r *Router) askSize(res *Result) {
	en := res.English
	name := res.ModelText
	var qs string
	switch {
	case en && name != "":
		qs = fmt.Sprintf("I don't know the model “%s”. How many parameters does it have? e.g. “7B LoRA cost”.", name)
	case en:
		qs = "How many parameters does the model have? e.g. “how much would 7B LoRA cost”."
	case name != "":
		qs = fmt.Sprintf("不认识模型“%s”。它有多大参数量？例如“7B LoRA 要多少钱”。", name)
	default:
		qs = "模型多大参数量？例如“7B LoRA 要多少钱”或“Qwen2.5-7B QLoRA 多少钱”。"
	}
	res.Question = qs
	res.Reply = chat.Reply{Title: qs}
}

func methodName(m string, bits int, en bool) string {
	switch m {
	case billing.MethodFull:
		if en {
			return "full fine-tune"
		}
		return "全量微调"
	case billing.MethodQLoRA:
		return fmt.Sprintf("QLoRA %d-bit", bits)
	case billing.MethodInference:
		if en {
			return fmt.Sprintf("inference (%d-bit)", bits)
		}
		return fmt.Sprintf("推理（%d-bit）", bits)
	}
	return "LoRA"
}

func (r *Router) renderEstimate(est *billing.Estimate, q Query) chat.Reply {
	en := q.English
	rep := chat.Reply{}
	model := est.ModelID
	if est.Typical {
		if en {
			model = fmt.Sprintf("%gB model (typical config: %s)", est.ParamsB, est.ModelID)
		} else {
			model = fmt.Sprintf("%gB 模型（按典型配置 %s）", est.ParamsB, est.ModelID)
		}
	}
	if en {
		rep.Title = fmt.Sprintf("Estimate: %s, %s", model, methodName(est.Method, est.Bits, en))
	} else {
		rep.Title = fmt.Sprintf("估算：%s %s", model, methodName(est.Method, est.Bits, en))
	}
	v := est.VRAM
	if en {
		rep.Lines = append(rep.Lines, fmt.Sprintf("VRAM on one GPU: ~%.1f GB (weights %.1f + gradients %.1f + optimizer %.1f + activations %.1f + logits %.1f + overhead %.1f)",
			v.Total, v.Weights, v.Gradients, v.Optimizer, v.Activations, v.Logits, v.Overhead))
	} else {
		rep.Lines = append(rep.Lines, fmt.Sprintf("单卡显存：约 %.1f GB（权重 %.1f + 梯度 %.1f + 优化器 %.1f + 激活 %.1f + logits %.1f + 其他 %.1f）",
			v.Total, v.Weights, v.Gradients, v.Optimizer, v.Activations, v.Logits, v.Overhead))
	}
	var fit, nofit []string
	// Chat answers list the cards someone rents out (a price is known),
	// grouped by layout; the JSON has every GPU.
	rented := map[string]bool{}
	for _, o := range est.Options {
		rented[o.GPU] = true
	}
	type layoutKey struct{ n, mb int }
	var order []layoutKey
	groups := map[layoutKey][]string{}
	extraFit := 0
	smallest := 0.0
	for _, f := range est.Fits {
		if !f.Fits {
			nofit = append(nofit, f.GPU)
			continue
		}
		if len(rented) > 0 && !rented[f.GPU] && q.GPU == "" {
			extraFit++
			continue
		}
		k := layoutKey{f.GPUCount, f.MicroBatch}
		if est.Method == billing.MethodInference || f.MicroBatch == est.Batch {
			k.mb = 0
		} else if f.GPUCount == 1 && (smallest == 0 || f.VRAMPerGPU < smallest) {
			smallest = f.VRAMPerGPU
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f.GPU)
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].n != order[j].n {
			return order[i].n < order[j].n
		}
		a, b := order[i].mb, order[j].mb
		if (a == 0) != (b == 0) {
			return a == 0
		}
		return a > b
	})
	for _, k := range order {
		var label string
		switch {
		case en && k.n == 1:
			label = "1 GPU"
		case en:
			label = fmt.Sprintf("%d GPUs", k.n)
		case k.n == 1:
			label = "单卡"
		default:
			label = fmt.Sprintf("%d 卡", k.n)
		}
		if k.mb > 0 {
			label += fmt.Sprintf(pick1(en, "（batch %d+梯度累积）", " (batch %d + grad accumulation)"), k.mb)
		}
		fit = append(fit, label+pick1(en, "：", ": ")+strings.Join(groups[k], pick1(en, "、", ", ")))
	}
	if smallest > 0 {
		if en {
			rep.Lines[0] += fmt.Sprintf("; with a smaller micro-batch from ~%.1f GB", smallest)
		} else {
			rep.Lines[0] += fmt.Sprintf("；减小 batch 后最低约 %.1f GB", smallest)
		}
	}
	if extraFit > 0 {
		if en {
			fit = append(fit, fmt.Sprintf("and %d GPUs no platform lists a price for", extraFit))
		} else {
			fit = append(fit, fmt.Sprintf("另有 %d 种卡放得下但没有平台报价", extraFit))
		}
	}
	if en {
		if len(fit) > 0 {
			rep.Lines = append(rep.Lines, "Fits — "+strings.Join(fit, "; "))
		} else {
			rep.Lines = append(rep.Lines, "Fits on none of the GPUs asked about, even 8 of them.")
		}
	} else {
		if len(fit) > 0 {
			rep.Lines = append(rep.Lines, "放得下——"+strings.Join(fit, "；"))
		} else {
			rep.Lines = append(rep.Lines, "所问的卡都放不下（8 张也不行）。")
		}
	}
	if len(nofit) > 0 && q.GPU != "" {
		if en {
			rep.Lines = append(rep.Lines, "Does not fit: "+strings.Join(nofit, ", ")+" — try QLoRA, a shorter seq or batch 1 with gradient accumulation, or a bigger card.")
		} else {
			rep.Lines = append(rep.Lines, "放不下："+strings.Join(nofit, "、")+"——可以换 QLoRA、缩短 seq、batch 1 加梯度累积，或换大显存的卡。")
		}
	}
	if est.Method != billing.MethodInference {
		if en {
			rep.Lines = append(rep.Lines, fmt.Sprintf("Training: %s tokens (dataset × %g epochs), %.2g FLOPs", humanNum(est.Tokens, en), est.Epochs, est.FLOPs))
		} else {
			rep.Lines = append(rep.Lines, fmt.Sprintf("训练量：%s tokens（数据 × %g 轮），约 %.2g FLOPs", humanNum(est.Tokens, en), est.Epochs, est.FLOPs))
		}
	}
	if len(est.Options) > 0 {
		t := &chat.Table{}
		if est.Method == billing.MethodInference {
			if en {
				t.Header = []string{"platform", "GPU", "GPUs", "CNY/GPU-h", "CNY per hour of serving", "price source"}
			} else {
				t.Header = []string{"平台", "GPU", "卡数", "元/卡时", "每小时费用", "价格来源"}
			}
		} else if en {
			t.Header = []string{"platform", "GPU", "GPUs", "hours", "GPU cost", "disk", "total (range)", "price source"}
		} else {
			t.Header = []string{"平台", "GPU", "卡数", "时长(h)", "GPU费", "数据盘", "合计（范围）", "价格来源"}
		}
		for i, o := range est.Options {
			if i >= maxOptionRows {
				break
			}
			src := sourceLabel(o.PriceSource, en) + " " + o.PriceAsOf
			if !o.Verified {
				src += "*"
			}
			if est.Method == billing.MethodInference {
				t.Rows = append(t.Rows, []string{r.platformName(o.Platform, en), o.GPU, fmt.Sprint(o.GPUCount), fmt.Sprintf("%.2f", o.PriceCNY), fmt.Sprintf("%.2f", o.GPUCostCNY), src})
				continue
			}
			disk := fmt.Sprintf("%.2f", o.StorageCostCNY)
			if o.StorageCostCNY < 0 {
				if en {
					disk = "unknown"
				} else {
					disk = "未知"
				}
			}
			t.Rows = append(t.Rows, []string{r.platformName(o.Platform, en), o.GPU, fmt.Sprint(o.GPUCount), fmt.Sprintf("%.1f", o.Hours),
				fmt.Sprintf("%.2f", o.GPUCostCNY), disk, fmt.Sprintf("%.2f（%.0f-%.0f）", o.TotalCNY, o.TotalLowCNY, o.TotalHighCNY), src})
		}
		rep.Table = t
		if est.Method != billing.MethodInference {
			c, f := est.Options[est.Cheapest], est.Options[est.Fastest]
			if est.Cheapest == est.Fastest || f.Hours >= c.Hours {
				if en {
					rep.Lines = append(rep.Lines, fmt.Sprintf("Cheapest and fastest: %s %s ×%d, ~%.2f CNY (%.1f h).", r.platformName(c.Platform, en), c.GPU, c.GPUCount, c.TotalCNY, c.Hours))
				} else {
					rep.Lines = append(rep.Lines, fmt.Sprintf("最便宜也最快：%s %s ×%d，约 %.2f 元（%.1f 小时）。", r.platformName(c.Platform, en), c.GPU, c.GPUCount, c.TotalCNY, c.Hours))
				}
			} else if en {
				rep.Lines = append(rep.Lines, fmt.Sprintf("Cheapest: %s %s ×%d, ~%.2f CNY (%.1f h). Fastest: %s %s ×%d, %.1f h, ~%.2f CNY.",
					r.platformName(c.Platform, en), c.GPU, c.GPUCount, c.TotalCNY, c.Hours, r.platformName(f.Platform, en), f.GPU, f.GPUCount, f.Hours, f.TotalCNY))
			} else {
				rep.Lines = append(rep.Lines, fmt.Sprintf("最便宜：%s %s ×%d，约 %.2f 元（%.1f 小时）；最快：%s %s ×%d，%.1f 小时，约 %.2f 元。",
					r.platformName(c.Platform, en), c.GPU, c.GPUCount, c.TotalCNY, c.Hours, r.platformName(f.Platform, en), f.GPU, f.GPUCount, f.Hours, f.TotalCNY))
			}
			if h := r.hiddenCostNote(c.Platform, en); h != "" {
				rep.Notes = append(rep.Notes, h)
			}
		}
	} else if len(fit) > 0 {
		if en {
			rep.Notes = append(rep.Notes, "No price known for the GPUs that fit.")
		} else {
			rep.Notes = append(rep.Notes, "能放下的卡目前都没有已知价格。")
		}
	}
	rep.Notes = append(rep.Notes, assumptionLine(est, en))
	if est.Method == billing.MethodInference {
		rep.Notes = append(rep.Notes, pick1(en, fmt.Sprintf("每小时费用只含 GPU；权重约 %.0f GB，超出免费数据盘的部分另按天计费。", est.DiskGB),
			fmt.Sprintf("Cost per hour is GPUs only; the ~%.0f GB of weights beyond the free data disk bill per day.", est.DiskGB)))
	} else if en {
		rep.Notes = append(rep.Notes, fmt.Sprintf("Hours include %.0f min of setup and are rounded to each platform's billing granularity; the range is MFU 0.25-0.50. Disk: ~%.0f GB (weights + data + checkpoints) beyond each platform's free quota.", billing.SetupHours*60, est.DiskGB))
	} else {
		rep.Notes = append(rep.Notes, fmt.Sprintf("时长含 %.0f 分钟环境准备，并按各平台计费粒度取整；范围对应 MFU 0.25-0.50。数据盘按约 %.0f GB（权重+数据+检查点）扣除各平台免费额度计算。", billing.SetupHours*60, est.DiskGB))
	}
	return rep
}

// assumptionLine states the assumptions and how to change them.
func assumptionLine(est *billing.Estimate, en bool) string {
	j := est.Job
	ck := "开启梯度检查点"
	if j.NoGradCkpt {
		ck = "关闭梯度检查点"
	}
	if est.Method == billing.MethodInference {
		if en {
			return fmt.Sprintf("Assumed context %d, batch %d, %d-bit weights, bf16 KV cache; say “seq 8192” or “int4” to change.", est.SeqLen, est.Batch, est.Bits)
		}
		return fmt.Sprintf("按上下文 %d、并发 %d、%d-bit 权重、bf16 KV cache 估算；可以说“seq 8192”或“int4”修改。", est.SeqLen, est.Batch, est.Bits)
	}
	data := fmt.Sprintf("%s 条 × %d tokens", humanNum(float64(j.Samples), en), j.TokensPerSample)
	if j.Samples == 0 {
		data = humanNum(j.Tokens, en) + " tokens"
	}
	if en {
		return fmt.Sprintf("Assumed seq %d, batch %d, gradient checkpointing on, LoRA rank %d, data %s, %g epochs; say “seq 4096”, “batch 8”, “5万条” or “3 epochs” to change.",
			est.SeqLen, est.Batch, j.LoRARank, strings.ReplaceAll(data, "条", "samples"), est.Epochs)
	}
	return fmt.Sprintf("按 seq %d、batch %d、%s、LoRA rank %d、数据 %s、%g 轮估算；可以说“seq 4096”“batch 8”“5万条”“3个epoch”修改。",
		est.SeqLen, est.Batch, ck, j.LoRARank, data, est.Epochs)
}

// hiddenCostNote names a platform's storage and retention traps.
func (r *Router) hiddenCostNote(platform string, en bool) string {
	p, ok := r.cat.Platform(platform)
	if !ok {
		return ""
	}
	var parts []string
	if p.Storage.BilledWhileStopped {
		if en {
			parts = append(parts, "paid disks keep billing while the instance is shut down")
		} else {
			parts = append(parts, "关机后付费数据盘仍计费")
		}
	}
	for _, rt := range p.Retention {
		parts = append(parts, strings.TrimRight(rt.Text.Pick(en), "。. "))
	}
	if len(parts) == 0 {
		return ""
	}
	if en {
		return p.DisplayName(en) + " hidden costs: " + strings.Join(parts, "; ")
	}
	return p.DisplayName(en) + " 隐藏成本：" + strings.Join(parts, "；")
}

func sourceLabel(s string, en bool) string {
	switch s {
	case string(stock.SourceLive):
		if en {
			return "live"
		}
		return "实时"
	case string(stock.SourceReplay):
		if en {
			return "replay"
		}
		return "录制"
	}
	if en {
		return "list price"
	}
	return "目录标价"
}

// humanNum formats 50000 as "5万" (or "50k" in English), 1.5e8 as "1.5亿".
func humanNum(x float64, en bool) string {
	if en {
		switch {
		case x >= 1e9:
			return trimF(x/1e9) + "B"
		case x >= 1e6:
			return trimF(x/1e6) + "M"
		case x >= 1e3:
			return trimF(x/1e3) + "k"
		}
		return trimF(x)
	}
	switch {
	case x >= 1e8:
		return trimF(x/1e8) + "亿"
	case x >= 1e4:
		return trimF(x/1e4) + "万"
	}
	return trimF(x)
}

func trimF(x float64) string {
	s := fmt.Sprintf("%.2f", x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}
