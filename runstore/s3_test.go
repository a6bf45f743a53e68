//go:build cloud

package runstore

import (
	"context"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/runstore/s3test"
)

// bucketLocations are the bucket stores the cloud build tests beside
// folders.
func bucketLocations(t *testing.T) map[string]string {
	return map[string]string{"s3": s3test.Bucket(t, "")}
}

// Runs at two paths of one bucket keep apart: the path is the keys'
// prefix (the drivers ignore a URL's path, and both once wrote at the
// bucket's root).
func TestBucketPathIsPrefix(t *testing.T) {
	ctx := context.Background()
	a := s3test.Bucket(t, "runs/a")
	b := strings.Replace(a, "/runs/a?", "/runs/b?", 1)
	root := strings.Replace(a, "/runs/a?", "?", 1)
	for loc, data := range map[string]string{a: "a", b: "b"} {
		s, err := Open(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Write(ctx, "config.json", []byte(data)); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	s, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	keys, err := s.List(ctx, "")
	if err != nil || strings.Join(keys, " ") != "runs/a/config.json runs/b/config.json" {
		t.Errorf("the bucket holds %v (%v)", keys, err)
	}
	if _, err := Open(ctx, a+"&prefix=x/"); err == nil || !strings.Contains(err.Error(), "a path and a prefix parameter") {
		t.Errorf("a path and a prefix: %v", err)
	}
}
