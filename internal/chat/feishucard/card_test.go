package feishucard

import (
	"testing"

	"github.com/labgpu/bot/internal/chat"
)

func TestNew(t *testing.T) {
	for _, c := range []struct {
		name  string
		style Style
		title string
		want  string
	}{
		{"app titled", App, "标题", `{"schema":"2.0","config":{"update_multi":true,"summary":{"content":"标题"}},"header":{"title":{"tag":"plain_text","content":"标题"},"template":"blue"},"body":{"elements":[{"tag":"markdown","content":"a <at id=ou_1></at> & b"}]}}`},
		{"app untitled", App, "", `{"schema":"2.0","config":{"update_multi":true},"body":{"elements":[{"tag":"markdown","content":"a <at id=ou_1></at> & b"}]}}`},
		{"custom titled", Custom, "标题", `{"schema":"2.0","header":{"title":{"tag":"plain_text","content":"标题"}},"body":{"elements":[{"tag":"markdown","content":"a <at id=ou_1></at> & b"}]}}`},
		{"custom untitled", Custom, "", `{"schema":"2.0","body":{"elements":[{"tag":"markdown","content":"a <at id=ou_1></at> & b"}]}}`},
	} {
		b, err := JSON(c.style.New(c.title, Markdown("a "+At("ou_1")+" & b")))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, b, c.want)
		}
	}
}

func TestPanelAndChart(t *testing.T) {
	b, err := JSON(App.New("", Panel("详情", "x"), Chart(&chat.BarChart{Labels: []string{"a"}, Values: []float64{1}})))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"schema":"2.0","config":{"update_multi":true},"body":{"elements":[{"tag":"collapsible_panel","expanded":false,"header":{"title":{"tag":"plain_text","content":"详情"}},"elements":[{"tag":"markdown","content":"x"}]},{"tag":"chart","chart_spec":`
	if len(b) < len(want) || string(b[:len(want)]) != want {
		t.Errorf("got %s", b)
	}
}

func TestEscaping(t *testing.T) {
	for _, c := range []struct {
		style      Style
		in         string
		text, cell string
	}{
		{App, "a<b>|c", "a&lt;b&gt;|c", `a&lt;b&gt;\|c`},
		{App, "", "", " "},
		{App, "  两  空  ", "  两  空  ", "  两  空  "},
		{App, "x\r\ny\nz", "x\r\ny\nz", "x y z"},
		{Custom, "a<b>|c", "a<b>|c", `a<b>\|c`},
		{Custom, "", "", " "},
		{Custom, "  两  空  ", "  两  空  ", "两 空"},
		{Custom, "x\r\ny\nz", "x\r\ny\nz", "x y z"},
		{Custom, " \n ", " \n ", " "},
	} {
		if got := c.style.Text(c.in); got != c.text {
			t.Errorf("%+v Text(%q) = %q, want %q", c.style, c.in, got, c.text)
		}
		if got := c.style.Cell(c.in); got != c.cell {
			t.Errorf("%+v Cell(%q) = %q, want %q", c.style, c.in, got, c.cell)
		}
	}
}

func TestTable(t *testing.T) {
	tb := &chat.Table{Header: []string{"平台", "价格"}, Rows: [][]string{{"a|b", "1"}, {"c", "2", "多"}}}
	got := App.TableText(tb.Header, tb.Rows, Columns(tb))
	want := "| 平台 | 价格 |   |\n| --- | --- | --- |\n| a\\|b | 1 |   |\n| c | 2 | 多 |"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
