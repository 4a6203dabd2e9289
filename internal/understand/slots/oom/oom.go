// Package oom reads the figures of a CUDA out-of-memory error pasted in
// a message (Query.OOM, read by package slots's AdviceSlots); it imports
// nothing of package slots.
package oom

import (
	"strconv"
	"strings"

	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/textgate"
)

// Error are the figures of a CUDA out-of-memory error pasted in a
// message, GiB, as PyTorch prints them: "Tried to allocate 2.00 GiB (GPU 0;
// 23.65 GiB total capacity; 21.40 GiB already allocated; 1.02 GiB free …)"
// (1.x) or "Tried to allocate 2.00 GiB. GPU 0 has a total capacity of
// 23.65 GiB of which 1.06 GiB is free" (2.x).
type Error struct {
	// AllocGiB is what the failing step asked for; TotalGiB the card's
	// capacity and FreeGiB its free memory, -1 when the error does not say.
	AllocGiB, TotalGiB, FreeGiB float64
}

var (
	reOOMAlloc = textgate.MustCompile(`tried to allocate ([\d.]+) (gib|mib)`)
	reOOMTotal = textgate.MustCompile(`([\d.]+) gib total capacity|total capacity of ([\d.]+) gib`)
	reOOMFree  = textgate.MustCompile(`([\d.]+) (gib|mib) free|of which ([\d.]+) (gib|mib) is free`)
)

// Read reads the figures of a pasted CUDA OOM error; nil when the
// text has none. It reads the last such error from its line on (PyTorch
// prints the capacity and the free memory after the request, on the same
// line), so a traceback's frames before it are not folded again; when
// that line has no request (the asker's words), the whole text.
func Read(text string) *Error {
	tail := oomTail(text)
	folded := string(advice.Normalize(tail))
	m := reOOMAlloc.FindStringSubmatch(folded)
	if m == nil && len(tail) < len(text) {
		// The last "tried to allocate" was the asker's, or the error's
		// was wrapped: the whole paste.
		folded = string(advice.Normalize(text))
		m = reOOMAlloc.FindStringSubmatch(folded)
	}
	if m == nil || gib(m[1], m[2]) < 0 {
		return nil
	}
	e := &Error{AllocGiB: gib(m[1], m[2]), TotalGiB: -1, FreeGiB: -1}
	if t := reOOMTotal.FindStringSubmatch(folded); t != nil {
		e.TotalGiB = gib(t[1]+t[2], "gib")
	}
	if f := reOOMFree.FindStringSubmatch(folded); f != nil {
		free, unit := f[1], f[2]
		if free == "" {
			free, unit = f[3], f[4]
		}
		e.FreeGiB = gib(free, unit)
	}
	return e
}

// oomTail is text from the line of its last "Tried to allocate" (as
// PyTorch writes it, or in lower or upper case) on, or all of it when it
// has none written so (the pattern then decides on the folded text).
func oomTail(text string) string {
	i := -1
	for _, s := range []string{"ried to allocate", "RIED TO ALLOCATE"} {
		i = max(i, strings.LastIndex(text, s))
	}
	if i < 0 {
		return text
	}
	return text[strings.LastIndexByte(text[:i], '\n')+1:]
}

// gib reads a PyTorch memory figure as GiB; -1 when it is not a
// plausible number (the error text is pasted by users).
func gib(num, unit string) float64 {
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 || v > 1e6 {
		return -1
	}
	if unit == "mib" {
		v /= 1024
	}
	return v
}
