// Package strictyaml decodes the bot's YAML files (the catalog, the
// knowledge base, intents, workloads, the config) strictly — an unknown
// key is an error, and so is a second document — with go.yaml.in/yaml/v3,
// and words each problem as one line that names the line and the key:
// `line 5: unknown key "colour" under platforms[0] (did you mean "color"?)`,
// `line 3: alerts.debounce: "many" is not a whole number (write e.g. 3)`.
// The error's text is the first problem; Problems has them all.
package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"
	"go.yaml.in/yaml/v3"
)

// Problem is one thing wrong in a document: its line (0 when unknown),
// the key it is under ("alerts.cooldown", "" when unknown) and what is
// wrong, in words.
type Problem struct {
	Line int
	Key  string
	Msg  string
}

// String is the problem in one line: "line 3: alerts.debounce: …".
func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	if p.Key != "" {
		b.WriteString(p.Key + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Error is what Decode returns: every problem of the document, in the
// order the decoder met them. Its text is the first one.
type Error struct{ Problems []Problem }

func (e *Error) Error() string { return e.Problems[0].String() }

// Problems are the problems of a Decode error (nil for another error).
func Problems(err error) []Problem {
	var e *Error
	if errors.As(err, &e) {
		return e.Problems
	}
	return nil
}

// Decode decodes the YAML document b into v. An empty document leaves v
// as it is. Values that do not fit their keys, and unknown keys, are all
// reported (*Error); the rest of the document is decoded all the same.
func Decode(b []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		return &Error{Problems: problems(b, reflect.TypeOf(v), err)}
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		return &Error{Problems: []Problem{{Line: next.Line, Msg: "a second YAML document (after ---); write one document"}}}
	}
	return nil
}

// Invalid is an UnmarshalYAML's refusal of node n's value: reported with
// the node's line and key like a value of the wrong type, and decoding
// goes on (a plain error would stop it at the first problem).
func Invalid(n *Node, format string, args ...any) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %s", n.Line, fmt.Sprintf(format, args...))}}
}

// Node is a YAML node, for a type's own UnmarshalYAML.
type Node = yaml.Node

// ScalarNode is the Kind of a Node holding one value (not a list or a
// mapping); MappingNode of one holding keys and values.
const (
	ScalarNode  = yaml.ScalarNode
	MappingNode = yaml.MappingNode
)

