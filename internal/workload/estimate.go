package workload

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
)

// ErrUnknownModel is returned for a model id the data does not have.
var ErrUnknownModel = errors.New("workload: unknown model")

// ErrBadNumber is returned for a negative or non-finite count.
var ErrBadNumber = errors.New("workload: a count is negative or not a finite number")

// Job is what to estimate. Zero fields take the model's defaults.
type Job struct {
	Model string `json:"model"`
	// Dataset is a dataset id ("" for the asker's own data); Fraction the
	// share of its training images used (0: all of a named dataset).
	Dataset  string  `json:"dataset,omitempty"`
	Fraction float64 `json:"fraction,omitempty"`
	// Samples is a training set in rows or images; Images the images of
	// the job: the training set (train, lora) or the images to make
	// (generate).
	Samples int     `json:"samples,omitempty"`
	Images  int     `json:"images,omitempty"`
	Epochs  float64 `json:"epochs,omitempty"`
	// Steps is sampling steps per image (generate) or a LoRA run's steps
	// in all.
	Steps      int  `json:"steps,omitempty"`
	Batch      int  `json:"batch,omitempty"`
	Resolution int  `json:"resolution,omitempty"`
	SeqLen     int  `json:"seq_len,omitempty"`
	FP32       bool `json:"fp32,omitempty"`
	// AudioHours is the audio of a job over audio (Whisper: transcribed,
	// or cut into 30-second clips to train on).
	AudioHours float64 `json:"audio_hours,omitempty"`
	// GPUCount is the cards of one machine the job runs on (0: one).
	GPUCount int `json:"gpu_count,omitempty"`
	// GPUs limits the estimate to these catalog GPU ids (nil: all).
	GPUs []string `json:"gpus,omitempty"`
}

// Fit is the job on one card: whether it fits, the batch that does, the
// speed (samples, images or steps per second; high speed gives low
// hours), the MFU behind it and the hours, setup not included.
type Fit struct {
	GPU      string  `json:"gpu"`
	MemoryGB float64 `json:"memory_gb"`
	Fits     bool    `json:"fits"`
	// VRAMGB is the memory the job needs at Batch.
	VRAMGB float64 `json:"vram_gb"`
	Batch  int     `json:"batch,omitempty"`
	// PerSec is the speed with the data loader; GPUPerSec the card's alone.
	PerSec    estimator.Range `json:"per_sec"`
	GPUPerSec estimator.Range `json:"gpu_per_sec"`
	MFU       estimator.Range `json:"mfu"`
	Hours     estimator.Range `json:"hours"`
	// DataBound is true when the loader, not the card, sets the typical
	// speed.
	DataBound bool `json:"data_bound,omitempty"`
}

