package redis

import (
	"context"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Keys of sends kept across restarts (storetest.SendStore), under the
// prefix P:
//
//	P+"sent:"+key     string "1", expires after the mark's ttl
//	                  (chat.DeliveryLog)
//	P+"digest_marks"  hash  chat key → jobs.Digest's mark

// Delivered reports whether key was marked delivered and has not expired
// (chat.DeliveryLog).
func (s *Store) Delivered(ctx context.Context, key string) (bool, error) {
	n, err := s.c.Exists(ctx, s.key("sent:", key)).Result()
	if err != nil {
		return false, fmt.Errorf("redis store: delivered %q: %w", key, err)
	}
	return n == 1, nil
}

// MarkDelivered records that key was delivered, for ttl (millisecond
// resolution, rounded up).
func (s *Store) MarkDelivered(ctx context.Context, key string, ttl time.Duration) error {
	if key == "" || ttl <= 0 {
		return fmt.Errorf("redis store: mark delivered %q for %v: empty key or ttl not positive", key, ttl)
	}
	if err := s.c.Set(ctx, s.key("sent:", key), "1", roundUpMs(ttl)).Err(); err != nil {
		return fmt.Errorf("redis store: mark delivered %q: %w", key, err)
	}
	return nil
}

// DigestMark is the chat's digest mark, "" when it has none
// (jobs.DigestMarks).
func (s *Store) DigestMark(ctx context.Context, chatKey string) (string, error) {
	v, err := s.c.HGet(ctx, s.key("digest_marks"), chatKey).Result()
	if errors.Is(err, goredis.Nil) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("redis store: digest mark %q: %w", chatKey, err)
	}
	return v, nil
}

// swapFieldScript sets field ARGV[1] of hash KEYS[1] to ARGV[3] (deletes
// it when ARGV[3] is empty) if its value is ARGV[2] ("" for none).
// Returns 1 when it did.
var swapFieldScript = goredis.NewScript(`
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then cur = '' end
if cur ~= ARGV[2] then return 0 end
if ARGV[3] == '' then
	redis.call('HDEL', KEYS[1], ARGV[1])
else
	redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
return 1
`)

// SwapDigestMark sets the chat's mark to new when it is old ("" for none;
// new "" deletes it), atomically, and reports whether it did.
func (s *Store) SwapDigestMark(ctx context.Context, chatKey, old, new string) (bool, error) {
	if chatKey == "" {
		return false, errors.New("redis store: swap digest mark: empty chat key")
	}
	n, err := swapFieldScript.Run(ctx, s.c, []string{s.key("digest_marks")}, chatKey, old, new).Int()
	if err != nil {
		return false, fmt.Errorf("redis store: swap digest mark %q: %w", chatKey, err)
	}
	return n == 1, nil
}
