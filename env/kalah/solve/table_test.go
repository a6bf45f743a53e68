package solve

import (
	"testing"
	"unsafe"
)

// A bucket is one cache line.
func TestBucketIsACacheLine(t *testing.T) {
	if n := unsafe.Sizeof(bucket{}); n != 64 {
		t.Errorf("a bucket takes %d bytes", n)
	}
}

// An emptied table has nothing, and keeps what is put in it after.
func TestTableClear(t *testing.T) {
	tt := newTable(300)
	tt.put(1, 2, entry{lo: -4, hi: 6, work: 3})
	tt.put(1, 2, entry{lo: -2, hi: 8, work: 1})
	if e, ok := tt.get(1, 2); !ok || e.lo != -2 || e.hi != 6 || e.work != 3 {
		t.Errorf("two entries of one key keep %+v %v, want -2..6 of work 3", e, ok)
	}
	tt.clear()
	if _, ok := tt.get(1, 2); ok {
		t.Errorf("an entry outlived clear")
	}
	tt.put(1, 3, entry{lo: 0, hi: 0})
	if e, ok := tt.get(1, 3); !ok || e.lo != 0 {
		t.Errorf("after clear: %+v %v", e, ok)
	}
	tt.gen = ^uint32(0)
	tt.clear()
	if _, ok := tt.get(1, 3); ok || tt.gen != 1 {
		t.Errorf("the generations wrapped: gen %d, entry kept %v", tt.gen, ok)
	}
}
