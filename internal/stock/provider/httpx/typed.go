package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
)

// Typed decoding of the platforms' answers. The platforms' JSON is loose: a
// number may come as a string, a field may be null or of another type, a
// list may hold rows that are not objects. The types below decode such
// values without ever failing, reading a value of the wrong type as
// absent, exactly as Num, Str, Bool and Dig read the untyped values of
// DecodeJSON. Object matches keys exactly (encoding/json alone would match
// them case-insensitively).

// DecodeRaw checks that b is one JSON value and returns it undecoded, with
// DecodeJSON's errors ("empty body", trailing data, syntax errors).
func DecodeRaw(b []byte) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty body")
		}
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// RawKind names the JSON type of a raw value as JSONKind does ("null",
// "boolean", "string", "list", "object" or "number"); "" when raw is
// empty (the field was absent).
func RawKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	case '"':
		return "string"
	case '[':
		return "list"
	case '{':
		return "object"
	}
	return "number"
}

// Present reports whether a raw field was in its object with a value other
// than null.
func Present(raw json.RawMessage) bool {
	k := RawKind(raw)
	return k != "" && k != "null"
}

// Text is a JSON string, trimmed, or a number as written; "" for anything
// else (Str).
type Text string

// UnmarshalJSON never fails.
func (t *Text) UnmarshalJSON(b []byte) error {
	*t = ""
	switch RawKind(b) {
	case "string":
		var s string
		if json.Unmarshal(b, &s) == nil {
			*t = Text(strings.TrimSpace(s))
		}
	case "number":
		*t = Text(bytes.TrimSpace(b))
	}
	return nil
}

// RawText reads a raw value as Text.
func RawText(raw json.RawMessage) string {
	var t Text
	_ = t.UnmarshalJSON(raw)
	return string(t)
}

// RawNumber reads a raw value as a Number.
func RawNumber(raw json.RawMessage) Number {
	var n Number
	_ = n.UnmarshalJSON(raw)
	return n
}

// Number is a finite JSON number or numeric string (Num); OK is false when
// absent, null, non-numeric or not finite.
type Number struct {
	F  float64
	OK bool
}

// UnmarshalJSON never fails.
func (n *Number) UnmarshalJSON(b []byte) error {
	*n = Number{}
	var s string
	switch RawKind(b) {
	case "string":
		if json.Unmarshal(b, &s) != nil {
			return nil
		}
	case "number":
		s = string(bytes.TrimSpace(b))
	default:
		return nil
	}
	n.F, n.OK = Num(s)
	return nil
}

// Count reads the number as a GPU count (Count): nil when absent or
// nonsense.
func (n Number) Count() *int { return count(n.F, n.OK) }

// Price reads the number as a price in units of 1/per (Price).
func (n Number) Price(per float64) float64 { return price(n.F, n.OK, per) }

// Flag is a JSON boolean, also 0/1 and "true"/"false" (Bool); OK is false
// when absent, null or of another type.
type Flag struct {
	V, OK bool
}

// UnmarshalJSON never fails.
func (f *Flag) UnmarshalJSON(b []byte) error {
	*f = Flag{}
	var v any
	switch RawKind(b) {
	case "boolean":
		v = string(bytes.TrimSpace(b)) == "true"
	case "string":
		var s string
		if json.Unmarshal(b, &s) != nil {
			return nil
		}
		v = s
	case "number":
		v = json.Number(bytes.TrimSpace(b))
	default:
		return nil
	}
	f.V, f.OK = Bool(v)
	return nil
}

// Object is a JSON object decoded into T (OK true); any other value,
// null included, leaves it zero. T's exported fields are matched by their
// json tags exactly (the last of duplicate keys wins); their types should
// be the lenient ones of this file (or json.RawMessage), and a field that
// does not decode is left zero.
type Object[T any] struct {
	V  T
	OK bool
}

// UnmarshalJSON never fails.
func (o *Object[T]) UnmarshalJSON(b []byte) error {
	*o = Object[T]{}
	var m map[string]json.RawMessage
	if RawKind(b) != "object" || json.Unmarshal(b, &m) != nil {
		return nil
	}
	o.OK = true
	rv := reflect.ValueOf(&o.V).Elem()
	rt := rv.Type()
	for i := range rt.NumField() {
		f := rt.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		raw, ok := m[name]
		if !ok || name == "" || name == "-" || !f.IsExported() {
			continue
		}
		if err := json.Unmarshal(raw, rv.Field(i).Addr().Interface()); err != nil {
			rv.Field(i).SetZero()
		}
	}
	return nil
}

// List is a JSON list of T (OK true); any other value leaves it empty.
// Use Object[X] (or Text, Number) as T to keep rows of the wrong type as
// zero values.
type List[T any] struct {
	V  []T
	OK bool
}

// UnmarshalJSON never fails.
func (l *List[T]) UnmarshalJSON(b []byte) error {
	*l = List[T]{}
	if RawKind(b) != "list" {
		return nil
	}
	if json.Unmarshal(b, &l.V) != nil {
		l.V = nil
		return nil
	}
	l.OK = true
	return nil
}

// Map is a JSON object of T values by key (OK true); any other value
// leaves it empty. Use Object[X] (or Text, Number) as T to keep values of
// the wrong type as zero values.
type Map[T any] struct {
	V  map[string]T
	OK bool
}

// UnmarshalJSON never fails.
func (m *Map[T]) UnmarshalJSON(b []byte) error {
	*m = Map[T]{}
	if RawKind(b) != "object" {
		return nil
	}
	if json.Unmarshal(b, &m.V) != nil {
		m.V = nil
		return nil
	}
	m.OK = true
	return nil
}

// Objects decodes a raw list into its rows; rows that are not objects are
// kept with OK false, so callers can skip them.
func Objects[T any](raw json.RawMessage) []Object[T] {
	var l List[Object[T]]
	_ = l.UnmarshalJSON(raw)
	return l.V
}

// Decode decodes a raw value into v (an *Object, *List, *Text, …), which
// never fails for the lenient types.
func Decode(raw json.RawMessage, v any) {
	_ = json.Unmarshal(raw, v)
}
