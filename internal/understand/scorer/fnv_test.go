package scorer

import (
	"hash/fnv"
	"testing"
)

// FuzzFNV: the written-out FNV-1a of kind, a, 0, b is hash/fnv's New64a
// over the same bytes.
func FuzzFNV(f *testing.F) {
	f.Add(byte('u'), "§gpu", "")
	f.Add(byte('b'), "有", "货")
	f.Fuzz(func(t *testing.T, kind byte, a, b string) {
		h := fnvString(fnvByte(fnvOffset, kind), a)
		key := append([]byte{kind}, a...)
		if b != "" {
			h = fnvString(fnvByte(h, 0), b)
			key = append(append(key, 0), b...)
		}
		want := fnv.New64a()
		_, _ = want.Write(key)
		if h != want.Sum64() {
			t.Fatalf("%q %q %q: %x, hash/fnv %x", kind, a, b, h, want.Sum64())
		}
	})
}
