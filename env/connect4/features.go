package connect4

import (
	"math/bits"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4/solve"
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

// board is the solver's geometry of this board, whose bitboards are laid
// out as the game's (column-major, a stride of Rows+1).
var board = func() *solve.Board {
	b, err := solve.NewBoard(Cols, Rows)
	if err != nil {
		panic(err) // 7x6 fits: a mistake in the program
	}
	return b
}()

// threats returns the empty cells where a disc added to b makes four in
// a line.
func threats(b, occupied uint64) uint64 { return board.Winning(b, occupied) }

// encodeThreats writes the two threat planes after the board's.
func (s *State) encodeThreats(dst []float32) {
	occupied := s.pieces[X] | s.pieces[O]
	for p, side := range [2]env.Side{s.toMove, s.toMove.Other()} {
		for b := threats(s.pieces[side], occupied); b != 0; b &= b - 1 {
			sq := bits.TrailingZeros64(b)
			dst[(planeBoard+p)*cells+(sq%stride)*Cols+sq/stride] = 1
		}
	}
}
