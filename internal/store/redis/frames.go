package redis

import (
	"context"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Keys of the conversation's frames (commands.FrameStore), under the
// prefix P:
//
//	P+"frame:"+key       string the frame's JSON, expires after its ttl
//	P+"frames:"+key      list   frames, newest first, capped; expires
//	                     its ttl after the last push

// PutFrame keeps data under key for ttl, replacing what was there.
func (s *Store) PutFrame(ctx context.Context, key string, data []byte, ttl time.Duration) error {
	if key == "" || ttl <= 0 {
		return fmt.Errorf("redis store: put frame %q for %v: empty key or ttl not positive", key, ttl)
	}
	if err := s.c.Set(ctx, s.key("frame:", key), data, roundUpMs(ttl)).Err(); err != nil {
		return fmt.Errorf("redis store: put frame %q: %w", key, err)
	}
	return nil
}

// Frame is what is kept under key; nil when nothing is or it expired.
func (s *Store) Frame(ctx context.Context, key string) ([]byte, error) {
	b, err := s.c.Get(ctx, s.key("frame:", key)).Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("redis store: frame %q: %w", key, err)
	}
	return b, nil
}

// TakeFrame is Frame and removes it in one command (GETDEL): of two
// callers at once, one gets it.
func (s *Store) TakeFrame(ctx context.Context, key string) ([]byte, error) {
	b, err := s.c.GetDel(ctx, s.key("frame:", key)).Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("redis store: take frame %q: %w", key, err)
	}
	return b, nil
}

// PushFrame puts data first in the list under key, keeping the newest
// keep, and keeps the list ttl from now, in one transaction.
func (s *Store) PushFrame(ctx context.Context, key string, data []byte, keep int, ttl time.Duration) error {
	if key == "" || keep <= 0 || ttl <= 0 {
		return fmt.Errorf("redis store: push frame %q (keep %d, %v): empty key, keep or ttl not positive", key, keep, ttl)
	}
	k := s.key("frames:", key)
	_, err := s.c.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.LPush(ctx, k, data)
		p.LTrim(ctx, k, 0, int64(keep-1))
		p.PExpire(ctx, k, roundUpMs(ttl))
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis store: push frame %q: %w", key, err)
	}
	return nil
}

// Frames is the list under key, newest first; nil when there is none.
func (s *Store) Frames(ctx context.Context, key string) ([][]byte, error) {
	vs, err := s.c.LRange(ctx, s.key("frames:", key), 0, -1).Result()
	if err != nil {
		return nil, fmt.Errorf("redis store: frames %q: %w", key, err)
	}
	if len(vs) == 0 {
		return nil, nil
	}
	out := make([][]byte, len(vs))
	for i, v := range vs {
		out[i] = []byte(v)
	}
	return out, nil
}
