// Command histdemo writes four weeks of generated availability history as
// the CSV `bot history import` reads (internal/history.CSVHeader), for
// the README's availability example and for trying the answer:
//
//	go run ./tools/histdemo > history-demo.csv
//	bot history import history-demo.csv
//
// The pattern, per 10-minute poll on AutoDL and 恒源云 (RTX 4090), in
// Shanghai time: sold out 19:00–23:00 every day; weekends in stock half
// the time; weekday mornings 06:00–12:00 in stock 97% of the time; other
// hours 70%; a six-hour gap (no answer) once a week after the first day.
// The same seed gives the same file for the same -now.
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"time"
)

var shanghai = time.FixedZone("CST", 8*3600)

func main() {
	now := flag.String("now", "", "end of the history, RFC 3339 (default: now)")
	seed := flag.Uint64("seed", 1, "noise seed")
	flag.Parse()
	end := time.Now()
	if *now != "" {
		t, err := time.Parse(time.RFC3339, *now)
		if err != nil {
			fmt.Fprintln(os.Stderr, "histdemo: -now:", err)
			os.Exit(2)
		}
		end = t
	}
	if err := write(os.Stdout, end, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "histdemo:", err)
		os.Exit(1)
	}
}

// inStock is the pattern above for one poll at t.
func inStock(t time.Time, rnd *rand.Rand) bool {
	lt := t.In(shanghai)
	h, wd := lt.Hour(), lt.Weekday()
	switch {
	case h >= 19 && h < 23:
		return false
	case wd == time.Saturday || wd == time.Sunday:
		return rnd.Float64() < 0.5
	case h >= 6 && h < 12:
		return rnd.Float64() < 0.97
	}
	return rnd.Float64() < 0.7
}

// write writes one row per platform per 10-minute slot of the 28 days
// before end.
func write(f *os.File, end time.Time, seed uint64) error {
	const slot = 10 * time.Minute
	w := csv.NewWriter(f)
	if err := w.Write([]string{"time", "minutes", "platform", "gpu", "polls", "in_stock", "sold_out", "free", "price_cny"}); err != nil {
		return err
	}
	rnd := rand.New(rand.NewPCG(seed, 2))
	start := end.Add(-28 * 24 * time.Hour).Truncate(slot)
	week := 7 * 24 * time.Hour
	for at := start; at.Before(end); at = at.Add(slot) {
		if d := at.Sub(start); d > 24*time.Hour && d%week < 6*time.Hour {
			continue
		}
		for _, p := range []string{"autodl", "hengyuan"} {
			row := []string{at.UTC().Format(time.RFC3339), "10", p, "RTX 4090", "1", "0", "1", "0", ""}
			if inStock(at, rnd) {
				price := 1.98 + 0.2*float64(at.In(shanghai).Hour()%3)
				row[5], row[6] = "1", "0"
				row[7] = strconv.Itoa(1 + rnd.IntN(5))
				row[8] = strconv.FormatFloat(price, 'f', 2, 64)
			}
			if err := w.Write(row); err != nil {
				return err
			}
		}
	}
	w.Flush()
	return w.Error()
}
