package solve

import (
	"context"
	"errors"
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/env/registry"
)

// The solver as the tools that judge play see it: an env.ExactSolver of
// the game's positions, registered with the game's name (package solver
// names this package).

func init() {
	registry.RegisterSolver("connect4", registry.Solver{
		Scale:        Scale,
		MaxScore:     (Standard.Cells()+1)/2 - 3, // a win with the winner's 4th disc
		PliesToEnd:   pliesToEnd,
		New:          func(_ env.Game, tableMB int, nodes uint64) env.ExactSolver { return NewExact(tableMB, nodes) },
		ReadPosition: ReadPosition,
	})
}

// Standard is the solver's geometry of the game's board.
var Standard = func() *Board {
	b, err := NewBoard(connect4.Cols, connect4.Rows)
	if err != nil {
		panic(err) // the game's constants do not fit the solver
	}
	return b
}()

// Scale explains the solver's scores.
const Scale = "Connect Four score: 0 a draw; a win scores the winner's discs left unplayed after its winning disc, plus one (18 for the fastest win, 1 for a win with the last disc); a loss scores the negative of the winner's score"

// PositionOf is a Connect Four state as the solver's position.
func PositionOf(st env.State) (Position, error) {
	mine, theirs, ok := connect4.Bitboards(st)
	if !ok {
		return Position{}, fmt.Errorf("the Connect Four solver needs a Connect Four position, not one of %s", st.Game().Name())
	}
	return Standard.FromBitboards(mine, theirs)
}

// pliesToEnd counts the plies a score on Scale says the game lasts: a
// win scoring s comes with the winner's k-th disc; the side to move has
// played m/2 discs (rounded down), its opponent the rest.
func pliesToEnd(st env.State, score int) (int, bool) {
	p, err := PositionOf(st)
	if score == 0 || err != nil {
		return 0, false
	}
	m := p.Moves()
	k := (Standard.Cells()+1)/2 + 1 - max(score, -score)
	if score > 0 {
		return 2*(k-m/2) - 1, true
	}
	return 2 * (k - (m+1)/2), true
}

// Exact is the solver as an env.ExactSolver.
type Exact struct{ s *Solver }

// NewExact returns an exact solver with a table of about tableMB
// megabytes (0: about 180) and a budget of nodes for each move's score
// (0: none).
func NewExact(tableMB int, nodes uint64) *Exact {
	entries := DefaultTableEntries
	if tableMB > 0 {
		entries = tableMB << 20 / EntryBytes
	}
	x := &Exact{s: New(Standard, entries)}
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
	if !Standard.CanPlay(p, action) {
		return env.Bounds{}, fmt.Errorf("column %d is not a legal move", action+1)
	}
	mode := Strong
	if weak {
		mode = Weak
	}
	r, err := x.s.ScoreMove(ctx, p, action, mode)
	if errors.Is(err, ErrBudget) {
		err = env.ErrBudget
	}
	return env.Bounds{Lo: r.Lo, Hi: r.Hi}, err
}