// Estimate is a job's figures on every card.
type Estimate struct {
	Job    Job    `json:"job"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Family string `json:"family"`
	// DatasetName names the data ("ImageNet-1k"; "" for the asker's own).
	DatasetName string `json:"dataset_name,omitempty"`
	// Work is the units processed in all (samples × epochs, images, or
	// steps), Unit what one is ("sample", "image", "step").
	Work float64 `json:"work"`
	Unit string  `json:"unit"`
	// FLOPsPerUnit and FLOPs are the compute per unit and in all.
	FLOPsPerUnit float64 `json:"flops_per_unit"`
	FLOPs        float64 `json:"flops"`
	// DiskGB is the data disk the job needs: data, weights, outputs.
	DiskGB float64 `json:"disk_gb"`
	// Loader is the data loader capping the speed ("" when none).
	Loader string `json:"loader,omitempty"`
	Fits   []Fit  `json:"fits"`
	// Assumptions are the defaults applied, as "name=value".
	Assumptions []string `json:"assumptions"`
	// Unverified is set when the family's speed was checked against no
	// measurement.
	Unverified bool `json:"unverified,omitempty"`
	// GPUCount is the cards each fit runs on (1 or more); MultiGPU the
	// share of each card's speed kept on them (1 on one card).
	GPUCount int `json:"gpu_count"`
	// MinVRAMGB is the memory the job needs at batch 1 (a fixed need for
	// generation, LoRA and inference).
	MinVRAMGB float64         `json:"min_vram_gb"`
	MultiGPU  estimator.Range `json:"multi_gpu_efficiency"`
	// Measured is set when the speed is a measured rate (Model.Rate)
	// scaled by bandwidth, not FLOPs.
	Measured bool `json:"measured,omitempty"`
}

// job is a normalised job with what the estimate reads.
type job struct {
	Job
	m      *Model
	f      *Family
	ds     *Dataset
	loader *Loader
	// scale multiplies the model's compute per pass (resolution,
	// sequence, CIFAR stems); pix the activation memory per sample.
	scale, pix float64
	work       float64
	perUnit    float64
	as         []string
	// gpus and eff: the cards and the share of each card's speed kept.
	gpus int
	eff  Span
}

// Estimate computes a job's speed, hours and memory on every CUDA card of
// the catalog (or those in j.GPUs).
func (d *Data) Estimate(cat *catalog.Catalog, j Job) (*Estimate, error) {
	n, err := d.normalize(j)
	if err != nil {
		return nil, err
	}
	est := &Estimate{Job: n.Job, Name: n.m.Name, Kind: n.m.Kind, Family: n.f.ID, Work: n.work, FLOPsPerUnit: n.perUnit,
		FLOPs: n.work * n.perUnit, Assumptions: n.as, Unverified: n.f.Unverified, DiskGB: round(diskGB(n), 1)}
	est.Unit = map[string]string{KindTrain: "sample", KindGenerate: "image", KindLoRA: "step", KindInfer: "image"}[n.m.Kind]
	switch n.m.Unit {
	case UnitClip:
		est.Unit = "clip"
	case UnitAudio:
		est.Unit = "audio_second"
	}
	est.GPUCount, est.Measured = n.gpus, n.m.Rate != nil
	est.MinVRAMGB = round(needAt(n, 1), 1)
	est.MultiGPU = estimator.Range{Low: n.eff.Low, Typical: n.eff.Typical, High: n.eff.High}
	if n.ds != nil {
		est.DatasetName = n.ds.Name
	}
	if n.loader != nil {
		est.Loader = n.loader.ID
	}
	for i := range cat.GPUs {
		g := &cat.GPUs[i]
		if g.Class == "npu" || len(j.GPUs) > 0 && !slices.Contains(j.GPUs, g.ID) {
			continue
		}
		est.Fits = append(est.Fits, fit(n, g))
	}
	return est, nil
}

// normalize checks j, fills the model's defaults (recording each) and
// works out the compute per unit and the units in all.
func (d *Data) normalize(j Job) (*job, error) {
	m, ok := d.model[j.Model]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownModel, j.Model)
	}
	for _, v := range []float64{j.Fraction, float64(j.Samples), float64(j.Images), j.Epochs, float64(j.Steps), float64(j.Batch), float64(j.Resolution), float64(j.SeqLen)} {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, ErrBadNumber
		}
	}
	if j.GPUCount < 0 || j.AudioHours < 0 || math.IsNaN(j.AudioHours) || math.IsInf(j.AudioHours, 0) {
		return nil, ErrBadNumber
	}
	n := &job{Job: j, m: m, f: d.family[m.Family], scale: 1, pix: 1, gpus: max(j.GPUCount, 1), eff: Span{Low: 1, Typical: 1, High: 1}}
	if n.gpus > 1 {
		n.eff = d.MultiGPU.Of(m.Kind)
	}
	n.GPUCount = n.gpus
	def := func(name string, v any) { n.as = append(n.as, fmt.Sprintf("%s=%v", name, v)) }
	if m.Unit == UnitClip && n.Samples == 0 && n.AudioHours > 0 {
		n.Samples = int(math.Ceil(n.AudioHours * 3600 / 30)) // 30-second clips
	}
	switch m.Kind {
	case KindInfer:
		if m.Unit == UnitAudio {
			if n.AudioHours == 0 {
				n.AudioHours = m.Defaults.AudioHours
				def("audio_hours", n.AudioHours)
			}
			n.work = n.AudioHours * 3600
			break
		}
		if n.Images == 0 {
			n.Images = m.Defaults.Images
			def("images", n.Images)
		}
		n.work = float64(n.Images)
	case KindTrain:
		d.normalizeTrain(n, def)
	case KindGenerate:
		if n.Images == 0 {
			n.Images = m.Defaults.Images
			def("images", n.Images)
		}
		if n.Steps == 0 {
			n.Steps = m.Steps
			def("steps", n.Steps)
		}
		n.work = float64(n.Images)
	case KindLoRA:
		if n.Images == 0 {
			n.Images = m.Defaults.Images
			def("images", n.Images)
		}
		if n.Steps == 0 {
			n.Steps = n.Images * m.StepsPerImage
			def("steps_per_image", m.StepsPerImage)
		}
		if n.Batch == 0 {
			n.Batch = m.Batch
			def("batch", n.Batch)
		}
		n.work = float64(n.Steps)
	}
	if m.Resolution > 0 {
		if n.Resolution == 0 {
			n.Resolution = m.Resolution
			if n.ds != nil && m.Family == "cnn" {
				n.Resolution = n.ds.Resolution
			}
			def("resolution", n.Resolution)
		}
		r := float64(n.Resolution) / float64(m.Resolution)
		n.scale, n.pix = r*r, r*r
		if n.ds != nil && n.ds.StemFactor > 0 && m.Family == "cnn" && n.Resolution == n.ds.Resolution {
			n.scale *= n.ds.StemFactor
			n.pix *= n.ds.StemFactor
		}
	}
	n.perUnit = flopsPerUnit(n)
	return n, nil
}

// normalizeTrain fills a training job's data, epochs, batch and sequence
// and its loader.
func (d *Data) normalizeTrain(n *job, def func(string, any)) {
	m := n.m
	if n.Dataset == "" && n.Samples == 0 && n.Images == 0 {
		n.Dataset, n.Fraction, n.Samples, n.Images = m.Defaults.Dataset, m.Defaults.Fraction, m.Defaults.Samples, m.Defaults.Images
		def("data", "default")
	}
	n.ds = d.dataset[n.Dataset]
	if n.Fraction <= 0 || n.Fraction > 1 || n.ds == nil {
		n.Fraction = 0
	}
	if n.Epochs == 0 {
		n.Epochs = m.Defaults.Epochs
		def("epochs", n.Epochs)
	}
	if n.Batch == 0 {
		n.Batch = m.Batch
		def("batch", n.Batch)
	}
	if m.Seq > 0 && n.SeqLen == 0 {
		n.SeqLen = m.Seq
		def("seq_len", n.SeqLen)
	}
	perEpoch := float64(n.Samples)
	switch {
	case perEpoch == 0 && n.Images > 0:
		perEpoch = float64(n.Images)
	case perEpoch == 0 && n.ds != nil:
		perEpoch = float64(n.ds.Train)
		if n.Fraction > 0 {
			perEpoch = math.Round(perEpoch * n.Fraction)
		}
	}
	n.work = perEpoch * n.Epochs
	if m.Seq > 0 {
		return // text in memory: no image loader
	}
	id := n.f.Loader
	if n.ds != nil {
		id = n.ds.Loader
	}
	n.loader = d.loader[id]
}

// flopsPerUnit is the compute of one sample (train), image (generate) or
// step (lora), FLOPs.
func flopsPerUnit(n *job) float64 {
	m := n.m
	g := m.GMACs * n.scale
	if m.Seq > 0 && n.SeqLen > 0 {
		r := float64(n.SeqLen) / float64(m.Seq)
		g = (m.GMACs-m.AttnGMACs)*r + m.AttnGMACs*r*r
	}
	switch m.Kind {
	case KindGenerate:
		passes := 1.0
		if m.CFG {
			passes = 2
		}
		return 2 * (g*passes*float64(n.Steps) + m.DecodeGMACs*n.scale) * 1e9
	case KindLoRA:
		return 3 * 2 * g * float64(n.Batch) * 1e9
	case KindInfer:
		if m.Unit == UnitAudio {
			return 2 * g / 30 * 1e9 // a second of a 30-second window
		}
		return 2 * g * 1e9
	}
	return 3 * 2 * g * 1e9
}

// diskGB is the data disk a job needs: its data (the dataset's share, or
// ~0.15 MB a JPEG, ~2 KB a text row), the weights and two checkpoints,
// and generated images (~1.5 MB a 1024×1024 PNG).
func diskGB(n *job) float64 {
	m := n.m
	disk := m.DiskGB * 3
	switch {
	case m.Kind == KindGenerate:
		disk = m.DiskGB + float64(n.Images)*1.5e-3*n.pix
	case m.Kind == KindLoRA:
		disk = m.DiskGB + float64(n.Images)*2e-3 + 0.2
	case m.Kind == KindInfer && m.Unit == UnitAudio:
		disk = m.DiskGB + n.AudioHours*0.12 // 16 kHz 16-bit WAV
	case m.Kind == KindInfer:
		disk = m.DiskGB + float64(n.Images)*0.5e-3*n.pix // the image and its masks
	case m.Unit == UnitClip:
		disk += float64(n.Samples) * 1e-3 // a 30 s WAV clip
	case n.ds != nil && n.Samples == 0 && n.Images == 0:
		share := 1.0
		if n.Fraction > 0 {
			share = n.Fraction
		}
		disk += n.ds.DiskGB * share
	case m.Seq > 0:
		disk += float64(n.Samples) * 2e-6
	default:
		disk += float64(max(n.Samples, n.Images)) * 0.15e-3
	}
	return disk
}

// peak is the card's peak for the job's precision, FLOP/s: the tensor
// peak with mixed precision; TF32 (half of it) for fp32 on cards with
// BF16, their fp32 rate on older ones.
func peak(g *catalog.GPU, fp32 bool) float64 {
	switch {
	case !fp32:
		return g.TensorTFLOPS * 1e12
	case g.BF16:
		return g.TensorTFLOPS / 2 * 1e12
	}
	return g.FP32TFLOPS * 1e12
}

// SecondsPerFLOP is the time a FLOP of family f takes on g at the fitted
// (tuned) speed: the roofline's compute and memory terms.
func SecondsPerFLOP(f *Family, g *catalog.GPU, fp32 bool) float64 {
	cls := "datacenter"
	if g.Class == "consumer" {
		cls = "consumer"
	}
	p := peak(g, fp32)
	if !(p > 0) || !(g.BandwidthGBs > 0) {
		return math.Inf(1)
	}
	return 1/(p*f.Efficiency[cls]) + f.BytesPerFLOP/(g.BandwidthGBs*1e9)
}

// fit is the job on card g.
func fit(n *job, g *catalog.GPU) Fit {
	f := Fit{GPU: g.ID, MemoryGB: g.MemoryGB}
	f.VRAMGB, f.Batch, f.Fits = vram(n, g)
	if !f.Fits {
		return f
	}
	spf := SecondsPerFLOP(n.f, g, n.FP32)
	gpu := func(stack float64) float64 { return stack / (n.perUnit * spf) }
	f.GPUPerSec = estimator.Range{Low: gpu(n.f.Stack.Low), Typical: gpu(n.f.Stack.Typical), High: gpu(n.f.Stack.High)}
	if r := n.m.Rate; r != nil {
		// A measured rate, scaled by the card's memory bandwidth.
		k := g.BandwidthGBs / r.BandwidthGBs
		f.GPUPerSec = estimator.Range{Low: r.PerSec.Low * k, Typical: r.PerSec.Typical * k, High: r.PerSec.High * k}
	}
	f.PerSec = f.GPUPerSec
	if l := n.loader; l != nil {
		f.PerSec = estimator.Range{Low: math.Min(f.PerSec.Low, l.PerSec.Low), Typical: math.Min(f.PerSec.Typical, l.PerSec.Typical), High: math.Min(f.PerSec.High, l.PerSec.High)}
		f.DataBound = l.PerSec.Typical < f.GPUPerSec.Typical
	}
	p := peak(g, n.FP32)
	mfu := func(rate float64) float64 { return round(rate*n.perUnit/p, 3) }
	f.MFU = estimator.Range{Low: mfu(f.PerSec.Low), Typical: mfu(f.PerSec.Typical), High: mfu(f.PerSec.High)}
	// On several cards each keeps eff of its speed (the data loader's
	// CPU cores come with each card on the rental platforms: assumption).
	c := float64(n.gpus)
	all := estimator.Range{Low: f.PerSec.Low * c * n.eff.Low, Typical: f.PerSec.Typical * c * n.eff.Typical, High: f.PerSec.High * c * n.eff.High}
	hours := func(rate float64) float64 { return round(n.work/rate/3600, 3) }
	f.Hours = estimator.Range{Low: hours(all.High), Typical: hours(all.Typical), High: hours(all.Low)}
	f.PerSec = roundRange(f.PerSec)
	f.GPUPerSec = roundRange(f.GPUPerSec)
	return f
}

// vram is the memory the job needs on g at its batch, or at the largest
// batch that fits (a smaller batch trains the same samples a little
// less efficiently, which the estimate leaves out), and whether it fits:
// at most estimator.FitFraction of the card (GB).
func vram(n *job, g *catalog.GPU) (need float64, batch int, fits bool) {
	limit := estimator.FitFraction * estimator.CapacityGB(g)
	m := n.m
	if m.VRAM == nil {
		need = m.VRAMGB
		return round(need, 1), n.Batch, need <= limit
	}
	per := perSampleGB(n)
	batch = n.Batch
	need = m.VRAM.BaseGB + per*float64(batch)
	if need > limit {
		batch = int((limit - m.VRAM.BaseGB) / per)
		if batch < 1 {
			return round(m.VRAM.BaseGB+per, 1), 1, false
		}
		need = m.VRAM.BaseGB + per*float64(batch)
	}
	return round(need, 1), batch, true
}

// perSampleGB is a training job's memory per sample of the batch, GB.
func perSampleGB(n *job) float64 {
	m := n.m
	per := m.VRAM.PerSampleGB * n.pix
	if m.Seq > 0 && n.SeqLen > 0 {
		per = m.VRAM.PerSampleGB * float64(n.SeqLen) / float64(m.Seq)
	}
	if n.FP32 {
		per *= 2 // activations in fp32
	}
	return per
}

// needAt is the memory the job needs at a batch, GB (the fixed need of a
// job without a batch-dependent one).
func needAt(n *job, batch int) float64 {
	if n.m.VRAM == nil {
		return n.m.VRAMGB
	}
	return n.m.VRAM.BaseGB + perSampleGB(n)*float64(batch)
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// roundRange keeps three significant figures of a speed.
func roundRange(r estimator.Range) estimator.Range {
	sig := func(x float64) float64 {
		if x <= 0 {
			return x
		}
		p := math.Pow(10, 2-math.Floor(math.Log10(x)))
		return math.Round(x*p) / p
	}
	return estimator.Range{Low: sig(r.Low), Typical: sig(r.Typical), High: sig(r.High)}
}
