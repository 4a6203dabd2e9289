package language

import (
	"slices"
	"strings"
	"testing"
)

// TestExplainsRefuses: the fuzz oracle refuses an unindented line left
// out under a frame.
func TestExplainsRefuses(t *testing.T) {
	if explains("", slices.Collect(strings.Lines("file \"a.py\", line 3, in f\nmy 4090 question\n"))) {
		t.Error("explains let an unindented question under a frame go")
	}
}

// TestDropFrames: a traceback's frames, their source lines and marker
// lines go; the error line, the asker's words (also on a frame's line, or
// indented under its source line) and lines that only look alike stay.
func TestDropFrames(t *testing.T) {
	cases := []struct{ in, want string }{
		{"traceback (most recent call last):\n  file \"/root/a.py\", line 3, in <module>\n    main()\n    ^^^^^^\n  file \"/root/b.py\", line 9, in main\n    x = torch.zeros(1)\ntorch.outofmemoryerror: cuda out of memory.\n4090 上跑 7b 爆了",
			"traceback (most recent call last):\ntorch.outofmemoryerror: cuda out of memory.\n4090 上跑 7b 爆了"},
		{"用 4090 训练\n  file \"x.py\", line 1, in f\n    y()\n\n    indented prose after a blank line", "用 4090 训练\n\n    indented prose after a blank line"},
		{"the file \"a.py\" has 3 lines", "the file \"a.py\" has 3 lines"},
		{`file "train.py", line 12, in main 我的4090显存不够，换a100要多少钱`, "我的4090显存不够，换a100要多少钱"},
		{"file \"train.py\", line 12, in main\n    model.cuda()\n    我在 4090 上跑 7b lora 爆显存了，换 a100 多少钱", "    我在 4090 上跑 7b lora 爆显存了，换 a100 多少钱"},
		{"file \"a.py\", line x\n  kept", "file \"a.py\", line x\n  kept"},
		{"no frames here", "no frames here"},
	}
	for _, c := range cases {
		if got := DropFrames(c.in); got != c.want {
			t.Errorf("DropFrames(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// FuzzDropFrames: the result is the text's lines in order, each whole,
// or, for a frame, from after the frame's function name, or left out when
// it is a frame with nothing after it, the one source line under a frame
// or the marker line under that source line.
func FuzzDropFrames(f *testing.F) {
	f.Add("traceback\n  file \"a\", line 1, in x\n    y\n    ^^\nerror")
	f.Add("file \"\", line 1\n\n\t\tfile \"a\", line 2 words")
	f.Add("file \"\", line 0\n 0\n 0\n")
	f.Add("  file \"a.py\", line 3, in f\r\n    foo(\r\n    ~~~^\r\nerr")
	f.Fuzz(func(t *testing.T, s string) {
		if !explains(DropFrames(s), slices.Collect(strings.Lines(s))) {
			t.Fatalf("DropFrames(%q) = %q: not the text's lines less frames", s, DropFrames(s))
		}
	})
}

// explains reports whether got is lines as FuzzDropFrames allows: a line
// left out under a frame is indented deeper than the frame.
func explains(got string, lines []string) bool {
	// prev: 0 none, 1 after a frame, 2 after its source line; indent: the
	// frame's.
	type at struct{ i, pos, prev, indent int }
	seen := map[at]bool{}
	var walk func(at) bool
	walk = func(a at) bool {
		if a.i == len(lines) {
			return a.pos == len(got)
		}
		if seen[a] {
			return false
		}
		seen[a] = true
		line, rest := lines[a.i], got[a.pos:]
		end := line[len(strings.TrimRight(line, "\r\n")):]
		body := strings.TrimLeft(line, " \t")
		indent := len(line) - len(body)
		text := strings.TrimRight(body, "\r\n")
		if after, ok := frameRest(text); ok {
			if after = strings.TrimSpace(after); after != "" {
				return strings.HasPrefix(rest, after+end) && walk(at{a.i + 1, a.pos + len(after+end), 0, 0})
			}
			return walk(at{a.i + 1, a.pos, 1, indent})
		}
		if strings.HasPrefix(rest, line) && walk(at{a.i + 1, a.pos + len(line), 0, 0}) {
			return true
		}
		if text == "" || indent <= a.indent {
			return false
		}
		switch {
		case a.prev == 1:
			return walk(at{a.i + 1, a.pos, 2, a.indent})
		case a.prev == 2 && strings.Trim(text, "^~ ") == "":
			return walk(at{a.i + 1, a.pos, 0, 0})
		}
		return false
	}
	return walk(at{})
}
