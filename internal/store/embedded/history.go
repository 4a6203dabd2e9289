package embedded

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// PutHistory writes availability history chunks in one transaction; a
// nil or empty value deletes the chunk (see internal/history).
func (s *Store) PutHistory(ctx context.Context, chunks map[string][]byte) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: put history: %w", err)
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketHistory)
		// In key order: bbolt fills its pages far better than in map order.
		for _, k := range slices.Sorted(maps.Keys(chunks)) {
			v := chunks[k]
			var err error
			if len(v) == 0 {
				err = b.Delete([]byte(k))
			} else {
				err = b.Put([]byte(k), v)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("embedded store: put history: %w", err)
	}
	return nil
}

// LoadHistory returns every availability history chunk.
func (s *Store) LoadHistory(ctx context.Context) (map[string][]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embedded store: load history: %w", err)
	}
	out := map[string][]byte{}
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketHistory).ForEach(func(k, v []byte) error {
			out[string(k)] = bytes.Clone(v)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("embedded store: load history: %w", err)
	}
	return out, nil
}

// GetHistory returns the given availability history chunks (a chunk not
// stored is absent).
func (s *Store) GetHistory(ctx context.Context, keys []string) (map[string][]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embedded store: get history: %w", err)
	}
	out := make(map[string][]byte, len(keys))
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketHistory)
		for _, k := range keys {
			if v := b.Get([]byte(k)); v != nil {
				out[k] = bytes.Clone(v)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("embedded store: get history: %w", err)
	}
	return out, nil
}
