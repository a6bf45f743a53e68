package runstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStores(t *testing.T) {
	locations := map[string]string{
		"path":     filepath.Join(t.TempDir(), "run"),
		"file URL": "file://" + filepath.ToSlash(filepath.Join(t.TempDir(), "run2")),
	}
	for name, loc := range bucketLocations(t) {
		locations[name] = loc
	}
	for name, loc := range locations {
		t.Run(name, func(t *testing.T) { checkStore(t, loc) })
	}
}

// checkStore writes, lists, reads and deletes in the store at loc.
func checkStore(t *testing.T, loc string) {
	ctx := context.Background()
	s, err := Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, k := range []string{"shards/b-000002.msgpack", "shards/a-000001.msgpack", "weights/000001.msgpack"} {
		if err := s.Write(ctx, k, []byte(k)); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := s.List(ctx, "shards/")
	if err != nil || strings.Join(keys, " ") != "shards/a-000001.msgpack shards/b-000002.msgpack" {
		t.Fatalf("list: %v, %v", keys, err)
	}
	data, err := s.Read(ctx, "weights/000001.msgpack", 1<<20)
	if err != nil || string(data) != "weights/000001.msgpack" {
		t.Fatalf("read: %q, %v", data, err)
	}
	if _, err := s.Read(ctx, "weights/000001.msgpack", 5); err == nil || !strings.Contains(err.Error(), "more than the 5") {
		t.Errorf("read over the limit: %v", err)
	}
	if _, err := s.Read(ctx, "nothing", 10); !errors.Is(err, ErrNotFound) {
		t.Errorf("a missing key: %v", err)
	}
	if err := s.Delete(ctx, "shards/a-000001.msgpack"); err != nil {
		t.Fatal(err)
	}
	if keys, _ := s.List(ctx, "shards/"); len(keys) != 1 {
		t.Errorf("after delete: %v", keys)
	}
	if err := s.Delete(ctx, "shards/a-000001.msgpack"); err != nil {
		t.Errorf("deleting a missing key: %v", err)
	}
	if err := s.Move(ctx, "shards/b-000002.msgpack", "rejected/b-000002.msgpack"); err != nil {
		t.Fatal(err)
	}
	if keys, _ := s.List(ctx, "shards/"); len(keys) != 0 {
		t.Errorf("after the move: %v", keys)
	}
	if data, err := s.Read(ctx, "rejected/b-000002.msgpack", 1<<20); err != nil || string(data) != "shards/b-000002.msgpack" {
		t.Errorf("the moved object: %q, %v", data, err)
	}
	if err := s.Move(ctx, "shards/b-000002.msgpack", "rejected/b-000002.msgpack"); !errors.Is(err, ErrNotFound) {
		t.Errorf("moving a missing key: %v", err)
	}
}

// A folder's stale temporary files, what a write cut short by a kill
// leaves, are removed; a young one may be a write in progress and stays.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	os.MkdirAll(filepath.Join(dir, "shards"), 0o755)
	old, young := filepath.Join(dir, "shards", "p-000001.msgpack.1a2b.tmp"), filepath.Join(dir, "shards", "p-000002.msgpack.3c4d.tmp")
	os.WriteFile(old, []byte("x"), 0o644)
	os.WriteFile(young, []byte("x"), 0o644)
	past := time.Now().Add(-time.Hour)
	os.Chtimes(old, past, past)
	if n := st.RemoveStale("shards/", 10*time.Minute); n != 1 {
		t.Errorf("removed %d", n)
	}
	if _, err := os.Stat(old); err == nil {
		t.Error("the stale temporary is still there")
	}
	if _, err := os.Stat(young); err != nil {
		t.Error("a young temporary was removed")
	}
}
