package redis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	goredis "github.com/redis/go-redis/v9"

	"github.com/labgpu/bot/internal/billing/ledger"
)

// AppendStorageEvents adds events to their labs' storage ledgers (a list
// per lab, <prefix>storage:<lab>, and the set of labs <prefix>storage-labs)
// in one MULTI/EXEC transaction.
func (s *Store) AppendStorageEvents(ctx context.Context, events []ledger.StorageEvent) error {
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

// appendIfScript appends ARGV[2..] to the ledger list KEYS[1] when it
// holds ARGV[1] events; returns the new length, or -1 (nothing written)
// when it holds another number.
var appendIfScript = goredis.NewScript(`
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then
	return -1
end
for i = 2, #ARGV, 1000 do
	redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
return redis.call('LLEN', KEYS[1])
`)

// AppendStorageEventsIf adds events (each of lab) to lab's ledger when it
// still holds have events (what a StorageEvents(lab) read returned): one
// script compares the list's length and appends, so nothing comes between;
// otherwise it writes nothing and returns ledger.ErrLedgerChanged. A
// lab's ledger is append-only, so its length is its version.
func (s *Store) AppendStorageEventsIf(ctx context.Context, lab string, have int, events []ledger.StorageEvent) error {
	if lab == "" {
		return errors.New("redis store: append storage events: an event without a lab")
	}
	args := []any{have}
	for _, e := range events {
		if e.Lab != lab {
			return fmt.Errorf("redis store: append storage events: an event of lab %q in an append to lab %q", e.Lab, lab)
		}
		v, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("redis store: append storage events of %q: %w", lab, err)
		}
		args = append(args, v)
	}
	if err := s.addLab(ctx, lab); err != nil {
		return err
	}
	n, err := appendIfScript.Run(ctx, s.c, []string{s.key("storage:", lab)}, args...).Int()
	if err != nil {
		return fmt.Errorf("redis store: append storage events of %q: %w", lab, err)
	}
	if n < 0 {
		return fmt.Errorf("redis store: append storage events of %q: %w", lab, ledger.ErrLedgerChanged)
	}
	return nil
}

// addDiskScript appends a disk's add to the ledger list KEYS[1] with its
// id allocated in the same step: one more than the largest disk number
// (ledger.DiskNumber: 1 to 15 ASCII digits) any event of the list names.
// ARGV[1] and ARGV[2] are the event's JSON before and after the id's
// digits. Returns the id.
var addDiskScript = goredis.NewScript(`
local top = 0
local items = redis.call('LRANGE', KEYS[1], 0, -1)
for i = 1, #items do
	local ok, e = pcall(cjson.decode, items[i])
	if ok and type(e) == 'table' then
		local d = e['Disk']
		if type(d) == 'string' and #d >= 1 and #d <= 15 and string.find(d, '^[0-9]+$') then
			local n = tonumber(d)
			if n > top then
				top = n
			end
		end
	end
end
local id = string.format('%.0f', top + 1)
redis.call('RPUSH', KEYS[1], ARGV[1] .. id .. ARGV[2])
return id
`)

// AddStorageDisk appends e, the add of a new disk, to e.Lab's ledger with
// its id allocated in the same step (one script: ledger.NextDiskID over
// the lab's ledger; e.Disk is overwritten), and returns the id: concurrent
// registrations, from any replica, get distinct numbers. The script reads
// the lab's whole list (a lab's ledger is hundreds of events).
func (s *Store) AddStorageDisk(ctx context.Context, e ledger.StorageEvent) (string, error) {
	if e.Lab == "" {
		return "", errors.New("redis store: add disk: an event without a lab")
	}
	if e.Action != ledger.ActionAdd {
		return "", fmt.Errorf("redis store: add disk: action %q, want add", e.Action)
	}
	e.Disk = ""
	v, err := json.Marshal(e)
	if err != nil {
		return "", fmt.Errorf("redis store: add disk to %q: %w", e.Lab, err)
	}
	// The id goes between the quotes of "Disk":"" (a quote inside a
	// string value is escaped, so only the field itself matches).
	const hole = `"Disk":""`
	i := bytes.Index(v, []byte(hole))
	if i < 0 || bytes.Count(v, []byte(hole)) != 1 {
		return "", fmt.Errorf("redis store: add disk to %q: the event's JSON has no single Disk field", e.Lab)
	}
	cut := i + len(hole) - 1
	if err := s.addLab(ctx, e.Lab); err != nil {
		return "", err
	}
	id, err := addDiskScript.Run(ctx, s.c, []string{s.key("storage:", e.Lab)}, v[:cut], v[cut:]).Text()
	if err != nil {
		return "", fmt.Errorf("redis store: add disk to %q: %w", e.Lab, err)
	}
	return id, nil
}

// addLab lists lab in <prefix>storage-labs before its events are written
// (a listed lab without events reads as an empty ledger).
func (s *Store) addLab(ctx context.Context, lab string) error {
	if err := s.c.SAdd(ctx, s.key("storage-labs"), lab).Err(); err != nil {
		return fmt.Errorf("redis store: storage labs: add %q: %w", lab, err)
	}
	return nil
}

// StorageEvents returns a lab's ledger in the order it was written, or
// every lab's (labs sorted) when lab is "".
func (s *Store) StorageEvents(ctx context.Context, lab string) ([]ledger.StorageEvent, error) {
	labs := []string{lab}
	if lab == "" {
		all, err := s.sortedMembers(ctx, "storage-labs", "storage labs")
		if err != nil {
			return nil, err
		}
		labs = all
	}
	var out []ledger.StorageEvent
	for _, l := range labs {
		vals, err := s.c.LRange(ctx, s.key("storage:", l), 0, -1).Result()
		if err != nil {
			return nil, fmt.Errorf("redis store: storage events of %q: %w", l, err)
		}
		for _, v := range vals {
			var e ledger.StorageEvent
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
