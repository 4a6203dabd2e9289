package textgate_test

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/textgate"
)

func TestRequiredLiterals(t *testing.T) {
	cases := []struct {
		re   string
		want [][]string
	}{
		{`包月|包周`, [][]string{{"包"}, {"周", "月"}}},
		{`(\d+)\s*(?:块|元)`, [][]string{{"元", "块"}}},
		{`seq\s*=?\s*(\d+)`, [][]string{{"seq"}}},
		{`a?b`, [][]string{{"b"}}},
		{`\d+`, nil},
		{`x|\d`, nil},
		{`(没|无)卡`, [][]string{{"无", "没"}, {"卡"}}},
	}
	for _, c := range cases {
		if got := textgate.RequiredLiterals(c.re); !reflect.DeepEqual(got, c.want) {
			t.Errorf("RequiredLiterals(%q) = %q, want %q", c.re, got, c.want)
		}
	}
}

// TestGateAgrees: the gated regexp finds what the plain one finds.
func TestGateAgrees(t *testing.T) {
	pats := []string{`包月|包周|\bmonthly\b`, `(\d+)\s*(?:块|元)(\d)?`, `^\s*(?:静音|mute)\b`, `seq\s*(\d+)`,
		`关|停|\boff\b|no more|\bstop`, `\b(?:i|i'm|my|what's)\b`, `on\b|x`, `^\s*(?:how|i|i'm|is there)\b`, `^\s*(?:以下|or less)`, `^\s*(?: x|y)`}
	texts := []string{"4090包月多少", "1块5以下", "mute 2h", "静音", "seq 4096", "nothing here", "", "monthly price", "月包",
		"turn it off", "offer", "takeoff", "stopped", "unstop", "i'm here", "mine", "whats", "what's up", "on", "one on_", "e_on", "  how come", "howl", " i'm", "is therefore", "以下", "  or less", "  x", " y"}
	for _, p := range pats {
		g := textgate.MustCompile(p)
		for _, s := range texts {
			if g.MatchString(s) != g.Regexp().MatchString(s) || !reflect.DeepEqual(g.FindStringSubmatchIndex(s), g.Regexp().FindStringSubmatchIndex(s)) {
				t.Errorf("%q on %q: gate disagrees", p, s)
			}
		}
	}
}

func FuzzGate(f *testing.F) {
	f.Add(`包月|\bweekly\b`, "4090 weekly 包月")
	f.Add(`\b(?:i|i'm|my)\b`, "i'm_ ok my")
	f.Add(`关|\boff\b|no more|\bup\b`, "offup_ no more")
	f.Add(`^\s*(?:how|i'm|  x)\b`, "\t i'm")
	f.Add(`^\s*(?:以下|or less)`, " 以下")
	f.Add("\uFFFD|x", "a\xffb")
	f.Add("autodl", "AutoDL autodl autodll")
	f.Add("auto[\\s\\-_/:]*dl", "auto - dl")
	f.Fuzz(func(t *testing.T, p, s string) {
		g, err := textgate.Compile(p)
		if err != nil {
			return
		}
		if g.MatchString(s) != g.Regexp().MatchString(s) {
			t.Fatalf("%q on %q: gate disagrees", p, s)
		}
		// Lazy works out the gate before compiling (a plain string is its
		// own gate) and compiles only for a text that passes it.
		l, re := textgate.Lazy(p), regexp.MustCompile(p)
		if l.MatchString(s) != re.MatchString(s) || !reflect.DeepEqual(l.FindAllStringIndex(s, -1), re.FindAllStringIndex(s, -1)) {
			t.Fatalf("%q on %q: lazy gate disagrees", p, s)
		}
	})
}

// TestLazy: MustCompile compiles on first use; a bad pattern panics there
// and CompileAll reports it.
func TestLazy(t *testing.T) {
	bad := textgate.MustCompile(`(unclosed`)
	if err := textgate.CompileAll(); err == nil || !strings.Contains(err.Error(), "missing closing )") {
		t.Fatalf("CompileAll = %v, want the bad pattern's error", err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern did not panic on first use")
		}
	}()
	bad.MatchString("x")
}

// TestBadPatternPanicsEveryTime: a bad pattern panics with its error at
// every use, not with a nil dereference after the first.
func TestBadPatternPanicsEveryTime(t *testing.T) {
	bad := textgate.Lazy(`[unclosed`)
	for i := 0; i < 2; i++ {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "missing closing ]") {
					t.Fatalf("use %d: panic %v, want the pattern's error", i+1, p)
				}
			}()
			bad.MatchString("x")
		}()
	}
}
