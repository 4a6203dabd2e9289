package commands_test

import (
	"fmt"
	"strings"
	"testing"
)

var dbgLines = "and for a whole month?|用3090呢|5000张呢"

func TestDbg(t *testing.T) {
	r := newRouter(t)
	u := r.Understander()
	for _, line := range strings.Split(dbgLines, "|") {
		q := u.Understand(line)
		fmt.Printf("ALONE %q → %s conf=%.2f fu=%v bare=%v count=%d gpus=%v plat=%v region=%q when=%+v later=%v fc=%d\n", line, q.Intent, q.Confidence, q.FollowUp, q.Bare, q.GPUCount, q.GPUs, q.Platforms, q.Region, q.When, q.FollowLater, q.FollowCount)
	}
}

func TestDbg2(t *testing.T) {
	r := newRouter(t)
	for _, line := range strings.Split(dbgLines, "|") {
		res := say(r, "g1", "alice", line)
		fmt.Printf("SAY %q → %s conf=%.2f method=%q params=%v confirm=%v\n   %s\n", line, res.Intent, res.Confidence, res.Method, res.ParamsB, res.Confirm, firstL(res.Text))
	}
}

func firstL(s string) string { l, _, _ := strings.Cut(strings.TrimSpace(s), "\n"); return l }