var (
	reLine    = regexp.MustCompile(`^line (\d+): (.*)$`)
	reUnknown = regexp.MustCompile(`^field (\S+) not found in type `)
	reType    = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `([^`]*)`)? into (\\S+)$")
)

// problems are the problems of a decoding error: each of a type error's
// (a value that does not fit, an unknown key), else the one error, with
// the line, the key it is under (read from the document) and the problem
// in words rather than the library's Go types. root is the decoded
// value's type, for the keys an unknown one could have meant.
func problems(doc []byte, root reflect.Type, err error) []Problem {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msgs = te.Errors
	}
	out := make([]Problem, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, problem(doc, root, m))
	}
	return out
}

// problem is one message of the decoder as a Problem.
func problem(doc []byte, root reflect.Type, msg string) Problem {
	msg = strings.TrimPrefix(strings.TrimSpace(msg), "yaml: ")
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	m := reLine.FindStringSubmatch(msg)
	if m == nil {
		return Problem{Msg: msg}
	}
	line, problem := m[1], m[2]
	n, _ := strconv.Atoi(line)
	key := keyAt(doc, n)
	if u := reUnknown.FindStringSubmatch(problem); u != nil {
		return Problem{Line: n, Msg: unknownKey(u[1], key, root)}
	}
	if t := reType.FindStringSubmatch(problem); t != nil {
		problem = typeProblem(t[1], t[2], t[3])
	} else if rest, ok := strings.CutPrefix(problem, "line "+line+": "); ok {
		problem = rest // an UnmarshalYAML's own error names the line too
	}
	return Problem{Line: n, Key: key, Msg: problem}
}

// unknownKey words an unknown key at path (the document's path of the
// key, "" when unknown) with what it could have meant: the nearest key
// the place takes, or the keys it takes.
func unknownKey(name, path string, root reflect.Type) string {
	parent := ""
	if i := strings.LastIndex(path, "."); i >= 0 {
		parent = path[:i]
	}
	where := "at the top level"
	if parent != "" {
		where = "under " + parent
	}
	msg := fmt.Sprintf("unknown key %q %s", name, where)
	keys := keysAt(root, parent)
	if len(keys) == 0 {
		return msg
	}
	best, dist := "", 3
	for _, k := range keys {
		if d := levenshtein.ComputeDistance(name, k); d < dist && d < len(k) {
			best, dist = k, d
		}
	}
	if best != "" {
		return fmt.Sprintf("%s (did you mean %q?)", msg, best)
	}
	return fmt.Sprintf("%s (it takes %s)", msg, strings.Join(keys, ", "))
}

// keysAt are the keys a struct at path (as keyAt writes paths) takes,
// read from the yaml tags of the decoded type; nil when the place is no
// struct (a map's keys are free) or cannot be followed.
func keysAt(t reflect.Type, path string) []string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if path != "" {
		for _, seg := range strings.Split(path, ".") {
			name, idx, _ := strings.Cut(seg, "[")
			if t = step(t, name); t == nil {
				return nil
			}
			for ; idx != ""; _, idx, _ = strings.Cut(idx, "[") {
				if t = elem(t); t == nil || (t.Kind() != reflect.Slice && t.Kind() != reflect.Array) {
					return nil
				}
				t = t.Elem()
			}
		}
	}
	if t = elem(t); t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	keys := structKeys(t)
	sort.Strings(keys)
	return keys
}

// step is the type under key name of t (a struct's field by its yaml tag,
// a map's values), nil when there is none.
func step(t reflect.Type, name string) reflect.Type {
	switch t = elem(t); {
	case t == nil:
		return nil
	case t.Kind() == reflect.Map:
		return t.Elem()
	case t.Kind() != reflect.Struct:
		return nil
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if strings.Contains(opts, "inline") {
			if got := step(f.Type, name); got != nil {
				return got
			}
			continue
		}
		if tag == name {
			return f.Type
		}
	}
	return nil
}

func elem(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// structKeys are the yaml keys of struct t, its inline fields' included.
func structKeys(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case strings.Contains(opts, "inline"):
			if ft := elem(f.Type); ft != nil && ft.Kind() == reflect.Struct {
				out = append(out, structKeys(ft)...)
			}
		case tag != "" && tag != "-" && f.IsExported():
			out = append(out, tag)
		}
	}
	return out
}

// typeProblem words "cannot unmarshal !!tag `value` into goType".
func typeProblem(tag, value, goType string) string {
	var want, fix string
	switch {
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		want, fix = "a whole number", " (write e.g. 3)"
	case strings.HasPrefix(goType, "float"):
		want, fix = "a number", " (write e.g. 0.5, without a unit)"
	case goType == "bool":
		want = "true or false"
	case goType == "string":
		want = "a single value"
	case strings.HasPrefix(goType, "[]"):
		want = "a list"
	default:
		want = "a mapping of keys"
	}
	switch tag {
	case "seq":
		return "a list where " + want + " belongs"
	case "map":
		return "a mapping where " + want + " belongs"
	}
	return fmt.Sprintf("%q is not %s%s", value, want, fix)
}

// keyAt is the path of the key whose entry is on line n ("alerts.cooldown",
// "platforms[2].prices[0].gpu"), or "" when the document does not parse.
func keyAt(doc []byte, n int) string {
	best := ""
	walkKeys(doc, func(path string, k, v *yaml.Node) {
		switch {
		case k.Kind != yaml.SequenceNode:
			if k.Line == n || v.Line == n {
				best = path
			}
		case v.Line == n && v.Line != k.Line && v.Kind == yaml.ScalarNode:
			// An item on the list's first line is the key's own value.
			best = path
		}
	})
	return best
}

// walkKeys calls visit with the path of every mapping entry (its key and
// value nodes) and list item (k the list, v the item) of doc, depth
// first; false when the document does not parse.
func walkKeys(doc []byte, visit func(path string, k, v *yaml.Node)) bool {
	var root yaml.Node
	if yaml.Unmarshal(doc, &root) != nil {
		return false
	}
	var walk func(nd *yaml.Node, path string)
	walk = func(nd *yaml.Node, path string) {
		switch nd.Kind {
		case yaml.DocumentNode:
			for _, c := range nd.Content {
				walk(c, path)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(nd.Content); i += 2 {
				k, v := nd.Content[i], nd.Content[i+1]
				p := k.Value
				if path != "" {
					p = path + "." + k.Value
				}
				visit(p, k, v)
				walk(v, p)
			}
		case yaml.SequenceNode:
			for i, c := range nd.Content {
				p := fmt.Sprintf("%s[%d]", path, i)
				visit(p, nd, c)
				walk(c, p)
			}
		}
	}
	walk(&root, "")
	return true
}

// Lines maps the path of every key of the document ("alerts.cooldown",
// "webhooks[0].url", "storage.labs.nlp[1]", as problems name them) to the
// line it is written on; nil when the document does not parse.
func Lines(doc []byte) map[string]int {
	out := map[string]int{}
	ok := walkKeys(doc, func(path string, k, v *yaml.Node) {
		out[path] = k.Line
		if k.Kind == yaml.SequenceNode {
			out[path] = v.Line // an item's own line
		}
	})
	if !ok {
		return nil
	}
	return out
}
