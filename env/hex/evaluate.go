package hex

import "github.com/sliderzero/sliderzero/env"

// Evaluate is the classical players' evaluation (env.Evaluator): how many
// more stones the opponent needs to join its edges than the side to move,
// each counting the fewest empty cells of a chain between its edges that
// its own stones shorten and the other's block. It knows nothing of
// bridges and ladders; alpha-beta's search supplies the rest.
func (g *Game) Evaluate(st env.State) float64 {
	s := env.Unwrap(st).(*State)
	me, you := s.toMove, s.toMove.Other()
	empty := s.empty()
	return float64(g.geo.Distance(s.stones[you], empty, int(you)) - g.geo.Distance(s.stones[me], empty, int(me)))
}
