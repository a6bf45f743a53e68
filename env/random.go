package env

import "math/rand/v2"

// RandomMoves plays up to n uniformly random moves from s (changed in
// place, and returned), stopping before a move that would end the game:
// varied starts for self-play and for matches between players that
// search deterministically.
func RandomMoves(s State, rng *rand.Rand, n int) State {
	var legal []int
	next := s.Clone()
	for k := 0; k < n; k++ {
		legal = s.LegalActions(legal[:0])
		if len(legal) == 0 {
			break
		}
		next.CopyFrom(s)
		next.Apply(legal[rng.IntN(len(legal))])
		if next.Outcome().Over {
			break
		}
		s.CopyFrom(next)
	}
	return s
}
