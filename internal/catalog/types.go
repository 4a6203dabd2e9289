// Package catalog holds the bot's reference data: rental platforms with their
// billing rules, storage prices, retention rules and list prices; GPU
// specifications; and model configurations. It is loaded from the YAML files
// in configs/ (embedded into the binary) and validated at load time.
//
// Units used throughout:
//   - prices: CNY per GPU-hour unless the field name says otherwise;
//   - storage: CNY per GB-day (GB = 1e9 bytes);
//   - GPU memory: GB as printed by the vendor (the "24GB" of an RTX 4090);
//   - TFLOPS: dense (no sparsity) tensor throughput, 1e12 FLOP/s.
package catalog

import "slices"

// Figure is one sourced number or range. Low == High for a single value.
// Every figure carries the date it was observed (AsOf, free text such as
// "2026-08-21" or "2026-06") and where it comes from (Source). A figure that
// only the seed articles support is Verified == false and answers say so.
type Figure struct {
	Low      float64 `yaml:"low" json:"low"`
	High     float64 `yaml:"high" json:"high"`
	AsOf     string  `yaml:"as_of" json:"as_of"`
	Source   string  `yaml:"source" json:"source"`
	Verified bool    `yaml:"verified" json:"verified"`
	Note     string  `yaml:"note,omitempty" json:"note,omitempty"`
}

// Mid is the midpoint of the figure's range.
func (f Figure) Mid() float64 { return (f.Low + f.High) / 2 }

// IsRange reports whether the figure is a range rather than one value.
func (f Figure) IsRange() bool { return f.High > f.Low }

// Text is a user-facing sentence in Chinese (Zh) and English (En).
type Text struct {
	Zh string `yaml:"zh" json:"zh"`
	En string `yaml:"en" json:"en"`
}

// Pick returns the English text when en is true and it is set, else Chinese.
func (t Text) Pick(en bool) string {
	if en && t.En != "" {
		return t.En
	}
	if t.Zh == "" {
		return t.En
	}
	return t.Zh
}

// Billing describes how a platform bills compute.
type Billing struct {
	// Modes are the offered billing modes: hourly (按量计费), daily (包日),
	// weekly (包周), monthly (包月), spot (竞价).
	Modes []string `yaml:"modes" json:"modes"`
	// Granularity is the unit a pay-as-you-go run is rounded up to:
	// "second", "minute" or "hour".
	Granularity string `yaml:"granularity" json:"granularity"`
	// MinimumMinutes is the minimum billed time of one run, in minutes
	// (0 = none known).
	MinimumMinutes float64 `yaml:"minimum_minutes" json:"minimum_minutes"`
	// Source and AsOf say where the billing rules come from.
	Source string `yaml:"source" json:"source"`
	AsOf   string `yaml:"as_of" json:"as_of"`
	Note   Text   `yaml:"note,omitempty" json:"note,omitempty"`
}

// GranularityHours is the billing granularity in hours (second = 1/3600);
// an unknown granularity counts as a whole hour.
func (b Billing) GranularityHours() float64 {
	switch b.Granularity {
	case "second":
		return 1.0 / 3600
	case "minute":
		return 1.0 / 60
	}
	// "hour", and unknown granularity: rounding up to the hour is the
	// cautious assumption.
	return 1
}

// NoCard is a platform's "无卡模式": the instance runs without a GPU at a low
// hourly price, for setting up environments and moving data.
type NoCard struct {
	Available  bool    `yaml:"available" json:"available"`
	CNYPerHour *Figure `yaml:"cny_per_hour,omitempty" json:"cny_per_hour,omitempty"`
	Note       Text    `yaml:"note,omitempty" json:"note,omitempty"`
}

