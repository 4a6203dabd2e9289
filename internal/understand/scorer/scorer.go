// Package scorer is the bot's intent scorer: a multinomial naive Bayes
// classifier over binary text features, trained from a labelled corpus when
// the bot starts (one counting pass, a few milliseconds for the ~2,000
// phrasings of configs/intents).
//
// Features (see Features): character unigrams and bigrams of Chinese runs,
// words, word bigrams and character trigrams of longer Latin words (so
// "memroy" still shares most of "memory"), placeholder tokens the caller
// puts in the text ("§gpu") and tags the caller passes ("#two_gpus"). Each
// feature counts once per message (binarized multinomial NB, Wang & Manning
// 2012: better than counts on short texts).
//
// Score returns calibrated posteriors: the log-likelihoods are divided by a
// temperature before the softmax, because naive Bayes multiplies many
// dependent features and its raw posteriors are nearly always 0 or 1.
//
// Logistic regression, complement naive Bayes and a nearest-neighbour
// vote were tried on the corpus's k-fold run and were no better (within a
// point) while slower to train. Libraries were considered:
// github.com/sjwhitworth/golearn (dense matrices, unmaintained since
// 2022) and github.com/jbrukh/bayesian (word tokens only, no n-grams) do
// not fit a sparse CJK model of this size, and the model is ~150 lines.
package scorer

import (
	"math"
	"slices"
	"sort"
)

// Example is one labelled phrasing.
type Example struct {
	Text  string
	Tags  []string
	Label string
}

// Options tune training. Zero values take the defaults.
type Options struct {
	// Alpha is the additive (Lidstone) smoothing; default 0.05.
	Alpha float64
	// Temperature divides the log-likelihoods before the softmax;
	// default 2.
	Temperature float64
	// Prior weights each label's prior probability (default: its share of
	// the examples); they need not sum to 1.
	Prior func(label string) float64
	// TagWeight is how many features a tag counts as (default 4): the
	// caller's tags are few and reliable, and one feature among fifty
	// would barely move naive Bayes.
	TagWeight int
}

// Scored is a label with its posterior probability.
type Scored struct {
	Label string
	P     float64
}

// Model is a trained classifier. It is read-only and safe for concurrent
// use.
type Model struct {
	labels []string
	// keys are the features' hashes, sorted; rows[i] lists, for feature
	// keys[i], the labels that saw it with log P(f|label) − unseen[label].
	// (Sorted keys, not a map, so that reading a model from a file builds
	// no hash table.) starts[t] is the first key whose top 16 bits are t
	// or more: the hashes are uniform, so a lookup scans the one or two
	// keys of its bucket (see find).
	keys   []uint64
	starts []uint32
	rows   [][]entry
	// unseen[l] is log P(f|l) of a feature label l never saw; prior[l]
	// is log P(l).
	unseen []float64
	prior  []float64
	temp   float64
	tagW   int
}

type entry struct {
	label int32
	delta float32
}

// count is the number of examples of a label with a feature.
type count struct {
	label int32
	n     int32
}

// Train counts the examples' features per label.
func Train(examples []Example, o Options) *Model {
	if o.Alpha <= 0 {
		o.Alpha = 0.05
	}
	if o.Temperature <= 0 {
		o.Temperature = 2
	}
	if o.TagWeight <= 0 {
		o.TagWeight = 4
	}
	m := &Model{temp: o.Temperature, tagW: o.TagWeight}
	index := make(map[uint64]int32, 8*len(examples))
	labelIdx := map[string]int{}
	var docs []int
	// counts[f] is how many examples of each label saw feature f: few
	// labels see a feature, so a short slice scanned in order.
	var counts [][]count
	var totals []float64
	var buf []uint64
	for _, ex := range examples {
		l, ok := labelIdx[ex.Label]
		if !ok {
			l = len(m.labels)
			labelIdx[ex.Label] = l
			m.labels = append(m.labels, ex.Label)
			docs = append(docs, 0)
			totals = append(totals, 0)
		}
		docs[l]++
		buf = hashes(buf, ex.Text, ex.Tags, o.TagWeight)
		for _, h := range buf {
			i, ok := index[h]
			if !ok {
				i = int32(len(index))
				index[h] = i
				counts = append(counts, nil)
			}
			counts[i] = addCount(counts[i], int32(l))
			totals[l]++
		}
	}
	v := float64(len(index))
	// smoothed is o.Alpha*v rounded on its own: the explicit conversion
	// keeps arm64 from fusing it into the addition below (FMADD), so a
	// model trained there has the same bytes (TestCompiledIsCurrent).
	smoothed := float64(o.Alpha * v)
	m.unseen = make([]float64, len(m.labels))
	m.prior = make([]float64, len(m.labels))
	for l := range m.labels {
		m.unseen[l] = math.Log(o.Alpha / (totals[l] + smoothed))
		m.prior[l] = math.Log(float64(docs[l]) / float64(len(examples)))
		if o.Prior != nil {
			m.prior[l] = math.Log(o.Prior(m.labels[l]))
		}
	}
	m.keys = make([]uint64, 0, len(index))
	for h := range index {
		m.keys = append(m.keys, h)
	}
	slices.Sort(m.keys)
	m.rows = make([][]entry, len(m.keys))
	for k, h := range m.keys {
		cs := counts[index[h]]
		row := make([]entry, len(cs))
		for j, c := range cs {
			lp := math.Log((float64(c.n) + o.Alpha) / (totals[c.label] + smoothed))
			row[j] = entry{label: c.label, delta: float32(lp - m.unseen[c.label])}
		}
		m.rows[k] = row
	}
	m.index()
	return m
}

