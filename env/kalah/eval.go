package kalah

import "github.com/sliderzero/sliderzero/env"

// Evaluate is the classical players' evaluation (env.Evaluator): for the
// side to move, its store less the opponent's, and a quarter of the
// seeds on its side less those on the opponent's (a side's seeds are its
// own at the end if the other side runs out first, and the moves it has
// left). A move that ends in its store is left to the search.
func (g *Game) Evaluate(st env.State) float64 {
	s := env.Unwrap(st).(*State)
	me, you := s.toMove, s.toMove.Other()
	stores := float64(int(s.store[me]) - int(s.store[you]))
	return stores + float64(s.seedsOf(me)-s.seedsOf(you))/4
}
