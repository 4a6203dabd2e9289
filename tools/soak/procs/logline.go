package procs

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// LogLine is what the soak reads of a replica's log line (slog text or
// JSON): the message, the level and the key=value attributes.
type LogLine struct {
	Level, Msg string
	Attrs      map[string]string
}

var textAttr = regexp.MustCompile(`([A-Za-z_.]+)=("(?:[^"\\]|\\.)*"|\S*)`)

// ParseLog reads a log line of slog's text or JSON handler.
func ParseLog(s string) LogLine {
	l := LogLine{Attrs: map[string]string{}}
	if strings.HasPrefix(s, "{") {
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) == nil {
			for k, v := range m {
				l.Attrs[k] = fmt.Sprint(v)
			}
		}
	} else {
		for _, m := range textAttr.FindAllStringSubmatch(s, -1) {
			v := m[2]
			if uq, err := strconv.Unquote(v); err == nil {
				v = uq
			}
			l.Attrs[m[1]] = v
		}
	}
	l.Level, l.Msg = strings.ToUpper(l.Attrs["level"]), l.Attrs["msg"]
	return l
}
