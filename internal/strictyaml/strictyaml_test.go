package strictyaml_test

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/strictyaml"
)

type doc struct {
	Name  string `yaml:"name"`
	Items []struct {
		ID int `yaml:"id"`
	} `yaml:"items"`
}

func TestDecode(t *testing.T) {
	cases := []struct {
		in, want string // want: "" for no error, else a part of the one-line error
	}{
		{"name: a\nitems:\n  - id: 1\n", ""},
		{"", ""},
		{"name: a\ncolour: red\n", `line 2: unknown key "colour"`},
		{"items:\n  - id: 1\n    idd: 2\n", `line 3: unknown key "idd"`},
		{"items:\n  - id: one\n", `line 2: items[0].id: "one" is not a whole number`},
		{"name: [a]\n", "line 1: name: a list where a single value belongs"},
		{"name: a\n---\nname: b\n", "line 2: a second YAML document"},
		{"name: [unclosed\n", "line"},
		{"name: a\nname: b\n", `"name" already defined`},
	}
	for _, c := range cases {
		var d doc
		err := strictyaml.Decode([]byte(c.in), &d)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%q: error %v, want one line with %q", c.in, err, c.want)
		}
	}
}

type nested struct {
	Stock struct {
		Timeout string `yaml:"timeout"`
		Poll    struct {
			Schedule string `yaml:"schedule"`
		} `yaml:"poll"`
	} `yaml:"stock"`
	Inline `yaml:",inline"`
	Items  []struct {
		ID int `yaml:"id"`
	} `yaml:"items"`
}

type Inline struct {
	Feishu struct {
		AppID string `yaml:"app_id"`
	} `yaml:"feishu"`
}

// TestEveryProblem: every value that does not fit and every unknown key
// is reported, each with its line, and an unknown key with the key it
// may have meant (or the keys its place takes).
func TestEveryProblem(t *testing.T) {
	doc := "stock:\n  timout: 5s\n  poll:\n    schedul: x\nfeishu:\n  appid: x\nitems:\n  - id: one\n  - id: 2\n    zzz: 1\nfoo: 1\n"
	var d nested
	err := strictyaml.Decode([]byte(doc), &d)
	want := []string{
		`line 2: unknown key "timout" under stock (did you mean "timeout"?)`,
		`line 4: unknown key "schedul" under stock.poll (did you mean "schedule"?)`,
		`line 6: unknown key "appid" under feishu (did you mean "app_id"?)`,
		`line 8: items[0].id: "one" is not a whole number (write e.g. 3)`,
		`line 10: unknown key "zzz" under items[1] (it takes id)`,
		`line 11: unknown key "foo" at the top level (it takes feishu, items, stock)`,
	}
	got := strictyaml.Problems(err)
	if len(got) != len(want) {
		t.Fatalf("problems %v, want %d", got, len(want))
	}
	for i, p := range got {
		if p.String() != want[i] {
			t.Errorf("problem %d = %q, want %q", i, p.String(), want[i])
		}
	}
	if err.Error() != want[0] {
		t.Errorf("Error() = %q, want the first problem", err.Error())
	}
}

func TestLines(t *testing.T) {
	got := strictyaml.Lines([]byte("stock:\n  timeout: 5s\nitems:\n  - id: 1\n  - id: 2\nlabs:\n  nlp: [\"a\", \"b\"]\n"))
	want := map[string]int{"stock": 1, "stock.timeout": 2, "items": 3, "items[0]": 4, "items[0].id": 4, "items[1]": 5, "items[1].id": 5, "labs": 6, "labs.nlp": 7, "labs.nlp[0]": 7, "labs.nlp[1]": 7}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("line of %s = %d, want %d", k, got[k], v)
		}
	}
}
