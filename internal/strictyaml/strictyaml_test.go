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
