package frame_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/understand"
)

// TestOverlayDecodesReferencesAfresh: Overlay decodes the merged Query
// into a copy of the frame's, and json.Unmarshal reuses the slices and
// pointers it decodes into, so every JSON field of the Query that is a
// slice, map or pointer must be reset before (its hand-kept list in
// Overlay): else the merged Query shares it with the frame's and the
// decode writes into the frame. Each such field is set in the frame and
// must come back not shared.
func TestOverlayDecodesReferencesAfresh(t *testing.T) {
	var m understand.Query
	v := reflect.ValueOf(&m).Elem()
	var fields []int
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Slice:
			v.Field(i).Set(reflect.MakeSlice(f.Type, 1, 4))
		case reflect.Pointer:
			v.Field(i).Set(reflect.New(f.Type.Elem()))
		case reflect.Map:
			v.Field(i).Set(reflect.MakeMap(f.Type))
		default:
			continue
		}
		fields = append(fields, i)
	}
	if len(fields) == 0 {
		t.Fatal("no slice, map or pointer field in the Query: the test reads the wrong type")
	}
	got := reflect.ValueOf(frame.Overlay(m, understand.Query{}))
	for _, i := range fields {
		a, b := v.Field(i), got.Field(i)
		if !b.IsNil() && a.Pointer() == b.Pointer() {
			t.Errorf("Overlay shares %s with the frame's Query: reset it before the decode", v.Type().Field(i).Name)
		}
	}
}
