// Package archrules holds the test that keeps the house rules of
// docs/architecture.md: which package may import what.
package archrules

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// module is the repository's module path.
const module = "github.com/labgpu/bot"

// rule forbids importing Import (a path prefix) from any package whose
// directory (relative to the root, slash-separated) is not under one of
// Allowed.
type rule struct {
	name    string
	Import  string
	Allowed []string
}

// houseRules are docs/architecture.md's import rules.
var houseRules = []rule{
	{"the Feishu SDK stays in its channel", "github.com/larksuite/oapi-sdk-go", []string{"internal/chat/feishu"}},
	{"the WeChat SDK stays in its channel", "github.com/eatmoreapple/openwechat", []string{"internal/chat/wechat"}},
	{"go-redis stays in the Redis store", "github.com/redis/go-redis", []string{"internal/store/redis"}},
	{"cron stays in jobs", "github.com/robfig/cron", []string{"internal/jobs"}},
	{"only the command line builds the app", module + "/internal/app", []string{"cmd", "internal/app"}},
	{"only the app wires the router", module + "/internal/commands", []string{"cmd", "internal/app", "internal/commands"}},
	// The areas' answers under internal/commands read the Query the router
	// understood (and its number helpers): "internal/commands" covers them.
	{"only the router and its answers understand messages", module + "/internal/understand", []string{"internal/commands", "internal/understand"}},
	{"only the app and the command line read the config", module + "/internal/config", []string{"cmd", "internal/app", "internal/config"}},
	{"the domain knows no store", module + "/internal/store", []string{"internal/store", "internal/app", "internal/commands", "cmd"}},
	{"the domain knows no jobs", module + "/internal/jobs", []string{"internal/jobs", "internal/app", "internal/config", "cmd"}},
}

// chatOnly: a package under internal/chat imports no package of the bot
// outside internal/chat but the retry policy (Allowed lists what it may
// import here).
var chatOnly = rule{"channels know nothing of the domain", module + "/internal/", []string{"internal/chat", "internal/retry", "internal/i18n", "configs"}}

// slotsOnly: the slot extractors under internal/understand/slots import
// nothing of the pipeline around them (understand, its scorer).
var slotsOnly = rule{"the slot extractors know nothing of the pipeline", module + "/internal/understand", []string{"internal/understand/slots"}}

// answersNoRegexp, answersNoTextgate: the answers under internal/commands
// read the Query, never the message text: no regular expressions there
// (the slot extractors in internal/understand/slots read the text).
var (
	answersNoRegexp   = rule{"answers read only the Query (no regexp)", "regexp", nil}
	answersNoTextgate = rule{"answers read only the Query (no textgate)", module + "/internal/textgate", nil}
)

// confined are the rules on what a directory's packages import: a package
// under dir breaks its rule by importing anything under Import outside
// Allowed.
var confined = []struct {
	dir string
	rule
}{{"internal/chat", chatOnly}, {"internal/understand/slots", slotsOnly},
	{"internal/commands", answersNoRegexp}, {"internal/commands", answersNoTextgate}}

// violation is one import that breaks a rule.
type violation struct{ file, imp, rule string }

// check parses every non-test Go file under root (skipping testdata and
// hidden directories) and returns the imports that break the rules.
func check(t *testing.T, root string) []violation {
	t.Helper()
	var out []violation
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		for _, is := range f.Imports {
			imp, _ := strconv.Unquote(is.Path.Value)
			file := filepath.ToSlash(mustRel(root, path))
			for _, r := range houseRules {
				if strings.HasPrefix(imp, r.Import) && !under(rel, r.Allowed) {
					out = append(out, violation{file, imp, r.name})
				}
			}
			for _, c := range confined {
				if under(rel, []string{c.dir}) && importsUnder(imp, c.Import) && !under(strings.TrimPrefix(imp, module+"/"), c.Allowed) {
					out = append(out, violation{file, imp, c.name})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].file+out[i].imp < out[j].file+out[j].imp })
	return out
}

// importsUnder: imp is the package prefix names or one below it ("regexp"
// covers "regexp/syntax", not "regexpx"); a prefix ending in "/" covers
// everything under it.
func importsUnder(imp, prefix string) bool {
	if strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(imp, prefix)
	}
	return imp == prefix || strings.HasPrefix(imp, prefix+"/")
}

func under(rel string, dirs []string) bool {
	for _, d := range dirs {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}

func mustRel(root, path string) string {
	r, _ := filepath.Rel(root, path)
	return r
}

// TestHouseRules: the repository keeps the import rules.
func TestHouseRules(t *testing.T) {
	for _, v := range check(t, filepath.Join("..", "..")) {
		t.Errorf("%s imports %s: breaks %q (docs/architecture.md)", v.file, v.imp, v.rule)
	}
}

// TestHouseRulesCatchBreaks: a fixture tree that breaks every rule is
// caught, rule by rule, and its allowed imports are not.
func TestHouseRulesCatchBreaks(t *testing.T) {
	got := map[string][]string{}
	for _, v := range check(t, filepath.Join("testdata", "broken")) {
		got[v.rule] = append(got[v.rule], v.file)
	}
	for _, r := range append(houseRules, chatOnly, slotsOnly, answersNoRegexp, answersNoTextgate) {
		if len(got[r.name]) == 0 {
			t.Errorf("rule %q: the broken tree's violation was not caught", r.name)
		}
	}
	for rule, files := range got {
		for _, f := range files {
			if strings.Contains(f, "allowed") {
				t.Errorf("rule %q flagged an allowed import in %s", rule, f)
			}
		}
	}
}
