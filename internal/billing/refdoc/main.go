// Command refdoc regenerates docs/estimator.md: the estimator's VRAM and
// throughput figures against the published measurements in
// ../shared/data/estimator/. Run from the repository root:
//
//	go run ./internal/billing/refdoc
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/billing/reference"
	"github.com/labgpu/bot/internal/catalog"
)

func main() {
	data := flag.String("data", "../shared/data/estimator", "directory with vram_reference.csv and throughput_reference.csv")
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
	e := &billing.Estimator{Cat: cat}
	vrows, err := readFile(filepath.Join(data, "vram_reference.csv"), reference.ReadVRAM)
	if err != nil {
		return err
	}
	trows, err := readFile(filepath.Join(data, "throughput_reference.csv"), reference.ReadThroughput)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := reference.WriteReport(&b, reference.CheckVRAM(e, vrows), reference.CheckThroughput(e, trows)); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

// readFile reads the rows of the file at path with read.
func readFile[R any](path string, read func(io.Reader) ([]R, error)) ([]R, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f)
}
