package redis

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/labgpu/bot/internal/store/dump"
)

// Where each kind of dump.Record lives (see the key layout in redis.go):
// a hash (field → value), a set (members), the ledger's lists, or one key
// per entry under a sub-prefix.
var (
	dumpHashes = map[dump.Kind]string{dump.Subscriptions: "subscriptions", dump.AlertRecords: "notify", dump.DigestMarks: "digest_marks",
		dump.History: "history", dump.Snapshots: "snapshots"}
	dumpKeyed = map[dump.Kind]string{dump.Mutes: "mute:", dump.Blobs: "blob:", dump.Claims: "claim:", dump.Delivered: "sent:", dump.Locks: "lock:"}
)

// scanBatch is how many keys one SCAN step asks for, and one pipeline
// reads.
const scanBatch = 500

// Export emits every live entry (dump.Exporter), kind by kind in
// dump.Kinds' order, each kind's entries sorted by key (a lab's ledger
// events in write order). Redis has no read transaction across keys: an
// entry written during the export may or may not be in it.
func (s *Store) Export(ctx context.Context, emit func(dump.Record) error) error {
	now := time.Now()
	for _, k := range dump.Kinds {
		var err error
		switch {
		case dumpHashes[k] != "":
			err = s.exportHash(ctx, k, emit)
		case dumpKeyed[k] != "":
			err = s.exportKeyed(ctx, k, now, emit)
		case k == dump.DigestChats:
			err = s.exportDigestChats(ctx, emit)
		case k == dump.Ledger:
			err = s.exportLedger(ctx, emit)
		default:
			err = fmt.Errorf("no key holds %s", k)
		}
		if err != nil {
			return fmt.Errorf("redis store: export %s: %w", k, err)
		}
	}
	return nil
}

