package wechat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eatmoreapple/openwechat"
)

func TestFileStorage(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "wechat-hot.json")
	st := FileStorage(path)
	if b, err := st.Load(ctx); err != nil || len(b) != 0 {
		t.Fatalf("Load of a missing file = %q, %v", b, err)
	}
	if err := st.Save(ctx, []byte(hotState)); err != nil {
		t.Fatal(err)
	}
	if err := st.Save(ctx, []byte(`{"v":2}`)); err != nil {
		t.Fatal(err)
	}
	b, err := st.Load(ctx)
	if err != nil || string(b) != `{"v":2}` {
		t.Fatalf("Load = %q, %v", b, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", fi.Mode(), err)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestMemoryStorageCopies(t *testing.T) {
	ctx := context.Background()
	in := []byte("abc")
	m := NewMemoryStorage(in)
	in[0] = 'x'
	b, _ := m.Load(ctx)
	b[1] = 'y'
	if b2, _ := m.Load(ctx); string(b2) != "abc" {
		t.Errorf("state changed through a slice: %q", b2)
	}
	_ = m.Save(ctx, []byte("def"))
	if m.Saves() != 1 {
		t.Errorf("Saves = %d", m.Saves())
	}
}

func TestHotReloadAdapter(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))

	// No state: reads as openwechat's ErrInvalidStorage.
	a := newHotReloadAdapter(&MemoryStorage{}, log)
	var item openwechat.HotReloadStorageItem
	if err := json.NewDecoder(a).Decode(&item); !errors.Is(err, openwechat.ErrInvalidStorage) {
		t.Fatalf("decode of empty storage: %v", err)
	}

	// A state decodes the way HotLogin decodes it.
	st := NewMemoryStorage([]byte(hotState))
	a = newHotReloadAdapter(st, log)
	if err := json.NewDecoder(a).Decode(&item); err != nil {
		t.Fatal(err)
	}
	if item.WechatDomain != "wx2.qq.com" || item.LoginInfo.PassTicket != "pt-1" || item.Jar == nil {
		t.Errorf("decoded %+v", item)
	}
	// After EOF the next Read loads the state again.
	if b, err := io.ReadAll(a); err != nil || len(b) != 0 {
		t.Errorf("rest of the first read = %q, %v", b, err)
	}
	if b, err := io.ReadAll(a); err != nil || string(b) != hotState {
		t.Errorf("second read = %q, %v", b, err)
	}

	// Write replaces the state (as Bot.DumpTo does: one Encode).
	item.LoginInfo.PassTicket = "pt-2"
	if err := json.NewEncoder(a).Encode(item); err != nil {
		t.Fatal(err)
	}
	var back openwechat.HotReloadStorageItem
	saved, _ := st.Load(context.Background())
	if err := json.Unmarshal(saved, &back); err != nil || back.LoginInfo.PassTicket != "pt-2" {
		t.Errorf("saved %s (%v)", saved, err)
	}
	if err := json.NewDecoder(a).Decode(&back); err != nil || back.LoginInfo.PassTicket != "pt-2" {
		t.Errorf("read after write: %+v %v", back.LoginInfo, err)
	}

	// A failing save is logged, not returned: openwechat would fail the
	// login over it, though the session works without the saved state.
	var logged bytes.Buffer
	a = newHotReloadAdapter(failingStorage{}, slog.New(slog.NewTextHandler(&logged, nil)))
	if n, err := a.Write([]byte("{}")); err != nil || n != 2 {
		t.Errorf("Write to a failing store: %d, %v; want 2, nil", n, err)
	}
	if !strings.Contains(logged.String(), "saving the hot-login state failed") || !strings.Contains(logged.String(), "store down") {
		t.Errorf("the failed save is not logged: %q", logged.String())
	}
	if _, err := a.Read(make([]byte, 10)); err == nil {
		t.Error("Read from a failing store succeeded")
	}
}

type failingStorage struct{}

func (failingStorage) Load(context.Context) ([]byte, error) { return nil, errors.New("store down") }
func (failingStorage) Save(context.Context, []byte) error   { return errors.New("store down") }
