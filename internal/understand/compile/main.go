// Command compile writes configs/intents.json, the compiled intents the bot
// loads at start-up (see commands.Compiled). Run it with `go generate
// ./configs` after changing configs/intents/*.yaml, configs/advice.yaml,
// the catalog's names or the slot extractors; TestCompiledIsCurrent fails
// until then.
package main

import (
	"fmt"
	"os"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand"
)

func main() {
	out := "intents.json"
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	if err := run(out); err != nil {
		fmt.Fprintln(os.Stderr, "compile:", err)
		os.Exit(1)
	}
}

func run(out string) error {
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
	b, err := understand.Compile(cat, base, in).Marshal()
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}
