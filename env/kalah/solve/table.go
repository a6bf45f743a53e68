package solve

import "github.com/sliderzero/sliderzero/env"

// noMove marks an entry without a best move.
const noMove = -1

// entry is what the table keeps of a position: the bounds proven on its
// gain, the move that refuted it or was best (noMove for none), and the
// work its search took (the bit length of its node count), by which
// entries compete for a place.
type entry struct {
	lo, hi int8
	move   int8
	work   uint8
}

// slots is the number of positions a bucket holds.
const slots = 3

// bucket is a cache line: three positions' keys (two words each: the
// whole key, so that no two positions are confused) and entries, and
// the table's generation they belong to (a bucket of another is empty).
type bucket struct {
	key  [slots][2]uint64
	data [slots]entry
	gen  uint32
}

// EntryBytes is the memory one table entry takes.
const EntryBytes = 64 / slots

// table is the transposition table: a power of two of buckets. A
// position goes to one bucket and takes the place of its entry of least
// work.
type table struct {
	b    []bucket
	mask uint64
	// gen is the generation of the table's entries: emptying the table
	// starts a new one, and a solver that empties its table before each
	// position (as position sets are built) does not write it all.
	gen uint32
}

func newTable(entries int) table {
	n := 1
	for n*2 <= entries/slots {
		n *= 2
	}
	return table{b: make([]bucket, n), mask: uint64(n - 1), gen: 1}
}

func (t *table) clear() {
	if t.gen++; t.gen == 0 {
		clear(t.b)
		t.gen = 1
	}
}

func (t *table) bucket(k0, k1 uint64) *bucket {
	return &t.b[env.Mix64(k0^env.Mix64(k1))&t.mask]
}

// put keeps an entry; one for a key already kept keeps both entries'
// bounds.
func (t *table) put(k0, k1 uint64, e entry) {
	b := t.bucket(k0, k1)
	if b.gen != t.gen {
		*b = bucket{gen: t.gen}
	}
	low := 0
	for j := 0; j < slots; j++ {
		if b.key[j] == [2]uint64{k0, k1} {
			old := b.data[j]
			if lo, hi := max(old.lo, e.lo), min(old.hi, e.hi); lo <= hi {
				e.lo, e.hi = lo, hi
			}
			e.work = max(e.work, old.work)
			b.data[j] = e
			return
		}
		if b.data[j].work < b.data[low].work {
			low = j
		}
	}
	b.key[low], b.data[low] = [2]uint64{k0, k1}, e
}

func (t *table) get(k0, k1 uint64) (entry, bool) {
	b := t.bucket(k0, k1)
	if b.gen != t.gen {
		return entry{}, false
	}
	for j := 0; j < slots; j++ {
		if b.key[j] == [2]uint64{k0, k1} {
			return b.data[j], true
		}
	}
	return entry{}, false
}