func (s *Store) exportHash(ctx context.Context, k dump.Kind, emit func(dump.Record) error) error {
	m, err := s.c.HGetAll(ctx, s.key(dumpHashes[k])).Result()
	if err != nil {
		return err
	}
	for _, f := range sortedKeys(m) {
		if err := emit(dump.Record{Kind: k, Key: f, Value: []byte(m[f])}); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) exportDigestChats(ctx context.Context, emit func(dump.Record) error) error {
	chats, err := s.DigestChats(ctx)
	if err != nil {
		return err
	}
	for _, c := range chats {
		if err := emit(dump.Record{Kind: dump.DigestChats, Key: c}); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) exportLedger(ctx context.Context, emit func(dump.Record) error) error {
	labs, err := s.sortedMembers(ctx, "storage-labs", "storage labs")
	if err != nil {
		return err
	}
	for _, lab := range labs {
		vals, err := s.c.LRange(ctx, s.key("storage:", lab), 0, -1).Result()
		if err != nil {
			return err
		}
		for _, v := range vals {
			if err := emit(dump.Record{Kind: dump.Ledger, Key: lab, Value: []byte(v)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// exportKeyed emits the entries kept one key each under the kind's
// sub-prefix: their values and, for the expiring kinds, their ends.
func (s *Store) exportKeyed(ctx context.Context, k dump.Kind, now time.Time, emit func(dump.Record) error) error {
	sub := s.key(dumpKeyed[k])
	keys, err := s.scanKeys(ctx, sub)
	if err != nil {
		return err
	}
	for start := 0; start < len(keys); start += scanBatch {
		part := keys[start:min(start+scanBatch, len(keys))]
		gets := make([]*goredis.StringCmd, len(part))
		ttls := make([]*goredis.DurationCmd, len(part))
		_, err := s.c.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for i, key := range part {
				gets[i], ttls[i] = p.Get(ctx, key), p.PTTL(ctx, key)
			}
			return nil
		})
		if err != nil && !errors.Is(err, goredis.Nil) {
			return err
		}
		for i, key := range part {
			v, err := gets[i].Result()
			if errors.Is(err, goredis.Nil) {
				continue // gone meanwhile
			}
			if err != nil {
				return err
			}
			r, ok := keyedRecord(k, strings.TrimPrefix(key, sub), v, ttls[i].Val(), now)
			if !ok {
				continue
			}
			if err := emit(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// keyedRecord is the record of one key of kind k with value v and time
// to live ttl (negative: none); ok false when it has ended.
func keyedRecord(k dump.Kind, name, v string, ttl time.Duration, now time.Time) (dump.Record, bool) {
	r := dump.Record{Kind: k, Key: name}
	if ttl > 0 {
		r.Expires = now.Add(ttl)
	}
	switch k {
	case dump.Blobs:
		r.Value = []byte(v)
		return r, true
	case dump.Mutes:
		until, err := time.Parse(time.RFC3339Nano, v)
		if err != nil || !until.After(now) {
			return r, false
		}
		r.Expires = until
		return r, true
	case dump.Claims:
		if v != claimAlertValue {
			r.Owner = v
		}
	case dump.Locks:
		r.Owner = v
	}
	return r, ttl > 0
}

// claimAlertValue is the value of a claim taken without an owner
// (ClaimAlert).
const claimAlertValue = "1"

// scanKeys lists the keys starting with prefix, sorted: on a Cluster,
// those of every master.
func (s *Store) scanKeys(ctx context.Context, prefix string) ([]string, error) {
	var mu sync.Mutex
	var out []string
	scan := func(ctx context.Context, c goredis.UniversalClient) error {
		iter := c.Scan(ctx, 0, globEscape(prefix)+"*", scanBatch).Iterator()
		for iter.Next(ctx) {
			mu.Lock()
			out = append(out, iter.Val())
			mu.Unlock()
		}
		return iter.Err()
	}
	var err error
	if cc, ok := s.c.(*goredis.ClusterClient); ok {
		err = cc.ForEachMaster(ctx, func(ctx context.Context, c *goredis.Client) error { return scan(ctx, c) })
	} else {
		err = scan(ctx, s.c)
	}
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// globEscape escapes the characters SCAN's MATCH reads as a pattern.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Import writes records in the store's layout (dump.Importer), in one
// pipeline; expired records and locks are skipped.
func (s *Store) Import(ctx context.Context, recs []dump.Record) error {
	now := time.Now()
	_, err := s.c.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, r := range recs {
			if (r.Kind.Expiring() && !now.Before(r.Expires)) || r.Kind == dump.Locks {
				continue
			}
			if err := s.importRecord(ctx, p, r, now); err != nil {
				return fmt.Errorf("%s %q: %w", r.Kind, r.Key, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis store: import: %w", err)
	}
	return nil
}

// importRecord queues the writes of one record on p.
func (s *Store) importRecord(ctx context.Context, p goredis.Pipeliner, r dump.Record, now time.Time) error {
	at := goredis.SetArgs{ExpireAt: roundUpMsTime(r.Expires)}
	switch k := r.Kind; {
	case dumpHashes[k] != "":
		p.HSet(ctx, s.key(dumpHashes[k]), r.Key, r.Value)
	case k == dump.DigestChats:
		p.SAdd(ctx, s.key("digest-chats"), r.Key)
	case k == dump.Ledger:
		p.SAdd(ctx, s.key("storage-labs"), r.Key)
		p.RPush(ctx, s.key("storage:", r.Key), r.Value)
	case k == dump.Blobs:
		p.Set(ctx, s.key("blob:", r.Key), r.Value, 0)
	case k == dump.Mutes:
		p.SetArgs(ctx, s.key("mute:", r.Key), r.Expires.UTC().Format(time.RFC3339Nano), at)
	case k == dump.Claims:
		v := r.Owner
		if v == "" {
			v = claimAlertValue
		}
		p.SetArgs(ctx, s.key("claim:", r.Key), v, at)
	case k == dump.Delivered:
		p.SetArgs(ctx, s.key("sent:", r.Key), "1", at)
	default:
		return fmt.Errorf("no key holds %s", k)
	}
	return nil
}

// roundUpMsTime is t rounded up to whole milliseconds (Redis's
// resolution), so a key never ends before t.
func roundUpMsTime(t time.Time) time.Time {
	ms := t.UnixMilli()
	if time.UnixMilli(ms).Before(t) {
		ms++
	}
	return time.UnixMilli(ms)
}

// Clear deletes every key of the store's layout under its prefix but the
// locks (dump.Clearer), the Feishu inbox included (never exported: it
// holds events for seconds, until they are answered).
func (s *Store) Clear(ctx context.Context) error {
	del := []string{s.key("storage-labs"), s.key("digest-chats"), s.key("inbox"), s.key("parked")}
	for _, h := range dumpHashes {
		del = append(del, s.key(h))
	}
	for _, sub := range []string{"storage:", "mute:", "blob:", "claim:", "sent:"} {
		keys, err := s.scanKeys(ctx, s.key(sub))
		if err != nil {
			return fmt.Errorf("redis store: clear: %w", err)
		}
		del = append(del, keys...)
	}
	// One key a DEL, so that a Cluster takes them.
	for start := 0; start < len(del); start += scanBatch {
		_, err := s.c.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for _, k := range del[start:min(start+scanBatch, len(del))] {
				p.Del(ctx, k)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("redis store: clear: %w", err)
		}
	}
	return nil
}
