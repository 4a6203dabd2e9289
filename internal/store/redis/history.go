package redis

import (
	"context"
	"fmt"

	goredis "github.com/redis/go-redis/v9"
)

// PutHistory writes availability history chunks to the hash P+"history"
// in one MULTI (one round trip); a nil or empty value deletes the chunk.
func (s *Store) PutHistory(ctx context.Context, chunks map[string][]byte) error {
	if len(chunks) == 0 {
		return nil
	}
	key := s.key("history")
	var set []any
	var del []string
	for k, v := range chunks {
		if len(v) == 0 {
			del = append(del, k)
		} else {
			set = append(set, k, v)
		}
	}
	_, err := s.c.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		if len(set) > 0 {
			p.HSet(ctx, key, set...)
		}
		if len(del) > 0 {
			p.HDel(ctx, key, del...)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis store: put history: %w", err)
	}
	return nil
}

// LoadHistory returns every availability history chunk.
func (s *Store) LoadHistory(ctx context.Context) (map[string][]byte, error) {
	m, err := s.c.HGetAll(ctx, s.key("history")).Result()
	if err != nil {
		return nil, fmt.Errorf("redis store: load history: %w", err)
	}
	out := make(map[string][]byte, len(m))
	for k, v := range m {
		out[k] = []byte(v)
	}
	return out, nil
}

// GetHistory returns the given availability history chunks (HMGET; a
// chunk not stored is absent).
func (s *Store) GetHistory(ctx context.Context, keys []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	vals, err := s.c.HMGet(ctx, s.key("history"), keys...).Result()
	if err != nil {
		return nil, fmt.Errorf("redis store: get history: %w", err)
	}
	for i, v := range vals {
		if str, ok := v.(string); ok {
			out[keys[i]] = []byte(str)
		}
	}
	return out, nil
}
