package webhook

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
)

// digestReply is a digest as render.Digest makes it: lines, an idle
// table, notes and the 8-week chart.
func digestReply(table bool) chat.Reply {
	r := chat.Reply{
		Title: "存储花费周报 2026-W48（11-23 – 11-29）",
		Lines: []string{"合计 151.75 元，比上周 -10.55 元（-7%）。", "按人：", "  alice 80.20 元（53%）"},
		Notes: []string{"数据来自本群存储账本。"},
		Chart: &chat.BarChart{Title: "近 8 周存储花费（元）", Unit: " 元",
			Labels: []string{"W41", "W42", "W43", "W44", "W45", "W46", "W47", "W48"},
			Values: []float64{96.4, 102.3, 118, 131.25, 128.9, 144.6, 162.3, 151.754}},
	}
	if table {
		r.Table = &chat.Table{Header: []string{"闲置", "持有人"}, Rows: [][]string{{"#3", "bob"}}}
	}
	return r
}

// chartCardReq is a Feishu card request with chart elements.
type chartCardReq struct {
	MsgType string `json:"msg_type"`
	Content *struct {
		Text string `json:"text"`
	} `json:"content"`
	Card *struct {
		Header *struct {
			Title struct{ Content string } `json:"title"`
		} `json:"header"`
		Body struct {
			Elements []struct {
				Tag       string `json:"tag"`
				Content   string `json:"content"`
				ChartSpec *struct {
					Type   string `json:"type"`
					XField string `json:"xField"`
					YField string `json:"yField"`
					Title  struct {
						Text string `json:"text"`
					} `json:"title"`
					Label struct {
						Visible bool `json:"visible"`
					} `json:"label"`
					Data []struct {
						Values []struct {
							X string  `json:"x"`
							Y float64 `json:"y"`
							K string  `json:"k"`
						} `json:"values"`
					} `json:"data"`
				} `json:"chart_spec"`
			} `json:"elements"`
		} `json:"body"`
	} `json:"card"`
}

// tags lists a card's element tags, in order.
func (r chartCardReq) tags() string {
	var t []string
	for _, e := range r.Card.Body.Elements {
		t = append(t, e.Tag)
	}
	return strings.Join(t, ",")
}

// TestFeishuChartCard: the Feishu custom bot sends a reply with a chart
// as a card whose chart element (a VChart bar spec with value labels, the
// last bar marked latest) follows the lines, with or without a table.
func TestFeishuChartCard(t *testing.T) {
	for _, table := range []bool{false, true} {
		f := newFake(t, feishuOK, nil)
		b, _ := NewFeishuBot(f.feishuURL(), testSecret)
		if err := b.Send(context.Background(), digestReply(table)); err != nil {
			t.Fatal(err)
		}
		if f.count() != 1 {
			t.Fatalf("table %v: %d requests", table, f.count())
		}
		var req chartCardReq
		f.decode(0, &req)
		if req.MsgType != "interactive" || req.Card == nil {
			t.Fatalf("not a card: %s", f.requests()[0])
		}
		if got := req.tags(); got != "markdown,chart,markdown" {
			t.Fatalf("table %v: elements %s", table, got)
		}
		els := req.Card.Body.Elements
		if !strings.HasPrefix(els[0].Content, "合计 151.75 元") || !strings.Contains(els[2].Content, "数据来自本群存储账本") ||
			strings.Contains(els[2].Content, "| 闲置 |") != table {
			t.Errorf("markdown around the chart: %q / %q", els[0].Content, els[2].Content)
		}
		spec := els[1].ChartSpec
		if spec.Type != "bar" || spec.XField != "x" || spec.YField != "y" || !spec.Label.Visible || spec.Title.Text != "近 8 周存储花费（元）" {
			t.Errorf("spec %+v", spec)
		}
		v := spec.Data[0].Values
		if len(v) != 8 || v[0].X != "W41" || v[0].K != "past" || v[7].X != "W48" || v[7].Y != 151.75 || v[7].K != "latest" {
			t.Errorf("values %+v", v)
		}
	}
}

