package redis

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// The Feishu inbox (feishu.Inbox) is one hash, P+"inbox", so that every
// script touches one key:
//
//	"e:"+key    "<expiry ms>|<suspected at ms, 0 none>|<owner>|<bytes>":
//	            an event acknowledged and not answered yet
//	"l:"+owner  "<expiry ms>": the lease of a process answering entries
//
// Times are the Redis server's (TIME). The hash is kept as long as its
// newest entry. Transient (seconds of state): Export leaves it out, so
// bot migrate does not carry it.

// putInboxScript: KEYS[1] the hash; ARGV: key, owner, data, ttl ms.
var putInboxScript = goredis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'e:' .. ARGV[1], (now + ttl) .. '|0|' .. ARGV[2] .. '|' .. ARGV[3])
if redis.call('PTTL', KEYS[1]) < ttl then
	redis.call('PEXPIRE', KEYS[1], ttl)
end
return 1
`)

// leaseScript: KEYS[1] the hash; ARGV: owner, ttl ms.
var leaseScript = goredis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'l:' .. ARGV[1], tostring(now + ttl))
if redis.call('PTTL', KEYS[1]) < ttl then
	redis.call('PEXPIRE', KEYS[1], ttl)
end
return 1
`)

// claimInboxScript: KEYS[1] the hash; ARGV: prefix, taker, confirm ms,
// taker's lease ms. Returns key, bytes, … of the entries taken.
var claimInboxScript = goredis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local prefix, taker, confirm = 'e:' .. ARGV[1], ARGV[2], tonumber(ARGV[3])
local all = redis.call('HGETALL', KEYS[1])
local leases = {}
for i = 1, #all, 2 do
	if string.sub(all[i], 1, 2) == 'l:' then
		local exp = tonumber(all[i + 1])
		if exp and exp > now then
			leases[string.sub(all[i], 3)] = true
		else
			redis.call('HDEL', KEYS[1], all[i])
		end
	end
end
local out = {}
for i = 1, #all, 2 do
	local k, v = all[i], all[i + 1]
	if string.sub(k, 1, #prefix) == prefix then
		local a = string.find(v, '|', 1, true)
		local b = a and string.find(v, '|', a + 1, true)
		local c = b and string.find(v, '|', b + 1, true)
		local exp = c and tonumber(string.sub(v, 1, a - 1))
		if not exp or exp <= now then
			redis.call('HDEL', KEYS[1], k)
		else
			local suspect = tonumber(string.sub(v, a + 1, b - 1)) or 0
			local owner = string.sub(v, b + 1, c - 1)
			local data = string.sub(v, c + 1)
			local head = string.sub(v, 1, a)
			if owner == taker then
			elseif owner ~= '' and leases[owner] then
				if suspect ~= 0 then
					redis.call('HSET', KEYS[1], k, head .. '0|' .. owner .. '|' .. data)
				end
			elseif owner == '' or (suspect ~= 0 and now - suspect >= confirm) then
				redis.call('HSET', KEYS[1], k, head .. '0|' .. taker .. '|' .. data)
				out[#out + 1] = string.sub(k, 3)
				out[#out + 1] = data
			elseif suspect == 0 then
				redis.call('HSET', KEYS[1], k, head .. now .. '|' .. owner .. '|' .. data)
			end
		end
	end
end
if not leases[taker] then
	redis.call('HSET', KEYS[1], 'l:' .. taker, tostring(now + tonumber(ARGV[4])))
end
return out
`)

// takerLease is the lease ClaimInbox gives a taker that had none: it
// renews its own after.
const takerLease = 10 * time.Second

// PutInbox writes the entry under key, owned by owner ("" for nobody: any
// live replica takes it at once), for ttl, replacing one under the same
// key (feishu.Inbox).
func (s *Store) PutInbox(ctx context.Context, key, owner string, data []byte, ttl time.Duration) error {
	if key == "" || ttl <= 0 || strings.Contains(owner, "|") {
		return fmt.Errorf("redis store: put inbox %q for %v: empty key, ttl not positive or owner with |", key, ttl)
	}
	if err := putInboxScript.Run(ctx, s.c, []string{s.key("inbox")}, key, owner, string(data), roundUpMs(ttl).Milliseconds()).Err(); err != nil {
		return fmt.Errorf("redis store: put inbox %q: %w", key, err)
	}
	return nil
}

// DropInbox removes the entry under key (none is fine).
func (s *Store) DropInbox(ctx context.Context, key string) error {
	if err := s.c.HDel(ctx, s.key("inbox"), "e:"+key).Err(); err != nil {
		return fmt.Errorf("redis store: drop inbox %q: %w", key, err)
	}
	return nil
}

// RenewInboxLease keeps owner's lease for ttl: its inbox entries are not
// taken over while it lasts.
func (s *Store) RenewInboxLease(ctx context.Context, owner string, ttl time.Duration) error {
	if owner == "" || ttl <= 0 {
		return errors.New("redis store: renew inbox lease: empty owner or ttl not positive")
	}
	if err := leaseScript.Run(ctx, s.c, []string{s.key("inbox")}, owner, roundUpMs(ttl).Milliseconds()).Err(); err != nil {
		return fmt.Errorf("redis store: renew inbox lease %q: %w", owner, err)
	}
	return nil
}

// ClaimInbox takes, for taker, the entries under prefix whose owner is
// gone, in one script (two takers never get the same entry), and returns
// their bytes by key: an entry of no owner at once; one whose owner's
// lease has ended once the lease was seen gone at least confirm ago (the
// first look only notes it, so that an owner whose lease lapsed while
// Redis was paused renews it before anyone takes over). Taken entries
// are owned by taker; expired entries and leases are deleted.
func (s *Store) ClaimInbox(ctx context.Context, prefix, taker string, confirm time.Duration) (map[string][]byte, error) {
	if taker == "" || strings.Contains(taker, "|") {
		return nil, errors.New("redis store: claim inbox: empty taker or one with |")
	}
	res, err := claimInboxScript.Run(ctx, s.c, []string{s.key("inbox")}, prefix, taker, confirm.Milliseconds(), takerLease.Milliseconds()).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("redis store: claim inbox: %w", err)
	}
	out := map[string][]byte{}
	for i := 0; i+1 < len(res); i += 2 {
		out[res[i]] = []byte(res[i+1])
	}
	return out, nil
}
