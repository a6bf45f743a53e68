package solve

import (
	"fmt"
	"math/bits"
)

// index numbers every placement of pieces on one board: H's pieces on any
// subset of the free (unblocked) cells, V's on any subset of the rest, each
// side with 0 to n-1 pieces. Placements are grouped in classes by their
// piece counts (h, v): a move never adds a piece, so a class depends only
// on itself and on classes with fewer pieces, and is solved after them.
//
// Within a class a placement's number is rankH*C(m-h, v) + rankV, where m is
// the number of free cells, rankH is the colex rank of H's cells among the
// free cells and rankV that of V's cells among the free cells H leaves.
// Colex ranks of k-subsets do not depend on the universe's size, so one
// table of subsets per k serves every class.
type index struct {
	n       int
	m       int    // free cells
	board   uint64 // every cell, stride 8
	blocked uint64
	full    uint64 // the m low bits: every free cell in free-index space
	edges   edges

	binom   [65][9]int64
	subsets [][]uint64 // subsets[k][r]: the k-subset of colex rank r

	order []class // classes in the order they are solved
	// classOf[h][v] is the position of class (h, v) in order.
	classOf [8][8]int
	total   int64 // placements

	// bbToFree[row][byte] and freeToBB[chunk][byte] convert masks between
	// bitboards and free-index space a byte at a time.
	bbToFree [8][256]uint64
	freeToBB [8][256]uint64
}

// edges are the bitboards of a board's edge lines, which moves test.
type edges struct {
	firstCol, lastCol, bottomRow, topRow uint64
}

// class is the set of placements with h H pieces and v V pieces.
type class struct {
	h, v   int
	offset int64 // number of the class's first placement
	size   int64
	vSize  int64 // C(m-h, v): placements of V for each placement of H
}

// maxPlacements bounds the table: the solver keeps a byte per position.
const maxPlacements = 1 << 30

func newIndex(n int, blocked uint64) (*index, error) {
	ix := &index{n: n, blocked: blocked}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			sq := uint64(1) << (y*8 + x)
			ix.board |= sq
			if x == 0 {
				ix.edges.firstCol |= sq
			}
			if x == n-1 {
				ix.edges.lastCol |= sq
			}
			if y == 0 {
				ix.edges.bottomRow |= sq
			}
			if y == n-1 {
				ix.edges.topRow |= sq
			}
		}
	}
	free := ix.board &^ blocked
	ix.m = bits.OnesCount64(free)
	ix.full = uint64(1)<<ix.m - 1
	if ix.m == 64 {
		ix.full = ^uint64(0)
	}
	f := 0
	for sq := 0; sq < 64; sq++ {
		if free&(1<<sq) == 0 {
			continue
		}
		row, col := sq/8, sq%8
		chunk, bit := f/8, f%8
		for b := 0; b < 256; b++ {
			if b&(1<<col) != 0 {
				ix.bbToFree[row][b] |= 1 << f
			}
			if b&(1<<bit) != 0 {
				ix.freeToBB[chunk][b] |= 1 << sq
			}
		}
		f++
	}
	for a := 0; a <= 64; a++ {
		ix.binom[a][0] = 1
		for k := 1; k <= 8 && a > 0; k++ {
			ix.binom[a][k] = ix.binom[a-1][k-1] + ix.binom[a-1][k]
		}
	}
	maxK := n - 1
	ix.subsets = make([][]uint64, maxK+1)
	for k := 0; k <= maxK; k++ {
		ix.subsets[k] = colexSubsets(ix.m, k, ix.binom[ix.m][k])
	}
	// Classes by total pieces, so that every move out of a class (a piece
	// leaving the board) lands in a class already solved.
	for sum := 0; sum <= 2*maxK; sum++ {
		for h := 0; h <= maxK; h++ {
			v := sum - h
			if v < 0 || v > maxK {
				continue
			}
			c := class{h: h, v: v, offset: ix.total, vSize: ix.binom[ix.m-h][v]}
			c.size = ix.binom[ix.m][h] * c.vSize
			ix.classOf[h][v] = len(ix.order)
			ix.order = append(ix.order, c)
			ix.total += c.size
			if ix.total > maxPlacements {
				return nil, fmt.Errorf("a %dx%d board has more than %d placements: too many for an exact table", n, n, maxPlacements)
			}
		}
	}
	return ix, nil
}

// colexSubsets lists the k-subsets of m bits in colex order, which is the
// numeric order of their masks (Gosper's hack steps through it).
func colexSubsets(m, k int, count int64) []uint64 {
	out := make([]uint64, 0, count)
	if k == 0 {
		return append(out, 0)
	}
	if k > m {
		return out
	}
	x := uint64(1)<<k - 1
	limit := uint64(1) << m
	for x < limit || (m == 64 && x != 0) {
		out = append(out, x)
		c := x & -x
		r := x + c
		if r == 0 {
			break
		}
		x = (((r ^ x) >> 2) / c) | r
	}
	return out
}

// rank is the colex rank of a free-index mask among the subsets of its size.
func (ix *index) rank(mask uint64) int64 {
	var r int64
	for i := 1; mask != 0; i++ {
		r += ix.binom[bits.TrailingZeros64(mask)][i]
		mask &= mask - 1
	}
	return r
}

// toFree converts a bitboard of free cells to free-index space.
func (ix *index) toFree(bb uint64) uint64 {
	var f uint64
	for row := 0; bb != 0; row++ {
		f |= ix.bbToFree[row][bb&0xff]
		bb >>= 8
	}
	return f
}

// toBB converts a free-index mask to a bitboard.
func (ix *index) toBB(f uint64) uint64 {
	var bb uint64
	for chunk := 0; f != 0; chunk++ {
		bb |= ix.freeToBB[chunk][f&0xff]
		f >>= 8
	}
	return bb
}

// squeeze removes from v (free-index space) the positions that hm holds,
// numbering v's cells among the free cells hm leaves.
func squeeze(v, hm uint64) uint64 {
	var out uint64
	for ; v != 0; v &= v - 1 {
		p := bits.TrailingZeros64(v)
		out |= 1 << (p - bits.OnesCount64(hm&(1<<p-1)))
	}
	return out
}

// spread is squeeze's inverse: it places v's cells on the free cells that
// hm leaves.
func spread(v, hm, full uint64) uint64 {
	holes := full &^ hm
	var out uint64
	prev := 0
	for ; v != 0; v &= v - 1 {
		j := bits.TrailingZeros64(v)
		for ; prev < j; prev++ {
			holes &= holes - 1
		}
		out |= holes & -holes
	}
	return out
}

// placement is the number of the placement of H's and V's bitboards, which
// must lie on free cells.
func (ix *index) placement(hb, vb uint64) int64 {
	hm, vm := ix.toFree(hb), ix.toFree(vb)
	c := &ix.order[ix.classOf[bits.OnesCount64(hm)][bits.OnesCount64(vm)]]
	return c.offset + ix.rank(hm)*c.vSize + ix.rank(squeeze(vm, hm))
}

// pieces returns the bitboards of placement p of class c.
func (ix *index) pieces(c *class, p int64) (hb, vb uint64) {
	r := p - c.offset
	hm := ix.subsets[c.h][r/c.vSize]
	vm := spread(ix.subsets[c.v][r%c.vSize], hm, ix.full)
	return ix.toBB(hm), ix.toBB(vm)
}

// classAt returns the class that placement p belongs to.
func (ix *index) classAt(p int64) *class {
	lo, hi := 0, len(ix.order)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ix.order[mid].offset <= p {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return &ix.order[lo]
}
