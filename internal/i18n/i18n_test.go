package i18n

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func TestVerbs(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{"no verbs", ""},
		{"%s 有 %d 张", "1s 2d"},
		{"100%% 的 %.2f 元", "1f"},
		{"%[2]s then %[1]s", "2s 1s"},
		{"%*d", "1* 2d"},
		{"%-6s|%+.1f", "1s 2f"},
	}
	for _, c := range cases {
		var got []string
		for _, v := range Verbs(c.in) {
			got = append(got, fmt.Sprintf("%d%c", v.Arg, v.Letter))
		}
		if s := strings.Join(got, " "); s != c.want {
			t.Errorf("Verbs(%q) = %q, want %q", c.in, s, c.want)
		}
	}
}

// TestCatalogsAgree: both languages have the same keys, each text the
// same verbs for the same arguments, each list the same length.
func TestCatalogsAgree(t *testing.T) {
	zh, en := Embedded()[0], Embedded()[1]
	for _, f := range Files {
		if _, err := Load(f); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	zt, zl := zh.Keys()
	et, el := en.Keys()
	sort.Strings(zt)
	sort.Strings(et)
	sort.Strings(zl)
	sort.Strings(el)
	for _, k := range diff(zt, et) {
		t.Errorf("text %s is in one language only", k)
	}
	for _, k := range diff(zl, el) {
		t.Errorf("list %s is in one language only", k)
	}
	for _, k := range zt {
		a, _ := zh.Text(k)
		b, ok := en.Text(k)
		if !ok {
			continue
		}
		if va, vb := verbSet(a), verbSet(b); va != vb {
			t.Errorf("%s: verbs differ: zh %q (%s), en %q (%s)", k, a, va, b, vb)
		}
	}
	for _, k := range zl {
		a, _ := zh.List(k)
		if b, ok := en.List(k); ok && len(a) != len(b) {
			t.Errorf("list %s: %d items in zh, %d in en", k, len(a), len(b))
		}
	}
}

func verbSet(s string) string {
	var vs []string
	for _, v := range Verbs(s) {
		vs = append(vs, fmt.Sprintf("%d%c", v.Arg, v.Letter))
	}
	sort.Strings(vs)
	return strings.Join(vs, " ")
}

func diff(a, b []string) []string {
	var out []string
	for _, k := range a {
		if !slices.Contains(b, k) {
			out = append(out, k)
		}
	}
	for _, k := range b {
		if !slices.Contains(a, k) {
			out = append(out, k)
		}
	}
	return out
}

// TestCallsMatchCatalog: every Lang.T and Lang.L call in the bot's Go
// names a key of the catalog with a literal, T with as many arguments as
// the text's verbs; every key of the catalog is named somewhere in Go (as
// a call's key or a literal a table of keys holds).
func TestCallsMatchCatalog(t *testing.T) {
	zh := Embedded()[0]
	used := map[string]bool{}
	root := moduleRoot(t)
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					if s, err := strconv.Unquote(n.Value); err == nil {
						used[s] = true
					}
				}
			case *ast.CallExpr:
				checkCall(t, fset, zh, n)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	texts, lists := zh.Keys()
	for _, k := range append(texts, lists...) {
		if !used[k] {
			t.Errorf("message %s is never used", k)
		}
	}
}

// checkCall checks a call x.T("key", …) or x.L("key").
func checkCall(t *testing.T, fset *token.FileSet, c *Catalog, call *ast.CallExpr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "T" && sel.Sel.Name != "L" || len(call.Args) == 0 {
		return
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return
	}
	key, err := strconv.Unquote(lit.Value)
	if err != nil || !strings.Contains(key, ".") || strings.ContainsAny(key, " %") {
		return
	}
	pos := fset.Position(call.Pos())
	if sel.Sel.Name == "L" {
		if _, ok := c.List(key); !ok {
			t.Errorf("%s: no list %s in the catalog", pos, key)
		}
		return
	}
	s, ok := c.Text(key)
	if !ok {
		t.Errorf("%s: no message %s in the catalog", pos, key)
		return
	}
	if call.Ellipsis.IsValid() {
		return
	}
	if got, want := len(call.Args)-1, Args(s); got != want {
		t.Errorf("%s: %s takes %d arguments, the call gives %d", pos, key, want, got)
	}
}

func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the package")
		}
		dir = parent
	}
}

func TestLangAndMissingKey(t *testing.T) {
	if Of(true) != EN || Of(false) != ZH || EN.Code() != "en" || !EN.English() {
		t.Error("Of/Code/English")
	}
	if got := ZH.T("no.such.key"); got != "" {
		t.Errorf("missing key gave %q", got)
	}
	if Pick(EN, 1, 2) != 2 || Pick(ZH, 1, 2) != 1 {
		t.Error("Pick")
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"a: {b: [x, {c: d}]}", "a:\n  b: x\na: y", "- x"} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) gave no error", in)
		}
	}
}
