package solve

import (
	"context"
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/kalah"
	"github.com/sliderzero/sliderzero/env/registry"
)

// The solver as the tools that judge play see it: an env.ExactSolver of
// the game's positions, registered with the game's name (package solver
// names this package).

func init() {
	registry.RegisterSolver("kalah", registry.Solver{
		Scale: Scale,
		// No PliesToEnd: a score is a margin of seeds, not a length of
		// play, so verdicts say who wins and not in how many plies.
		New:          func(_ env.Game, tableMB int, nodes uint64) env.ExactSolver { return NewExact(tableMB, nodes) },
		ReadPosition: ReadPosition,
	})
}

// Scale explains the solver's scores.
const Scale = "Kalah score: the final difference of the stores (the side to move's less its opponent's) with perfect play: positive a win, 0 a draw, negative a loss; always even"

// DefaultTableMB is the table's memory when none is asked.
const DefaultTableMB = 64

// Exact is the solver as an env.ExactSolver, for positions of any
// number of pits and seeds.
type Exact struct{ s *Solver }

// NewExact returns an exact solver with a table of about tableMB
// megabytes (0: DefaultTableMB) and a budget of nodes for each move's
// score (0: none).
func NewExact(tableMB int, nodes uint64) *Exact {
	if tableMB <= 0 {
		tableMB = DefaultTableMB
	}
	x := &Exact{s: New(tableMB << 20 / EntryBytes)}
	x.s.SetBudget(nodes)
	return x
}

// Reset empties the solver's table.
func (x *Exact) Reset() { x.s.Reset() }

// Nodes counts the positions the solver has searched.
func (x *Exact) Nodes() uint64 { return x.s.Nodes() }

// ScoreMove scores one legal move (env.ExactSolver).
func (x *Exact) ScoreMove(ctx context.Context, st env.State, action int, weak bool) (env.Bounds, error) {
	if st.Outcome().Over {
		return env.Bounds{}, fmt.Errorf("the game is over")
	}
	p, err := PositionOf(st)
	if err != nil {
		return env.Bounds{}, err
	}
	return x.s.ScoreMove(ctx, p, action, weak)
}

// ReadPosition reads a position to solve: the game's one-line form, of
// any number of pits and seeds (the game is the one the position's pits
// and seeds make: kalah.GameOf), or - for the start of the default game.
// It refuses a finished game, saying why.
func ReadPosition(text string) (env.State, error) {
	if text == "-" {
		return kalah.Default().Start(nil), nil
	}
	g, err := kalah.GameOf(text)
	if err != nil {
		return nil, err
	}
	st, err := g.ParseState(text)
	if err != nil {
		return nil, err
	}
	if st.Outcome().Over {
		return nil, fmt.Errorf("the game is over: every seed is in a store")
	}
	return st, nil
}
