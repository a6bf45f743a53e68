package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type thing struct {
	Name string
	Data []float32
}

func TestRoundTripAndRefusals(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "thing.msgpack")
	in := thing{"x", []float32{1, 2, 3}}
	if err := Write(path, "thing", 1, in); err != nil {
		t.Fatal(err)
	}
	var out thing
	if v, err := Read(path, "thing", 1, &out); err != nil || v != 1 || out.Name != "x" || len(out.Data) != 3 {
		t.Fatalf("read back %+v, version %d, %v", out, v, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	data, _ := os.ReadFile(path)
	cases := map[string]struct {
		data []byte
		want string
	}{
		"truncated": {data[:len(data)-5], "truncated or corrupt"},
		"flipped":   {flip(data, len(data)-3), "checksum"},
		"foreign":   {[]byte("hello, world"), "not a sliderzero file"},
		"empty":     {nil, "not a sliderzero file"},
	}
	for name, c := range cases {
		p := filepath.Join(dir, name)
		os.WriteFile(p, c.data, 0o644)
		if _, err := Read(p, "thing", 1, &out); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
	}
	if _, err := Read(path, "checkpoint", 1, &out); err == nil || !strings.Contains(err.Error(), "not a checkpoint") {
		t.Errorf("wrong kind: %v", err)
	}
	Write(path, "thing", 3, in)
	if _, err := Read(path, "thing", 2, &out); err == nil || !strings.Contains(err.Error(), "format version 3") {
		t.Errorf("newer version: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "none"), "thing", 1, &out); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing: %v", err)
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0x40
	return c
}

func TestHostileFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "thing.msgpack")
	if err := Write(path, "thing", 1, thing{"x", nil}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	var out thing
	cases := map[string]struct {
		data []byte
		want string
	}{
		"trailing garbage": {append(append([]byte(nil), data...), 0xc0, 0x01), "bytes follow its end"},
		"no version":       {renameKey(data, "version", "versio"), "no format version"},
	}
	for name, c := range cases {
		p := filepath.Join(dir, name)
		os.WriteFile(p, c.data, 0o644)
		if _, err := Read(p, "thing", 1, &out); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
	}
	if _, err := Read(os.DevNull, "thing", 1, &out); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a device: %v", err)
	}
	if _, err := Read(dir, "thing", 1, &out); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a folder: %v", err)
	}
	if _, err := ReadFile(path, 10); err == nil || !strings.Contains(err.Error(), "more than the 10") {
		t.Errorf("a file over its limit: %v", err)
	}
}

// renameKey replaces a msgpack map key of the same length.
func renameKey(data []byte, from, to string) []byte {
	c := append([]byte(nil), data...)
	i := strings.Index(string(c), from)
	if i < 0 {
		return c
	}
	// Keep the length: a shorter key with a pad byte would shift the body.
	copy(c[i:], to+strings.Repeat("x", len(from)-len(to)))
	return c
}

// A stored map gives the same bytes whatever its iteration order, which
// Go draws afresh each time: the keys go in sorted.
func TestSortedMapsEncodeTheSame(t *testing.T) {
	m := Sorted[int]{}
	for _, k := range []string{"tie", "V", "H", "a", "zz", "m"} {
		m[k] = len(k)
	}
	first, err := Encode("test", 1, struct{ M Sorted[int] }{m})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		again, _ := Encode("test", 1, struct{ M Sorted[int] }{m})
		if !bytes.Equal(again, first) {
			t.Fatalf("encoding %d differs from the first", i)
		}
	}
	var back struct{ M map[string]int }
	if _, err := Decode(first, "test", "test", 1, &back); err != nil || len(back.M) != 6 || back.M["tie"] != 3 {
		t.Fatalf("read back as %v (%v)", back.M, err)
	}
}
