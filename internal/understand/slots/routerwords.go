package slots

import (
	"fmt"
	"log/slog"
	"regexp"
	"sync"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/strictyaml"
)

// routerWordsFile holds what the router's own intents read from a
// message: the storage admin commands and the small talk words.
const routerWordsFile = "slots/router.yaml"

// routerWords is configs/slots/router.yaml, compiled.
type routerWords struct {
	bind, list, unbind *regexp.Regexp
	thanks, greeting   []string
}

// routerWordsDoc is the file as written.
type routerWordsDoc struct {
	Admin struct {
		Bind   string `yaml:"bind"`
		List   string `yaml:"list"`
		Unbind string `yaml:"unbind"`
	} `yaml:"admin"`
	SmallTalk struct {
		Thanks   []string `yaml:"thanks"`
		Greeting []string `yaml:"greeting"`
	} `yaml:"smalltalk"`
}

// parseRouterWords reads and compiles the file's text.
func parseRouterWords(b []byte) (*routerWords, error) {
	var doc routerWordsDoc
	if err := strictyaml.Decode(b, &doc); err != nil {
		return nil, err
	}
	w := &routerWords{thanks: doc.SmallTalk.Thanks, greeting: doc.SmallTalk.Greeting}
	for _, p := range []struct {
		name, re string
		to       **regexp.Regexp
	}{{"admin.bind", doc.Admin.Bind, &w.bind}, {"admin.list", doc.Admin.List, &w.list}, {"admin.unbind", doc.Admin.Unbind, &w.unbind}} {
		if p.re == "" {
			return nil, fmt.Errorf("%s: no pattern", p.name)
		}
		re, err := regexp.Compile(p.re)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
		*p.to = re
	}
	return w, nil
}

// loadedRouterWords is the embedded file, read once. A broken file (its
// test rules it out) is logged and reads as no words: the admin commands
// and small talk go unrecognised, every other answer is unaffected.
var loadedRouterWords = sync.OnceValue(func() *routerWords {
	b, err := configs.FS.ReadFile(routerWordsFile)
	if err == nil {
		var w *routerWords
		if w, err = parseRouterWords(b); err == nil {
			return w
		}
	}
	slog.Error("slots: the router's words do not load", "file", routerWordsFile, "err", err)
	return &routerWords{}
})
