package catalog

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Model kinds (Model.Kind). Only decoders are language models: the LLM
// estimator's formulas (internal/billing) and FindModels cover them; the
// others are configurations for the workload estimator
// (FindWorkloadModels).
const (
	KindDecoder        = "decoder"         // causal language model (Llama, Qwen, …)
	KindEncoder        = "encoder"         // BERT, RoBERTa
	KindEncoderDecoder = "encoder-decoder" // T5
	KindViT            = "vit"             // vision transformer
	KindCNN            = "cnn"             // ResNet
	KindDiffusion      = "diffusion"       // Stable Diffusion, Flux: the denoiser
)

// MoE is a mixture-of-experts layout (all zero for a dense model). A
// layer's MLP is Experts routed experts of width ExpertIntermediate, of
// which ExpertsPerToken run for each token, plus shared experts of total
// width SharedIntermediate that always run; the first DenseLayers layers
// have a dense MLP of width Model.Intermediate instead (DeepSeek's
// first_k_dense_replace). ActiveParamsB is the published count of
// parameters one token uses, in billions.
type MoE struct {
	Experts            int     `yaml:"experts,omitempty" json:"experts,omitempty"`
	ExpertsPerToken    int     `yaml:"experts_per_token,omitempty" json:"experts_per_token,omitempty"`
	ExpertIntermediate int     `yaml:"expert_intermediate,omitempty" json:"expert_intermediate,omitempty"`
	SharedIntermediate int     `yaml:"shared_intermediate,omitempty" json:"shared_intermediate,omitempty"`
	DenseLayers        int     `yaml:"dense_layers,omitempty" json:"dense_layers,omitempty"`
	ActiveParamsB      float64 `yaml:"active_params_b,omitempty" json:"active_params_b,omitempty"`
}

// Extra are the figures of models other than plain decoders.
type Extra struct {
	// ExtraParamsB are parameters loaded with the model outside the part
	// the shape describes, in billions: a multimodal model's vision
	// tower, a diffusion model's text encoders and VAE.
	ExtraParamsB float64 `yaml:"extra_params_b,omitempty" json:"extra_params_b,omitempty"`
	// DecoderLayers is an encoder-decoder's decoder depth (Layers is the
	// encoder's).
	DecoderLayers int `yaml:"decoder_layers,omitempty" json:"decoder_layers,omitempty"`
	// Resolution is the input side in pixels the model is trained at
	// (224 for ImageNet classifiers; 512 or 1024 for diffusion images);
	// Patch the ViT patch side in pixels.
	Resolution int `yaml:"resolution,omitempty" json:"resolution,omitempty"`
	Patch      int `yaml:"patch,omitempty" json:"patch,omitempty"`
	// ForwardGMACs is one sample's forward pass at Resolution in 1e9
	// multiply-accumulates (FLOPs ≈ 2 × MACs), as the source reports it;
	// zero when no source gives it.
	ForwardGMACs float64 `yaml:"forward_gmacs,omitempty" json:"forward_gmacs,omitempty"`
}

// Family is a model family ("Qwen2.5"): the names people give it, which
// followed by a member's Size name the member ("千问2.5 7B").
type Family struct {
	ID    string   `yaml:"id" json:"id"`
	Names []string `yaml:"names" json:"names"`
}

// IsLLM reports whether m is a decoder language model.
func (m *Model) IsLLM() bool { return m.Kind == "" || m.Kind == KindDecoder }

// IsMoE reports whether m is a mixture of experts.
func (m *Model) IsMoE() bool { return m.Experts > 0 }

// MLPWidths are the dense-equivalent MLP widths of m averaged over its
// layers: total counts every expert (the weights held in memory), active
// the experts one token runs (its compute and activations). Both are
// Intermediate for a dense model.
func (m *Model) MLPWidths() (total, active float64) {
	if !m.IsMoE() {
		return float64(m.Intermediate), float64(m.Intermediate)
	}
	L, d := float64(m.Layers), float64(m.DenseLayers)
	shared, e := float64(m.SharedIntermediate), float64(m.ExpertIntermediate)
	moeTotal := float64(m.Experts)*e + shared
	moeActive := float64(m.ExpertsPerToken)*e + shared
	dense := d * float64(m.Intermediate)
	return (dense + (L-d)*moeTotal) / L, (dense + (L-d)*moeActive) / L
}

