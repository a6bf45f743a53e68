// Package store reads and writes the project's files (checkpoints, replay
// shards, published weights, players): msgpack inside an envelope that
// names the kind of file and its format version and carries a checksum,
// written to a temporary name and renamed into place so that a reader
// never sees half a file.
package store

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/vmihailenco/msgpack/v5"
)

// Magic starts every file's envelope.
const Magic = "sliderzero"

type envelope struct {
	Magic   string `msgpack:"magic"`
	Kind    string `msgpack:"kind"`
	Version int    `msgpack:"version"`
	CRC     uint32 `msgpack:"crc32"`
	Body    []byte `msgpack:"body"`
}

// ErrNotFound wraps the error of a missing file.
var ErrNotFound = errors.New("file not found")

// Write encodes v as a file of the given kind and format version,
// atomically: the file appears whole or not at all.
func Write(path, kind string, version int, v any) error {
	data, err := Encode(kind, version, v)
	if err != nil {
		return err
	}
	return WriteAtomic(path, data)
}

// Encode is the bytes Write would write. Maps are written in the order
// of their keys, so that the same value always gives the same bytes (a
// file's checksum and the golden files' tests depend on it).
func Encode(kind string, version int, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	enc.SetSortMapKeys(true)
	err := enc.Encode(v)
	body := buf.Bytes()
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", kind, err)
	}
	data, err := msgpack.Marshal(envelope{Magic: Magic, Kind: kind, Version: version, CRC: crc32.ChecksumIEEE(body), Body: body})
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", kind, err)
	}
	return data, nil
}

// Sorted is a map stored in the order of its keys, so that the same map
// always gives the same bytes: msgpack's own key sorting (which Encode
// asks for) covers only maps of strings, booleans and interfaces.
type Sorted[V any] map[string]V

// EncodeMsgpack implements msgpack.CustomEncoder; decoding needs nothing
// of its own.
func (m Sorted[V]) EncodeMsgpack(e *msgpack.Encoder) error {
	if m == nil {
		return e.EncodeNil()
	}
	if err := e.EncodeMapLen(len(m)); err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if err := e.EncodeString(k); err != nil {
			return err
		}
		if err := e.Encode(m[k]); err != nil {
			return err
		}
	}
	return nil
}

// WriteAtomic writes data to a temporary file beside path, syncs it and
// renames it into place.
func WriteAtomic(path string, data []byte) error {
	// Renaming over a device, a FIFO or a folder's entry would replace
	// it (as root, /dev/null itself): only a regular file or a new name.
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("writing %s: not a regular file (%s); name a file", path, fi.Mode().Type())
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// MaxFileSize bounds every file the project reads: a table of the largest
// board the solver can do is well under it, and a file claiming more is
// refused before anything is allocated for it.
const MaxFileSize = 4 << 30

// Open opens a regular file for reading, refusing devices, pipes and
// folders before opening them (opening a FIFO waits for a writer; reading
// /dev/zero would never end), and again once open, in case the name
// changed in between.
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", path, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := openRead(path)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return f, nil
}

// ReadFile reads a regular file of at most limit bytes, refusing devices,
// pipes and folders (see Open) and larger files before reading them.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d this file can be", path, fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s grew past %d bytes while being read", path, limit)
	}
	return data, nil
}

// Read decodes a file of the given kind into v. It refuses, with an error
// that says which, a missing file, a file that is not the project's, a
// truncated or corrupted one (bytes after the envelope included), one of
// another kind or with no version, and one written by a newer format
// version than maxVersion. It returns the file's version.
func Read(path, kind string, maxVersion int, v any) (int, error) {
	data, err := ReadFile(path, MaxFileSize)
	if err != nil {
		return 0, err
	}
	return Decode(data, path, kind, maxVersion, v)
}

// Decode is Read on bytes already read; name says where they came from,
// for errors.
func Decode(data []byte, path, kind string, maxVersion int, v any) (int, error) {
	var env struct {
		Magic   string  `msgpack:"magic"`
		Kind    string  `msgpack:"kind"`
		Version *int    `msgpack:"version"`
		CRC     *uint32 `msgpack:"crc32"`
		Body    []byte  `msgpack:"body"`
	}
	r := bytes.NewReader(data)
	err := wellFormed(data)
	if err == nil {
		err = decodeFrom(r, &env)
	}
	if err != nil || env.Magic != Magic {
		// A file that starts as the project's but does not decode was cut
		// short or damaged.
		if err != nil && (env.Magic == Magic || bytes.Contains(data[:min(len(data), 32)], []byte(Magic))) {
			return 0, fmt.Errorf("%s is truncated or corrupt", path)
		}
		return 0, fmt.Errorf("%s is not a sliderzero file (or is truncated or corrupt)", path)
	}
	switch {
	case r.Len() > 0:
		return 0, fmt.Errorf("%s is corrupt: %d bytes follow its end", path, r.Len())
	case env.Kind != kind:
		return 0, fmt.Errorf("%s is a %s file, not a %s", path, env.Kind, kind)
	case env.Version == nil || env.CRC == nil:
		return 0, fmt.Errorf("%s is corrupt: its envelope has no format version or checksum", path)
	case *env.Version < 1:
		return 0, fmt.Errorf("%s is corrupt: format version %d", path, *env.Version)
	case *env.Version > maxVersion:
		return 0, fmt.Errorf("%s has format version %d; this program reads up to %d (upgrade sliderzero)", path, *env.Version, maxVersion)
	case crc32.ChecksumIEEE(env.Body) != *env.CRC:
		return 0, fmt.Errorf("%s is corrupt: its checksum does not match", path)
	}
	if err := Unmarshal(env.Body, v); err != nil {
		return 0, fmt.Errorf("%s: decoding the %s: %w", path, kind, err)
	}
	return *env.Version, nil
}

// Unmarshal decodes msgpack into v. It never panics (the msgpack library
// panics on some valid input, a nil where a time.Time is stored for one)
// and never allocates more than the input can hold: bytes from disk or the
// network must only ever be refused.
func Unmarshal(data []byte, v any) error {
	if err := wellFormed(data); err != nil {
		return err
	}
	return decodeFrom(bytes.NewReader(data), v)
}

// decodeFrom decodes one value from r, turning the library's panics into
// errors; the caller has checked the input with wellFormed.
func decodeFrom(r io.Reader, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("malformed: %v", p)
		}
	}()
	return msgpack.NewDecoder(r).Decode(v)
}

// DecodeArray decodes a msgpack array one element at a time, so that what
// the caller keeps is sized by what it checked: size hears the array's
// length first and may refuse it (before any element is decoded or
// anything allocated for them), then elem decodes element i from d. Like
// Unmarshal it checks every length against the input first and never
// panics.
func DecodeArray(data []byte, size func(n int) error, elem func(d *msgpack.Decoder, i int) error) (err error) {
	if err := wellFormed(data); err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("malformed: %v", p)
		}
	}()
	d := msgpack.NewDecoder(bytes.NewReader(data))
	n, err := d.DecodeArrayLen()
	if err != nil {
		return err
	}
	n = max(n, 0) // nil: no elements
	if err := size(n); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if err := elem(d, i); err != nil {
			return err
		}
	}
	return nil
}
