package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Keys of sends kept across restarts (storetest.SendStore), under the
// prefix P:
//
//	P+"sent:"+key     string "1", expires after the mark's ttl
//	                  (chat.DeliveryLog)
//	P+"digest_marks"  hash  chat key → jobs.Digest's mark
//	P+"parked"        hash  key → "<expiry, Unix ms>|<answer bytes>"
//	                  (feishu.Parking); the hash expires with its newest
//	                  entry, so answers nobody takes do not stay

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

// parkScript sets field ARGV[1] of KEYS[1] to ARGV[2] and keeps the hash
// at least ARGV[3] ms.
var parkScript = goredis.NewScript(`
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local ttl = tonumber(ARGV[3])
if redis.call('PTTL', KEYS[1]) < ttl then
	redis.call('PEXPIRE', KEYS[1], ttl)
end
return 1
`)

// ParkReply keeps data under key for ttl, replacing what was parked
// there (feishu.Parking).
func (s *Store) ParkReply(ctx context.Context, key string, data []byte, ttl time.Duration) error {
	if key == "" || ttl <= 0 {
		return fmt.Errorf("redis store: park reply %q for %v: empty key or ttl not positive", key, ttl)
	}
	ttl = roundUpMs(ttl)
	v := strconv.FormatInt(time.Now().Add(ttl).UnixMilli(), 10) + "|" + string(data)
	if err := parkScript.Run(ctx, s.c, []string{s.key("parked")}, key, v, ttl.Milliseconds()).Err(); err != nil {
		return fmt.Errorf("redis store: park reply %q: %w", key, err)
	}
	return nil
}

// takeScript removes and returns (as field, value, …) the fields of
// KEYS[1] that start with ARGV[1].
var takeScript = goredis.NewScript(`
local all = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #all, 2 do
	local k = all[i]
	if string.sub(k, 1, #ARGV[1]) == ARGV[1] then
		redis.call('HDEL', KEYS[1], k)
		out[#out + 1] = k
		out[#out + 1] = all[i + 1]
	end
end
return out
`)

// TakeParkedReplies removes every answer parked under a key starting with
// prefix and returns those not expired, in one script: two callers never
// take the same one.
func (s *Store) TakeParkedReplies(ctx context.Context, prefix string) (map[string][]byte, error) {
	res, err := takeScript.Run(ctx, s.c, []string{s.key("parked")}, prefix).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("redis store: take parked replies: %w", err)
	}
	now := time.Now().UnixMilli()
	out := map[string][]byte{}
	for i := 0; i+1 < len(res); i += 2 {
		exp, data, ok := strings.Cut(res[i+1], "|")
		ms, err := strconv.ParseInt(exp, 10, 64)
		if !ok || err != nil || ms <= now {
			continue // expired, or not ours to read
		}
		out[res[i]] = []byte(data)
	}
	return out, nil
}
