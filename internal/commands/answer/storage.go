package answer

import (
	"context"
	"io"

	"github.com/labgpu/bot/internal/billing/ledger"
)

// Ledger keeps the labs' storage ledgers (both stores implement it).
type Ledger interface {
	AppendStorageEvents(ctx context.Context, events []ledger.StorageEvent) error
	StorageEvents(ctx context.Context, lab string) ([]ledger.StorageEvent, error)
	SetDigestChat(ctx context.Context, chatKey string, on bool) error
	// AddStorageDisk appends the add of a new disk with its number
	// allocated in the same write (ledger.NextDiskID) and returns it.
	AddStorageDisk(ctx context.Context, e ledger.StorageEvent) (string, error)
	// AppendStorageEventsIf appends events to lab's ledger only when it
	// still holds have events (as read); else ledger.ErrLedgerChanged.
	AppendStorageEventsIf(ctx context.Context, lab string, have int, events []ledger.StorageEvent) error
}

// Blobs keeps named blobs (both stores do).
type Blobs interface {
	GetBlob(ctx context.Context, name string) ([]byte, error)
	PutBlob(ctx context.Context, name string, data []byte) error
}

// BlobUpdater rewrites a blob from its bytes in one step of the store
// (both stores: no other write, from any replica, comes between the read
// and the write).
type BlobUpdater interface {
	UpdateBlob(ctx context.Context, name string, f func(old []byte) ([]byte, error)) error
}

// StorageOptions configures the storage commands.
type StorageOptions struct {
	Ledger Ledger
	// Price prices data disks (ledger.CatalogStoragePrice).
	Price ledger.StoragePrice
	// Admins are sender ids (Feishu open_id, "console") allowed to change
	// any entry of their lab; others change only their own. They never
	// apply to WeChat messages: WeChat admins are bound (admins.go).
	Admins []string
	// Blobs keeps the WeChat admin bindings (WeChatAdminsBlob); nil: no
	// WeChat admins.
	Blobs Blobs
	// Console receives the one-time binding codes; default os.Stderr.
	Console io.Writer
	// Overrides are the configured data disk prices (storage.prices), for
	// the digest's price notes.
	Overrides map[string]float64
	// Labs maps chat keys ("feishu/oc_…") to a lab name; a chat not listed
	// is its own lab.
	Labs map[string]string
	// DigestSchedule is when the weekly digest goes out (the cron spec of
	// storage.digest_schedule; "": not known here).
	DigestSchedule string
}

// LabOf returns the lab of a chat key: its configured lab or the chat
// itself.
func (o *StorageOptions) LabOf(chatKey string) string {
	if l, ok := o.Labs[chatKey]; ok && l != "" {
		return l
	}
	return chatKey
}

// Storage is what the storage intents read and keep: the options and
// the WeChat admin binding codes waiting for their member's reply (in
// memory: a restart voids them).
type Storage struct {
	StorageOptions
	bind *binder
}

// NewStorage is the storage state over o, with no codes pending.
func NewStorage(o StorageOptions) *Storage {
	return &Storage{StorageOptions: o, bind: newBinder()}
}

// On reports whether the ledger is there to answer from.
func (s *Storage) On() bool { return s != nil && s.Ledger != nil }

// Events are the ledger of the lab the asker's chat belongs to, and the
// lab.
func (s *Storage) Events(ctx context.Context, from Asker) (string, []ledger.StorageEvent, error) {
	lab := s.LabOf(from.ChatKey())
	ev, err := s.Ledger.StorageEvents(ctx, lab)
	return lab, ev, err
}
