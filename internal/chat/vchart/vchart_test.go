package vchart

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/labgpu/bot/internal/chat"
)

func TestSpec(t *testing.T) {
	heat := &chat.HeatMap{Rows: []string{"一", "二"}, Cols: []string{"0", "1"}, Values: [][]float64{{0, 0.5}, {math.NaN(), 1}}}
	tests := []struct {
		name   string
		chart  *chat.BarChart
		typ    string
		values int
		last   map[string]any
	}{
		{"bars", &chat.BarChart{Title: "近 8 周存储花费（元）", Labels: []string{"W47", "W48"}, Values: []float64{2.1, 10.456}}, "bar", 2,
			map[string]any{"x": "W48", "y": 10.46, "k": "latest"}},
		{"a label missing", &chat.BarChart{Labels: []string{"W47"}, Values: []float64{2.1, 3}}, "bar", 2,
			map[string]any{"x": "", "y": 3.0, "k": "latest"}},
		{"heat map without unknown cells", &chat.BarChart{Heat: heat}, "heatmap", 3,
			map[string]any{"x": "1", "y": "二", "v": 1.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(Spec(tt.chart))
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Type  string `json:"type"`
				Label *struct {
					Visible bool `json:"visible"`
				} `json:"label"`
				Axes []struct {
					Orient string `json:"orient"`
					Expand *struct {
						Max float64 `json:"max"`
					} `json:"expand"`
				} `json:"axes"`
				Data []struct {
					Values []map[string]any `json:"values"`
				} `json:"data"`
			}
			if err := json.Unmarshal(data, &s); err != nil {
				t.Fatal(err)
			}
			v := s.Data[0].Values
			if s.Type != tt.typ || len(v) != tt.values {
				t.Fatalf("%s", data)
			}
			for k, want := range tt.last {
				if v[len(v)-1][k] != want {
					t.Errorf("last %s = %v, want %v", k, v[len(v)-1][k], want)
				}
			}
			if tt.typ == "bar" {
				// Value labels on, and room above the tallest bar.
				if s.Label == nil || !s.Label.Visible || s.Axes[1].Orient != "left" || s.Axes[1].Expand == nil || s.Axes[1].Expand.Max != Headroom {
					t.Errorf("bar spec %s", data)
				}
			}
		})
	}
	if Spec(nil) != nil {
		t.Error("a nil chart has a spec")
	}
}
