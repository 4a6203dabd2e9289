package adviceview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// OOM is what an out-of-memory report's answer adds: the figures of the
// pasted error and, when the question names a job ("7B LoRA seq 4096 on
// 4090"), the estimate of that job (Advice.Figures) and of the usual ways
// out, and the cards that hold it.
type OOM struct {
	// Error are the pasted error's figures (nil: none pasted).
	Error *OOMError
	// NoJob: the question names no model, so nothing was estimated;
	// EstimateErr is why the job could not be estimated ("" when it was,
	// or its model is unknown).
	NoJob       bool
	EstimateErr string
	// NeedCards are the cards the question names (the first, or a
	// family's variants) beside the job's VRAM.
	NeedCards []NeedCard
	// Savings are the usual ways out, estimated at micro-batch 1 with
	// accumulation: QLoRA 4-bit (Seq 0) and half the sequence (Seq).
	Savings []Saving
	// AsIs are the single CUDA cards that hold the job as described,
	// Accum those that hold it only at micro-batch 1 with gradient
	// accumulation (each smallest first, at most six); Multi, when no
	// single card holds it, the fewest cards per GPU that do.
	AsIs, Accum []string
	Multi       []MultiCard
	// Failed is the card that ran out of memory (the first named) and
	// FailedHolds how many of AsIs are it: the estimate says it should
	// have held the job.
	Failed      string
	FailedHolds int
	// NoFit: the named cards (Count of them) hold less than the job
	// needs even at micro-batch 1: said first, with what to do instead.
	NoFit bool
	Count int
}

// OOMError are the figures of a pasted CUDA OOM error, GiB (TotalGiB and
// FreeGiB -1 when the error does not say).
type OOMError struct {
	AllocGiB, TotalGiB, FreeGiB float64
}

// NeedCard is a card named beside an OOM job: its nominal memory (GiB)
// and its capacity in GB.
type NeedCard struct {
	ID                   string
	MemoryGB, CapacityGB float64
}

// Saving is one way out of an OOM with the VRAM it needs, GB: QLoRA
// 4-bit (Seq 0), or the sequence length Seq.
type Saving struct {
	Seq int
	GB  float64
}

// MultiCard is the fewest cards of one GPU that hold a job.
type MultiCard struct {
	GPU   string
	Count int
}

// Disk is the data-disk prices of the platforms a disk or storage topic
// lists, with the no-GPU mode for storage (NoCard), and whether the
// lab's storage ledger is on (the answer then offers to register the
// disk).
type Disk struct {
	Rows     []DiskRow
	NoCard   bool
	LedgerOn bool
}

// DiskRow is one platform's data disk: the free part (GB), the price per
// GB-day beyond it (nil: unknown) and the no-GPU mode.
type DiskRow struct {
	Platform      string
	FreeGB        float64
	Price         *catalog.Figure
	NoCard        bool
	NoCardPerHour *catalog.Figure
}

// BillingRow is a platform's billing granularity (second, minute, hour)
// and its minimum per run (minutes, 0: none).
type BillingRow struct {
	Platform       string
	Granularity    string
	MinimumMinutes float64
}

// RetentionRow is a platform's rule for releasing stopped instances and
// data, as the catalog words it.
type RetentionRow struct {
	Platform string
	Text     catalog.Text
}

// Stock is the live stock of the card a stock topic names: how many
// offers have it now and where (platform ids, in offer order), and
// whether alerts are on (the answer then offers one).
type Stock struct {
	GPU    string
	Live   int
	Where  []string
	Alerts bool
}

