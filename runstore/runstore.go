// Package runstore is where a training run's files live when self-play and
// training are separate processes, perhaps on separate machines: a local
// folder or a bucket, behind one interface (gocloud.dev/blob). A location
// is a path or a URL: file:///runs/a, s3://bucket/prefix?region=...,
// gs://bucket/prefix, azblob://container/prefix.
//
// Writes are whole or nothing: an object store shows an object only once
// its upload is complete, and the file driver writes to a temporary name
// and renames it.
package runstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	// The drivers a location may name.
	_ "gocloud.dev/blob/fileblob"
)

// ErrNotFound is returned for a key that does not exist.
var ErrNotFound = errors.New("not found")

// Store holds a run's objects under keys such as "weights/000012.msgpack".
type Store struct {
	bucket   *blob.Bucket
	location string
	dir      string // for a folder: its path, where writes leave temporaries
}

// Open opens a location: a local path (created if missing) or a bucket
// URL.
func Open(ctx context.Context, location string) (*Store, error) {
	u := location
	if !strings.Contains(location, "://") {
		abs, err := filepath.Abs(location)
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return nil, err
		}
		u = "file://" + filepath.ToSlash(abs)
	} else if strings.HasPrefix(location, "file://") {
		p, err := url.Parse(location)
		if err != nil {
			return nil, fmt.Errorf("location %q: %w", location, err)
		}
		if err := os.MkdirAll(p.Path, 0o755); err != nil {
			return nil, err
		}
	}
	// Temporary files of the file driver stay in the folder, so that a
	// rename puts them in place; no sidecar file of attributes beside each
	// object, since nothing here reads them.
	if strings.HasPrefix(u, "file://") && !strings.Contains(u, "?") {
		u += "?no_tmp_dir=true&metadata=skip"
	}
	if scheme, _, ok := strings.Cut(u, "://"); ok && !cloudDrivers && cloudSchemes[scheme] {
		return nil, fmt.Errorf("%s: bucket storage (s3://, gs://, azblob://) is in the cloud build only: go build -tags cloud ./cmd/sliderzero (deploy/Dockerfile builds it); folders and file:// work in every build", location)
	}
	b, err := blob.OpenBucket(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", location, err)
	}
	st := &Store{bucket: b, location: location}
	if p, err := url.Parse(u); err == nil && p.Scheme == "file" {
		st.dir = filepath.FromSlash(p.Path)
	}
	return st, nil
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
func (s *Store) Close() error { return s.bucket.Close() }

// Write stores data under key, whole or not at all.
func (s *Store) Write(ctx context.Context, key string, data []byte) error {
	if err := s.bucket.WriteAll(ctx, key, data, nil); err != nil {
		return fmt.Errorf("writing %s in %s: %w", key, s.location, err)
	}
	return nil
}

// Read returns the object under key, refusing one larger than limit
// before reading it.
func (s *Store) Read(ctx context.Context, key string, limit int64) ([]byte, error) {
	attrs, err := s.bucket.Attributes(ctx, key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, fmt.Errorf("%s in %s: %w", key, s.location, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s in %s: %w", key, s.location, err)
	}
	if attrs.Size > limit {
		return nil, fmt.Errorf("%s in %s is %d bytes, more than the %d it can be", key, s.location, attrs.Size, limit)
	}
	r, err := s.bucket.NewReader(ctx, key, nil)
	if err != nil {
		return nil, fmt.Errorf("reading %s in %s: %w", key, s.location, err)
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s in %s: %w", key, s.location, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s in %s grew past %d bytes", key, s.location, limit)
	}
	return data, nil
}

// List returns the keys under prefix, sorted, without temporary files.
func (s *Store) List(ctx context.Context, prefix string) ([]string, error) {
	// A folder's listing can meet a temporary file that another process
	// renames away while it looks: list again, a little later each time
	// (with many producers writing, several listings in a row can meet
	// one).
	for tries := 1; ; tries++ {
		keys, err := s.list(ctx, prefix)
		if err == nil || gcerrors.Code(err) != gcerrors.NotFound || tries == 30 {
			return keys, err
		}
		select {
		case <-time.After(time.Duration(tries) * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (s *Store) list(ctx context.Context, prefix string) ([]string, error) {
	it := s.bucket.List(&blob.ListOptions{Prefix: prefix})
	var keys []string
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("listing %s in %s: %w", prefix, s.location, err)
		}
		// Temporary files: a write in progress, or one a kill cut short.
		if base := filepath.Base(obj.Key); obj.IsDir || strings.HasPrefix(base, ".") || strings.HasSuffix(base, ".tmp") {
			continue
		}
		keys = append(keys, obj.Key)
	}
	sort.Strings(keys)
	return keys, nil
}

// Delete removes key; a missing key is not an error.
func (s *Store) Delete(ctx context.Context, key string) error {
	err := s.bucket.Delete(ctx, key)
	if err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return fmt.Errorf("deleting %s in %s: %w", key, s.location, err)
	}
	return nil
}

// cloudSchemes are the URL schemes of the bucket drivers.
var cloudSchemes = map[string]bool{"s3": true, "gs": true, "azblob": true}
