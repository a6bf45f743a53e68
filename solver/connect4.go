package solver

import (
	"context"
	"errors"
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	c4 "github.com/sliderzero/sliderzero/env/connect4/solve"
)

// Connect4Board is the solver's geometry of the standard board.
var Connect4Board = func() *c4.Board {
	b, err := c4.NewBoard(connect4.Cols, connect4.Rows)
	if err != nil {
		panic(err) // the game's constants do not fit the solver
	}
	return b
}()

// Connect4Scale explains the Connect Four solver's scores.
const Connect4Scale = "Connect Four score: 0 a draw; a win scores the winner's discs left unplayed after its winning disc, plus one (18 for the fastest win, 1 for a win with the last disc); a loss scores the negative of the winner's score"

// Connect4Position is a Connect Four state as the solver's position.
func Connect4Position(st env.State) (c4.Position, error) {
	mine, theirs, ok := connect4.Bitboards(st)
	if !ok {
		return c4.Position{}, fmt.Errorf("the Connect Four solver needs a Connect Four position, not one of %s", st.Game().Name())
	}
	return Connect4Board.FromBitboards(mine, theirs)
}

// Connect4 is the exact Connect Four solver as an env.ExactSolver.
type Connect4 struct{ s *c4.Solver }

// NewConnect4 returns a Connect Four solver with a table of about tableMB
// megabytes (0: about 180).
func NewConnect4(tableMB int) *Connect4 {
	entries := c4.DefaultTableEntries
	if tableMB > 0 {
		entries = tableMB << 20 / c4.EntryBytes
	}
	return &Connect4{s: c4.New(Connect4Board, entries)}
}

// SetBudget bounds the nodes the solver searches for one move's score (0:
// no bound); a move it does not settle gets env.ErrBudget.
func (x *Connect4) SetBudget(nodes uint64) { x.s.SetBudget(nodes) }

// Reset empties the solver's table.
func (x *Connect4) Reset() { x.s.Reset() }

// Nodes counts the positions the solver has searched.
func (x *Connect4) Nodes() uint64 { return x.s.Nodes() }

// ScoreMove scores one legal move (env.ExactSolver).
func (x *Connect4) ScoreMove(ctx context.Context, st env.State, action int, weak bool) (env.Bounds, error) {
	if st.Outcome().Over {
		return env.Bounds{}, fmt.Errorf("the game is over")
	}
	p, err := Connect4Position(st)
	if err != nil {
		return env.Bounds{}, err
	}
	b := Connect4Board
	if !b.CanPlay(p, action) {
		return env.Bounds{}, fmt.Errorf("column %d is not a legal move", action+1)
	}
	mode := c4.Strong
	if weak {
		mode = c4.Weak
	}
	r, err := x.s.ScoreMove(ctx, p, action, mode)
	if errors.Is(err, c4.ErrBudget) {
		err = env.ErrBudget
	}
	return env.Bounds{Lo: r.Lo, Hi: r.Hi}, err
}
