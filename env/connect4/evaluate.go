package connect4

import (
	"math/bits"

	"github.com/sliderzero/sliderzero/env"
)

// windows are the 69 lines of four cells a win can fill.
var windows = func() []uint64 {
	var out []uint64
	for col := 0; col < Cols; col++ {
		for row := 0; row < Rows; row++ {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				endC, endR := col+3*d[0], row+3*d[1]
				if endC >= Cols || endR < 0 || endR >= Rows {
					continue
				}
				var w uint64
				for k := 0; k < 4; k++ {
					w |= 1 << square(col+k*d[0], row+k*d[1])
				}
				out = append(out, w)
			}
		}
	}
	return out
}()

// weight scores a line holding n of one side's pieces and none of the
// other's: a line closer to complete is worth much more.
var weight = [4]float64{0, 1, 4, 16}

// Evaluate is the classical players' evaluation (env.Evaluator): for the
// side to move, the lines of four still open to it, weighted by how full
// they are, less the opponent's. It knows nothing of threats' parity, the
// heart of Connect Four strategy; alpha-beta's search supplies the rest.
func (g *Game) Evaluate(st env.State) float64 {
	s := env.Unwrap(st).(*State)
	me, you := s.pieces[s.toMove], s.pieces[s.toMove.Other()]
	score := 0.0
	for _, w := range windows {
		a, b := me&w, you&w
		switch {
		case b == 0 && a != 0:
			score += weight[bits.OnesCount64(a)]
		case a == 0 && b != 0:
			score -= weight[bits.OnesCount64(b)]
		}
	}
	return score
}