// TestFeishuChartLongTable: a table too long for one card splits; the
// first card carries the chart after the lines, every card is under the
// body limit, and no row is lost.
func TestFeishuChartLongTable(t *testing.T) {
	f := newFake(t, feishuOK, nil)
	b, _ := NewFeishuBot(f.feishuURL(), "", WithRateLimit(0, 0))
	r := digestReply(true)
	r.Table.Rows = nil
	for i := range 600 {
		r.Table.Rows = append(r.Table.Rows, []string{"#" + strings.Repeat("9", 3), strings.Repeat("很长的备注", 4) + string(rune('a'+i%26))})
	}
	if err := b.Send(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) < 2 {
		t.Fatalf("%d cards", len(reqs))
	}
	rows := 0
	for i, body := range reqs {
		if len(body) > feishuMaxBody {
			t.Errorf("card %d is %d bytes", i, len(body))
		}
		var req chartCardReq
		f.decode(i, &req)
		if has := strings.Contains(req.tags(), "chart"); has != (i == 0) {
			t.Errorf("card %d elements %s", i, req.tags())
		}
		for _, e := range req.Card.Body.Elements {
			rows += strings.Count(e.Content, "| #999 |")
		}
	}
	if rows != 600 {
		t.Errorf("%d rows arrived, want 600", rows)
	}
}

// TestFeishuChartFallback: a refused chart card goes again as text with
// the chart as text bars; WithPlainText sends that text at once.
func TestFeishuChartFallback(t *testing.T) {
	f := newFake(t, "", sequence(status(400, `{"code":9499,"msg":"Bad Request"}`), status(200, feishuOK)))
	b, _ := NewFeishuBot(f.feishuURL(), "", fast(3)...)
	if err := b.Send(context.Background(), digestReply(false)); err != nil {
		t.Fatal(err)
	}
	var first, second chartCardReq
	f.decode(0, &first)
	f.decode(1, &second)
	if first.MsgType != "interactive" || second.MsgType != "text" || !strings.Contains(second.Content.Text, "W48 ") {
		t.Fatalf("got %s then %s: %s", first.MsgType, second.MsgType, f.requests()[1])
	}
	f = newFake(t, feishuOK, nil)
	b, _ = NewFeishuBot(f.feishuURL(), "", WithPlainText())
	if err := b.Send(context.Background(), digestReply(false)); err != nil {
		t.Fatal(err)
	}
	var req chartCardReq
	f.decode(0, &req)
	if req.MsgType != "text" || !strings.Contains(req.Content.Text, "W48 ") {
		t.Fatalf("plain text option: %s", f.requests()[0])
	}
}

type wecomImageReq struct {
	MsgType string `json:"msgtype"`
	Image   *struct {
		Base64 string `json:"base64"`
		MD5    string `json:"md5"`
	} `json:"image"`
}

// TestWeComChartImage: the WeCom robot sends a reply's text, then its
// chart as an image message (base64 of the PNG and the hex MD5 of its
// bytes); a chart that cannot be drawn, or is over 2 MB, leaves the text
// sent and the send successful; without WithChartPNG no image goes.
func TestWeComChartImage(t *testing.T) {
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte("chart"), 100)...)
	tests := []struct {
		name  string
		opts  []Option
		table bool
		kinds string
		image []byte
	}{
		{"text then image", []Option{WithChartPNG(func(*chat.BarChart) ([]byte, error) { return png, nil })}, false, "text,image", png},
		{"markdown then image", []Option{WithChartPNG(func(*chat.BarChart) ([]byte, error) { return png, nil })}, true, "markdown,image", png},
		{"plain text still gets the image", []Option{WithPlainText(), WithChartPNG(func(*chat.BarChart) ([]byte, error) { return png, nil })}, true, "text,image", png},
		{"drawing fails", []Option{WithChartPNG(func(*chat.BarChart) ([]byte, error) { return nil, errors.New("no font") })}, false, "text", nil},
		{"over 2 MB", []Option{WithChartPNG(func(*chat.BarChart) ([]byte, error) { return make([]byte, wecomMaxImage+1), nil })}, false, "text", nil},
		{"no renderer", nil, false, "text", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, wecomOK, nil)
			w, err := NewWeCom(f.wecomURL(), append(tt.opts, WithRateLimit(0, 0))...)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Send(context.Background(), digestReply(tt.table)); err != nil {
				t.Fatalf("send: %v", err)
			}
			var kinds []string
			for i := range f.count() {
				var req wecomImageReq
				f.decode(i, &req)
				kinds = append(kinds, req.MsgType)
				if req.MsgType != "image" {
					continue
				}
				data, err := base64.StdEncoding.DecodeString(req.Image.Base64)
				sum := md5.Sum(data)
				if err != nil || !bytes.Equal(data, tt.image) || req.Image.MD5 != hex.EncodeToString(sum[:]) {
					t.Errorf("image %d bytes (%v), md5 %s", len(data), err, req.Image.MD5)
				}
			}
			if got := strings.Join(kinds, ","); got != tt.kinds {
				t.Errorf("messages %s, want %s", got, tt.kinds)
			}
		})
	}
}
