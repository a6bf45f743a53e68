package runstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// folder keeps objects as files under dir, a key's slashes its
// subfolders. Files earlier versions wrote through gocloud.dev's file
// driver are the same files.
type folder struct{ dir string }

func (f folder) path(key string) string { return filepath.Join(f.dir, filepath.FromSlash(key)) }

// write puts data in a temporary file beside its place, then renames it
// there: readers see the whole object or none.
func (f folder) write(_ context.Context, key string, data []byte) error {
	path := f.path(key)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
	}
	return werr
}

func (f folder) read(_ context.Context, key string, limit int64) ([]byte, error) {
	// A FIFO or device would block an open: refuse anything but a file
	// before opening it.
	if fi, err := os.Stat(f.path(key)); err == nil && !fi.Mode().IsRegular() {
		return nil, notRegular(fi)
	}
	file, err := os.Open(f.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(fi)
	}
	if fi.Size() > limit {
		return nil, tooLarge(fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(file, limit+1))
	if err == nil && int64(len(data)) > limit {
		return nil, tooLarge(int64(len(data)), limit)
	}
	return data, err
}

func notRegular(fi fs.FileInfo) error {
	return fmt.Errorf("%w: not a regular file (%v)", ErrUnfit, fi.Mode().Type())
}

func (f folder) move(_ context.Context, from, to string) error {
	if err := os.MkdirAll(filepath.Dir(f.path(to)), 0o755); err != nil {
		return err
	}
	err := os.Rename(f.path(from), f.path(to))
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	return err
}

// list walks the folder holding prefix's keys and keeps those under it.
func (f folder) list(_ context.Context, prefix string) ([]string, bool, error) {
	root := f.dir
	if i := strings.LastIndex(prefix, "/"); i >= 0 {
		root = f.path(prefix[:i])
	}
	var keys []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // renamed or removed while walked, or no such folder yet
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(f.dir, path)
		if err != nil {
			return err
		}
		if key := filepath.ToSlash(rel); strings.HasPrefix(key, prefix) {
			keys = append(keys, key)
		}
		return nil
	})
	return keys, false, err
}

func (f folder) delete(_ context.Context, key string) error {
	err := os.Remove(f.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	return err
}

func (f folder) close() error { return nil }
