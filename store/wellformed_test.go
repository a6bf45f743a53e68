package store

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

// Every value the library writes passes the check, and every proper
// prefix of it fails.
func TestWellFormedAcceptsWhatTheLibraryWrites(t *testing.T) {
	type inner struct {
		A []float32
		B map[string]int64
	}
	values := []any{
		nil, true, 0, -1, 127, -33, 200, -200, 70000, -70000, 1 << 40, -(1 << 40), float32(1.5), 2.5,
		"", strings.Repeat("x", 31), strings.Repeat("y", 300), strings.Repeat("z", 70000),
		[]byte{}, make([]byte, 300), make([]byte, 70000),
		[]int{}, make([]int, 20), make([]string, 70000), map[string]int{"a": 1},
		time.Unix(1, 2), time.Unix(1<<40, 5), time.Time{},
		inner{A: []float32{1, 2, 3}, B: map[string]int64{"k": -5}},
		[]any{[]any{[]any{}}, map[string]any{"x": []any{nil, 1.0}}},
	}
	for _, v := range values {
		data, err := msgpack.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := wellFormed(data); err != nil {
			t.Errorf("%T %.40v: %v", v, v, err)
		}
		for cut := 0; cut < len(data); cut += 1 + len(data)/50 {
			if wellFormed(data[:cut]) == nil {
				t.Errorf("%T cut to %d of %d bytes: accepted", v, cut, len(data))
			}
		}
	}
}

// A few bytes that claim billions of elements or bytes are refused before
// anything is allocated (the library would allocate first: about a
// minute and gigabytes for an array of two billion).
func TestWellFormedRefusesLengthsPastTheInput(t *testing.T) {
	for name, data := range map[string][]byte{
		"array32":    {0xdd, 0x7f, 0xff, 0xff, 0xff, 1, 2},
		"map32":      {0xdf, 0x7f, 0xff, 0xff, 0xff, 1, 2},
		"array16":    {0xdc, 0xff, 0xff, 1},
		"bin32":      {0xc6, 0x7f, 0xff, 0xff, 0xff, 1},
		"str32":      {0xdb, 0x00, 0x00, 0x01, 0x00, 'a'},
		"ext32":      {0xc9, 0x7f, 0xff, 0xff, 0xff, 1, 2},
		"fixarray":   {0x93, 1, 2},
		"nested":     {0x91, 0x91, 0xdd, 0, 0, 0, 9, 1},
		"never used": {0xc1},
		"empty":      {},
	} {
		if err := wellFormed(data); err == nil || !strings.HasPrefix(err.Error(), "malformed") {
			t.Errorf("%s: %v, want malformed", name, err)
		}
		var v any
		if err := Unmarshal(data, &v); err == nil {
			t.Errorf("%s: Unmarshal accepted it", name)
		}
	}
}

// FuzzUnmarshal: no input panics the decoder or makes it allocate past a
// bound proportional to the input.
func FuzzUnmarshal(f *testing.F) {
	for _, v := range []any{map[string]any{"a": []int{1, 2}, "t": time.Unix(3, 4)}, []any{nil, "x", 1.5}, struct{ T time.Time }{}} {
		b, _ := msgpack.Marshal(v)
		f.Add(b)
	}
	f.Add([]byte{0xdd, 0x7f, 0xff, 0xff, 0xff, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		var anything any
		Unmarshal(data, &anything)
		var typed struct {
			T time.Time        `msgpack:"t"`
			A []int            `msgpack:"a"`
			M map[string][]int `msgpack:"m"`
			P *float64         `msgpack:"p"`
		}
		Unmarshal(data, &typed)
	})
}

// WriteAtomic never renames over anything but a regular file: a device,
// a FIFO, a folder or a symbolic link stays what it was.
func TestWriteAtomicRefusesNonRegularTargets(t *testing.T) {
	dir := t.TempDir()
	sub := dir + "/folder"
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	link := dir + "/link"
	os.WriteFile(dir+"/target", []byte("kept"), 0o644)
	if err := os.Symlink(dir+"/target", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{sub, link, "/dev/null"} {
		before, _ := os.Lstat(p)
		if err := WriteAtomic(p, []byte("x")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: %v", p, err)
		}
		after, err := os.Lstat(p)
		if err != nil || after.Mode() != before.Mode() {
			t.Errorf("%s changed: %v", p, err)
		}
	}
	if err := WriteAtomic(dir+"/new", []byte("x")); err != nil {
		t.Errorf("a new file: %v", err)
	}
	if err := WriteAtomic(dir+"/new", []byte("y")); err != nil {
		t.Errorf("replacing a regular file: %v", err)
	}
}
