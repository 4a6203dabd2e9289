// Package strictyaml decodes the bot's YAML files (the catalog, the
// knowledge base, intents, workloads, the config) strictly — an unknown
// key is an error, and so is a second document — with go.yaml.in/yaml/v3,
// and words the error as one line that names the line and the key:
// `line 5: platforms[0].colour: unknown key`,
// `line 3: alerts.debounce: "many" is not a whole number`.
package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Decode decodes the YAML document b into v. An empty document leaves v
// as it is.
func Decode(b []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		return errors.New(message(b, err))
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		return fmt.Errorf("line %d: a second YAML document (after ---); write one document", next.Line)
	}
	return nil
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

// message is the first problem of a decoding error as one line: the
// line, the key it is under (read from the document) and the problem in
// words rather than the library's Go types.
func message(doc []byte, err error) string {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(strings.TrimSpace(msg), "yaml: ")
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	m := reLine.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	line, problem := m[1], m[2]
	if u := reUnknown.FindStringSubmatch(problem); u != nil {
		return fmt.Sprintf("line %s: unknown key %q", line, u[1])
	}
	n, _ := strconv.Atoi(line)
	key := keyAt(doc, n)
	if t := reType.FindStringSubmatch(problem); t != nil {
		problem = typeProblem(t[1], t[2], t[3])
	} else if rest, ok := strings.CutPrefix(problem, "line "+line+": "); ok {
		problem = rest // an UnmarshalYAML's own error names the line too
	}
	if key != "" {
		return fmt.Sprintf("line %s: %s: %s", line, key, problem)
	}
	return fmt.Sprintf("line %s: %s", line, problem)
}

// typeProblem words "cannot unmarshal !!tag `value` into goType".
func typeProblem(tag, value, goType string) string {
	var want string
	switch {
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		want = "a whole number"
	case strings.HasPrefix(goType, "float"):
		want = "a number"
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
	return fmt.Sprintf("%q is not %s", value, want)
}

// keyAt is the path of the key whose entry is on line n ("alerts.cooldown",
// "platforms[2].prices[0].gpu"), or "" when the document does not parse.
func keyAt(doc []byte, n int) string {
	var root yaml.Node
	if yaml.Unmarshal(doc, &root) != nil {
		return ""
	}
	best := ""
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
				if k.Line == n || v.Line == n {
					best = p
				}
				walk(v, p)
			}
		case yaml.SequenceNode:
			for i, c := range nd.Content {
				p := fmt.Sprintf("%s[%d]", path, i)
				// An item on the list's first line is the key's own value.
				if c.Line == n && c.Line != nd.Line && c.Kind == yaml.ScalarNode {
					best = p
				}
				walk(c, p)
			}
		}
	}
	walk(&root, "")
	return best
}
