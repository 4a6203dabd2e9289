package embedded

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestEveryBucketDumped: each bucket of the main file gives a kind of
// dump.Record (bot migrate, backups of the Redis store) or is listed in
// notDumped with the reason; a bucket added without either fails here.
func TestEveryBucketDumped(t *testing.T) {
	for _, b := range allBuckets {
		dumped := notDumped[string(b)] != ""
		for _, d := range dumpBuckets {
			dumped = dumped || string(d.bucket) == string(b)
		}
		if !dumped {
			t.Errorf("bucket %s: no dump kind (dump.go's dumpBuckets) and not in notDumped: bot migrate would leave it behind", b)
		}
	}
}

// TestPermissionMessage: bbolt's "permission denied" (a bind-mounted
// directory the image's user does not own) is explained with the uid
// and the fix, never blamed on another bot (the test runs as root here,
// where no directory refuses).
func TestPermissionMessage(t *testing.T) {
	err := openError("/data/labgpu.db", &fs.PathError{Op: "open", Path: "/data/labgpu.db", Err: syscall.EACCES})
	msg := err.Error()
	if !errors.Is(err, fs.ErrPermission) || errors.Is(err, ErrInUse) || !strings.Contains(msg, fmt.Sprintf("uid %d", os.Getuid())) ||
		!strings.Contains(msg, "chown -R") || strings.Contains(msg, "another bot") {
		t.Errorf("permission: %v", err)
	}
	if err := openError("/data/labgpu.db", bolt.ErrTimeout); !errors.Is(err, ErrInUse) {
		t.Errorf("timeout: %v, want ErrInUse", err)
	}
}