// Recount is the parameter count in billions that m's shape gives (total,
// and per token for a mixture of experts), with the formula the
// estimator uses: per layer the attention projections (q and o h·a·d
// each, k and v h·kv·d each), a gated MLP (3·h·I; 2·h·I for encoders and
// ViTs) and two norms; plus the embeddings (twice when untied); an
// encoder-decoder adds its decoder layers with cross-attention. Biases
// are left out. ExtraParamsB is added. CNN and diffusion models have no
// shape: Recount returns ParamsB for both.
func (m *Model) Recount() (total, active float64) {
	h, a, kv, d := float64(m.Hidden), float64(m.Heads), float64(m.KVHeads), float64(m.HeadDim)
	attn := 2*h*a*d + 2*h*kv*d
	emb := float64(m.Vocab) * h
	switch m.Kind {
	case KindCNN, KindDiffusion:
		return m.ParamsB, m.ParamsB
	case KindEncoder, KindViT:
		n := float64(m.Layers)*(attn+2*h*float64(m.Intermediate)+2*h) + emb + float64(3*m.Patch*m.Patch)*h
		return n/1e9 + m.ExtraParamsB, n/1e9 + m.ExtraParamsB
	case KindEncoderDecoder:
		mlp := 2 * h * float64(m.Intermediate)
		n := float64(m.Layers)*(attn+mlp) + float64(m.DecoderLayers)*(2*attn+mlp) + emb
		return n/1e9 + m.ExtraParamsB, n/1e9 + m.ExtraParamsB
	}
	if !m.TiedEmbeddings {
		emb *= 2
	}
	it, ia := m.MLPWidths()
	L := float64(m.Layers)
	total = (L*(attn+3*h*it+2*h)+emb)/1e9 + m.ExtraParamsB
	active = (L*(attn+3*h*ia+2*h)+emb)/1e9 + m.ExtraParamsB
	return total, active
}

// checkModel checks one model's fields for its kind: a transformer's
// shape positive (a decoder also kv_heads, head_dim and vocab; a text
// encoder its vocab; an encoder-decoder its decoder layers), a CNN's or a
// diffusion model's resolution; a consistent mixture of experts; typical
// only for a decoder. where names the model in errors.
func checkModel(where string, m *Model) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(where+": "+format, args...)) }
	if !(m.ParamsB > 0) || math.IsInf(m.ParamsB, 0) {
		bad("params_b must be a positive number")
	}
	switch m.Kind {
	case "", KindDecoder:
		if m.Layers <= 0 || m.Hidden <= 0 || m.Heads <= 0 || m.KVHeads <= 0 || m.HeadDim <= 0 || m.Vocab <= 0 || m.Intermediate <= 0 {
			bad("layers, hidden, heads, kv_heads, head_dim, vocab and intermediate must be positive")
		}
	case KindEncoder, KindEncoderDecoder, KindViT:
		if m.Layers <= 0 || m.Hidden <= 0 || m.Heads <= 0 || m.HeadDim <= 0 || m.Intermediate <= 0 {
			bad("layers, hidden, heads, head_dim and intermediate must be positive")
		}
		if m.Kind != KindViT && m.Vocab <= 0 {
			bad("vocab must be positive for a text model")
		}
		if m.Kind == KindEncoderDecoder && m.DecoderLayers <= 0 {
			bad("decoder_layers must be positive for an encoder-decoder")
		}
		if m.Kind == KindViT && (m.Patch <= 0 || m.Resolution <= 0) {
			bad("patch and resolution must be positive for a ViT")
		}
	case KindCNN, KindDiffusion:
		if m.Resolution <= 0 {
			bad("resolution must be positive")
		}
	default:
		bad("kind %q is not decoder, encoder, encoder-decoder, vit, cnn or diffusion", m.Kind)
	}
	if m.Typical && !m.IsLLM() {
		bad("only a decoder language model can be typical")
	}
	if m.IsMoE() {
		switch {
		case !m.IsLLM():
			bad("experts are only modelled for decoders")
		case m.ExpertsPerToken <= 0 || m.ExpertsPerToken > m.Experts || m.ExpertIntermediate <= 0:
			bad("a mixture of experts needs 0 < experts_per_token <= experts and expert_intermediate > 0")
		case m.DenseLayers < 0 || m.DenseLayers >= m.Layers:
			bad("dense_layers must be below layers")
		case !(m.ActiveParamsB > 0 && m.ActiveParamsB < m.ParamsB):
			bad("active_params_b must be positive and below params_b")
		}
	}
	if strings.TrimSpace(m.Source) == "" {
		bad("source is empty")
	}
	return errs
}