// addCount counts one more example of label in a feature's counts.
func addCount(cs []count, label int32) []count {
	for j := range cs {
		if cs[j].label == label {
			cs[j].n++
			return cs
		}
	}
	return append(cs, count{label: label, n: 1})
}

// Labels returns the labels in training order.
func (m *Model) Labels() []string { return m.labels }

// Features is the number of distinct features seen in training.
func (m *Model) Features() int { return len(m.keys) }

// bucketBits is how many top bits of a hash pick its bucket in starts.
const bucketBits = 16

// index builds starts from keys.
func (m *Model) index() {
	m.starts = make([]uint32, 1<<bucketBits+1)
	k := 0
	for t := range 1 << bucketBits {
		for k < len(m.keys) && m.keys[k]>>(64-bucketBits) < uint64(t) {
			k++
		}
		m.starts[t] = uint32(k)
	}
	m.starts[1<<bucketBits] = uint32(len(m.keys))
}

// find returns the row of feature h.
func (m *Model) find(h uint64) (int, bool) {
	if len(m.starts) == 0 {
		return 0, false // a zero Model
	}
	t := h >> (64 - bucketBits)
	for i := m.starts[t]; i < m.starts[t+1]; i++ {
		if m.keys[i] == h {
			return int(i), true
		}
	}
	return 0, false
}

// Score returns every label with its posterior, highest first. A text
// with no known feature gets the priors.
func (m *Model) Score(text string, tags []string) []Scored {
	logp := make([]float64, len(m.labels))
	known := 0
	for _, h := range hashes(nil, text, tags, m.tagW) {
		i, ok := m.find(h)
		if !ok {
			continue
		}
		known++
		for _, e := range m.rows[i] {
			logp[e.label] += float64(e.delta)
		}
	}
	for l := range logp {
		logp[l] = logp[l] + float64(known)*m.unseen[l] + m.prior[l]
	}
	return m.softmax(logp, 1/m.temp)
}

func (m *Model) softmax(logp []float64, scale float64) []Scored {
	top := math.Inf(-1)
	for l := range logp {
		logp[l] *= scale
		top = math.Max(top, logp[l])
	}
	sum := 0.0
	for l := range logp {
		logp[l] = math.Exp(logp[l] - top)
		sum += logp[l]
	}
	out := make([]Scored, len(m.labels))
	for l, name := range m.labels {
		out[l] = Scored{Label: name, P: logp[l] / sum}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].P > out[j].P })
	return out
}

// 64-bit FNV-1a (hash/fnv's New64a, FuzzFNV), written out so that a
// feature is hashed part by part without an interface call or a buffer.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvByte(h uint64, c byte) uint64 { return (h ^ uint64(c)) * fnvPrime }

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// tagCopies tell a tag's TagWeight copies apart.
var tagCopies = [...]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

// tagCopy is copy i's part of a tag's features.
func tagCopy(i int) string {
	if i < len(tagCopies) {
		return tagCopies[i]
	}
	return string(rune('0' + i))
}

// hashes appends to buf the distinct feature hashes of a text and its
// tags (in no particular order) and returns it.
func hashes(buf []uint64, text string, tags []string, tagWeight int) []uint64 {
	out := buf[:0]
	// A feature is its kind byte and its parts joined by 0 bytes, hashed
	// with 64-bit FNV-1a: the same in every process, so a model trained by
	// `go generate` (MarshalBinary) scores in the bot.
	add := func(kind byte, a, b string) {
		h := fnvByte(fnvOffset, kind)
		h = fnvString(h, a)
		if b != "" {
			h = fnvString(fnvByte(h, 0), b)
		}
		out = append(out, h)
	}
	Features(text, add)
	for _, t := range tags {
		for i := 0; i < tagWeight; i++ {
			add('#', t, tagCopy(i))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
