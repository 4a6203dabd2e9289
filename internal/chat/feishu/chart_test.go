package feishu

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
)

// TestChartCard: a reply with a bar chart becomes one card 2.0 with a
// chart element (VChart bar spec) after the lines, with or without a table.
func TestChartCard(t *testing.T) {
	chart := &chat.BarChart{Title: "近 8 周", Labels: []string{"W47", "W48"}, Values: []float64{2.1, 10.456}}
	for _, table := range []*chat.Table{nil, {Header: []string{"a"}, Rows: [][]string{{"1"}}}} {
		cards, err := renderCards(chat.Reply{Title: "周报", Lines: []string{"合计 10.46 元"}, Table: table, Notes: []string{"n"}, Chart: chart}, nil)
		if err != nil || len(cards) != 1 {
			t.Fatalf("cards %d, %v", len(cards), err)
		}
		var c struct {
			Body struct {
				Elements []struct {
					Tag       string `json:"tag"`
					Content   string `json:"content"`
					ChartSpec struct {
						Type string `json:"type"`
						Data []struct {
							Values []struct {
								X string  `json:"x"`
								Y float64 `json:"y"`
							} `json:"values"`
						} `json:"data"`
					} `json:"chart_spec"`
				} `json:"elements"`
			} `json:"body"`
		}
		if err := json.Unmarshal([]byte(cards[0]), &c); err != nil {
			t.Fatal(err)
		}
		els := c.Body.Elements
		if len(els) < 3 || els[0].Tag != "markdown" || els[1].Tag != "chart" || els[1].ChartSpec.Type != "bar" {
			t.Fatalf("elements %s", cards[0])
		}
		v := els[1].ChartSpec.Data[0].Values
		if len(v) != 2 || v[1].X != "W48" || v[1].Y != 10.46 {
			t.Errorf("chart values %+v", v)
		}
	}
}

// TestChartInFirstOfSeveralCards: a long table splits into cards; only the
// first carries the chart.
func TestChartInFirstOfSeveralCards(t *testing.T) {
	rows := make([][]string, 400)
	for i := range rows {
		rows[i] = []string{"#" + strings.Repeat("9", 3), strings.Repeat("很长的备注", 6)}
	}
	cards, err := renderCards(chat.Reply{Title: "周报", Lines: []string{"合计"}, Table: &chat.Table{Header: []string{"a", "b"}, Rows: rows},
		Chart: &chat.BarChart{Labels: []string{"W48"}, Values: []float64{1}}}, nil)
	if err != nil || len(cards) < 2 {
		t.Fatalf("%d cards, %v", len(cards), err)
	}
	for i, c := range cards {
		if has := strings.Contains(c, `"tag":"chart"`); has != (i == 0) {
			t.Errorf("card %d has a chart: %v", i, has)
		}
	}
}
