package env

import (
	"context"
	"errors"
	"fmt"
)

// ErrBudget is returned by an exact solver that used up a budget it was
// given (of nodes, say) before settling a score.
var ErrBudget = errors.New("the solver's budget ran out")

// Exact solvers judge play and never teach it: the packages that train,
// search and hold the network must not import one (solver's boundary
// test), so games do not carry their solvers: each game's lives in a
// package of its own that registers it (registry.RegisterSolver), and
// package solver gives it to the tools. These are the types they answer
// in.

// Bounds are what an exact solver proved of a position's score for its
// side to move: Lo <= score <= Hi, equal once the score is known. Scores
// are on the game's own scale (the solver says which), on which a positive score
// is a win, 0 a draw, a negative score a loss, and a larger score is
// always better for the side to move.
type Bounds struct{ Lo, Hi int }

// Exact reports whether the score is known.
func (b Bounds) Exact() bool { return b.Lo == b.Hi }

// Class is the score's sign, +1 a win, 0 a draw, -1 a loss, when the
// bounds settle it; ok is false when they do not.
func (b Bounds) Class() (class int, ok bool) {
	lo, hi := sign(b.Lo), sign(b.Hi)
	return lo, lo == hi
}

func (b Bounds) String() string {
	if b.Exact() {
		return fmt.Sprint(b.Lo)
	}
	return fmt.Sprintf("%d..%d", b.Lo, b.Hi)
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// MoveScore is a legal action's score for the side to move: the score of
// the position it leads to, seen from the mover's side.
type MoveScore struct {
	Action int
	Score  Bounds
}

// ExactSolver proves the scores of a game's positions.
type ExactSolver interface {
	// ScoreMove scores a legal action of s, a position whose game is not
	// over, for its side to move. Weak asks only for the class (a score
	// of -1, 0 or 1), which is faster. When ctx ends first, it returns
	// the bounds proven so far with ctx's error.
	ScoreMove(ctx context.Context, s State, action int, weak bool) (Bounds, error)
}

// ScoreMoves scores the given actions of s (nil: every legal action, in
// the order of LegalActions). When ctx ends first, it returns every
// action's bounds proven so far with ctx's error.
func ScoreMoves(ctx context.Context, x ExactSolver, s State, actions []int, weak bool) ([]MoveScore, error) {
	if actions == nil {
		actions = s.LegalActions(nil)
	}
	out := make([]MoveScore, len(actions))
	var first error
	for i, a := range actions {
		b, err := x.ScoreMove(ctx, s, a, weak)
		if err != nil && first == nil {
			first = err
		}
		out[i] = MoveScore{Action: a, Score: b}
	}
	return out, first
}

// PositionBounds is a position's score from its moves' scores: its best
// move's, so between the highest lower bound and the highest upper bound.
func PositionBounds(moves []MoveScore) Bounds {
	var b Bounds
	for i, m := range moves {
		if i == 0 || m.Score.Lo > b.Lo {
			b.Lo = m.Score.Lo
		}
		if i == 0 || m.Score.Hi > b.Hi {
			b.Hi = m.Score.Hi
		}
	}
	return b
}

// BestMoves returns the best of a position's move scores, by the highest
// lower bound and then the highest upper bound, and the actions that
// reach it.
func BestMoves(moves []MoveScore) (Bounds, []int) {
	var best Bounds
	var actions []int
	for i, m := range moves {
		switch {
		case i == 0 || m.Score.Lo > best.Lo || (m.Score.Lo == best.Lo && m.Score.Hi > best.Hi):
			best, actions = m.Score, []int{m.Action}
		case m.Score == best:
			actions = append(actions, m.Action)
		}
	}
	return best, actions
}
