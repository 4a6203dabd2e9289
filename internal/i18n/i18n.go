// Package i18n is the bot's message catalog: every sentence the bot says,
// one file per language (configs/messages/zh.yaml and en.yaml, embedded),
// and the one bilingual picker (Lang).
//
// A message is a leaf of the file's nested mapping, named by the dotted
// path of its keys ("stock.none_under"). A text is a Go format string
// (fmt verbs: %s, %d, %.2f, %[2]s …) whose verbs the other language's text
// has too, in any order; a list is a YAML sequence (a table header) as
// long as the other language's. The tests hold both files to the same
// keys and verbs and every Go call to a key that exists, with as many
// arguments as its verbs.
package i18n

import (
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"go.yaml.in/yaml/v3"

	"github.com/labgpu/bot/configs"
)

// Lang is the language of an answer: Chinese (the zero value) or English.
type Lang struct{ en bool }

// The two languages.
var (
	ZH = Lang{}
	EN = Lang{en: true}
)

// Of is English when en is set, else Chinese.
func Of(en bool) Lang { return Lang{en: en} }

// English reports whether l is English.
func (l Lang) English() bool { return l.en }

// Code is "en" or "zh".
func (l Lang) Code() string {
	if l.en {
		return "en"
	}
	return "zh"
}

// T is the text of key in l, formatted with args as fmt.Sprintf does.
// A key missing from the catalog (the tests rule it out) logs an error
// and gives "".
func (l Lang) T(key string, args ...any) string {
	s, ok := loaded()[l.index()].texts[key]
	if !ok {
		slog.Error("i18n: no such message", "key", key, "lang", l.Code())
		return ""
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// L is the list of key in l (a table header); nil when missing.
func (l Lang) L(key string) []string {
	s, ok := loaded()[l.index()].lists[key]
	if !ok {
		slog.Error("i18n: no such list", "key", key, "lang", l.Code())
	}
	return s
}

// Pick is zh, or e in English: for values that are not the bot's own
// sentences (a catalog entry's zh and en names, data files' pairs).
func Pick[T any](l Lang, zh, e T) T {
	if l.en {
		return e
	}
	return zh
}

func (l Lang) index() int {
	if l.en {
		return 1
	}
	return 0
}

// Catalog is one language's messages.
type Catalog struct {
	texts map[string]string
	lists map[string][]string
}

// Keys are the catalog's text and list keys.
func (c *Catalog) Keys() (texts, lists []string) {
	for k := range c.texts {
		texts = append(texts, k)
	}
	for k := range c.lists {
		lists = append(lists, k)
	}
	return texts, lists
}

// Text is the raw text of key (unformatted) and whether it exists.
func (c *Catalog) Text(key string) (string, bool) { s, ok := c.texts[key]; return s, ok }

// List is the list of key and whether it exists.
func (c *Catalog) List(key string) ([]string, bool) { s, ok := c.lists[key]; return s, ok }

// Files are the catalog files in configs, Chinese first.
var Files = [2]string{"messages/zh.yaml", "messages/en.yaml"}

var catalogs = sync.OnceValue(func() [2]*Catalog {
	var out [2]*Catalog
	for i, f := range Files {
		c, err := Load(f)
		if err != nil {
			// The embedded files are checked by the tests; a broken one
			// must not silence the bot: it answers with empty texts and
			// says why in the log.
			slog.Error("i18n: the message catalog does not load", "file", f, "err", err)
			c = &Catalog{texts: map[string]string{}, lists: map[string][]string{}}
		}
		out[i] = c
	}
	return out
})

// Embedded returns the embedded catalogs (Chinese, English).
func Embedded() [2]*Catalog { return *loaded() }

// current holds the catalogs once loaded: T reads them with one atomic
// load (it runs for every cell of every table).
var current atomic.Pointer[[2]*Catalog]

func loaded() *[2]*Catalog {
	if c := current.Load(); c != nil {
		return c
	}
	c := catalogs()
	current.Store(&c)
	return &c
}

// Load reads one catalog file from configs.
func Load(name string) (*Catalog, error) {
	b, err := configs.FS.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return Parse(b)
}

// Parse reads a catalog: a mapping whose leaves are texts or lists of
// texts.
func Parse(b []byte) (*Catalog, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	c := &Catalog{texts: map[string]string{}, lists: map[string][]string{}}
	if len(doc.Content) == 0 {
		return c, nil
	}
	if err := c.walk("", doc.Content[0]); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Catalog) walk(prefix string, n *yaml.Node) error {
	switch n.Kind {
	case yaml.MappingNode:
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if seen[k] {
				return fmt.Errorf("line %d: %s given twice", n.Content[i].Line, k)
			}
			seen[k] = true
			if prefix != "" {
				k = prefix + "." + k
			}
			if err := c.walk(k, n.Content[i+1]); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		if prefix == "" {
			return fmt.Errorf("line %d: a text without a key", n.Line)
		}
		c.texts[prefix] = n.Value
	case yaml.SequenceNode:
		if prefix == "" {
			return fmt.Errorf("line %d: a list without a key", n.Line)
		}
		var l []string
		for _, e := range n.Content {
			if e.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: %s: a list holds texts only", e.Line, prefix)
			}
			l = append(l, e.Value)
		}
		c.lists[prefix] = l
	default:
		return fmt.Errorf("line %d: %s: not a text, list or mapping", n.Line, prefix)
	}
	return nil
}