// Storage describes how a platform bills disks.
type Storage struct {
	// SystemDiskFreeGB is the system disk included with an instance (GB).
	SystemDiskFreeGB float64 `yaml:"system_disk_free_gb" json:"system_disk_free_gb"`
	// DataDiskFreeGB is the data disk included free per instance (GB).
	DataDiskFreeGB float64 `yaml:"data_disk_free_gb" json:"data_disk_free_gb"`
	// DataDiskLabel names the storage the price is for when it is not a
	// plain data disk ("/hy-nas 共享存储").
	DataDiskLabel Text `yaml:"data_disk_label,omitempty" json:"data_disk_label,omitempty"`
	// DataDiskCNYPerGBDay is the price of data disk beyond the free part,
	// CNY per GB-day. Nil when no figure is known.
	DataDiskCNYPerGBDay *Figure `yaml:"data_disk_cny_per_gb_day,omitempty" json:"data_disk_cny_per_gb_day,omitempty"`
	// BilledWhileStopped is true when paid disks keep billing while the
	// instance is shut down.
	BilledWhileStopped bool `yaml:"billed_while_stopped" json:"billed_while_stopped"`
	// NoCard is the platform's no-GPU mode.
	NoCard NoCard `yaml:"no_card" json:"no_card"`
	Note   Text   `yaml:"note,omitempty" json:"note,omitempty"`
}

// Retention is a rule after which a platform deletes data or releases an
// instance: a hidden cost and a data-loss risk answers must mention.
type Retention struct {
	// Days after which the rule applies (0 when the rule is not time-based).
	Days   float64 `yaml:"days" json:"days"`
	Text   Text    `yaml:"text" json:"text"`
	Source string  `yaml:"source" json:"source"`
	// The fields below make the rule one that release warnings follow
	// (Timed; ledger.ReleaseRisks). Clock is what starts its clock
	// (ClockStopped); empty for a rule the ledger cannot follow (arrears,
	// billing), shown in answers only.
	Clock string `yaml:"clock,omitempty" json:"clock,omitempty"`
	// PlanExpiry is true when the same clock also starts when a 包周/包月
	// term ends (the storage ledger records no terms).
	PlanExpiry bool `yaml:"plan_expiry,omitempty" json:"plan_expiry,omitempty"`
	// Wipes is what the rule deletes: WipesInstance or WipesScratch.
	Wipes string `yaml:"wipes,omitempty" json:"wipes,omitempty"`
	// Lost names what is deleted and Survives what the platform keeps
	// (its persistent storage; empty when none is known), as a reader
	// would.
	Lost     Text `yaml:"lost,omitempty" json:"lost,omitempty"`
	Survives Text `yaml:"survives,omitempty" json:"survives,omitempty"`
	// Cite names Source as a chat reader would ("AutoDL 官方文档"), AsOf
	// its date; Verified is false when only the seed articles report it.
	Cite     Text   `yaml:"cite,omitempty" json:"cite,omitempty"`
	AsOf     string `yaml:"as_of,omitempty" json:"as_of,omitempty"`
	Verified bool   `yaml:"verified,omitempty" json:"verified,omitempty"`
}

// Price is a list price for one GPU model on one platform.
type Price struct {
	// GPU is a GPU id from gpus.yaml.
	GPU string `yaml:"gpu" json:"gpu"`
	// CNYPerHour is the pay-as-you-go price per GPU-hour, in CNY.
	CNYPerHour Figure `yaml:"cny_per_hour" json:"cny_per_hour"`
	// Mode is the billing mode the price is for (default "hourly").
	Mode string `yaml:"mode,omitempty" json:"mode,omitempty"`
	// Plans are the GPU's prices in other billing modes, where a source
	// gives one.
	Plans []Plan `yaml:"plans,omitempty" json:"plans,omitempty"`
}

// PlanModes are the billing modes a Plan may have, with the hours of wall
// clock one period covers (spot is priced per GPU-hour, 1).
var PlanModes = map[string]float64{"daily": 24, "weekly": 7 * 24, "monthly": 30 * 24, "yearly": 365 * 24, "spot": 1}

