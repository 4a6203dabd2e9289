package commands

import (
	"github.com/labgpu/bot/internal/commands/answer"

	// The storage ledger's intents register from their package.
	_ "github.com/labgpu/bot/internal/commands/storage"
)

// The storage ledger's settings and stores (the answer package's: the
// storage intents read them from the Env).
type (
	StorageOptions = answer.StorageOptions
	Ledger         = answer.Ledger
	Blobs          = answer.Blobs
	BlobUpdater    = answer.BlobUpdater
	WeChatAdmin    = answer.WeChatAdmin
)

// WeChatStrongPrefix, WeChatAdminsBlob and the binding codes' limits
// (answer/admins.go).
const (
	WeChatStrongPrefix = answer.WeChatStrongPrefix
	WeChatAdminsBlob   = answer.WeChatAdminsBlob
	BindCodeTTL        = answer.BindCodeTTL
	BindCodeTries      = answer.BindCodeTries
	BindCodesPerHour   = answer.BindCodesPerHour
)

// WithStorage turns on the storage ledger and digest commands.
func WithStorage(o StorageOptions) Option {
	return func(r *Router) { r.storage = answer.NewStorage(o) }
}
