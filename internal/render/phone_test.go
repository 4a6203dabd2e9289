package render_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/render"
)

// TestTextLines: lines wrapped at 36 cells, a CJK character two.
func TestTextLines(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 1},
		{strings.Repeat("a", 36), 1},
		{strings.Repeat("a", 37), 2},
		{strings.Repeat("显", 18), 1},
		{strings.Repeat("显", 19), 2},
		{"a\nb\n", 3},
	} {
		if got := render.TextLines(c.text); got != c.want {
			t.Errorf("%q: %d lines, want %d", c.text, got, c.want)
		}
	}
}

// TestFitPhone: a reply that fits is kept; a longer one keeps its title,
// its warnings before any row, rows in a table narrowed to the screen or
// as a short list, says how many rows are left out, and has the whole of
// it behind 详情; it never takes more than one screen.
func TestFitPhone(t *testing.T) {
	small := chat.Reply{Title: "有：AutoDL 2.18 元/卡时"}
	if got := render.FitPhone(small, small, false); got.Full != nil || got.Title != small.Title {
		t.Errorf("a reply that fits was cut: %+v", got)
	}
	wide := &chat.Table{Header: []string{"平台", "元/卡时", "空闲", "地区", "来源 · 时间"}}
	for i := range 9 {
		wide.Rows = append(wide.Rows, []string{fmt.Sprintf("平台%d", i), "2.18", "2", "西北B区", "录下的数据 · 5 分钟前"})
	}
	rep := chat.Reply{Title: "RTX 4090：录下的数据里最便宜有货的是 AutoDL 2.18 元/卡时，空闲 2（5 分钟前录下，不代表现在）。",
		Lines: []string{"⚠ 恒源云 数据获取失败：超时，它的库存未知。", "⚠ 矩池云 数据获取失败：登录凭证被拒（token 过期或填错，需要更新），它的库存未知。"},
		Table: wide, Notes: []string{"带“?”的空闲数不一定准，以开机页为准。", "美元报价按 1 USD = 7.20 元换算。"}}
	got := render.FitPhone(rep, rep, false)
	text := chat.PlainText(got)
	if n := render.ReplyLines(got); n > render.PhoneLines {
		t.Errorf("%d lines:\n%s", n, text)
	}
	if got.Full == nil || len(got.Full.Table.Rows) != 9 || !strings.Contains(text, "⚠ 矩池云") {
		t.Errorf("warnings or 详情 lost:\n%s", text)
	}
	if got.Table == nil || !render.TableFits(got.Table) || got.Table.Header[0] != "平台" || got.Table.Header[1] != "元/卡时" {
		t.Errorf("table not narrowed to the screen, its first columns kept: %+v", got.Table)
	}
	if !strings.Contains(text, "还有") {
		t.Errorf("the rows left out are not counted:\n%s", text)
	}
	// Too wide even with three columns: a short list naming its columns.
	long := &chat.Table{Header: []string{"platform", "GPU", "CNY"}}
	for range 20 {
		long.Rows = append(long.Rows, []string{"GPUShare (Hengyuan Cloud) Secure", "RTX 4090×1", "7.34"})
	}
	got = render.FitPhone(chat.Reply{Title: "x", Table: long}, chat.Reply{Table: long}, true)
	if got.Table != nil || !strings.Contains(chat.PlainText(got), "· GPUShare (Hengyuan Cloud) Secure RTX 4090×1, CNY 7.34") {
		t.Errorf("a table too wide is not a list:\n%s", chat.PlainText(got))
	}
}

// TestNarrowTable: the earliest columns that fit, at least three; a
// table that fits is kept.
func TestNarrowTable(t *testing.T) {
	fits := &chat.Table{Header: []string{"a", "b"}, Rows: [][]string{{"1", "2"}}}
	if render.NarrowTable(fits) != fits {
		t.Error("a table that fits was changed")
	}
	disk := &chat.Table{Header: []string{"平台", "免费数据盘", "数据盘 元/GB·天", "100GB 一个月", "价格日期"},
		Rows: [][]string{{"AutoDL", "50 GB", "0.0066-0.01", "~25", "2026-08"}, {"揽睿星舟", "0 GB", "未知", "未知", ""}}}
	got := render.NarrowTable(disk)
	if !render.TableFits(got) || len(got.Header) != 3 || got.Header[2] != "100GB 一个月" {
		t.Errorf("narrowed to %q", got.Header)
	}
}
