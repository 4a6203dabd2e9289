package words

import (
	"math"
	"strconv"
	"sync"
)

// Number is word's number in the table key ("numbers.english"): the
// number words of configs/slots/numbers.yaml and the others.
func Number(key, word string) (float64, bool) {
	v, ok := Numbers(key)[word]
	return v, ok
}

// Numbers is the number table key ("numbers.half": word → number; shared:
// not to be changed).
func Numbers(key string) map[string]float64 {
	t, ok := data().numbers[key]
	if !ok {
		panic("slots: no numbers " + key + " in configs/" + DataDir)
	}
	return t
}

// numerals are the Chinese numerals ParseNum reads
// (configs/slots/numbers.yaml): digits set the ones, units multiply.
var numerals = sync.OnceValue(func() (n struct{ digits, units map[rune]float64 }) {
	n.digits, n.units = runeTable("numbers.digits"), runeTable("numbers.units")
	return n
})

// runeTable is a number table of one-character words by character.
func runeTable(key string) map[rune]float64 {
	out := map[rune]float64{}
	for w, v := range data().numbers[key] {
		if r := []rune(w); len(r) == 1 {
			out[r[0]] = v
		}
	}
	return out
}

// ParseNum parses "12", "1.5", "三", "十二", "二十", "一百": the one number
// parser of the bot. A Chinese digit (numbers.yaml's digits) sets the
// ones; a unit (十, 百) multiplies what came before it (1 when nothing
// did: "十二" is 12) and adds it up.
func ParseNum(s string) (float64, bool) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return v, !math.IsInf(v, 0) && !math.IsNaN(v)
	}
	n := numerals()
	var total, cur float64
	seen := false
	for _, r := range s {
		if d, ok := n.digits[r]; ok {
			cur, seen = d, true
			continue
		}
		unit, ok := n.units[r]
		if !ok {
			return 0, false
		}
		if cur == 0 {
			cur = 1
		}
		total += cur * unit
		cur = 0
		seen = true
	}
	return total + cur, seen
}

// Round4 rounds to four decimals (prices are kept to 0.0001 CNY).
func Round4(x float64) float64 { return float64(int64(x*1e4+0.5)) / 1e4 }
