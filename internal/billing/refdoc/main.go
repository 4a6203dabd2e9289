// Command refdoc regenerates docs/estimator.md: the estimator's VRAM and
// throughput figures against the published measurements, the original
// tables in ../shared/data/estimator/ and the rows added since in
// internal/billing/reference/testdata/. Run from the repository root:
//
//	go run ./internal/billing/refdoc
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/billing/reference"
	"github.com/labgpu/bot/internal/catalog"
)

func main() {
	data := flag.String("data", "../shared/data/estimator", "directory with the original "+reference.VRAMFile+" and "+reference.ThroughputFile)
	more := flag.String("more", "internal/billing/reference/testdata", "directory with "+reference.VRAMMoreFile+" and "+reference.ThroughputMoreFile)
	out := flag.String("out", "docs/estimator.md", "file to write")
	flag.Parse()
	if err := run(*data, *more, *out); err != nil {
		fmt.Fprintln(os.Stderr, "refdoc:", err)
		os.Exit(1)
	}
}

func run(data, more, out string) error {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		return err
	}
	e := &billing.Estimator{Cat: cat}
	vrows, trows, err := reference.Load(data, more)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := reference.WriteReport(&b, reference.CheckVRAM(e, vrows), reference.CheckThroughput(e, trows)); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}
