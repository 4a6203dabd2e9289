package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// BlobUpdater rewrites a blob from its bytes with no other write in
// between.
type BlobUpdater interface {
	BlobStore
	UpdateBlob(ctx context.Context, name string, f func(old []byte) ([]byte, error)) error
}

// UpdateBlobs checks UpdateBlob over stores (one store, or replicas over
// one server): f sees the bytes saved (nil when none); 16 writers that
// each add a line at once all keep theirs; f's error writes nothing and
// comes back; empty output deletes the blob.
func UpdateBlobs(t *testing.T, stores ...BlobUpdater) {
	t.Helper()
	ctx := context.Background()
	name := unique(t, "blob")
	s := stores[0]
	if err := s.UpdateBlob(ctx, name, func(old []byte) ([]byte, error) {
		if old != nil {
			return nil, fmt.Errorf("a new blob reads as %q, want nil", old)
		}
		return []byte("start\n"), nil
	}); err != nil {
		t.Fatal(err)
	}
	const n = 16
	Race(t, n, "update blob", func(i int) (bool, error) {
		err := stores[i%len(stores)].UpdateBlob(ctx, name, func(old []byte) ([]byte, error) {
			return append(bytes.Clone(old), fmt.Sprintf("writer %d\n", i)...), nil
		})
		return err == nil, err
	})
	got, err := s.GetBlob(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if !strings.Contains(string(got), fmt.Sprintf("writer %d\n", i)) {
			t.Errorf("writer %d's line was lost: %q", i, got)
		}
	}
	if lines := strings.Count(string(got), "\n"); lines != n+1 {
		t.Errorf("blob has %d lines, want %d", lines, n+1)
	}
	stop := errors.New("refused")
	if err := s.UpdateBlob(ctx, name, func([]byte) ([]byte, error) { return []byte("lost"), stop }); !errors.Is(err, stop) {
		t.Errorf("f's error: %v, want it back", err)
	}
	if again, _ := s.GetBlob(ctx, name); !bytes.Equal(again, got) {
		t.Errorf("a refused update wrote %q", again)
	}
	if err := s.UpdateBlob(ctx, name, func([]byte) ([]byte, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if b, err := s.GetBlob(ctx, name); err != nil || b != nil {
		t.Errorf("after an empty update: %q, %v; want nil", b, err)
	}
}
