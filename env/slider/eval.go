package slider

import (
	"math/bits"

	"github.com/sliderzero/sliderzero/env"
)

// Weights of the hand-written evaluation, in forward steps.
const (
	blockWeight = 0.5 // an enemy piece whose forward cell one of ours holds
	wallWeight  = 0.2 // a piece whose forward cell is blocked
)

// Evaluate implements env.Evaluator with the measures the course's students
// used: the race (forward steps each side still needs to take all its
// pieces off) and blocking (pieces standing in front of enemy pieces,
// forcing them sideways).
func (g *Game) Evaluate(st env.State) float64 {
	s := env.Unwrap(st).(*State)
	me := s.toMove
	return s.sideScore(me) - s.sideScore(me.Other())
}

// sideScore is how well placed side is: minus the steps it still needs,
// plus its blocking of the enemy.
func (s *State) sideScore(side env.Side) float64 {
	g := s.g
	p := s.pieces[side]
	var steps int
	for b := p; b != 0; b &= b - 1 {
		sq := bits.TrailingZeros64(b)
		if side == H {
			steps += g.n - sq&7
		} else {
			steps += g.n - sq>>3
		}
	}
	enemy := s.pieces[side.Other()]
	// The cells in front of the enemy's pieces, and in front of ours.
	var enemyFront, ownFront uint64
	if side == H {
		enemyFront = (enemy &^ g.topRow) << 8
		ownFront = (p &^ g.lastCol) << 1
	} else {
		enemyFront = (enemy &^ g.lastCol) << 1
		ownFront = (p &^ g.topRow) << 8
	}
	blocks := bits.OnesCount64(enemyFront & p)
	walled := bits.OnesCount64(ownFront & s.blocked)
	return -float64(steps) + blockWeight*float64(blocks) - wallWeight*float64(walled)
}
