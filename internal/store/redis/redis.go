// Package redis is the shared store for several replicas: go-redis's
// UniversalClient, so a single server, Sentinel or Cluster work. It
// implements stock.SnapshotStore, stock.SubscriptionStore, stock.AlertStore
// and stock.Locker.
//
// Key layout (P is the prefix, "labgpu:" by default):
//
//	P+"snapshots"        hash  provider → JSON stock.ProviderSnapshot
//	P+"subscriptions"    hash  subscription id → JSON stock.Subscription
//	P+"notify"           hash  subscription id → JSON stock.NotifyRecord
//	P+"claim:"+key       string "1" (ClaimAlert) or the owner (ClaimAs),
//	                     expires after the claim's ttl
//	P+"mute:"+chatKey    string RFC 3339 time, expires at that time
//	P+"lock:"+name       string owner, expires after the lock's ttl
//	P+"history"          hash  chunk key → availability history chunk
//	P+"storage:"+lab     list  JSON ledger.StorageEvent, in write order
//	P+"storage-labs"     set   the labs with a ledger
//	P+"digest-chats"     set   chat keys with the weekly digest on
//	P+"blob:"+name       string opaque bytes (GetBlob, PutBlob)
//	P+"sent:"+key        string "1": a part an outbox delivered, expires
//	                     after its ttl (chat.DeliveryLog)
//	P+"digest_marks"     hash  chat key → where its scheduled digest stands
//	P+"inbox"            hash  the Feishu inbox and its owners' leases
//	                     (inbox.go)
//	P+"frame:"+key       string a conversation's frame, expires after its
//	                     ttl (frames.go)
//	P+"frames:"+key      list  a chat's recent answers' frames, capped
//
// Every command and script touches one key, so no hash tags are needed on a
// Cluster. Expiry uses the Redis server's clock.
package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/labgpu/bot/internal/stock"
)

// DefaultPrefix is the key prefix used when none is given.
const DefaultPrefix = "labgpu:"

// DefaultURL is the REDIS_URL used when none is configured.
const DefaultURL = "redis://127.0.0.1:6379/0"

// pingTimeout bounds Open's connectivity check.
const pingTimeout = 5 * time.Second

// Store is a Redis-backed store. Safe for concurrent use, also by several
// processes sharing the same server and prefix.
type Store struct {
	c      goredis.UniversalClient
	prefix string
	claims claimBatcher
}

// New returns a store over client with keys under prefix (DefaultPrefix
// when empty). The store does not ping; Close closes client.
func New(client goredis.UniversalClient, prefix string) *Store {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	return &Store{c: client, prefix: prefix}
}

// Open connects to a single Redis server given by a REDIS_URL-style URL
// ("redis://[user:password@]host:port/db", "rediss://…" for TLS, "unix://…";
// empty means DefaultURL) and pings it, bounded by ctx and a 5 s timeout.
// Errors name the host, never the password. For Sentinel or Cluster, build a
// goredis.UniversalClient and use New.
func Open(ctx context.Context, rawURL, prefix string) (*Store, error) {
	c, host, err := client(rawURL)
	if err != nil {
		return nil, err
	}
	return ping(ctx, c, host, prefix)
}

// client builds the client of a REDIS_URL-style URL (empty: DefaultURL);
// host names the server in errors.
func client(rawURL string) (c *goredis.Client, host string, err error) {
	if rawURL == "" {
		rawURL = DefaultURL
	}
	host = urlHost(rawURL)
	opt, err := goredis.ParseURL(rawURL)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			// url.Error repeats the whole URL, password included.
			err = ue.Err
		}
		return nil, host, fmt.Errorf("redis store: invalid REDIS_URL (host %q): %w", host, err)
	}
	// A context's deadline bounds the command, not only the wait for a
	// connection: a claim's caller gives up when it said it would.
	opt.ContextTimeoutEnabled = true
	quietClientLog()
	return goredis.NewClient(opt), host, nil
}

// ping returns a store over c once c answers a ping, bounded by ctx and
// pingTimeout; otherwise it closes c and names at, where Redis was sought.
func ping(ctx context.Context, c goredis.UniversalClient, at, prefix string) (*Store, error) {
	s, err := dial(ctx, c, at, prefix)
	if err != nil {
		c.Close()
		return nil, err
	}
	return s, nil
}

// UnreachableError is Dial's error when Redis did not answer: the store
// it returns alongside still works once Redis does (go-redis connects on
// each command).
type UnreachableError struct {
	At  string // where Redis was sought (host:port, never a password)
	Err error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("redis store: no answer from Redis at %s: %v", e.At, e.Err)
}
func (e *UnreachableError) Unwrap() error { return e.Err }

