package solver

import (
	"context"
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
)

// An exact solver for each game that has one, as env.ExactSolver, so that
// position sets, accuracy and the perfect player serve every such game
// with one code: Connect Four's search solver, and Slider's tables.

// Exact returns a new exact solver for g (one per goroutine: they are not
// safe for concurrent use) with a table of about tableMB megabytes (0:
// the default), and what its scores mean. Slider needs a solved table
// (TableSolver).
func Exact(g env.Game, tableMB int) (env.ExactSolver, string, error) {
	return ExactWithBudget(g, tableMB, 0)
}

// ExactWithBudget is Exact with a budget of nodes for each move's score
// (0: none): a move it does not settle gets env.ErrBudget. Unlike a time
// limit, a budget gives the same answers on every machine.
func ExactWithBudget(g env.Game, tableMB int, nodes uint64) (env.ExactSolver, string, error) {
	switch g.(type) {
	case *connect4.Game:
		x := NewConnect4(tableMB)
		x.SetBudget(nodes)
		return x, Connect4Scale, nil
	}
	return nil, "", fmt.Errorf("%s has no exact solver that needs no table (Slider boards are solved into tables: sliderzero solve)", g.Name())
}

// Solvable reports whether Exact has a solver for g.
func Solvable(g env.Game) bool {
	_, ok := g.(*connect4.Game)
	return ok
}

// TableScale explains the scores of a table's exact solver.
const TableScale = "Slider score: 0 a draw; a win in d plies scores 256-d, a loss in d plies -(256-d), so that a quicker win and a slower loss score higher"

// TableSolver answers from a table (env.ExactSolver); it is safe for
// concurrent use, as the table is read only.
type TableSolver struct{ T *Table }

// Score is a table value on TableScale.
func Score(v Value) int {
	switch v.Result {
	case Win:
		return 256 - v.Plies
	case Loss:
		return -(256 - v.Plies)
	}
	return 0
}

// ScoreMove scores a legal move from the table; weak scores only the
// class.
func (x TableSolver) ScoreMove(_ context.Context, s env.State, action int, weak bool) (env.Bounds, error) {
	if s.Outcome().Over {
		return env.Bounds{}, fmt.Errorf("the game is over")
	}
	if err := x.T.Covers(s); err != nil {
		return env.Bounds{}, err
	}
	if !env.IsLegal(s, action) {
		return env.Bounds{}, fmt.Errorf("action %d is not legal in %s", action, s)
	}
	child := env.Unwrap(s).Clone()
	child.Apply(action)
	v, err := x.T.Value(child)
	if err != nil {
		return env.Bounds{}, err
	}
	v = v.Negate()
	sc := Score(v)
	if weak {
		sc = int(v.Result)
	}
	return env.Bounds{Lo: sc, Hi: sc}, nil
}
