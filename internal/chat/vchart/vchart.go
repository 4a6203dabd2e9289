// Package vchart turns a chat.BarChart into the VChart spec of a Feishu
// card 2.0 chart element (tag "chart", field chart_spec), shared by the
// Feishu app and the Feishu custom bot webhook so that both draw the same
// chart. Feishu renders the spec in the client, in the reader's own font.
package vchart

import (
	"math"

	"github.com/labgpu/bot/internal/chat"
)

// Colours: Feishu blue for the latest bar, lighter for the earlier ones
// (as in the PNG charts); the heat map from light grey to blue.
const (
	latestColor = "#3370ff"
	pastColor   = "#a9c2ff"
)

// Headroom is the share of the tallest bar's height left empty above it
// (the value axis' expand.max), so that its value label fits.
const Headroom = 0.18

// Spec is the chart_spec for c: a bar chart, or a heat map when c.Heat
// is set. nil for nil.
func Spec(c *chat.BarChart) map[string]any {
	switch {
	case c == nil:
		return nil
	case c.Heat != nil:
		return heatSpec(c)
	}
	return barSpec(c)
}

// barSpec is one bar per value (rounded to 0.01) over its label, the value
// written on top of each bar, the last bar (the latest period) in full
// blue and the others lighter, no legend, and Headroom above the tallest.
// Data points are {"x": label, "y": value, "k": "past"|"latest"}.
func barSpec(c *chat.BarChart) map[string]any {
	values := make([]map[string]any, 0, len(c.Values))
	for i, v := range c.Values {
		label := ""
		if i < len(c.Labels) {
			label = c.Labels[i]
		}
		k := "past"
		if i == len(c.Values)-1 {
			k = "latest"
		}
		values = append(values, map[string]any{"x": label, "y": math.Round(v*100) / 100, "k": k})
	}
	spec := map[string]any{
		"type":        "bar",
		"data":        []any{map[string]any{"id": "bars", "values": values}},
		"xField":      "x",
		"yField":      "y",
		"seriesField": "k",
		"color":       map[string]any{"type": "ordinal", "domain": []string{"past", "latest"}, "range": []string{pastColor, latestColor}},
		"label":       map[string]any{"visible": true, "position": "top"},
		"legends":     map[string]any{"visible": false},
		"axes": []any{
			map[string]any{"orient": "bottom", "type": "band"},
			map[string]any{"orient": "left", "type": "linear", "min": 0, "expand": map[string]any{"max": Headroom}, "grid": map[string]any{"visible": true}},
		},
	}
	if c.Title != "" {
		spec["title"] = map[string]any{"text": c.Title}
	}
	return spec
}

// heatSpec is one cell per row × column, coloured by share from light
// grey (0) to blue (1); unknown cells are left out.
func heatSpec(c *chat.BarChart) map[string]any {
	var values []map[string]any
	for i, row := range c.Heat.Values {
		for j, v := range row {
			if math.IsNaN(v) || i >= len(c.Heat.Rows) || j >= len(c.Heat.Cols) {
				continue
			}
			values = append(values, map[string]any{"x": c.Heat.Cols[j], "y": c.Heat.Rows[i], "v": math.Round(v*100) / 100})
		}
	}
	spec := map[string]any{"type": "heatmap", "data": []any{map[string]any{"values": values}}, "xField": "x", "yField": "y", "valueField": "v",
		"cell":  map[string]any{"style": map[string]any{"fill": map[string]any{"field": "v", "scale": "color"}}},
		"color": map[string]any{"type": "linear", "domain": []any{map[string]any{"dataId": 0, "fields": []string{"v"}}}, "range": []string{"#f2f3f5", latestColor}},
		"axes":  []any{map[string]any{"orient": "bottom", "type": "band"}, map[string]any{"orient": "left", "type": "band"}}}
	if c.Title != "" {
		spec["title"] = map[string]any{"text": c.Title}
	}
	return spec
}
