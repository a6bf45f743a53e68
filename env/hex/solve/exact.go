// Package solve is Hex's exact solver: alpha-beta on null windows over a
// transposition table, scoring how soon a side wins. It judges play and
// never teaches it, so the game's package does not import it; it
// registers itself with the game's name (package solver names it).
package solve

import (
	"context"
	"errors"
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/hex"
	"github.com/sliderzero/sliderzero/env/registry"
)

func init() {
	registry.RegisterSolver("hex", registry.Solver{
		Scale:      Scale,
		PliesToEnd: pliesToEnd,
		New: func(g env.Game, tableMB int, nodes uint64) env.ExactSolver {
			return NewExact(g, tableMB, nodes)
		},
	})
}

// Scale explains the solver's scores.
const Scale = "Hex score: a win scores the cells left empty after the winning stone, plus one (a quicker win scores higher: a position won at once scores its empty cells); a loss scores the negative of the winner's score; there are no draws"

// DefaultTableMB is the table's memory when none is asked for.
const DefaultTableMB = 64

// stonesOf is a Hex state's stones, side to move and board width.
func stonesOf(st env.State) (Position, int, error) {
	s, ok := env.Unwrap(st).(*hex.State)
	if !ok {
		return Position{}, 0, fmt.Errorf("the Hex solver needs a Hex position, not one of %s", st.Game().Name())
	}
	p := Position{Stones: [2]hex.Bits{s.Stones(hex.Blue), s.Stones(hex.Red)}, ToMove: int(s.ToMove())}
	return p, s.Game().(*hex.Game).Size(), nil
}

// pliesToEnd counts the plies a score on Scale says the game lasts: a
// score of k is a win with the stone that leaves k-1 cells empty.
func pliesToEnd(st env.State, score int) (int, bool) {
	p, n, err := stonesOf(st)
	if score == 0 || err != nil {
		return 0, false
	}
	left := n*n - p.Stones[0].Count() - p.Stones[1].Count()
	return left - max(score, -score) + 1, true
}

// Exact is the solver as an env.ExactSolver of one board size.
type Exact struct {
	g *hex.Game
	s *Solver
}

// NewExact returns an exact solver of g's positions (g must be Hex) with
// a table of about tableMB megabytes (0: DefaultTableMB) and a budget of
// nodes for each move's score (0: none).
func NewExact(g env.Game, tableMB int, nodes uint64) *Exact {
	hg, _ := g.(*hex.Game)
	if hg == nil {
		hg, _ = hex.New(hex.DefaultSize)
	}
	if tableMB <= 0 {
		tableMB = DefaultTableMB
	}
	x := &Exact{g: hg, s: New(hg.Geometry(), tableMB<<20/EntryBytes)}
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
	p, n, err := stonesOf(st)
	if err != nil {
		return env.Bounds{}, err
	}
	if n != x.g.Size() {
		return env.Bounds{}, fmt.Errorf("a %dx%d position for the solver of the %dx%d board", n, n, x.g.Size(), x.g.Size())
	}
	if action < 0 || action >= n*n {
		return env.Bounds{}, fmt.Errorf("action %d is not a cell of the board", action)
	}
	i := x.g.CellOf(st.ToMove(), action)
	if !p.empty(x.s.geo).Has(i) {
		return env.Bounds{}, fmt.Errorf("%s is not a legal move: the cell holds a stone", st.ActionString(action))
	}
	r, err := x.s.ScoreMove(ctx, p, i, weak)
	if errors.Is(err, ErrBudget) {
		err = env.ErrBudget
	}
	return env.Bounds{Lo: r.Lo, Hi: r.Hi}, err
}
