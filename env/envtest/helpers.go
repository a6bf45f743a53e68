package envtest

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/sliderzero/sliderzero/env"
)

// Play applies a move given in the game's notation, failing the test if
// it does not parse or is illegal.
func Play(t testing.TB, s env.State, move string) {
	t.Helper()
	a, err := s.ParseAction(move)
	if err != nil {
		t.Fatalf("%s in %s: %v", move, s, err)
	}
	s.Apply(a)
}

// Moves lists the legal moves of the side to move in notation, sorted.
func Moves(s env.State) []string {
	var out []string
	for _, a := range s.LegalActions(nil) {
		out = append(out, s.ActionString(a))
	}
	sort.Strings(out)
	return out
}

// RandomPositions plays random games of g from its start and returns the
// first n positions met along the way (clones), each game to its end.
func RandomPositions(g env.Game, rng *rand.Rand, n int) []env.State {
	var out []env.State
	for len(out) < n {
		s := g.Start(rng)
		for !s.Outcome().Over && len(out) < n {
			out = append(out, s.Clone())
			legal := s.LegalActions(nil)
			s.Apply(legal[rng.IntN(len(legal))])
		}
	}
	return out
}
