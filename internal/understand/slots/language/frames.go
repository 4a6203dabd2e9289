package language

import "strings"

// DropFrames leaves out the stack frames of a Python traceback in folded
// text: the `file "…", line n, in f` part of a line (what follows it on
// the line stays: a chat client may have joined the lines), the source
// line indented under it and the ^^^ marker line under that. They name
// files and line numbers, not the asker's job, and a traceback is mostly
// frames: without them the question part of a paste is its error line and
// the asker's words.
func DropFrames(s string) string {
	if !strings.Contains(s, `file "`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	const (
		none   = iota
		frame  // a source line may follow
		source // a marker line may follow
	)
	state, frameIndent := none, 0
	for line := range strings.Lines(s) {
		body := strings.TrimLeft(line, " \t")
		indent := len(line) - len(body)
		text := strings.TrimRight(body, "\r\n")
		if rest, ok := frameRest(text); ok {
			state, frameIndent = frame, indent
			if rest = strings.TrimSpace(rest); rest != "" {
				b.WriteString(rest)
				b.WriteString(line[len(line)-(len(body)-len(text)):])
				state = none
			}
			continue
		}
		switch {
		case state == frame && indent > frameIndent && text != "":
			state = source
			continue
		case state == source && indent > frameIndent && text != "" && strings.Trim(text, "^~ ") == "":
			state = none
			continue
		}
		state = none
		b.WriteString(line)
	}
	return b.String()
}

// frameRest reports whether a line (without its indent) starts as a
// Python frame, `file "…", line n` with an optional `, in name`, and
// returns what follows.
func frameRest(text string) (string, bool) {
	const head, mid = `file "`, `", line `
	if !strings.HasPrefix(text, head) {
		return "", false
	}
	q := strings.Index(text[len(head):], mid)
	if q < 0 {
		return "", false
	}
	i := len(head) + q + len(mid)
	j := i
	for j < len(text) && text[j] >= '0' && text[j] <= '9' {
		j++
	}
	if j == i {
		return "", false
	}
	rest := text[j:]
	if r, ok := strings.CutPrefix(rest, ", in "); ok {
		k := strings.IndexAny(r, " \t")
		if k < 0 {
			return "", true
		}
		rest = r[k:]
	}
	return rest, true
}
