package rlgame

import (
	"math/bits"

	"github.com/sliderzero/sliderzero/env"
)

// Evaluate implements env.Evaluator: material (pawns left, on the board or
// in the base) and the race (how many moves the side's pawns need to reach
// the enemy base, its most advanced pawn above all).
func (g *Game) Evaluate(st env.State) float64 {
	s := env.Unwrap(st).(*State)
	return s.score(s.toMove) - s.score(s.toMove.Other())
}

func (s *State) score(side env.Side) float64 {
	g := s.g
	total, nearest := 0, 4*g.n
	for p := s.pawns[side]; p != 0; p &= p - 1 {
		cx, cy := g.canon(side, bits.TrailingZeros64(p))
		steps := max(0, g.n-g.a-cx) + max(0, g.n-g.a-cy)
		total += steps
		nearest = min(nearest, steps)
	}
	return 4*float64(s.count(side)) - 0.3*float64(total) - 1.5*float64(nearest)
}
