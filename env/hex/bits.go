package hex

import "math/bits"

// Bits is a set of cells of a board of up to 11x11 (121 cells): cell
// r*n + c is bit r*n + c of the 128 bits Lo (bits 0-63) and Hi (64-127),
// with c the column (0 = a) and r the row (0 = row 1, at the bottom).
type Bits struct{ Lo, Hi uint64 }

// Or, And and AndNot are the sets' union, intersection and difference.
func (x Bits) Or(y Bits) Bits     { return Bits{x.Lo | y.Lo, x.Hi | y.Hi} }
func (x Bits) And(y Bits) Bits    { return Bits{x.Lo & y.Lo, x.Hi & y.Hi} }
func (x Bits) AndNot(y Bits) Bits { return Bits{x.Lo &^ y.Lo, x.Hi &^ y.Hi} }

// Empty reports whether the set is empty.
func (x Bits) Empty() bool { return x.Lo|x.Hi == 0 }

// Count is the number of cells in the set.
func (x Bits) Count() int { return bits.OnesCount64(x.Lo) + bits.OnesCount64(x.Hi) }

// Has reports whether cell i is in the set.
func (x Bits) Has(i int) bool {
	if i < 64 {
		return x.Lo>>uint(i)&1 != 0
	}
	return x.Hi>>uint(i-64)&1 != 0
}

// With is the set with cell i added.
func (x Bits) With(i int) Bits { return x.Or(Cell(i)) }

// Cell is the set of cell i alone.
func Cell(i int) Bits {
	if i < 64 {
		return Bits{Lo: 1 << uint(i)}
	}
	return Bits{Hi: 1 << uint(i-64)}
}

// First is the lowest cell of a set that is not empty.
func (x Bits) First() int {
	if x.Lo != 0 {
		return bits.TrailingZeros64(x.Lo)
	}
	return 64 + bits.TrailingZeros64(x.Hi)
}

// Rest is the set without its lowest cell.
func (x Bits) Rest() Bits {
	if x.Lo != 0 {
		return Bits{x.Lo & (x.Lo - 1), x.Hi}
	}
	return Bits{0, x.Hi & (x.Hi - 1)}
}

// Less orders sets as 128-bit numbers.
func (x Bits) Less(y Bits) bool { return x.Hi < y.Hi || x.Hi == y.Hi && x.Lo < y.Lo }

// shl and shr shift every cell up or down by k (0 < k < 64) places.
func (x Bits) shl(k uint) Bits { return Bits{x.Lo << k, x.Hi<<k | x.Lo>>(64-k)} }
func (x Bits) shr(k uint) Bits { return Bits{x.Lo>>k | x.Hi<<(64-k), x.Hi >> k} }

// reverse mirrors the 128 bits.
func (x Bits) reverse() Bits { return Bits{bits.Reverse64(x.Hi), bits.Reverse64(x.Lo)} }

// Geometry is an n x n Hex board's cells and edges as sets.
type Geometry struct {
	N, Cells int
	// All holds every cell; colFirst, colLast the columns a and the
	// last.
	All, colFirst, colLast Bits
	// Edges[side] are the two edges the side joins: Blue (side 0) the
	// bottom and top rows, Red (side 1) the first and last columns.
	Edges [2][2]Bits
	// transpose[i] is cell i mirrored in the a1 diagonal, (c, r) to
	// (r, c): Red's point of view.
	transpose []uint8
}

// NewGeometry returns the geometry of an n x n board, 1 <= n <= 11.
func NewGeometry(n int) *Geometry {
	g := &Geometry{N: n, Cells: n * n, transpose: make([]uint8, n*n)}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			i := r*n + c
			g.All = g.All.With(i)
			g.transpose[i] = uint8(c*n + r)
			if c == 0 {
				g.colFirst = g.colFirst.With(i)
			}
			if c == n-1 {
				g.colLast = g.colLast.With(i)
			}
			if r == 0 {
				g.Edges[Blue][0] = g.Edges[Blue][0].With(i)
			}
			if r == n-1 {
				g.Edges[Blue][1] = g.Edges[Blue][1].With(i)
			}
		}
	}
	g.Edges[Red] = [2]Bits{g.colFirst, g.colLast}
	return g
}

