package commands_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestVersion: "版本" names the build, the catalog's date and the stock
// sources, in the asker's language; the JSON form carries the figures.
func TestVersion(t *testing.T) {
	r := newRouter(t)
	cases := []struct {
		ask   string
		wants []string
	}{
		{"版本", []string{"labgpu bot ", "价目表：", "个平台，最新的标价日期 20", "库存数据来源：目录标价 正常、录下的数据 正常"}},
		{"机器人现在是什么版本？", []string{"labgpu bot ", "价目表："}},
		{"what version are you running", []string{"labgpu bot ", "Catalog: ", "platforms, newest list price dated 20", "Stock sources: catalog list prices ok, recordings ok"}},
	}
	for _, c := range cases {
		res := ask(r, c.ask)
		if res.Intent != "version" {
			t.Errorf("%q: intent %q", c.ask, res.Intent)
			continue
		}
		mustContain(t, res.Text, c.wants...)
	}
	b, err := json.Marshal(ask(r, "版本"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Intent    string `json:"intent"`
		Build     string `json:"build"`
		GoVersion string `json:"go_version"`
		AsOf      string `json:"catalog_as_of"`
		Sources   []struct{ Provider, Status string }
		Text      string `json:"text"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if got.Intent != "version" || got.Build == "" || !strings.HasPrefix(got.GoVersion, "go") || got.AsOf == "" || len(got.Sources) != 2 || got.Text == "" {
		t.Errorf("json: %s", b)
	}
}