// Plan is a price in a billing mode other than pay-as-you-go: CNY per GPU
// for one whole period (包日 a day, 包周 7 days, 包月 30 days, 包年 a year)
// or, for spot, CNY per GPU-hour.
type Plan struct {
	Mode string `yaml:"mode" json:"mode"`
	CNY  Figure `yaml:"cny" json:"cny"`
}

// PlanFor returns the price's plan in a billing mode.
func (p Price) PlanFor(mode string) (Plan, bool) {
	return first(p.Plans, func(pl Plan) bool { return pl.Mode == mode })
}

// first returns the first element of s that ok accepts.
func first[T any](s []T, ok func(T) bool) (T, bool) {
	if i := slices.IndexFunc(s, ok); i >= 0 {
		return s[i], true
	}
	var zero T
	return zero, false
}

// Platform is one rental platform.
type Platform struct {
	ID   string `yaml:"id" json:"id"`
	Name Text   `yaml:"name" json:"name"`
	// Aliases are extra names users write ("恒源", "gpushare").
	Aliases []string `yaml:"aliases,omitempty" json:"aliases,omitempty"`
	// Kind: marketplace, hyperscaler, ai-art cloud, free tier,
	// domestic accelerator, overseas.
	Kind string `yaml:"kind" json:"kind"`
	// Country is where the platform is run from and bills, an ISO 3166
	// code ("CN", "US"): it decides the platform groups questions name
	// ("国内平台", "overseas only"; Domestic). Empty: a platform of kind
	// "overseas" is abroad, any other in China.
	Country       string      `yaml:"country,omitempty" json:"country,omitempty"`
	URL           string      `yaml:"url,omitempty" json:"url,omitempty"`
	Billing       Billing     `yaml:"billing" json:"billing"`
	Storage       Storage     `yaml:"storage" json:"storage"`
	BandwidthMbps string      `yaml:"bandwidth_mbps,omitempty" json:"bandwidth_mbps,omitempty"`
	Caveats       []Text      `yaml:"caveats,omitempty" json:"caveats,omitempty"`
	Retention     []Retention `yaml:"retention,omitempty" json:"retention,omitempty"`
	Prices        []Price     `yaml:"prices,omitempty" json:"prices,omitempty"`
	// DiskKinds tell its storage apart in a ledger disk's note (release
	// warnings).
	DiskKinds DiskKinds `yaml:"disk_kinds,omitempty" json:"disk_kinds,omitempty"`
	// Modes are the rules of each billing mode sold, from plans.yaml.
	Modes []ModeRule `yaml:"-" json:"modes,omitempty"`
}

// Domestic reports whether the platform is run from mainland China
// (Country "CN", or no country and a kind other than "overseas").
func (p *Platform) Domestic() bool {
	if p.Country != "" {
		return p.Country == "CN"
	}
	return p.Kind != "overseas"
}

// PriceFor returns the platform's list price for a GPU id.
func (p *Platform) PriceFor(gpu string) (Price, bool) {
	return first(p.Prices, func(pr Price) bool { return pr.GPU == gpu })
}

// DisplayName returns the platform name for a reader of Chinese (en=false)
// or English (en=true).
func (p *Platform) DisplayName(en bool) string { return p.Name.Pick(en) }

