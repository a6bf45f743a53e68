package catsdogs

import (
	"math/bits"

	"github.com/sliderzero/sliderzero/env"
)

// Evaluate implements env.Evaluator. From the Cats' point of view: their
// capturing moves (mobility, which they lose on running out) are good, and
// pairs of Cats sharing a row or column (one Cat from a line of three) are
// bad. The Dogs see the negation.
func (g *Game) Evaluate(st env.State) float64 {
	s := env.Unwrap(st).(*State)
	var mobility int
	for d := 0; d < numDirs; d++ {
		mobility += bits.OnesCount64(shift(s.cats&g.canMove[d], d) & s.dogs)
	}
	var pairs int
	for i := 0; i < Size; i++ {
		r, c := bits.OnesCount64(s.cats&g.rows[i]), bits.OnesCount64(s.cats&g.cols[i])
		pairs += r*(r-1)/2 + c*(c-1)/2
	}
	v := float64(mobility) - 2.5*float64(pairs)
	if s.toMove == Dogs {
		return -v
	}
	return v
}
