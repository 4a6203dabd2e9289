package redis

import (
	"context"
	"errors"
	"fmt"

	goredis "github.com/redis/go-redis/v9"
)

// GetBlob returns the bytes saved under name (key <prefix>blob:<name>), or
// nil and no error when nothing is saved. Blobs hold opaque state such as
// the WeChat hot-login state, which is a credential: protect the Redis
// server with a password and do not expose it.
func (s *Store) GetBlob(ctx context.Context, name string) ([]byte, error) {
	b, err := s.c.Get(ctx, s.key("blob:", name)).Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("redis store: get blob %q: %w", name, err)
	}
	return b, nil
}

// PutBlob replaces the bytes saved under name; empty data deletes them.
func (s *Store) PutBlob(ctx context.Context, name string, data []byte) error {
	var err error
	if len(data) == 0 {
		err = s.c.Del(ctx, s.key("blob:", name)).Err()
	} else {
		err = s.c.Set(ctx, s.key("blob:", name), data, 0).Err()
	}
	if err != nil {
		return fmt.Errorf("redis store: put blob %q: %w", name, err)
	}
	return nil
}

// UpdateBlob replaces the bytes saved under name by f(the bytes saved
// now, nil when none), in an optimistic transaction on the blob's key
// (WATCH, GET, MULTI/SET/EXEC): when another replica wrote the blob in
// between, nothing is written and f runs again on its new bytes. Empty
// output deletes the blob; an error from f writes nothing and is
// returned (wrapped). f must not keep state between runs.
func (s *Store) UpdateBlob(ctx context.Context, name string, f func(old []byte) ([]byte, error)) error {
	key := s.key("blob:", name)
	err := s.watch(ctx, key, func(tx *goredis.Tx) error {
		old, err := tx.Get(ctx, key).Bytes()
		if errors.Is(err, goredis.Nil) {
			old, err = nil, nil
		}
		if err != nil {
			return err
		}
		data, err := f(old)
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p goredis.Pipeliner) error {
			if len(data) == 0 {
				p.Del(ctx, key)
			} else {
				p.Set(ctx, key, data, 0)
			}
			return nil
		})
		return err
	})
	if err != nil {
		return fmt.Errorf("redis store: update blob %q: %w", name, err)
	}
	return nil
}