// GPU is one accelerator model.
type GPU struct {
	// ID is the canonical name ("RTX 4090", "A100 80GB SXM").
	ID string `yaml:"id" json:"id"`
	// Family groups variants a bare name means: "A100" covers
	// "A100 40GB SXM" and "A100 80GB SXM".
	Family string `yaml:"family" json:"family"`
	// Aliases are other names for exactly this GPU ("rtx4090", "4090 24g").
	Aliases []string `yaml:"aliases,omitempty" json:"aliases,omitempty"`
	Arch    string   `yaml:"arch" json:"arch"`
	// Class: consumer, datacenter, npu. Drives the default MFU.
	Class    string  `yaml:"class" json:"class"`
	MemoryGB float64 `yaml:"memory_gb" json:"memory_gb"`
	// BandwidthGBs is memory bandwidth in GB/s.
	BandwidthGBs float64 `yaml:"bandwidth_gbs" json:"bandwidth_gbs"`
	// TensorTFLOPS is the dense BF16/FP16 tensor peak; on GeForce cards the
	// FP32-accumulate rate.
	TensorTFLOPS float64 `yaml:"tensor_tflops" json:"tensor_tflops"`
	FP32TFLOPS   float64 `yaml:"fp32_tflops" json:"fp32_tflops"`
	BF16         bool    `yaml:"bf16" json:"bf16"`
	FlashAttn2   bool    `yaml:"flash_attn2" json:"flash_attn2"`
	Source       string  `yaml:"source" json:"source"`
	Note         string  `yaml:"note,omitempty" json:"note,omitempty"`
}

// Model is a model configuration (from its Hugging Face config.json, or
// for a CNN or a diffusion model its published size). Counts are the
// config's; parameter figures are in billions. See models.go for the
// kinds, mixture-of-experts fields and how names are matched.
type Model struct {
	ID      string   `yaml:"id" json:"id"`
	HFRepo  string   `yaml:"hf_repo" json:"hf_repo"`
	Aliases []string `yaml:"aliases,omitempty" json:"aliases,omitempty"`
	// Kind is the architecture (KindDecoder when empty); only decoders
	// are language models the LLM estimator and FindModels know.
	Kind string `yaml:"kind,omitempty" json:"kind,omitempty"`
	// Family and Size name the model as people write it: each name of
	// the family (models.yaml families:) followed by Size ("7B",
	// "8x7B") is an alias.
	Family string `yaml:"family,omitempty" json:"family,omitempty"`
	Size   string `yaml:"size,omitempty" json:"size,omitempty"`
	// ParamsB is the published parameter count in billions (all experts
	// of a mixture of experts; the whole checkpoint).
	ParamsB        float64 `yaml:"params_b" json:"params_b"`
	Layers         int     `yaml:"layers" json:"layers"`
	Hidden         int     `yaml:"hidden" json:"hidden"`
	Heads          int     `yaml:"heads" json:"heads"`
	KVHeads        int     `yaml:"kv_heads" json:"kv_heads"`
	HeadDim        int     `yaml:"head_dim" json:"head_dim"`
	Vocab          int     `yaml:"vocab" json:"vocab"`
	Intermediate   int     `yaml:"intermediate" json:"intermediate"`
	TiedEmbeddings bool    `yaml:"tied_embeddings" json:"tied_embeddings"`
	MaxPosition    int     `yaml:"max_position" json:"max_position"`
	MoE            `yaml:",inline"`
	Extra          `yaml:",inline"`
	Source         string `yaml:"source" json:"source"`
	// ConfigRead is true when the shape was compared with a stored copy
	// of the config named in Source; false when it is recalled.
	ConfigRead bool   `yaml:"config_read,omitempty" json:"config_read,omitempty"`
	Note       string `yaml:"note,omitempty" json:"note,omitempty"`
	Typical    bool   `yaml:"typical,omitempty" json:"typical,omitempty"`
}

// Catalog is the loaded, validated reference data.
type Catalog struct {
	Platforms []Platform
	GPUs      []GPU
	Models    []Model
	// FXUSDCNY is the USD→CNY rate used to convert foreign list prices.
	FXUSDCNY float64

	platformIdx map[string]int
	gpuIdx      map[string]int
	modelIdx    map[string]int
	gpuNames    *matcher
	modelNames  *matcher
	platNames   *matcher
	// workNames matches the models that are not language models
	// (encoders, vision, diffusion): FindWorkloadModels.
	workNames *matcher
	// Families are the model families of models.yaml.
	Families []Family
}
