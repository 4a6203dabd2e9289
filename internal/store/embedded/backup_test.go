package embedded_test

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/dump"
	"github.com/labgpu/bot/internal/store/embedded"
)

// TestBackupWhileWriting: a backup taken while members register disks
// and alerts are claimed restores into another directory as a store
// holding every entry written before it began, a subscription, a claim
// and the ledger among them; the restored store opens and takes writes.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t, t.TempDir())
	defer s.Close()
	if err := s.AddSubscription(ctx, stock.Subscription{ID: "s-1", Channel: "feishu", ChatID: "oc_lab", OwnerID: "ou_a", GPUs: []string{"rtx4090"}}); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.ClaimAs(ctx, "feishu:msg:om_1", "replica-a", time.Hour); !ok || err != nil {
		t.Fatal(ok, err)
	}
	add := func(i int) {
		e := ledger.StorageEvent{Time: time.Now(), Lab: "nlp", Owner: fmt.Sprintf("ou_%d", i), Platform: "autodl", Action: ledger.ActionAdd, SizeGB: 80}
		if _, err := s.AddStorageDisk(ctx, e); err != nil {
			t.Error(err)
		}
	}
	for i := range 20 {
		add(i)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // writers during the backup
		defer wg.Done()
		for i := 100; ; i++ {
			select {
			case <-stop:
				return
			default:
				add(i)
			}
		}
	}()
	var buf bytes.Buffer
	err := s.WriteBackup(ctx, &buf)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	counts, err := embedded.RestoreBackup(ctx, bytes.NewReader(buf.Bytes()), dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if counts[dump.Subscriptions] != 1 || counts[dump.Claims] != 1 || counts[dump.Ledger] < 20 {
		t.Errorf("restored %s; want the subscription, the claim and at least 20 ledger events", counts)
	}
	r := mustOpen(t, dir)
	defer r.Close()
	ev, err := r.StorageEvents(ctx, "nlp")
	if err != nil || len(ev) != counts[dump.Ledger] {
		t.Errorf("restored ledger: %d events, %v; counted %d", len(ev), err, counts[dump.Ledger])
	}
	if owner, held, err := r.ClaimOwner(ctx, "feishu:msg:om_1"); !held || owner != "replica-a" || err != nil {
		t.Errorf("restored claim: %q %v %v", owner, held, err)
	}
	if _, err := r.AddStorageDisk(ctx, ledger.StorageEvent{Time: time.Now(), Lab: "nlp", Owner: "ou_z", Platform: "autodl", Action: ledger.ActionAdd, SizeGB: 1}); err != nil {
		t.Errorf("a write after the restore: %v", err)
	}
}

// TestRestoreRefuses: a directory holding a store with entries is not
// overwritten without force (and with it, its files are kept beside); a
// store in use is never replaced; a file that is no backup is refused.
func TestRestoreRefuses(t *testing.T) {
	ctx := context.Background()
	src := mustOpen(t, t.TempDir())
	if err := src.SetDigestChat(ctx, "feishu/oc_a", true); err != nil {
		t.Fatal(err)
	}
	var backup bytes.Buffer
	if err := src.WriteBackup(ctx, &backup); err != nil {
		t.Fatal(err)
	}
	src.Close()

	dir := t.TempDir()
	dst := mustOpen(t, dir)
	if err := dst.SetDigestChat(ctx, "feishu/oc_b", true); err != nil {
		t.Fatal(err)
	}
	// In use: refused, force or not.
	for _, force := range []bool{false, true} {
		if _, err := embedded.RestoreBackup(ctx, bytes.NewReader(backup.Bytes()), dir, force); !errors.Is(err, embedded.ErrInUse) {
			t.Errorf("restore over a store in use (force %v): %v, want ErrInUse", force, err)
		}
	}
	dst.Close()
	if _, err := embedded.RestoreBackup(ctx, bytes.NewReader(backup.Bytes()), dir, false); !errors.Is(err, embedded.ErrNotEmpty) || !strings.Contains(err.Error(), "digest_chats 1") {
		t.Errorf("restore over entries: %v, want ErrNotEmpty naming them", err)
	}
	if _, err := embedded.RestoreBackup(ctx, bytes.NewReader(backup.Bytes()), dir, true); err != nil {
		t.Fatal(err)
	}
	r := mustOpen(t, dir)
	chats, err := r.DigestChats(ctx)
	r.Close()
	if err != nil || len(chats) != 1 || chats[0] != "feishu/oc_a" {
		t.Errorf("after a forced restore: %v %v", chats, err)
	}
	if kept, _ := filepath.Glob(filepath.Join(dir, embedded.FileName+".before-restore-*")); len(kept) != 1 {
		t.Errorf("the replaced file was not kept: %v", kept)
	}
	// Not a backup: another file in the tar, or no tar at all.
	var odd bytes.Buffer
	tw := tar.NewWriter(&odd)
	tw.WriteHeader(&tar.Header{Name: "../../etc/passwd", Mode: 0o600, Size: 1, Typeflag: tar.TypeReg})
	tw.Write([]byte("x"))
	tw.Close()
	for name, b := range map[string][]byte{"another file": odd.Bytes(), "text": []byte("hello")} {
		if _, err := embedded.RestoreBackup(ctx, bytes.NewReader(b), t.TempDir(), false); err == nil || !strings.Contains(err.Error(), "backup") {
			t.Errorf("%s: %v, want a refusal naming the backup", name, err)
		}
	}
}

// TestOpenErrors: a store another process holds is ErrInUse; a data
// directory this user may not write names the user and the fix.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	defer s.Close()
	if _, err := embedded.Open(dir); !errors.Is(err, embedded.ErrInUse) {
		t.Errorf("second open: %v, want ErrInUse", err)
	}
	if os.Getuid() == 0 {
		t.Skip("root may write anywhere")
	}
	ro := filepath.Join(t.TempDir(), "ro")
	os.Mkdir(ro, 0o500)
	_, err := embedded.Open(filepath.Join(ro, "data"))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("uid %d", os.Getuid())) || !strings.Contains(err.Error(), "chown") || errors.Is(err, embedded.ErrInUse) {
		t.Errorf("unwritable dir: %v", err)
	}
}
