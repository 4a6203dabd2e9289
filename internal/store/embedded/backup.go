package embedded

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/labgpu/bot/internal/store/dump"
)

// A backup is a gzipped tar of the store's two files, FileName and
// ClaimsFileName, each a consistent copy (bbolt's copy inside a read
// transaction, taken while the store is in use).

// WriteBackup writes a backup of both files to w: the main file as one
// read transaction sees it, then the claims file (the claims still being
// written behind are written first). Writes go on meanwhile, but one
// that must grow the file waits for the copy (bbolt remaps the file
// only without open read transactions).
func (s *Store) WriteBackup(ctx context.Context, w io.Writer) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: backup: %w", err)
	}
	if err := s.flushClaims(); err != nil {
		return fmt.Errorf("embedded store: backup: claims file: %w", err)
	}
	zw := gzip.NewWriter(w)
	tw := tar.NewWriter(zw)
	for _, f := range []struct {
		name string
		db   *bolt.DB
	}{{FileName, s.db}, {ClaimsFileName, s.claims}} {
		err := f.db.View(func(tx *bolt.Tx) error {
			hdr := &tar.Header{Name: f.name, Mode: 0o600, Size: tx.Size(), ModTime: time.Now(), Typeflag: tar.TypeReg}
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
			_, err := tx.WriteTo(tw)
			return err
		})
		if err != nil {
			return fmt.Errorf("embedded store: backup %s: %w", f.name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("embedded store: backup: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("embedded store: backup: %w", err)
	}
	return nil
}

// ErrNotEmpty is RestoreBackup's error when the data directory holds a
// store with entries and force is off.
var ErrNotEmpty = errors.New("the data directory holds a store with entries")

// backupFiles are the names a backup may hold.
var backupFiles = map[string]bool{FileName: true, ClaimsFileName: true}

// RestoreBackup puts the files of the backup read from r into dir: they
// are unpacked beside it, checked (each must open as a store), then
// renamed into place. It refuses a dir whose store is in use (ErrInUse)
// or holds entries unless force (ErrNotEmpty); with force the files it
// replaces are kept beside them as "<name>.before-restore-<time>". It
// returns what the restored store holds.
func RestoreBackup(ctx context.Context, r io.Reader, dir string, force bool) (dump.Counts, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, dataDirError(dir, err)
	}
	if err := checkRestoreTarget(ctx, dir, force); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(dir, ".restore-")
	if err != nil {
		return nil, dataDirError(dir, err)
	}
	defer os.RemoveAll(tmp)
	if err := unpackBackup(r, tmp); err != nil {
		return nil, err
	}
	counts, err := countDir(ctx, tmp)
	if err != nil {
		return nil, fmt.Errorf("the backup does not open as a store: %w", err)
	}
	stamp := time.Now().UTC().Format("20060102T150405Z")
	for name := range backupFiles {
		src := filepath.Join(tmp, name)
		if _, err := os.Stat(src); err != nil {
			continue // a backup without the claims file: a fresh one is made
		}
		dst := filepath.Join(dir, name)
		if _, err := os.Stat(dst); err == nil {
			if err := os.Rename(dst, dst+".before-restore-"+stamp); err != nil {
				return nil, err
			}
		}
		if err := os.Rename(src, dst); err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// checkRestoreTarget refuses a dir whose store is in use, or holds
// entries (locks aside) unless force.
func checkRestoreTarget(ctx context.Context, dir string, force bool) error {
	if _, err := os.Stat(filepath.Join(dir, FileName)); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	have, err := countDir(ctx, dir)
	if err != nil {
		return err
	}
	if n := have.Total() - have[dump.Locks]; n > 0 && !force {
		return fmt.Errorf("%w (%s: %s); restore into an empty directory, or pass --force to replace it (its files are kept beside as *.before-restore-*)", ErrNotEmpty, dir, have)
	}
	return nil
}

// countDir opens the store in dir and counts its entries.
func countDir(ctx context.Context, dir string) (dump.Counts, error) {
	s, err := Open(dir)
	if err != nil {
		return nil, err
	}
	c, err := dump.Count(ctx, s)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	return c, err
}

// maxBackupFile bounds one unpacked file (a year-scale history is tens of
// MB).
const maxBackupFile = 8 << 30

// unpackBackup writes the backup's files into dir; anything but the
// store's two files is refused.
func unpackBackup(r io.Reader, dir string) error {
	br := bufio.NewReader(r)
	var in io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("the backup is not a labgpu backup: %w", err)
		}
		defer zr.Close()
		in = zr
	}
	tr := tar.NewReader(in)
	found := 0
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("the backup is not a labgpu backup (a gzipped tar of %s and %s): %w", FileName, ClaimsFileName, err)
		}
		if !backupFiles[hdr.Name] || hdr.Typeflag != tar.TypeReg || hdr.Size > maxBackupFile {
			return fmt.Errorf("the backup holds %q: a labgpu backup holds only %s and %s", hdr.Name, FileName, ClaimsFileName)
		}
		if err := writeFile(filepath.Join(dir, hdr.Name), tr); err != nil {
			return err
		}
		if hdr.Name == FileName {
			found++
		}
	}
	if found == 0 {
		return fmt.Errorf("the backup holds no %s", FileName)
	}
	return nil
}

// writeFile writes r to path (mode 0600) and syncs it.
func writeFile(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
