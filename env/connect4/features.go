package connect4

import (
	"math/bits"

	"github.com/sliderzero/sliderzero/env"
)

// With features (the game's setting of that name) the input has two more
// planes, worked out from the rules alone: the empty cells where a disc
// of the side to move would make four (its threats), then the opponent's.
// Which of them can be played now, and the row parity that decides most
// endgames, the network reads from where they stand.
const (
	planeBoard        = 2
	planeFeatures     = 2
	planesWithThreats = planeBoard + planeFeatures
)

// boardBits holds every cell of the board, none of the spare bits atop
// the columns.
var boardBits = func() (b uint64) {
	for c := 0; c < Cols; c++ {
		for r := 0; r < Rows; r++ {
			b |= 1 << square(c, r)
		}
	}
	return b
}()

// threats returns the empty cells where a disc added to b makes four in a
// line (John Tromp's and Pascal Pons's bitboard shifts). The solver has
// the same function; the game may not import the solver (the boundary
// test in package solver keeps training and play free of it), so it has
// its own: for each
// direction, a cell with three of b's discs beside it on one side, or two
// on one side and one on the other.
func threats(b, occupied uint64) uint64 {
	r := (b << 1) & (b << 2) & (b << 3) // three below
	// Written out for each direction, so that every shift is a constant
	// (the search asks this at every new leaf).
	r |= threatsAlong(b, stride) | threatsAlong(b, stride-1) | threatsAlong(b, stride+1)
	return r & boardBits &^ occupied
}

// threatsAlong is threats for the lines of one direction, step apart.
func threatsAlong(b uint64, step uint) uint64 {
	p := (b << step) & (b << (2 * step))
	r := p&(b<<(3*step)) | p&(b>>step)
	p = (b >> step) & (b >> (2 * step))
	return r | p&(b<<step) | p&(b>>(3*step))
}

// encodeThreats writes the two threat planes after the board's.
func (s *State) encodeThreats(dst []float32) {
	occupied := s.pieces[X] | s.pieces[O]
	for p, side := range [2]env.Side{s.toMove, s.toMove.Other()} {
		for b := threats(s.pieces[side], occupied); b != 0; b &= b - 1 {
			dst[(planeBoard+p)*cells+int(cellOf[bits.TrailingZeros64(b)&63])] = 1
		}
	}
}
