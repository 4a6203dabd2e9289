// Command refdoc regenerates docs/estimator.md: the estimator's VRAM and
// throughput figures against the published measurements (the original
// tables and the rows added since, all in
// internal/billing/estimator/reference/testdata/). Run from the repository root:
//
//	go run ./internal/billing/estimator/refdoc
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/billing/estimator/reference"
	"github.com/labgpu/bot/internal/catalog"
)

func main() {
	data := flag.String("data", "internal/billing/estimator/reference/testdata", "directory with "+reference.VRAMFile+", "+reference.ThroughputFile+" and the additions")
	out := flag.String("out", "docs/estimator.md", "file to write")
	flag.Parse()
	if err := run(*data, *out); err != nil {
		fmt.Fprintln(os.Stderr, "refdoc:", err)
		os.Exit(1)
	}
}

func run(data, out string) error {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		return err
	}
	e := &estimator.Estimator{Cat: cat}
	vrows, trows, err := reference.Load(data)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := reference.WriteReport(&b, reference.CheckVRAM(e, vrows), reference.CheckThroughput(e, trows)); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}
