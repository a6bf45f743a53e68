//go:build cloud

package runstore

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	// The bucket drivers, in the cloud build only: their SDKs are most of
	// the modules the project would otherwise download and build for
	// everyone.
	_ "gocloud.dev/blob/azureblob"
	_ "gocloud.dev/blob/gcsblob"
	_ "gocloud.dev/blob/s3blob"
)

// bucket keeps objects in a cloud bucket (gocloud.dev/blob).
type bucket struct{ b *blob.Bucket }

func openBucket(ctx context.Context, location string) (backend, error) {
	location, err := pathAsPrefix(location)
	if err != nil {
		return nil, err
	}
	b, err := blob.OpenBucket(ctx, location)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", location, err)
	}
	return bucket{b}, nil
}

// pathAsPrefix turns the path of a bucket URL, s3://bucket/runs/a, into
// the drivers' prefix parameter, s3://bucket?prefix=runs/a/: the drivers
// ignore a URL's path, and two runs at s3://bucket/a and s3://bucket/b
// wrote into one another's keys at the bucket's root.
func pathAsPrefix(location string) (string, error) {
	u, err := url.Parse(location)
	if err != nil {
		return "", fmt.Errorf("location %q: %w", location, err)
	}
	p := strings.Trim(u.Path, "/")
	if p == "" {
		return location, nil
	}
	q := u.Query()
	if q.Has("prefix") {
		return "", fmt.Errorf("location %q: a path and a prefix parameter; give one", location)
	}
	q.Set("prefix", p+"/")
	u.Path, u.RawPath, u.RawQuery = "", "", q.Encode()
	return u.String(), nil
}

func (b bucket) write(ctx context.Context, key string, data []byte) error {
	return b.b.WriteAll(ctx, key, data, nil)
}

// read asks for the object once: a HEAD for its size and then a GET was
// two requests, and an object deleted between them (a withdrawn weights
// version) failed the GET as a storage failure, not as missing.
func (b bucket) read(ctx context.Context, key string, limit int64) ([]byte, error) {
	r, err := b.b.NewReader(ctx, key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if r.Size() > limit {
		return nil, tooLarge(r.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && int64(len(data)) > limit {
		return nil, tooLarge(int64(len(data)), limit)
	}
	return data, err
}

func (b bucket) list(ctx context.Context, prefix string) ([]string, bool, error) {
	it := b.b.List(&blob.ListOptions{Prefix: prefix})
	var keys []string
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			return keys, false, nil
		}
		if err != nil {
			return nil, gcerrors.Code(err) == gcerrors.NotFound, err
		}
		if !obj.IsDir {
			keys = append(keys, obj.Key)
		}
	}
}

func (b bucket) delete(ctx context.Context, key string) error {
	err := b.b.Delete(ctx, key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return ErrNotFound
	}
	return err
}

func (b bucket) move(ctx context.Context, from, to string) error {
	err := b.b.Copy(ctx, to, from, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	return b.delete(ctx, from)
}

func (b bucket) close() error { return b.b.Close() }