// familyAliases returns the names family fams[m.Family] gives m: each
// family name followed by m.Size ("千问2.5" + "7B" → "千问2.5 7B"). A
// model naming an unknown family is an error.
func familyAliases(fams map[string]Family, m *Model) ([]string, error) {
	if m.Family == "" {
		return nil, nil
	}
	f, ok := fams[m.Family]
	if !ok {
		return nil, fmt.Errorf("%s: model %q: unknown family %q (not in families:)", ModelsFile, m.ID, m.Family)
	}
	if m.Size == "" {
		return nil, fmt.Errorf("%s: model %q: family %q needs a size (\"7B\")", ModelsFile, m.ID, m.Family)
	}
	var out []string
	for _, n := range f.Names {
		out = append(out, n+" "+m.Size)
	}
	return out, nil
}

// expandFamilies checks the families (unique non-empty ids with names)
// and adds each model's family names to its aliases.
func expandFamilies(fams []Family, models []Model) error {
	byID := map[string]Family{}
	for i, f := range fams {
		if f.ID == "" || len(f.Names) == 0 {
			return fmt.Errorf("%s: family #%d: id and names must be set", ModelsFile, i+1)
		}
		if _, dup := byID[f.ID]; dup {
			return fmt.Errorf("%s: family %q: duplicate id", ModelsFile, f.ID)
		}
		byID[f.ID] = f
	}
	for i := range models {
		names, err := familyAliases(byID, &models[i])
		if err != nil {
			return err
		}
		models[i].Aliases = append(models[i].Aliases, names...)
	}
	return nil
}

// reSize finds a parameter count in a model name: "7b", "13B", "1.5b",
// "135m", "8x7b" (group 1 the count, 2 the factor of an "NxM" name, 3 the
// unit b or m).
var reSize = regexp.MustCompile(`(?i)(\d+(?:\.\d+)?)(?:\s*[x×]\s*(\d+(?:\.\d+)?))?\s*([bm])(?:[^a-z0-9]|$)`)

// SizeInName reads the parameter count, in billions, a model name
// states: "xxx-7b" → 7, "某某-13B" → 13, "foo-135m" → 0.135, "bar-8x7b" →
// 56 (every expert counted as a dense model). An active-parameter marker
// ("A3B" in "30B-A3B") is not the size. It reports false when the name
// states no size.
func SizeInName(name string) (float64, bool) {
	best := 0.0
	for _, loc := range reSize.FindAllStringSubmatchIndex(name, -1) {
		start := loc[2]
		if start > 0 {
			prev := name[start-1]
			if prev >= '0' && prev <= '9' || prev == '.' {
				continue
			}
			if (prev == 'a' || prev == 'A') && (start == 1 || !isLetter(name[start-2])) {
				continue // "A3B": the active parameters of a mixture of experts
			}
		}
		v, err := strconv.ParseFloat(name[loc[2]:loc[3]], 64)
		if err != nil || v <= 0 {
			continue
		}
		if loc[4] >= 0 {
			k, _ := strconv.ParseFloat(name[loc[4]:loc[5]], 64)
			v *= k
		}
		if strings.EqualFold(name[loc[6]:loc[7]], "m") {
			v /= 1000
		}
		best = math.Max(best, v)
	}
	return best, best > 0 && best <= 20000
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// FindWorkloadModels returns the names of models other than language
// models (BERT, ViT, ResNet, Stable Diffusion …) mentioned in folded text.
func (c *Catalog) FindWorkloadModels(folded string) []Match { return c.workNames.find(folded) }

// ResolveWorkloadModel maps a name of a model other than a language model
// ("resnet50", "SDXL") to its catalog id.
func (c *Catalog) ResolveWorkloadModel(raw string) (string, bool) { return c.workNames.resolve(raw) }