// tie adds what the topic's tie found to rep.
func (p Advice) tie(rd *render.Renderer, l i18n.Lang, rep *chat.Reply) {
	switch {
	case p.OOM != nil:
		p.OOM.reply(p.Estimate, l, rep)
	case p.Disk != nil:
		p.Disk.reply(rd, l, rep)
	case len(p.Billing) > 0:
		billingLine(rd, p.Billing, l, rep)
	case p.Retention != nil:
		for _, r := range p.Retention {
			rep.Lines = append(rep.Lines, l.T("advice.retention", rd.PlatformName(r.Platform, l.English()), strings.TrimRightFunc(r.Text.Pick(l.English()), endOfSentence)))
		}
	case p.Stock != nil:
		p.Stock.reply(rd, l, rep)
	case p.HiddenCosts != nil:
		for _, id := range p.HiddenCosts {
			if s := rd.HiddenCostNote(id, l.English()); s != "" {
				rep.Lines = append(rep.Lines, s)
			}
		}
	}
}

// endOfSentence is a sentence's last mark or a space: '.', ' ' or the
// ideographic full stop (U+3002).
func endOfSentence(r rune) bool { return r == '.' || r == ' ' || r == 0x3002 }

// reply says the error's figures, the job's VRAM beside the card named,
// the savings and the cards that hold it.
func (o *OOM) reply(est *estimator.Estimate, l i18n.Lang, rep *chat.Reply) {
	if o.NoFit && est != nil && len(o.NeedCards) > 0 {
		c := o.NeedCards[0]
		rep.Lines = append(rep.Lines, l.T("advice.oom.no_fit", est.VRAMMin, o.Count, c.ID, c.CapacityGB*float64(o.Count)))
	}
	if e := o.Error; e != nil {
		line := l.T("advice.oom.error", e.AllocGiB)
		if e.TotalGiB >= 0 {
			line += l.T("advice.oom.error_total", e.TotalGiB)
		}
		if e.FreeGiB >= 0 {
			line += l.T("advice.oom.error_free", e.FreeGiB)
		}
		rep.Lines = append(rep.Lines, l.T("advice.end", line))
	}
	switch {
	case o.NoJob:
		rep.Lines = append(rep.Lines, l.T("advice.oom.ask_job"))
		return
	case o.EstimateErr != "":
		rep.Lines = append(rep.Lines, l.T("advice.oom.cannot", o.EstimateErr))
		return
	case est == nil:
		return
	}
	rep.Lines = append(rep.Lines, o.needLine(est, l))
	if len(o.Savings) > 0 {
		var outs []string
		for _, s := range o.Savings {
			label := "QLoRA 4-bit"
			if s.Seq > 0 {
				label = fmt.Sprintf("seq %d", s.Seq)
			}
			outs = append(outs, fmt.Sprintf("%s ~%.1f GB", label, s.GB))
		}
		rep.Lines = append(rep.Lines, l.T("advice.oom.savings", strings.Join(outs, l.T("advice.join"))))
	}
	rep.Lines = append(rep.Lines, o.fitLines(est, l)...)
	rep.Lines = append(rep.Lines, l.T("advice.oom.costs"))
}

// needLine is the job's VRAM on one card beside the named card's size.
func (o *OOM) needLine(est *estimator.Estimate, l i18n.Lang) string {
	need := est.VRAM.Total
	line := l.T("advice.oom.need", est.ModelID, render.MethodName(est.Method, est.Bits, l.English()), est.SeqLen, est.Batch, need)
	if est.Method != estimator.MethodInference && est.VRAMMin < need-0.05 {
		line += l.T("advice.oom.need_accum", est.VRAMMin)
	}
	var cards []string
	for _, c := range o.NeedCards {
		cards = append(cards, l.T("advice.oom.card", c.ID, c.MemoryGB, c.CapacityGB))
	}
	if len(cards) > 0 {
		line += l.T("advice.oom.cards", strings.Join(cards, l.T("advice.oom.card_sep")))
	}
	return l.T("advice.end", line)
}

