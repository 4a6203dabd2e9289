// Command compile writes the compiled intents the bot loads at start-up
// into a directory (configs/ by `go generate ./configs`): intents.json
// (the definitions), intents.model (the trained scorer) and
// intents-inputs.jsonl (what the scorer read of each phrasing, for
// review); and slots.json, the slot extractors' words
// (configs/slots/*.yaml) read and checked. Run it after changing
// configs/intents/*.yaml, configs/slots/*.yaml, configs/advice.yaml, the
// catalog's names, the slot extractors or the scorer;
// TestCompiledIsCurrent and TestCompiledDataIsCurrent fail until then.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	if err := run(dir); err != nil {
		fmt.Fprintln(os.Stderr, "compile:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	// The extractors read the YAML: the compiled data is what is written.
	words.ReadYAML()
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		return err
	}
	base, err := advice.Load(configs.FS)
	if err != nil {
		return err
	}
	in, err := understand.LoadIntents(configs.FS)
	if err != nil {
		return err
	}
	c := understand.Compile(cat, base, in)
	files := map[string]func() ([]byte, error){
		understand.CompiledFile: c.Marshal,
		understand.ModelFile:    c.Model.MarshalBinary,
		understand.InputsFile:   c.MarshalInputs,
		words.CompiledDataFile:  func() ([]byte, error) { return words.CompileData(configs.FS) },
	}
	for name, marshal := range files {
		b, err := marshal()
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
