package solve

import (
	"math/bits"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/hex"
)

// entry is what the table keeps of a position: its whole key (so that no
// two positions are confused), the bounds proven of its score, the move
// that settled or refuted it (-1 none), the carrier of a win or loss
// proven by prove (carried says there is one), the work its search took
// (the bit length of its node count), by which entries compete for a
// place, and the generation that wrote it (an older one's entries are
// forgotten).
type entry struct {
	key     key
	carrier hex.Bits
	lo, hi  int8
	move    int8
	work    uint8
	gen     uint8
	carried bool
}

// key is a position as the table knows it: the stones of each side, and
// the side to move (a search that passes meets the same stones with
// either side to move).
type key struct {
	stones [2]hex.Bits
	toMove int8
}

// EntryBytes is the memory one table entry takes.
const EntryBytes = 64

// table is the transposition table: buckets of two slots, one kept for
// the costlier of its positions, one for the latest.
type table struct {
	slots []entry
	gen   uint8
}

func newTable(entries int) table {
	n := max(1, entries/2)
	return table{slots: make([]entry, 2*n), gen: 1}
}

// reset forgets every entry: a new generation, the slots cleared only
// when the generations wrap.
func (t *table) reset() {
	t.gen++
	if t.gen == 0 {
		clear(t.slots)
		t.gen = 1
	}
}

func (t *table) bucket(k key) int {
	h := env.Mix64(k.stones[0].Lo ^ 0x9e3779b97f4a7c15 ^ uint64(k.toMove))
	h = env.Mix64(h ^ k.stones[0].Hi)
	h = env.Mix64(h ^ k.stones[1].Lo)
	h = env.Mix64(h ^ k.stones[1].Hi)
	return int(h%uint64(len(t.slots)/2)) * 2
}

func (t *table) get(key key) (entry, bool) {
	i := t.bucket(key)
	for _, j := range [2]int{i, i + 1} {
		if e := &t.slots[j]; e.gen == t.gen && e.key == key {
			return *e, true
		}
	}
	return entry{}, false
}

// put stores what a search proved of a position, with what the table
// knew of it before.
func (t *table) put(key key, e entry, nodes uint64) {
	e.key, e.gen, e.work = key, t.gen, uint8(bits.Len64(nodes))
	i := t.bucket(key)
	for _, j := range [2]int{i, i + 1} {
		if old := &t.slots[j]; old.gen == t.gen && old.key == key {
			e.lo, e.hi = max(e.lo, old.lo), min(e.hi, old.hi)
			if e.move < 0 {
				e.move = old.move
			}
			if !e.carried && old.carried {
				e.carrier, e.carried = old.carrier, true
			}
			e.work = max(e.work, old.work)
			*old = e
			return
		}
	}
	first := &t.slots[i]
	if first.gen != t.gen || e.work >= first.work {
		// the costlier slot's old entry takes the other slot
		if first.gen == t.gen {
			t.slots[i+1] = *first
		}
		*first = e
		return
	}
	t.slots[i+1] = e
}
