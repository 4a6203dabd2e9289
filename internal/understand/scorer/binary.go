package scorer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// modelMagic starts a model written by MarshalBinary; the digit is the
// format's version.
const modelMagic = "labgpu-nb1\n"

// MarshalBinary writes the trained model, little-endian: modelMagic; the
// temperature (float64) and tag weight (uint32); the number of labels
// (uint32), each label's length (uint16) and bytes, then per label its
// unseen and prior log-probabilities (float64 each); the number of
// features (uint32), each feature's hash (uint64, in increasing order)
// and row length (uint16); then every row's entries, label (uint16) and
// delta (float32). The same model always gives the same bytes.
func (m *Model) MarshalBinary() ([]byte, error) {
	if len(m.labels) > math.MaxUint16 {
		return nil, fmt.Errorf("scorer: %d labels, at most %d", len(m.labels), math.MaxUint16)
	}
	b := []byte(modelMagic)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.temp))
	b = binary.LittleEndian.AppendUint32(b, uint32(m.tagW))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.labels)))
	for _, l := range m.labels {
		if len(l) > math.MaxUint16 {
			return nil, fmt.Errorf("scorer: label of %d bytes", len(l))
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(len(l)))
		b = append(b, l...)
	}
	for l := range m.labels {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.unseen[l]))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.prior[l]))
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.rows)))
	for i, row := range m.rows {
		b = binary.LittleEndian.AppendUint64(b, m.keys[i])
		b = binary.LittleEndian.AppendUint16(b, uint16(len(row)))
	}
	for _, row := range m.rows {
		for _, e := range row {
			b = binary.LittleEndian.AppendUint16(b, uint16(e.label))
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(e.delta))
		}
	}
	return b, nil
}

// maxTagWeight bounds Options.TagWeight as read from a file (Score makes
// that many features of every tag).
const maxTagWeight = 64

// errModel is what a truncated or foreign model file fails with.
var errModel = errors.New("scorer: not a model written by MarshalBinary, or truncated")

// UnmarshalBinary reads a model written by MarshalBinary.
func (m *Model) UnmarshalBinary(data []byte) error {
	r := reader{b: data}
	if string(r.take(len(modelMagic))) != modelMagic {
		return errModel
	}
	out := Model{temp: math.Float64frombits(r.u64()), tagW: int(r.u32())}
	nl := int(r.u32())
	if nl > len(r.b) || !(out.temp > 0 && out.temp < math.Inf(1)) || out.tagW < 1 || out.tagW > maxTagWeight {
		return errModel
	}
	out.labels = make([]string, nl)
	for l := range out.labels {
		out.labels[l] = string(r.take(int(r.u16())))
	}
	out.unseen, out.prior = make([]float64, nl), make([]float64, nl)
	for l := range nl {
		out.unseen[l] = math.Float64frombits(r.u64())
		out.prior[l] = math.Float64frombits(r.u64())
	}
	nf := int(r.u32())
	if nf > len(r.b)/10 {
		return errModel
	}
	out.keys = make([]uint64, nf)
	lens := make([]int, nf)
	total := 0
	for i := range nf {
		out.keys[i] = r.u64()
		lens[i] = int(r.u16())
		total += lens[i]
		if i > 0 && out.keys[i] <= out.keys[i-1] {
			return errModel // not sorted, or a feature twice
		}
	}
	if r.bad || total*6 != len(r.b) {
		return errModel
	}
	slab := make([]entry, total)
	for j := range slab {
		slab[j] = entry{label: int32(r.u16()), delta: math.Float32frombits(r.u32())}
		if int(slab[j].label) >= nl {
			return errModel
		}
	}
	out.rows = make([][]entry, nf)
	for i, n := range lens {
		out.rows[i], slab = slab[:n:n], slab[n:]
	}
	out.index()
	*m = out
	return nil
}

// reader reads little-endian values; past the end it returns zeros and
// sets bad.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) take(n int) []byte {
	if n > len(r.b) {
		r.bad, r.b = true, nil
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u16() uint16 {
	if v := r.take(2); v != nil {
		return binary.LittleEndian.Uint16(v)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if v := r.take(4); v != nil {
		return binary.LittleEndian.Uint32(v)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if v := r.take(8); v != nil {
		return binary.LittleEndian.Uint64(v)
	}
	return 0
}

// Same reports whether m and o have the same labels, features and rows
// and their log-probabilities agree within tol: a model trained on another
// CPU can differ in the last bits of a logarithm (amd64's math.Log is
// assembly, arm64's is Go), so TestCompiledIsCurrent compares models with
// Same instead of their bytes.
func (m *Model) Same(o *Model, tol float64) bool {
	near := func(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(a)) }
	if m.temp != o.temp || m.tagW != o.tagW || !slices.Equal(m.labels, o.labels) || !slices.Equal(m.keys, o.keys) {
		return false
	}
	for l := range m.labels {
		if !near(m.unseen[l], o.unseen[l]) || !near(m.prior[l], o.prior[l]) {
			return false
		}
	}
	for i, row := range m.rows {
		if len(row) != len(o.rows[i]) {
			return false
		}
		for j, e := range row {
			if e.label != o.rows[i][j].label || !near(float64(e.delta), float64(o.rows[i][j].delta)) {
				return false
			}
		}
	}
	return true
}
