package chat

import (
	"fmt"
	"testing"

	"golang.org/x/time/rate"
)

func TestLimitersPerChat(t *testing.T) {
	l := NewLimiters(rate.Every(1e12), 2, 3) // burst 2, no refill in the test
	a := l.For("a")
	if !a.Allow() || !a.Allow() || a.Allow() {
		t.Error("chat a: want exactly its burst of 2")
	}
	if l.For("a") != a {
		t.Error("chat a got a new limiter: its spent burst would be refilled")
	}
	if !l.For("b").Allow() {
		t.Error("chat b is limited by chat a's sends")
	}
	for i := range 10 {
		l.For(fmt.Sprint("c", i))
	}
	if l.Len() != 12 {
		t.Errorf("%d limiters; recently used ones must be kept", l.Len())
	}
}
