// Package workload estimates the jobs students run besides LLM
// fine-tuning: image classification (ResNet, ViT), detection and
// segmentation (YOLO, Faster/Mask R-CNN, U-Net), BERT-class fine-tuning,
// Stable Diffusion and Flux image generation, and SD/SDXL LoRA training.
//
// Time is FLOPs per sample × samples over what a card sustains: a
// roofline of the card's tensor peak and memory bandwidth with an
// efficiency fitted per family to published measurements, scaled to the
// software people run, and capped by the data loader for jobs that
// decode images on the CPU. The figures and their sources are
// configs/workloads.yaml; the GPU peaks are the catalog's (gpus.yaml).
//
// Units: FLOPs (not multiply-adds) in the estimate; time in hours; memory
// and disk in GB (1e9 bytes); rates in samples per second.
package workload

import (
	"fmt"
	"io/fs"
	"regexp"
	"sync"

	"github.com/labgpu/bot/internal/strictyaml"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

// File is the data file's name in the configs directory.
const File = "workloads.yaml"

// Kinds of job (Model.Kind).
const (
	// KindTrain trains on samples × epochs (forward + backward).
	KindTrain = "train"
	// KindGenerate makes images: steps denoiser passes each.
	KindGenerate = "generate"
	// KindLoRA trains a LoRA for steps_per_image × images steps.
	KindLoRA = "lora"
	// KindInfer runs a model once over each image (FLOPs), or over audio
	// at a measured rate (Model.Rate).
	KindInfer = "infer"
)

// Units a model's job counts (Model.Unit; "" images or text samples).
const (
	// UnitClip is a 30-second audio clip (Whisper pads every input to 30 s).
	UnitClip = "clip"
	// UnitAudio is a second of audio, at a measured real-time factor.
	UnitAudio = "audio"
)

// Rate is a measured speed of an inference job: units per second at each
// stack on a card of BandwidthGBs, scaled to other cards by their memory
// bandwidth (autoregressive decoding is bandwidth-bound).
type Rate struct {
	BandwidthGBs float64 `yaml:"bandwidth_gbs"`
	PerSec       Span    `yaml:"per_sec"`
	Source       string  `yaml:"source"`
}

// MultiGPU is the share of each card's speed a job keeps on several cards
// of one machine, by the job's kind.
type MultiGPU struct {
	Train    Span   `yaml:"train"`
	LoRA     Span   `yaml:"lora"`
	Generate Span   `yaml:"generate"`
	Infer    Span   `yaml:"infer"`
	Source   string `yaml:"source"`
}

// Of is the efficiency span of a kind of job.
func (m MultiGPU) Of(kind string) Span {
	switch kind {
	case KindLoRA:
		return m.LoRA
	case KindGenerate:
		return m.Generate
	case KindInfer:
		return m.Infer
	}
	return m.Train
}

// Span is a low / typical / high figure.
type Span struct {
	Low     float64 `yaml:"low" json:"low"`
	Typical float64 `yaml:"typical" json:"typical"`
	High    float64 `yaml:"high" json:"high"`
}

// Family is how efficiently a kind of network uses a card. Efficiency is
// the share of the tensor peak its compute-bound part reaches, per GPU
// class (consumer, datacenter); BytesPerFLOP its memory traffic per
// FLOP; Stack scales the fitted (tuned) speed to the software people run.
type Family struct {
	ID           string             `yaml:"id"`
	Name         catalog.Text       `yaml:"name"`
	Efficiency   map[string]float64 `yaml:"efficiency"`
	BytesPerFLOP float64            `yaml:"bytes_per_flop"`
	Stack        Span               `yaml:"stack"`
	StackSource  string             `yaml:"stack_source"`
	Source       string             `yaml:"source"`
	// Anchors are the published measurements the fit reproduces.
	Anchors []Anchor `yaml:"anchors,omitempty"`
	// Unverified is set when no public measurement was checked.
	Unverified bool `yaml:"unverified,omitempty"`
	// Loader is the loader of the asker's own image data ("" for none).
	Loader string `yaml:"loader,omitempty"`
	// Precision names the numerics the fit assumes when they are not
	// mixed precision ("detectron2 默认设置（AMP 关）").
	Precision catalog.Text `yaml:"precision,omitempty"`
}

// Anchor is one published measurement: a model's samples per second on a
// GPU (image-steps for image generation) at the family's high stack (or
// the one named), at seq tokens for a text model.
type Anchor struct {
	Model  string  `yaml:"model"`
	GPU    string  `yaml:"gpu"`
	PerSec float64 `yaml:"per_sec"`
	Seq    int     `yaml:"seq,omitempty"`
	Stack  string  `yaml:"stack,omitempty"`
	Source string  `yaml:"source"`
}

// Loader is what a CPU data pipeline sustains, images per second, and
// how to make it faster.
type Loader struct {
	ID     string       `yaml:"id"`
	Name   catalog.Text `yaml:"name"`
	PerSec Span         `yaml:"per_sec"`
	Fix    catalog.Text `yaml:"fix"`
	Source string       `yaml:"source"`
}

// Dataset is a public dataset: its training images, the resolution it is
// trained at, its size on disk and its loader ("" when it sits in
// memory). StemFactor multiplies a CNN's pixel-scaled compute (CIFAR
// ResNets drop the stem's downsampling).
type Dataset struct {
	ID         string   `yaml:"id"`
	Name       string   `yaml:"name"`
	Aliases    []string `yaml:"aliases"`
	Train      int      `yaml:"train"`
	Resolution int      `yaml:"resolution"`
	DiskGB     float64  `yaml:"disk_gb"`
	Loader     string   `yaml:"loader,omitempty"`
	StemFactor float64  `yaml:"stem_factor,omitempty"`
	Source     string   `yaml:"source"`
}

// VRAM is a training job's memory: a base (weights, optimizer, context)
// and a part per sample of the batch at the model's resolution, GB.
type VRAM struct {
	BaseGB      float64 `yaml:"base_gb"`
	PerSampleGB float64 `yaml:"per_sample_gb"`
}

// Defaults are the job a question that gives no data size means.
type Defaults struct {
	Dataset  string  `yaml:"dataset,omitempty"`
	Fraction float64 `yaml:"fraction,omitempty"`
	Epochs   float64 `yaml:"epochs,omitempty"`
	Samples  int     `yaml:"samples,omitempty"`
	Images   int     `yaml:"images,omitempty"`
	// AudioHours is the audio of an inference job over audio.
	AudioHours float64 `yaml:"audio_hours,omitempty"`
}

// Reference is a measured run of the model's default job (a seed's), shown
// beside the estimate: the card, the hours and what each platform cost.
type Reference struct {
	GPU      string             `yaml:"gpu" json:"gpu"`
	Hours    float64            `yaml:"hours" json:"hours"`
	Reported map[string]float64 `yaml:"reported" json:"reported"`
	Source   string             `yaml:"source" json:"source"`
}

// Model is one network and the job it is used for. GMACs is one forward
// pass of one sample at Resolution (pixels per side) or Seq (tokens;
// AttnGMACs of it grows with the square of the length).
type Model struct {
	ID          string   `yaml:"id"`
	Name        string   `yaml:"name"`
	Aliases     []string `yaml:"aliases"`
	Family      string   `yaml:"family"`
	Kind        string   `yaml:"kind"`
	GMACs       float64  `yaml:"gmacs"`
	AttnGMACs   float64  `yaml:"attn_gmacs,omitempty"`
	DecodeGMACs float64  `yaml:"decode_gmacs,omitempty"`
	CFG         bool     `yaml:"cfg,omitempty"`
	Resolution  int      `yaml:"resolution,omitempty"`
	Seq         int      `yaml:"seq,omitempty"`
	Batch       int      `yaml:"batch,omitempty"`
	Steps       int      `yaml:"steps,omitempty"`
	// StepsPerImage is a LoRA run's steps per training image (repeats ×
	// epochs).
	StepsPerImage int `yaml:"steps_per_image,omitempty"`
	// VRAM is a training job's memory by batch; VRAMGB a fixed need
	// (generation, LoRA).
	VRAM   *VRAM   `yaml:"vram,omitempty"`
	VRAMGB float64 `yaml:"vram_gb,omitempty"`
	// DiskGB is the weights on disk.
	DiskGB float64 `yaml:"disk_gb"`
	// LoRA names the model's LoRA-training workload; Train its
	// training (fine-tuning) workload: what a question naming the model
	// with training words means.
	LoRA  string `yaml:"lora,omitempty"`
	Train string `yaml:"train,omitempty"`
	// Unit is what the job counts ("" images or samples, UnitClip,
	// UnitAudio); Rate a measured speed used instead of FLOPs.
	Unit      string       `yaml:"unit,omitempty"`
	Rate      *Rate        `yaml:"rate,omitempty"`
	Defaults  Defaults     `yaml:"defaults"`
	Reference *Reference   `yaml:"reference,omitempty"`
	SeedNote  catalog.Text `yaml:"seed_note,omitempty"`
	Source    string       `yaml:"source"`
}

// Data is the loaded workloads.yaml. It is safe for concurrent use.
type Data struct {
	Families []Family  `yaml:"families"`
	Loaders  []Loader  `yaml:"loaders"`
	Datasets []Dataset `yaml:"datasets"`
	Models   []Model   `yaml:"models"`
	// Advice maps a knowledge-base workload id to the model a question
	// that names no model means.
	Advice map[string]string `yaml:"advice"`
	// LoRAWords say a question naming a generation model is about
	// training a LoRA for it (matched in the folded text).
	LoRAWords []string `yaml:"lora_words"`
	// MultiGPU is the multi-GPU efficiency by kind of job.
	MultiGPU MultiGPU `yaml:"multi_gpu"`

	family  map[string]*Family
	loader  map[string]*Loader
	dataset map[string]*Dataset
	model   map[string]*Model
	names   *matcher
	sets    *matcher
}

// Load reads workloads.yaml from fsys, decodes it strictly and validates
// it; errors name the file and the entry.
func Load(fsys fs.FS) (*Data, error) {
	b, err := fs.ReadFile(fsys, File)
	if err != nil {
		return nil, fmt.Errorf("workload: read %s: %w", File, err)
	}
	var d Data
	if err := strictyaml.Decode(b, &d); err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	if err := d.index(); err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	return &d, nil
}

var reID = regexp.MustCompile(`^[a-z0-9]+(?:[-.][a-z0-9]+)*$`)

// index validates the entries and builds the lookups and name matchers.
func (d *Data) index() error {
	d.family, d.loader, d.dataset, d.model = map[string]*Family{}, map[string]*Loader{}, map[string]*Dataset{}, map[string]*Model{}
	for i, w := range d.LoRAWords {
		if w == "" || w != catalog.Fold(w) {
			return fmt.Errorf("lora_words[%d]: %q is empty or not folded (lower case, half-width)", i, w)
		}
	}
	if len(d.LoRAWords) == 0 {
		return fmt.Errorf("lora_words: none")
	}
	mg := d.MultiGPU
	for _, sp := range []Span{mg.Train, mg.LoRA, mg.Generate, mg.Infer} {
		if !spanOK(sp) || sp.High > 1 || mg.Source == "" {
			return fmt.Errorf("multi_gpu: each kind needs 0 < low ≤ typical ≤ high ≤ 1, and a source")
		}
	}
	for i := range d.Loaders {
		l := &d.Loaders[i]
		if !reID.MatchString(l.ID) || !spanOK(l.PerSec) || l.Source == "" || l.Fix.Zh == "" || l.Fix.En == "" {
			return fmt.Errorf("loader %q: needs an id, 0 < low ≤ typical ≤ high images/s, a fix in zh and en and a source", l.ID)
		}
		d.loader[l.ID] = l
	}
	for i := range d.Families {
		f := &d.Families[i]
		if err := checkFamily(f); err != nil {
			return err
		}
		if _, ok := d.loader[f.Loader]; f.Loader != "" && !ok {
			return fmt.Errorf("family %q: loader %q is not in loaders", f.ID, f.Loader)
		}
		d.family[f.ID] = f
	}
	d.sets = newMatcher()
	for i := range d.Datasets {
		s := &d.Datasets[i]
		if err := d.checkDataset(s); err != nil {
			return err
		}
		d.dataset[s.ID] = s
		d.sets.add(s.ID, s.Aliases)
	}
	d.names = newMatcher()
	for i := range d.Models {
		m := &d.Models[i]
		if _, dup := d.model[m.ID]; dup {
			return fmt.Errorf("model %q: duplicate id", m.ID)
		}
		d.model[m.ID] = m
	}
	for i := range d.Models {
		m := &d.Models[i]
		if err := d.checkModel(m); err != nil {
			return err
		}
		d.names.add(m.ID, m.Aliases)
	}
	for w, id := range d.Advice {
		if _, ok := d.model[id]; !ok {
			return fmt.Errorf("advice %q: model %q is not in models", w, id)
		}
	}
	return d.checkAnchors()
}

func spanOK(s Span) bool { return s.Low > 0 && s.Low <= s.Typical && s.Typical <= s.High }

func checkFamily(f *Family) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("family %q: "+format, append([]any{f.ID}, a...)...)
	}
	switch {
	case !reID.MatchString(f.ID):
		return bad("id must be kebab-case")
	case f.Name.Zh == "" || f.Name.En == "":
		return bad("name needs zh and en")
	case !(f.Efficiency["consumer"] > 0 && f.Efficiency["consumer"] <= 1 && f.Efficiency["datacenter"] > 0 && f.Efficiency["datacenter"] <= 1):
		return bad("efficiency needs consumer and datacenter in (0, 1]")
	case len(f.Efficiency) != 2:
		return bad("efficiency has only consumer and datacenter")
	case !(f.BytesPerFLOP >= 0 && f.BytesPerFLOP < 1):
		return bad("bytes_per_flop must be in [0, 1)")
	case !spanOK(f.Stack) || f.Stack.High > 2:
		return bad("stack needs 0 < low ≤ typical ≤ high ≤ 2")
	case f.Source == "" || f.StackSource == "":
		return bad("source and stack_source are required")
	case len(f.Anchors) == 0 && !f.Unverified:
		return bad("no anchors: mark it unverified: true")
	}
	return nil
}

