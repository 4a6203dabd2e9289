package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	goredis "github.com/redis/go-redis/v9"

	"github.com/labgpu/bot/internal/billing"
)

// AppendStorageEvents adds events to their labs' storage ledgers (a list
// per lab, <prefix>storage:<lab>, and the set of labs <prefix>storage-labs)
// in one MULTI/EXEC transaction.
func (s *Store) AppendStorageEvents(ctx context.Context, events []billing.StorageEvent) error {
	_, err := s.c.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		for _, e := range events {
			if e.Lab == "" {
				return errors.New("an event without a lab")
			}
			v, err := json.Marshal(e)
			if err != nil {
				return err
			}
			p.RPush(ctx, s.key("storage:", e.Lab), v)
			p.SAdd(ctx, s.key("storage-labs"), e.Lab)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis store: append storage events: %w", err)
	}
	return nil
}

// StorageEvents returns a lab's ledger in the order it was written, or
// every lab's (labs sorted) when lab is "".
func (s *Store) StorageEvents(ctx context.Context, lab string) ([]billing.StorageEvent, error) {
	labs := []string{lab}
	if lab == "" {
		all, err := s.sortedMembers(ctx, "storage-labs", "storage labs")
		if err != nil {
			return nil, err
		}
		labs = all
	}
	var out []billing.StorageEvent
	for _, l := range labs {
		vals, err := s.c.LRange(ctx, s.key("storage:", l), 0, -1).Result()
		if err != nil {
			return nil, fmt.Errorf("redis store: storage events of %q: %w", l, err)
		}
		for _, v := range vals {
			var e billing.StorageEvent
			if err := json.Unmarshal([]byte(v), &e); err != nil {
				return nil, fmt.Errorf("redis store: storage events of %q: a record does not decode: %w", l, err)
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// SetDigestChat turns the weekly digest on or off for a chat key (set
// <prefix>digest-chats).
func (s *Store) SetDigestChat(ctx context.Context, chatKey string, on bool) error {
	var err error
	if on {
		err = s.c.SAdd(ctx, s.key("digest-chats"), chatKey).Err()
	} else {
		err = s.c.SRem(ctx, s.key("digest-chats"), chatKey).Err()
	}
	if err != nil {
		return fmt.Errorf("redis store: digest chat %q: %w", chatKey, err)
	}
	return nil
}

// DigestChats lists the chat keys with the weekly digest on, sorted.
func (s *Store) DigestChats(ctx context.Context) ([]string, error) {
	return s.sortedMembers(ctx, "digest-chats", "digest chats")
}
