package wechat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/eatmoreapple/openwechat"
)

// HotStorage keeps openwechat's hot-login state (cookies, login info, sync
// key: the JSON of openwechat.HotReloadStorageItem) between runs, so that a
// restart does not need a new QR scan. The app adapts its store (embedded
// or Redis) to it; FileStorage and MemoryStorage are ready-made ones.
//
// The state is a credential: whoever has it can act as the bot's WeChat
// account until the session ends. Keep it out of logs and backups that
// others read.
type HotStorage interface {
	// Load returns the saved state, or an empty slice and a nil error when
	// nothing has been saved yet.
	Load(ctx context.Context) ([]byte, error)
	// Save replaces the saved state.
	Save(ctx context.Context, state []byte) error
}

// MemoryStorage is a HotStorage in memory: for tests, or a run that may
// ask for a QR scan at every start. The zero value is empty and ready;
// it is safe for concurrent use.
type MemoryStorage struct {
	mu    sync.Mutex
	state []byte
	saves int
}

// NewMemoryStorage returns a MemoryStorage holding a copy of state (nil
// for an empty one).
func NewMemoryStorage(state []byte) *MemoryStorage {
	return &MemoryStorage{state: bytes.Clone(state)}
}

// Load returns a copy of the state.
func (m *MemoryStorage) Load(context.Context) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return bytes.Clone(m.state), nil
}

// Save replaces the state with a copy of state.
func (m *MemoryStorage) Save(_ context.Context, state []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.state = bytes.Clone(state)
	m.saves++
	return nil
}

// Saves counts the calls to Save.
func (m *MemoryStorage) Saves() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.saves
}

// FileStorage returns a HotStorage kept in the file at path. Load of a
// missing file returns no state. Save writes a temporary file in the same
// directory with mode 0600 and renames it over path, so a crash never
// leaves half a state behind.
func FileStorage(path string) HotStorage { return fileStorage{path: path} }

type fileStorage struct{ path string }

// Load reads the file; a missing file is no state.
func (f fileStorage) Load(context.Context) ([]byte, error) {
	b, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("wechat: read hot-login state: %w", err)
	}
	return b, nil
}

// Save replaces the file atomically.
func (f fileStorage) Save(_ context.Context, state []byte) error {
	dir := filepath.Dir(f.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("wechat: save hot-login state: %w", err)
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(f.path)+".tmp*")
	if err != nil {
		return fmt.Errorf("wechat: save hot-login state: %w", err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(state)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = os.Remove(name)
		return fmt.Errorf("wechat: save hot-login state: %w", err)
	}
	if err := os.Chmod(name, 0o600); err != nil {
		_ = os.Remove(name)
		return fmt.Errorf("wechat: save hot-login state: %w", err)
	}
	if err := os.Rename(name, f.path); err != nil {
		_ = os.Remove(name)
		return fmt.Errorf("wechat: save hot-login state: %w", err)
	}
	return nil
}

// storageTimeout bounds one Load or Save made on openwechat's behalf.
const storageTimeout = 10 * time.Second

// hotReloadAdapter turns a HotStorage into openwechat's HotReloadStorage
// (an io.ReadWriter, storage.go in openwechat v1.4.10):
//
//   - HotLogin decodes the state with json.NewDecoder(storage).Decode, so
//     Read must return the whole saved state and then io.EOF. The adapter
//     loads it on the first Read; no saved state reads as
//     openwechat.ErrInvalidStorage, as the library's file storage does for
//     a missing file, and the login falls back to the QR code.
//   - The library writes the state with one json.Encoder.Encode (one Write
//     of the whole JSON) after the login and after every message sync, and
//     never checks the error of the latter: each Write replaces the state,
//     and failures are logged here.
//
// A Write also resets the reader, so a later Read returns what was written.
type hotReloadAdapter struct {
	st  HotStorage
	log *slog.Logger

	mu     sync.Mutex
	rd     *bytes.Reader
	loaded bool // Load was called (state may still be empty)
	empty  bool // Load found no state
}

func newHotReloadAdapter(st HotStorage, log *slog.Logger) *hotReloadAdapter {
	return &hotReloadAdapter{st: st, log: log}
}

// Read returns the saved state, then io.EOF.
func (a *hotReloadAdapter) Read(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.loaded {
		ctx, cancel := context.WithTimeout(context.Background(), storageTimeout)
		state, err := a.st.Load(ctx)
		cancel()
		if err != nil {
			return 0, fmt.Errorf("wechat: load hot-login state: %w", err)
		}
		a.loaded = true
		a.empty = len(bytes.TrimSpace(state)) == 0
		a.rd = bytes.NewReader(state)
	}
	if a.empty {
		return 0, openwechat.ErrInvalidStorage
	}
	n, err := a.rd.Read(p)
	if err == io.EOF {
		// The next Read (a new HotLogin) loads the state again.
		a.loaded = false
	}
	return n, err
}

// Write replaces the saved state with p. A failed save is logged, not
// returned: the session works without it, only a restart needs a scan.
func (a *hotReloadAdapter) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.loaded = false
	ctx, cancel := context.WithTimeout(context.Background(), storageTimeout)
	defer cancel()
	if err := a.st.Save(ctx, bytes.Clone(p)); err != nil {
		// openwechat fails the whole login when the state cannot be saved;
		// a store hiccup must not log the bot out, so report and go on.
		a.log.Warn("wechat: saving the hot-login state failed; a restart may need a new QR scan", "err", err)
	}
	return len(p), nil
}

// hasState reports whether the storage holds a state, without consuming
// the adapter's reader.
func hasState(ctx context.Context, st HotStorage) (bool, error) {
	state, err := st.Load(ctx)
	if err != nil {
		return false, err
	}
	return len(bytes.TrimSpace(state)) > 0, nil
}
