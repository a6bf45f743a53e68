// Package runstore is where a training run's files live when self-play and
// training are separate processes, perhaps on separate machines: a local
// folder or a bucket, behind one interface. A location is a path or a URL:
// file:///runs/a, and in the cloud build (go build -tags cloud, through
// gocloud.dev/blob) s3://bucket/prefix?region=..., gs://bucket/prefix,
// azblob://container/prefix.
//
// Writes are whole or nothing: an object store shows an object only once
// its upload is complete, and a folder's write goes to a temporary name
// and is renamed into place.
package runstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ErrNotFound is returned for a key that does not exist.
var ErrNotFound = errors.New("not found")

// ErrUnfit wraps Read's refusal of an object that is there but is not
// data the caller can take: larger than its limit, or in a folder not a
// regular file (a FIFO would block the reader; a device would never end).
// Unlike a failure of the storage itself, reading it again will not help:
// the caller sets it aside.
var ErrUnfit = errors.New("unfit object")

// backend is a kind of storage: a folder, or (cloud build) a bucket.
type backend interface {
	write(ctx context.Context, key string, data []byte) error
	// read returns ErrNotFound for a missing key, and refuses an object
	// larger than limit before reading it.
	read(ctx context.Context, key string, limit int64) ([]byte, error)
	// list returns the keys under prefix, temporaries included; retry
	// reports an error worth listing again for (a file renamed away while
	// listed).
	list(ctx context.Context, prefix string) (keys []string, retry bool, err error)
	delete(ctx context.Context, key string) error
	// move renames from as to, replacing to; a folder renames the file
	// (whatever its kind), a bucket copies and deletes.
	move(ctx context.Context, from, to string) error
	close() error
}

// Store holds a run's objects under keys such as "weights/000012.msgpack".
type Store struct {
	b        backend
	location string
	dir      string // for a folder: its path, where writes leave temporaries
	wait     *waiter
}

// Open opens a location: a local path or file:// URL (created if missing),
// or a bucket URL in the cloud build.
func Open(ctx context.Context, location string) (*Store, error) {
	dir := ""
	switch {
	case !strings.Contains(location, "://"):
		abs, err := filepath.Abs(location)
		if err != nil {
			return nil, err
		}
		dir = abs
	case strings.HasPrefix(location, "file://"):
		p, err := url.Parse(location)
		if err != nil {
			return nil, fmt.Errorf("location %q: %w", location, err)
		}
		dir = filepath.FromSlash(p.Path)
	}
	if dir != "" {
		// The folder is made by the first write, not here: a reader
		// given a mistyped location must not leave a folder behind.
		return &Store{b: folder{dir: dir}, location: location, dir: dir}, nil
	}
	b, err := openBucket(ctx, location)
	if err != nil {
		return nil, err
	}
	return &Store{b: b, location: location}, nil
}

// RemoveStale deletes, in a folder, the temporary files under prefix older
// than age: what writes that a kill cut short left (a bucket's uploads
// leave none). Younger ones may be writes in progress.
func (s *Store) RemoveStale(prefix string, age time.Duration) int {
	if s.dir == "" {
		return 0
	}
	removed := 0
	filepath.WalkDir(filepath.Join(s.dir, filepath.FromSlash(prefix)), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(d.Name(), ".tmp") {
			return nil
		}
		if fi, err := d.Info(); err == nil && time.Since(fi.ModTime()) > age && os.Remove(path) == nil {
			removed++
		}
		return nil
	})
	return removed
}

// Location is what the store was opened with.
func (s *Store) Location() string { return s.location }

// Close releases the store.
func (s *Store) Close() error { return s.b.close() }

// Write stores data under key, whole or not at all.
func (s *Store) Write(ctx context.Context, key string, data []byte) error {
	if err := s.do(ctx, "writing "+key, func() error { return s.b.write(ctx, key, data) }); err != nil {
		return fmt.Errorf("writing %s in %s: %w", key, s.location, err)
	}
	return nil
}

// Read returns the object under key, refusing one larger than limit
// before reading it.
func (s *Store) Read(ctx context.Context, key string, limit int64) ([]byte, error) {
	var data []byte
	err := s.do(ctx, "reading "+key, func() (err error) {
		data, err = s.b.read(ctx, key, limit)
		return err
	})
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, fmt.Errorf("%s in %s: %w", key, s.location, ErrNotFound)
	case err != nil:
		return nil, fmt.Errorf("reading %s in %s: %w", key, s.location, err)
	}
	return data, nil
}

// tooLarge is Read's refusal of an object over its limit.
func tooLarge(size, limit int64) error {
	return fmt.Errorf("%w: the object is %d bytes, more than the %d it can be", ErrUnfit, size, limit)
}

// Move renames the object under from as to, without reading it: an
// object set aside is moved, never copied (a 2 GB shard once was).
func (s *Store) Move(ctx context.Context, from, to string) error {
	if err := s.do(ctx, "moving "+from, func() error { return s.b.move(ctx, from, to) }); err != nil {
		return fmt.Errorf("moving %s to %s in %s: %w", from, to, s.location, err)
	}
	return nil
}

// List returns the keys under prefix, sorted, without temporary files.
func (s *Store) List(ctx context.Context, prefix string) ([]string, error) {
	// A listing can meet a temporary file that another process renames
	// away while it looks: list again, a little later each time (with many
	// producers writing, several listings in a row can meet one).
	for tries := 1; ; tries++ {
		var all []string
		var retry bool
		err := s.do(ctx, "listing "+prefix, func() (err error) {
			all, retry, err = s.b.list(ctx, prefix)
			return err
		})
		if err == nil {
			var keys []string
			for _, k := range all {
				// Temporary files: a write in progress, or one a kill cut
				// short.
				if base := filepath.Base(k); strings.HasPrefix(base, ".") || strings.HasSuffix(base, ".tmp") {
					continue
				}
				keys = append(keys, k)
			}
			sort.Strings(keys)
			return keys, nil
		}
		if !retry || tries == 30 {
			return nil, fmt.Errorf("listing %s in %s: %w", prefix, s.location, err)
		}
		select {
		case <-time.After(time.Duration(tries) * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Delete removes key; a missing key is not an error.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := s.do(ctx, "deleting "+key, func() error { return s.b.delete(ctx, key) }); err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("deleting %s in %s: %w", key, s.location, err)
	}
	return nil
}

// cloudSchemes are the URL schemes of the bucket drivers.
var cloudSchemes = map[string]bool{"s3": true, "gs": true, "azblob": true}
