package understand

import (
	"sync"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/scorer"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// Shared is the understander for a catalog, knowledge base and chat
// language, built once per process: trained from the embedded compiled
// intents when they were built with this knowledge base, else from the
// embedded YAML definitions (a lab's own advice.yaml). It fails only when
// the embedded definitions do not load, which their tests rule out.
func Shared(cat *catalog.Catalog, base *advice.Base, chatEn bool) (*Understander, error) {
	if u, ok := compiledUnderstander(cat, base, chatEn); ok {
		return u, nil
	}
	in, err := embeddedIntents()
	if err != nil {
		return nil, err
	}
	return cachedUnderstander(cat, base, in, chatEn), nil
}

// Intents returns the definitions the understander was trained on.
func (u *Understander) Intents() *Intents { return u.in }

var (
	compiledOnce  sync.Once
	compiledIn    *Intents
	compiledModel *scorer.Model
	compiledBase  string
	compiledErr   error
)

// Preload reads the embedded compiled intents and the trained scorer now
// (Shared does it once, when first called), and beside them the slot
// extractors' words (words.Preload), so a caller can overlap it with
// loading the catalog and the knowledge base. It is for a process that
// answers one question: the concept lexicon scans for its words instead
// of building an automaton (see newLexicon).
func Preload() {
	var wg sync.WaitGroup
	wg.Go(words.Preload)
	compiledOnce.Do(func() { loadShared(true) })
	wg.Wait()
}

func loadShared(scan bool) {
	compiledIn, compiledModel, compiledBase, compiledErr = loadCompiled(configs.FS, scan)
}

// compiledUnderstander reads the embedded compiled intents and trained
// scorer when they were built with this knowledge base (a lab's own
// advice.yaml trains from the YAML instead).
func compiledUnderstander(cat *catalog.Catalog, base *advice.Base, chatEn bool) (*Understander, bool) {
	compiledOnce.Do(func() { loadShared(false) })
	if compiledErr != nil || compiledBase != baseHash(base) {
		return nil, false
	}
	k := understanderKey{cat, base, compiledIn, chatEn}
	if u, ok := understood.Load(k); ok {
		return u.(*Understander), true
	}
	u := withModel(cat, base, compiledIn, compiledModel, chatEn)
	understood.Store(k, u)
	return u, true
}

var (
	embeddedOnce sync.Once
	embedded     *Intents
	embeddedErr  error
	understood   sync.Map // understanderKey → *Understander
)

func embeddedIntents() (*Intents, error) {
	embeddedOnce.Do(func() { embedded, embeddedErr = LoadIntents(configs.FS) })
	return embedded, embeddedErr
}

type understanderKey struct {
	cat    *catalog.Catalog
	base   *advice.Base
	in     *Intents
	chatEn bool
}

func cachedUnderstander(cat *catalog.Catalog, base *advice.Base, in *Intents, chatEn bool) *Understander {
	k := understanderKey{cat, base, in, chatEn}
	if u, ok := understood.Load(k); ok {
		return u.(*Understander)
	}
	u := NewUnderstander(cat, base, in, UnderstanderOptions{ChatEnglish: chatEn})
	understood.Store(k, u)
	return u
}
