package embedded

import (
	"bytes"
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// GetBlob returns the bytes saved under name, or nil and no error when
// nothing is saved. Blobs hold opaque state such as the WeChat hot-login
// state (a credential: the file's mode 0600 keeps it private).
func (s *Store) GetBlob(ctx context.Context, name string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embedded store: get blob %q: %w", name, err)
	}
	var out []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		out = bytes.Clone(tx.Bucket(bucketBlobs).Get([]byte(name)))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("embedded store: get blob %q: %w", name, err)
	}
	return out, nil
}

// PutBlob replaces the bytes saved under name; empty data deletes them.
func (s *Store) PutBlob(ctx context.Context, name string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: put blob %q: %w", name, err)
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketBlobs)
		if len(data) == 0 {
			return b.Delete([]byte(name))
		}
		return b.Put([]byte(name), data)
	})
	if err != nil {
		return fmt.Errorf("embedded store: put blob %q: %w", name, err)
	}
	return nil
}

// UpdateBlob replaces the bytes saved under name by f(the bytes saved
// now, nil when none) in one write transaction, so no other write comes
// between the read and the write; empty output deletes them, and an
// error from f writes nothing and is returned (wrapped).
func (s *Store) UpdateBlob(ctx context.Context, name string, f func(old []byte) ([]byte, error)) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: update blob %q: %w", name, err)
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketBlobs)
		data, err := f(bytes.Clone(b.Get([]byte(name))))
		if err != nil {
			return err
		}
		if len(data) == 0 {
			return b.Delete([]byte(name))
		}
		return b.Put([]byte(name), data)
	})
	if err != nil {
		return fmt.Errorf("embedded store: update blob %q: %w", name, err)
	}
	return nil
}
