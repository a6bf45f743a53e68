package env

import "math/rand/v2"

// RandomMoves plays up to n uniformly random moves from s (changed in
// place, and returned), stopping before a move that would end the game:
// varied starts for self-play and for matches between players that
// search deterministically.
func RandomMoves(s State, rng *rand.Rand, n int) State {
	s, _ = RandomLine(s, rng, n, nil)
	return s
}

// RandomLine is RandomMoves that also appends the moves it played to
// line and returns it: a record of a game that started with them must
// hold them, since the ply cap counts them.
func RandomLine(s State, rng *rand.Rand, n int, line []int) (State, []int) {
	var legal []int
	next := s.Clone()
	for k := 0; k < n; k++ {
		legal = s.LegalActions(legal[:0])
		if len(legal) == 0 {
			break
		}
		a := legal[rng.IntN(len(legal))]
		next.CopyFrom(s)
		next.Apply(a)
		if next.Outcome().Over {
			break
		}
		s.CopyFrom(next)
		line = append(line, a)
	}
	return s, line
}
