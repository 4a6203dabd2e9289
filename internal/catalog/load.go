package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/labgpu/bot/internal/strictyaml"
)

// File names inside the catalog directory.
const (
	PlatformsFile = "catalog.yaml"
	GPUsFile      = "gpus.yaml"
	ModelsFile    = "models.yaml"
)

type platformsDoc struct {
	// FXUSDCNY is the default USD→CNY conversion rate for list prices.
	FXUSDCNY  float64    `yaml:"fx_usd_cny"`
	Platforms []Platform `yaml:"platforms"`
}

type gpusDoc struct {
	GPUs []GPU `yaml:"gpus"`
}

type modelsDoc struct {
	Families []Family `yaml:"families"`
	Models   []Model  `yaml:"models"`
}

// Load reads catalog.yaml, gpus.yaml and models.yaml from fsys, decodes them
// strictly (an unknown key is an error) and validates them. Errors name the
// file and the entry, e.g.
//
//	catalog.yaml: platform "autodl": price for "RTX 9999": unknown GPU id
func Load(fsys fs.FS) (*Catalog, error) {
	var pd platformsDoc
	var gd gpusDoc
	var md modelsDoc
	var plans plansDoc
	// The four files are decoded at once (YAML decoding is most of the
	// load); the first error in this order is the one reported.
	decode := []func() error{
		func() error { return decodeFile(fsys, PlatformsFile, &pd) },
		func() error { return decodeFile(fsys, GPUsFile, &gd) },
		func() error { return decodeFile(fsys, ModelsFile, &md) },
		func() error { return decodePlans(fsys, &plans) },
	}
	errs := make([]error, len(decode))
	var wg sync.WaitGroup
	for i, f := range decode {
		wg.Go(func() { errs[i] = f() })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := attachPlans(&plans, pd.Platforms); err != nil {
		return nil, err
	}
	if err := expandFamilies(md.Families, md.Models); err != nil {
		return nil, err
	}
	c, err := New(pd.Platforms, gd.GPUs, md.Models, pd.FXUSDCNY)
	if err != nil {
		return nil, err
	}
	c.Families = md.Families
	return c, nil
}

func decodeFile(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("catalog: read %s: %w", name, err)
	}
	if err := strictyaml.Decode(b, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

var dateRe = regexp.MustCompile(`(19|20)\d\d`)

// New validates the parts and builds the indexes. fx is the USD→CNY rate
// (must be positive). Every problem found is reported, joined in this
// order: the fx rate, the GPUs, the models, the platforms.
func New(platforms []Platform, gpus []GPU, models []Model, fx float64) (*Catalog, error) {
	c := &Catalog{Platforms: platforms, GPUs: gpus, Models: models, FXUSDCNY: fx}
	var errs []error
	if !(fx > 0) {
		errs = append(errs, fmt.Errorf("%s: fx_usd_cny must be a positive number, got %v", PlatformsFile, fx))
	}
	errs = append(errs, c.indexGPUs(gpus)...)
	errs = append(errs, c.indexModels(models)...)
	errs = append(errs, c.indexPlatforms(platforms)...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

// indexGPUs checks the GPUs (unique non-empty ids; positive memory_gb,
// bandwidth_gbs and tensor_tflops; a source; a known class) and indexes
// them by id, alias and family: a family name of one GPU names that GPU, of
// several the family.
func (c *Catalog) indexGPUs(gpus []GPU) []error {
	var errs []error
	c.gpuIdx = map[string]int{}
	c.gpuNames = newMatcher()
	families := map[string][]string{}
	for i, g := range gpus {
		where, err := claimID(c.gpuIdx, GPUsFile, "gpu", g.ID, i)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !(g.MemoryGB > 0) || !(g.TensorTFLOPS > 0) || !(g.BandwidthGBs > 0) {
			errs = append(errs, fmt.Errorf("%s: memory_gb, bandwidth_gbs and tensor_tflops must be positive", where))
		}
		if g.Source == "" {
			errs = append(errs, fmt.Errorf("%s: source is empty", where))
		}
		switch g.Class {
		case "consumer", "datacenter", "npu":
		default:
			errs = append(errs, fmt.Errorf("%s: class %q is not consumer, datacenter or npu", where, g.Class))
		}
		c.gpuNames.addAll(g.ID, g.Aliases)
		if g.Family != "" {
			families[g.Family] = append(families[g.Family], g.ID)
		}
	}
	for fam, ids := range families {
		if len(ids) == 1 {
			c.gpuNames.add(fam, ids[0], false)
		} else {
			c.gpuNames.add(fam, fam, true)
		}
	}
	return errs
}

// indexModels checks the models (unique non-empty ids; the fields of
// their kind, see checkModel; a source) and indexes them by id and alias:
// language models for FindModels and ResolveModel, the others for
// FindWorkloadModels. A name given to two models is an error.
func (c *Catalog) indexModels(models []Model) []error {
	var errs []error
	c.modelIdx = map[string]int{}
	c.modelNames = newMatcher()
	c.workNames = newMatcher()
	owner := map[string]string{} // compacted name → model id
	for i := range models {
		m := &models[i]
		where, err := claimID(c.modelIdx, ModelsFile, "model", m.ID, i)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, checkModel(where, m)...)
		for _, n := range append([]string{m.ID}, m.Aliases...) {
			if o, ok := owner[Compact(n)]; ok && o != m.ID {
				errs = append(errs, fmt.Errorf("%s: name %q is also a name of %q", where, n, o))
			}
			owner[Compact(n)] = m.ID
		}
		if m.IsLLM() {
			c.modelNames.addAll(m.ID, m.Aliases)
		} else {
			c.workNames.addAll(m.ID, m.Aliases)
		}
	}
	return errs
}

// claimID checks the id of entry #i+1 of the given kind in file (non-empty,
// not yet in idx) and records it in idx. It returns where, the entry's name
// for later errors, and the error that stops the entry's checks, if any.
func claimID(idx map[string]int, file, kind, id string, i int) (where string, err error) {
	where = fmt.Sprintf("%s: %s %q", file, kind, id)
	if id == "" {
		return where, fmt.Errorf("%s: %s #%d: id is empty", file, kind, i+1)
	}
	if _, dup := idx[id]; dup {
		return where, fmt.Errorf("%s: duplicate id", where)
	}
	idx[id] = i
	return where, nil
}

// indexPlatforms checks the platforms (unique non-empty ids, see
// checkPlatform) and indexes them by id, zh and en name and alias. It runs
// after indexGPUs: prices must name known GPU ids.
func (c *Catalog) indexPlatforms(platforms []Platform) []error {
	var errs []error
	c.platformIdx = map[string]int{}
	c.platNames = newMatcher()
	for i := range platforms {
		p := &platforms[i]
		where, err := claimID(c.platformIdx, PlatformsFile, "platform", p.ID, i)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, c.checkPlatform(where, p)...)
		c.platNames.addAll(p.ID, []string{p.Name.Zh, p.Name.En}, p.Aliases)
	}
	return errs
}

// checkPlatform checks one platform's fields: a zh or en name; billing
// granularity second, minute, hour or unset and a minimum ≥ 0 minutes;
// storage prices (data disk CNY per GB-day, no-card mode CNY per hour) and
// GPU prices (CNY per GPU-hour; plans CNY per period, spot per GPU-hour) as
// checkFigure wants them, each price for a known GPU id, one per GPU and
// mode, plans in a known mode. where names the platform in errors.
func (c *Catalog) checkPlatform(where string, p *Platform) []error {
	var errs []error
	if p.Name.Zh == "" && p.Name.En == "" {
		errs = append(errs, fmt.Errorf("%s: name is empty", where))
	}
	switch p.Billing.Granularity {
	case "second", "minute", "hour", "":
	default:
		errs = append(errs, fmt.Errorf("%s: billing.granularity %q is not second, minute or hour", where, p.Billing.Granularity))
	}
	if c := p.Country; c != "" && (len(c) != 2 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z') {
		errs = append(errs, fmt.Errorf("%s: country %q is not a two-letter ISO 3166 code (CN, US)", where, c))
	}
	if p.Billing.MinimumMinutes < 0 {
		errs = append(errs, fmt.Errorf("%s: billing.minimum_minutes is negative", where))
	}
	if f := p.Storage.DataDiskCNYPerGBDay; f != nil {
		errs = append(errs, checkFigure(where+": storage.data_disk_cny_per_gb_day", *f)...)
	}
	if f := p.Storage.NoCard.CNYPerHour; f != nil {
		errs = append(errs, checkFigure(where+": storage.no_card.cny_per_hour", *f)...)
	}
	errs = append(errs, checkRetention(where, p)...)
	seen := map[string]bool{} // GPU id + "/" + mode
	for _, pr := range p.Prices {
		pw := fmt.Sprintf("%s: price for %q", where, pr.GPU)
		if _, ok := c.gpuIdx[pr.GPU]; !ok {
			errs = append(errs, fmt.Errorf("%s: unknown GPU id (not in %s)", pw, GPUsFile))
		}
		if seen[pr.GPU+"/"+pr.Mode] {
			errs = append(errs, fmt.Errorf("%s: listed twice", pw))
		}
		seen[pr.GPU+"/"+pr.Mode] = true
		errs = append(errs, checkFigure(pw, pr.CNYPerHour)...)
		for _, pl := range pr.Plans {
			if _, ok := PlanModes[pl.Mode]; !ok {
				errs = append(errs, fmt.Errorf("%s: plan mode %q is not daily, weekly, monthly, yearly or spot", pw, pl.Mode))
			}
			errs = append(errs, checkFigure(pw+": plan "+pl.Mode, pl.CNY)...)
		}
	}
	return errs
}

func checkFigure(where string, f Figure) []error {
	var errs []error
	if f.Low < 0 || f.High < 0 || math.IsNaN(f.Low) || math.IsNaN(f.High) {
		errs = append(errs, fmt.Errorf("%s: negative price (low %v, high %v)", where, f.Low, f.High))
	}
	if f.High < f.Low {
		errs = append(errs, fmt.Errorf("%s: high %v is below low %v", where, f.High, f.Low))
	}
	if strings.TrimSpace(f.AsOf) == "" {
		errs = append(errs, fmt.Errorf("%s: as_of (the date of the figure) is empty", where))
	} else if !dateRe.MatchString(f.AsOf) {
		errs = append(errs, fmt.Errorf("%s: as_of %q has no year", where, f.AsOf))
	}
	if strings.TrimSpace(f.Source) == "" {
		errs = append(errs, fmt.Errorf("%s: source is empty", where))
	}
	return errs
}
