package solve_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/kalah"
	"github.com/sliderzero/sliderzero/solver"
)

// The registered solver, as the tools get it (package solver), plays
// perfectly: South, worth 6 at the start of Kalah(4,3), ends every game
// against random replies at least 6 ahead, and a perfect North keeps a
// perfect South to exactly 6.
func TestPerfectPlayKeepsTheStartsScore(t *testing.T) {
	g := kalah.Default()
	x, scale, err := solver.Exact(g, 8)
	if err != nil || !strings.HasPrefix(scale, "Kalah") {
		t.Fatalf("solver.Exact: %v (%q)", err, scale)
	}
	margin := func(s env.State) int {
		_, _, _, my, their, _ := kalah.SeedsOf(s)
		if s.ToMove() == kalah.North {
			my, their = their, my
		}
		return my - their
	}
	for seed := uint64(0); seed < 10; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		south := solver.NewPerfect(x, "solver", 0, rng)
		north := solver.NewPerfect(x, "solver", 0, rng)
		s := g.Start(nil)
		both := seed%2 == 0
		for !s.Outcome().Over {
			var a int
			switch {
			case s.ToMove() == kalah.South:
				a, err = south.Move(context.Background(), s)
			case both:
				a, err = north.Move(context.Background(), s)
			default:
				legal := s.LegalActions(nil)
				a = legal[rng.IntN(len(legal))]
			}
			if err != nil {
				t.Fatal(err)
			}
			s.Apply(a)
		}
		if m := margin(s); m < 6 || both && m != 6 {
			t.Errorf("seed %d (perfect North %v): South ends %d ahead: %s", seed, both, m, s)
		}
	}
}
