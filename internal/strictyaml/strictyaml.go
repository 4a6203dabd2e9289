// Package strictyaml decodes the bot's YAML files (the catalog, the
// knowledge base, intents, workloads, the config) strictly — an unknown
// key is an error — with go.yaml.in/yaml/v3, and words the error as one
// line that names the line: `line 5: unknown key "colour"`.
package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Decode decodes the YAML document b into v. An empty document leaves v
// as it is.
func Decode(b []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return errors.New(message(err))
	}
	return nil
}

// Node is a YAML node, for a type's own UnmarshalYAML.
type Node = yaml.Node

// ScalarNode is the Kind of a Node holding one value (not a list or a
// mapping).
const ScalarNode = yaml.ScalarNode

var reUnknown = regexp.MustCompile(`^line (\d+): field (\S+) not found in type `)

// message is the first problem of a decoding error, one line, without
// the library's "yaml: " prefix and with Go type names left out.
func message(err error) string {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(strings.TrimSpace(msg), "yaml: ")
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if m := reUnknown.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("line %s: unknown key %q", m[1], m[2])
	}
	return msg
}