// Neighbours is the set of cells next to a cell of x and not in it (some
// may be), on the board: a cell (c, r) touches (c-1, r), (c+1, r),
// (c, r-1), (c+1, r-1), (c-1, r+1) and (c, r+1).
func (g *Geometry) Neighbours(x Bits) Bits {
	if g.Cells <= 64 {
		return Bits{Lo: g.neighbours64(x.Lo)}
	}
	n := uint(g.N)
	right := x.shl(1).Or(x.shr(n - 1)).AndNot(g.colFirst) // (c+1, r), (c+1, r-1)
	left := x.shr(1).Or(x.shl(n - 1)).AndNot(g.colLast)   // (c-1, r), (c-1, r+1)
	return right.Or(left).Or(x.shl(n)).Or(x.shr(n)).And(g.All)
}

// neighbours64 is Neighbours on a board of at most 64 cells, all in Lo:
// the search's commonest question, asked in one word.
func (g *Geometry) neighbours64(x uint64) uint64 {
	n := uint(g.N)
	right := (x<<1 | x>>(n-1)) &^ g.colFirst.Lo
	left := (x>>1 | x<<(n-1)) &^ g.colLast.Lo
	return (right | left | x<<n | x>>n) & g.All.Lo
}

// Flood is from grown through the cells of within that it reaches, each
// next to one reached before: the cells of within joined to from.
func (g *Geometry) Flood(from, within Bits) Bits {
	if g.Cells <= 64 {
		reach, in := from.Lo, within.Lo
		for {
			next := reach | g.neighbours64(reach)&in
			if next == reach {
				return Bits{Lo: reach}
			}
			reach = next
		}
	}
	reach := from
	for {
		next := reach.Or(g.Neighbours(reach).And(within))
		if next == reach {
			return reach
		}
		reach = next
	}
}

// Joins reports whether a side's stones join its two edges.
func (g *Geometry) Joins(stones Bits, side int) bool {
	e := g.Edges[side]
	return !g.Flood(stones.And(e[0]), stones).And(e[1]).Empty()
}

// JoinsWith reports whether the group of the side's stones holding cell
// i (one of them) joins the side's two edges: whether the stone just
// played at i won.
func (g *Geometry) JoinsWith(stones Bits, i int, side int) bool {
	grp := g.Flood(Cell(i), stones)
	e := g.Edges[side]
	return !grp.And(e[0]).Empty() && !grp.And(e[1]).Empty()
}

// Winning is the set of empty cells where a stone of the side would join
// its two edges at once.
func (g *Geometry) Winning(stones, empty Bits, side int) Bits {
	e := g.Edges[side]
	a := g.Flood(stones.And(e[0]), stones)
	b := g.Flood(stones.And(e[1]), stones)
	return empty.And(g.Neighbours(a).Or(e[0])).And(g.Neighbours(b).Or(e[1]))
}

// Rotate is x turned half a turn about the board's centre: cell (c, r)
// to (n-1-c, n-1-r).
func (g *Geometry) Rotate(x Bits) Bits {
	r := x.reverse()
	k := uint(128 - g.Cells)
	if k >= 64 {
		return Bits{Lo: r.Hi >> (k - 64)}
	}
	return r.shr(k)
}

// Transpose is cell i mirrored in the a1 diagonal: (c, r) to (r, c).
func (g *Geometry) Transpose(i int) int { return int(g.transpose[i]) }

// Distance is the fewest stones a side must add to its stones to join
// its edges, through the empty cells (the other side's stones are
// walls): 0 when joined, Cells+1 when it cannot.
func (g *Geometry) Distance(stones, empty Bits, side int) int {
	e := g.Edges[side]
	reach := g.Flood(stones.And(e[0]), stones)
	for k := 0; ; k++ {
		if !reach.And(e[1]).Empty() {
			return k
		}
		add := empty.And(g.Neighbours(reach).Or(e[0])).AndNot(reach)
		if add.Empty() {
			return g.Cells + 1
		}
		reach = g.Flood(reach.Or(add), stones)
	}
}