// fitLines lists the cards that hold the job, smallest first: single
// cards as described, then only at micro-batch 1 with gradient
// accumulation, or the fewest GPUs when no single card does; and the
// usual reasons when the card that failed should have held it.
func (o *OOM) fitLines(est *estimator.Estimate, l i18n.Lang) []string {
	var lines []string
	for range o.FailedHolds {
		lines = append(lines, l.T("advice.oom.held", o.Failed))
	}
	sep := l.T("list.sep")
	if len(o.AsIs) > 0 {
		lines = append(lines, l.T("advice.oom.as_is", strings.Join(o.AsIs, sep)))
	}
	if len(o.AsIs) == 0 && len(o.Accum) == 0 && len(o.Multi) > 0 {
		var multi []string
		for _, m := range o.Multi {
			multi = append(multi, fmt.Sprintf("%s×%d", m.GPU, m.Count))
		}
		key := "advice.oom.multi_zero3"
		if est.Method == estimator.MethodInference {
			key = "advice.oom.multi_tensor"
		}
		lines = append(lines, l.T(key, strings.Join(multi, sep)))
	}
	if len(o.Accum) > 0 {
		lines = append(lines, l.T("advice.oom.accum", strings.Join(o.Accum, sep)))
	}
	return lines
}

// reply is the data-disk table: free part, price per GB-day, a 100 GB
// month, the price's date and with storage the no-GPU mode.
func (d *Disk) reply(rd *render.Renderer, l i18n.Lang, rep *chat.Reply) {
	if len(d.Rows) == 0 {
		return
	}
	t := &chat.Table{Header: slices.Clone(l.L("advice.disk.header"))}
	if d.NoCard {
		t.Header = append(t.Header, l.T("advice.disk.no_card"))
	}
	unverified := false
	for _, r := range d.Rows {
		price, month, asOf := l.T("advice.disk.unknown"), l.T("advice.disk.unknown"), ""
		if f := r.Price; f != nil {
			price = render.FigureText(*f)
			month = fmt.Sprintf("~%.0f", (f.Low+f.High)/2*100*30)
			asOf = f.AsOf
			if !f.Verified {
				asOf += "*"
				unverified = true
			}
		}
		row := []string{rd.PlatformName(r.Platform, l.English()), fmt.Sprintf("%g GB", r.FreeGB), price, month, asOf}
		if d.NoCard {
			nc := l.T("advice.disk.no_card_none")
			if r.NoCard {
				nc = l.T("advice.disk.no_card_yes")
				if r.NoCardPerHour != nil {
					nc = l.T("advice.disk.no_card_price", render.FigureText(*r.NoCardPerHour))
				}
			}
			row = append(row, nc)
		}
		t.Rows = append(t.Rows, row)
	}
	rep.Table = t
	rep.Notes = append(rep.Notes, l.T("advice.disk.note"))
	if unverified {
		rep.Notes = append(rep.Notes, render.UnverifiedFigureNote(l.English()))
	}
	if d.LedgerOn {
		rep.Notes = append(rep.Notes, l.T("advice.disk.ledger"))
	}
}

// billingLine is each platform's billing granularity and minimum.
func billingLine(rd *render.Renderer, rows []BillingRow, l i18n.Lang, rep *chat.Reply) {
	var parts []string
	for _, r := range rows {
		s := rd.PlatformName(r.Platform, l.English()) + " " + Granularity(r.Granularity, l)
		if r.MinimumMinutes > 0 {
			s += l.T("advice.billing.minimum", r.MinimumMinutes)
		}
		parts = append(parts, s)
	}
	rep.Lines = append(rep.Lines, l.T("advice.billing.line", strings.Join(parts, l.T("advice.join"))))
}

// reply counts the offers available now and offers the alert.
func (s *Stock) reply(rd *render.Renderer, l i18n.Lang, rep *chat.Reply) {
	en := l.English()
	if s.Live > 0 {
		var where []string
		for _, id := range s.Where {
			if name := rd.PlatformName(id, en); !slices.Contains(where, name) {
				where = append(where, name)
			}
		}
		rep.Lines = append(rep.Lines, l.T("advice.stock.live", s.GPU, s.Live, strings.Join(where, l.T("list.sep")), s.GPU))
	} else {
		rep.Lines = append(rep.Lines, l.T("advice.stock.none", s.GPU))
	}
	if s.Alerts {
		rep.Lines = append(rep.Lines, l.T("advice.stock.alert", s.GPU))
	}
}