func (d *Data) checkDataset(s *Dataset) error {
	switch {
	case !reID.MatchString(s.ID) || s.Name == "" || len(s.Aliases) == 0:
		return fmt.Errorf("dataset %q: needs a kebab-case id, a name and aliases", s.ID)
	case s.Train <= 0 || s.Resolution <= 0 || !(s.DiskGB > 0) || s.Source == "":
		return fmt.Errorf("dataset %q: needs train > 0 images, a resolution, disk_gb and a source", s.ID)
	case s.StemFactor < 0:
		return fmt.Errorf("dataset %q: stem_factor must not be negative", s.ID)
	}
	if _, ok := d.loader[s.Loader]; s.Loader != "" && !ok {
		return fmt.Errorf("dataset %q: loader %q is not in loaders", s.ID, s.Loader)
	}
	return nil
}

// checkModel checks a model's fields for its kind.
func (d *Data) checkModel(m *Model) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("model %q: "+format, append([]any{m.ID}, a...)...)
	}
	if _, ok := d.family[m.Family]; !ok {
		return bad("family %q is not in families", m.Family)
	}
	switch {
	case !reID.MatchString(m.ID) || m.Name == "" || len(m.Aliases) == 0:
		return bad("needs a kebab-case id, a name and aliases")
	case !(m.GMACs > 0) || m.AttnGMACs < 0 || m.AttnGMACs >= m.GMACs || m.DecodeGMACs < 0:
		return bad("needs gmacs > 0 (attn_gmacs below it)")
	case m.Source == "" || !(m.DiskGB > 0):
		return bad("needs a source and disk_gb")
	case m.Seq > 0 && m.Resolution > 0:
		return bad("give resolution (images) or seq (tokens), not both")
	}
	switch m.Kind {
	case KindTrain:
		if m.VRAM == nil || !(m.VRAM.BaseGB > 0) || !(m.VRAM.PerSampleGB > 0) || m.Batch <= 0 {
			return bad("a training model needs vram base_gb, per_sample_gb and a batch")
		}
		if m.Defaults.Epochs <= 0 || m.Defaults.Dataset == "" && m.Defaults.Samples <= 0 && m.Defaults.Images <= 0 {
			return bad("defaults need epochs and a dataset, samples or images")
		}
	case KindGenerate:
		if m.Steps <= 0 || !(m.VRAMGB > 0) || m.Resolution <= 0 || m.Defaults.Images <= 0 {
			return bad("a generation model needs steps, vram_gb, a resolution and default images")
		}
	case KindLoRA:
		if m.StepsPerImage <= 0 || m.Batch <= 0 || !(m.VRAMGB > 0) || m.Resolution <= 0 || m.Defaults.Images <= 0 {
			return bad("a LoRA model needs steps_per_image, a batch, vram_gb, a resolution and default images")
		}
	case KindInfer:
		switch {
		case !(m.VRAMGB > 0):
			return bad("an inference model needs vram_gb")
		case m.Unit == UnitAudio && (m.Rate == nil || !spanOK(m.Rate.PerSec) || !(m.Rate.BandwidthGBs > 0) || m.Rate.Source == "" || !(m.Defaults.AudioHours > 0)):
			return bad("an audio inference model needs a rate (bandwidth_gbs, per_sec, source) and default audio_hours")
		case m.Unit != UnitAudio && (m.Resolution <= 0 || m.Defaults.Images <= 0):
			return bad("an image inference model needs a resolution and default images")
		}
	default:
		return bad("kind %q is not train, generate, lora or infer", m.Kind)
	}
	if m.Unit != "" && m.Unit != UnitClip && m.Unit != UnitAudio {
		return bad("unit %q is not clip or audio", m.Unit)
	}
	if tm, ok := d.model[m.Train]; m.Train != "" && (!ok || tm.Kind != KindTrain) {
		return bad("train %q is not a training model", m.Train)
	}
	if ds := m.Defaults.Dataset; ds != "" {
		if _, ok := d.dataset[ds]; !ok {
			return bad("default dataset %q is not in datasets", ds)
		}
	}
	if lm, ok := d.model[m.LoRA]; m.LoRA != "" && (!ok || lm.Kind != KindLoRA) {
		return bad("lora %q is not a LoRA model", m.LoRA)
	}
	if r := m.Reference; r != nil && (!(r.Hours > 0) || r.GPU == "" || r.Source == "") {
		return bad("reference needs a gpu, hours and a source")
	}
	return nil
}

