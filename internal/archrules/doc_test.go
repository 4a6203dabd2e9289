package archrules

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// docRow is one row of the import-rule tables of docs/architecture.md:
// the rule's name, the directory its packages are under ("" for the
// first table), the import it is about and what is allowed.
type docRow struct {
	name, under, imp string
	allowed          []string
}

// TestDocMatchesRules: the two tables of docs/architecture.md's "Import
// rules" are exactly the rules this package enforces, with the same
// imports and the same allowed packages.
func TestDocMatchesRules(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := docRows(string(b))
	want := map[string]docRow{}
	for _, r := range houseRules {
		want[r.name] = docRow{name: r.name, imp: r.Import, allowed: r.Allowed}
	}
	for _, c := range confined {
		want[c.name] = docRow{name: c.name, under: c.dir, imp: c.Import, allowed: c.Allowed}
	}
	for name, w := range want {
		d, ok := doc[name]
		switch {
		case !ok:
			t.Errorf("rule %q is not in docs/architecture.md", name)
		case d.under != w.under || d.imp != strings.TrimPrefix(w.imp, module+"/") || !sameSet(d.allowed, w.allowed):
			t.Errorf("rule %q: the doc says %+v, the test enforces %+v", name, d, w)
		}
	}
	for name := range doc {
		if _, ok := want[name]; !ok {
			t.Errorf("docs/architecture.md names a rule %q that no test enforces", name)
		}
	}
}

// docRows reads the rows of the tables under "## Import rules": a row of
// three cells is (rule, package, only from), of four (rule, packages
// under, import of, only).
func docRows(doc string) map[string]docRow {
	out := map[string]docRow{}
	_, sec, _ := strings.Cut(doc, "\n## Import rules")
	sec, _, _ = strings.Cut(sec, "\n## ")
	for _, line := range strings.Split(sec, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| rule") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch len(cells) {
		case 3:
			out[cells[0]] = docRow{name: cells[0], imp: code(cells[1]), allowed: codes(cells[2])}
		case 4:
			out[cells[0]] = docRow{name: cells[0], under: code(cells[1]), imp: code(cells[2]), allowed: codes(cells[3])}
		}
	}
	return out
}

func code(s string) string { return strings.Trim(s, "`") }

func codes(s string) []string {
	var out []string
	for _, c := range strings.Split(s, ",") {
		if c = code(strings.TrimSpace(c)); c != "" && c != "—" {
			out = append(out, c)
		}
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	sort.Strings(a)
	sort.Strings(b)
	return slices.Equal(a, b)
}
