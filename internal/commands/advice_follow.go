package commands

import (
	"fmt"
	"strings"

	"github.com/labgpu/bot/internal/render/adviceview"
)

// adviceShown is the troubleshooting topic an answer keeps for its
// follow-ups and how many of its steps and alternatives the member has
// seen: an advice answer's steps its short text shows; a follow-up's next
// steps all; a branch what the frame had.
func (r *Router) adviceShown(c *conversation, res Result) (string, int) {
	prev := 0
	if c != nil && c.frame != nil {
		prev = c.frame.Query.AdviceShown
	}
	switch p := res.Payload.(type) {
	case adviceview.Follow:
		if !p.Next {
			return p.Topic, prev
		}
		if t, ok := r.adviceTopic(p.Topic); ok {
			return p.Topic, len(t.Steps.Zh) + len(t.Next.Zh)
		}
		return p.Topic, prev
	case adviceview.Advice:
		if p.Advice == nil || p.Advice.Topic == "" {
			return "", 0
		}
		n := 0
		for i, s := range p.Advice.Steps {
			if !strings.Contains(res.Text, fmt.Sprintf("%d. %s", i+1, prefix(s, 6))) {
				break
			}
			n = i + 1
		}
		return p.Advice.Topic, n
	}
	return "", 0
}

// prefix is the first n runes of s.
func prefix(s string, n int) string {
	rs := []rune(s)
	return string(rs[:min(n, len(rs))])
}
