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