// checkAnchors checks that every anchor names a model of its family.
func (d *Data) checkAnchors() error {
	for _, f := range d.Families {
		for _, a := range f.Anchors {
			m, ok := d.model[a.Model]
			switch {
			case !ok || m.Family != f.ID:
				return fmt.Errorf("family %q: anchor model %q is not one of its models", f.ID, a.Model)
			case !(a.PerSec > 0) || a.GPU == "" || a.Source == "":
				return fmt.Errorf("family %q: anchor %s on %s needs per_sec > 0 and a source", f.ID, a.Model, a.GPU)
			case a.Stack != "" && a.Stack != "typical" && a.Stack != "high":
				return fmt.Errorf("family %q: anchor stack %q is not typical or high", f.ID, a.Stack)
			}
		}
	}
	return nil
}

// Model returns the model with the id.
func (d *Data) Model(id string) (*Model, bool) { m, ok := d.model[id]; return m, ok }

// Dataset returns the dataset with the id.
func (d *Data) Dataset(id string) (*Dataset, bool) { s, ok := d.dataset[id]; return s, ok }

// Family returns the family with the id.
func (d *Data) Family(id string) (*Family, bool) { f, ok := d.family[id]; return f, ok }

// Loader returns the loader with the id.
func (d *Data) Loader(id string) (*Loader, bool) { l, ok := d.loader[id]; return l, ok }

var (
	defaultOnce sync.Once
	defaultData *Data
)

// Default returns the embedded configs/workloads.yaml, loaded once; nil
// when it does not load (its tests rule that out).
func Default() *Data {
	defaultOnce.Do(func() {
		d, err := Load(configs.FS)
		if err == nil {
			defaultData = d
		}
	})
	return defaultData
}
