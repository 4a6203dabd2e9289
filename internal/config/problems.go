package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/labgpu/bot/internal/strictyaml"
)

// Problem is one thing wrong with the configuration.
type Problem struct {
	// Key is the setting ("alerts.cooldown", "feishu.app_id"); "" when
	// the problem is the file's (a syntax error).
	Key string
	// Msg says what is wrong and how to fix it.
	Msg string
	// Source is where the value came from: "<file> line 12" or
	// "environment variable BOT_TIMEZONE"; "" for a built-in default or
	// a value that is missing.
	Source string
}

// String is the problem in one line: "<source>: <key>: <what and fix>".
func (p Problem) String() string {
	var parts []string
	for _, s := range []string{p.Source, p.Key, p.Msg} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ": ")
}

// Problems is every problem Load (or Validate) found, in the order of the
// file and then of the checks. As an error it is one line: "config: " and
// the problems joined by "; ".
type Problems []Problem

func (ps Problems) Error() string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return "config: " + strings.Join(out, "; ")
}

// report collects the problems of the checks.
type report struct{ ps Problems }

// add records a problem of key.
func (r *report) add(key, format string, args ...any) {
	r.ps = append(r.ps, Problem{Key: key, Msg: fmt.Sprintf(format, args...)})
}

// sources records where each setting came from: the file's lines and the
// environment variables that set a key.
type sources struct {
	file  string
	lines map[string]int
	env   map[string]string
}

// of is where key's value came from: the environment variable that set
// it, else the line of the file that wrote it (or the nearest key above
// it that the file wrote: "webhooks[0]" for "webhooks[0].url" given as a
// flow mapping); "" when neither did.
func (s *sources) of(key string) string {
	if s == nil || key == "" {
		return ""
	}
	if v, ok := s.env[key]; ok {
		return "environment variable " + v
	}
	for k := key; k != ""; k = parentKey(k) {
		if n, ok := s.lines[k]; ok {
			return fmt.Sprintf("%s line %d", s.file, n)
		}
	}
	return ""
}

// envOf is the environment variable that set key ("" when none did).
func (s *sources) envOf(key string) string {
	if s == nil {
		return ""
	}
	return s.env[key]
}

// parentKey is key without its last part: "a.b[2]" → "a.b", "a.b" → "a".
func parentKey(k string) string {
	if strings.HasSuffix(k, "]") {
		if i := strings.LastIndexByte(k, '['); i > 0 {
			return k[:i]
		}
	}
	if i := strings.LastIndexByte(k, '.'); i >= 0 {
		return k[:i]
	}
	return ""
}

// setBy records that environment variable name set key.
func (s *sources) setBy(key, name string) {
	if s.env == nil {
		s.env = map[string]string{}
	}
	s.env[key] = name
}

// fromYAML turns the decoder's problems into the config's, each with its
// file line.
func (s *sources) fromYAML(err error) Problems {
	yps := strictyaml.Problems(err)
	if yps == nil {
		return Problems{{Msg: err.Error(), Source: s.file}}
	}
	out := make(Problems, len(yps))
	for i, p := range yps {
		out[i] = Problem{Key: p.Key, Msg: p.Msg, Source: s.file}
		if p.Line > 0 {
			out[i].Source = fmt.Sprintf("%s line %d", s.file, p.Line)
		}
	}
	return out
}

// sourced fills in each problem's source.
func (s *sources) sourced(ps Problems) Problems {
	for i := range ps {
		if ps[i].Source == "" {
			ps[i].Source = s.of(ps[i].Key)
		}
	}
	return ps
}

// ordered sorts problems as a reader fixes them: the file's by line, then
// the environment's, then the rest, each in the order found.
func (s *sources) ordered(ps Problems) Problems {
	rank := func(p Problem) (int, int) {
		var n int
		switch {
		case s.file != "" && strings.HasPrefix(p.Source, s.file+" line "):
			fmt.Sscanf(strings.TrimPrefix(p.Source, s.file+" line "), "%d", &n)
			return 0, n
		case strings.HasPrefix(p.Source, "environment variable "):
			return 1, 0
		}
		return 2, 0
	}
	sort.SliceStable(ps, func(i, j int) bool {
		gi, li := rank(ps[i])
		gj, lj := rank(ps[j])
		return gi < gj || gi == gj && li < lj
	})
	return ps
}

// sortedKeys are m's keys in order, so that problems come in a stable
// order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
