package solver

import (
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

// PliesToEnd is how many plies from st a game with best play lasts,
// given an exact score of st (or of one of its moves, from the side to
// move's point of view) on its solver's scale: to the winning ply for a
// win or a loss. ok is false for a draw and for a game whose solver's
// scale does not tell.
func PliesToEnd(st env.State, score int) (plies int, ok bool) {
	s, found := registry.SolverOf(st.Game().Name())
	if score == 0 || !found || s.PliesToEnd == nil {
		return 0, false
	}
	return s.PliesToEnd(st, score)
}

// Verdict says in words what an exact score of st means for its side to
// move: "win for X in 9 plies", "draw", "loss for X in 4 plies"; bounds
// that settle only the result say so ("win for X", "X does not lose").
func Verdict(st env.State, b env.Bounds) string {
	side := st.Game().SideName(st.ToMove())
	if !b.Exact() {
		switch c, ok := b.Class(); {
		case ok && c > 0:
			return "win for " + side
		case ok && c < 0:
			return "loss for " + side
		case ok:
			return "draw"
		case b.Lo >= 0:
			return side + " does not lose"
		case b.Hi <= 0:
			return side + " does not win"
		}
		return "not settled"
	}
	word, in := "win", ""
	if b.Lo < 0 {
		word = "loss"
	} else if b.Lo == 0 {
		return "draw"
	}
	if n, ok := PliesToEnd(st, b.Lo); ok {
		in = " in " + plies(n)
	}
	return word + " for " + side + in
}

// MoveVerdict says what an exact move score means for the mover: "wins in
// 9 plies", "draws", "loses in 4 plies".
func MoveVerdict(st env.State, b env.Bounds) string {
	if !b.Exact() {
		switch c, ok := b.Class(); {
		case ok && c > 0:
			return "wins"
		case ok && c < 0:
			return "loses"
		case ok:
			return "draws"
		}
		return "not settled (" + b.String() + ")"
	}
	word := "wins"
	if b.Lo < 0 {
		word = "loses"
	} else if b.Lo == 0 {
		return "draws"
	}
	if n, ok := PliesToEnd(st, b.Lo); ok {
		return word + " in " + plies(n)
	}
	return word
}

func plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return fmt.Sprintf("%d plies", n)
}