// dial pings c: the store, and an *UnreachableError when c did not
// answer within ctx and pingTimeout.
func dial(ctx context.Context, c goredis.UniversalClient, at, prefix string) (*Store, error) {
	pctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	s := New(c, prefix)
	if err := c.Ping(pctx).Err(); err != nil {
		return s, &UnreachableError{At: at, Err: err}
	}
	return s, nil
}

// Dial is Open for a server that may be down: when Redis does not answer
// the ping it still returns the store, with an *UnreachableError, so
// `bot serve` can start degraded and use Redis once it is back. A URL that
// does not parse is an error without a store.
func Dial(ctx context.Context, rawURL, prefix string) (*Store, error) {
	c, host, err := client(rawURL)
	if err != nil {
		return nil, err
	}
	return dial(ctx, c, host, prefix)
}

// urlHost is the URL's host[:port] (the socket path for unix://), without
// user or password; "?" when it does not parse.
func urlHost(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "?"
	}
	if u.Host == "" && u.Path != "" && u.Scheme == "unix" {
		return u.Path
	}
	return u.Host
}

// Client returns the underlying client.
func (s *Store) Client() goredis.UniversalClient { return s.c }

// Prefix returns the key prefix.
func (s *Store) Prefix() string { return s.prefix }

// Close closes the client.
func (s *Store) Close() error { return s.c.Close() }

func (s *Store) key(parts ...string) string {
	k := s.prefix
	for _, p := range parts {
		k += p
	}
	return k
}

// SaveProviderSnapshot replaces the provider's stored snapshot.
func (s *Store) SaveProviderSnapshot(ctx context.Context, ps stock.ProviderSnapshot) error {
	return s.putJSON(ctx, "snapshots", ps.Provider, ps, "snapshot", "save")
}

// putJSON sets field of the hash to v as JSON. Errors name the record by
// its kind and field and say what failed: encode, or the verb (save, add).
func (s *Store) putJSON(ctx context.Context, hash, field string, v any, kind, verb string) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("redis store: encode %s %q: %w", kind, field, err)
	}
	if err := s.c.HSet(ctx, s.key(hash), field, b).Err(); err != nil {
		return fmt.Errorf("redis store: %s %s %q: %w", verb, kind, field, err)
	}
	return nil
}

// LoadProviderSnapshots returns every stored snapshot. A record that does
// not decode is skipped and reported in the error, the others still load.
func (s *Store) LoadProviderSnapshots(ctx context.Context) ([]stock.ProviderSnapshot, error) {
	return decodeHash[stock.ProviderSnapshot](ctx, s, "snapshots", "snapshot", "load snapshots")
}

// decodeHash decodes every value of the hash, in field order. A value that
// does not decode is skipped and reported in the error (the last such),
// named by kind and field, the others still load; a failed read is
// reported as what failed.
func decodeHash[T any](ctx context.Context, s *Store, hash, kind, what string) ([]T, error) {
	m, err := s.c.HGetAll(ctx, s.key(hash)).Result()
	if err != nil {
		return nil, fmt.Errorf("redis store: %s: %w", what, err)
	}
	var out []T
	var bad error
	for _, k := range sortedKeys(m) {
		var x T
		if err := json.Unmarshal([]byte(m[k]), &x); err != nil {
			bad = fmt.Errorf("redis store: %s %q does not decode: %w", kind, k, err)
			continue
		}
		out = append(out, x)
	}
	return out, bad
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// sortedMembers returns the members of the set at key, sorted; errors say
// what is read.
func (s *Store) sortedMembers(ctx context.Context, key, what string) ([]string, error) {
	all, err := s.c.SMembers(ctx, s.key(key)).Result()
	if err != nil {
		return nil, fmt.Errorf("redis store: %s: %w", what, err)
	}
	sort.Strings(all)
	return all, nil
}

// OpenCluster connects through a Sentinel group (masterName set) or a
// Cluster (several addrs) or a single server (one addr), with the
// password and database of rawURL when given (its host is ignored), and
// pings it. It is how `store.redis_addrs` reaches UniversalClient.
func OpenCluster(ctx context.Context, addrs []string, masterName, rawURL, prefix string) (*Store, error) {
	quietClientLog()
	opt := &goredis.UniversalOptions{Addrs: addrs, MasterName: masterName, ContextTimeoutEnabled: true}
	if rawURL != "" {
		if u, err := goredis.ParseURL(rawURL); err == nil {
			opt.Username, opt.Password, opt.DB, opt.TLSConfig = u.Username, u.Password, u.DB, u.TLSConfig
		}
	}
	return ping(ctx, goredis.NewUniversalClient(opt), fmt.Sprint(addrs), prefix)
}
