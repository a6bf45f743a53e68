package solve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
)

// The table as the tools that judge play see it (registry.Table).

// Scale explains the scores of a table.
const Scale = "Slider score: 0 a draw; a win in d plies scores 256-d, a loss in d plies -(256-d), so that a quicker win and a slower loss score higher"

// Score is a table value on Scale.
func Score(v Value) int {
	switch v.Result {
	case Win:
		return 256 - v.Plies
	case Loss:
		return -(256 - v.Plies)
	}
	return 0
}

// pliesToEnd is how many plies a score on Scale says the game lasts.
func pliesToEnd(_ env.State, score int) (int, bool) {
	if s := max(score, -score); s > 128 {
		return 256 - s, true
	}
	return 0, false
}

// ScoreMove scores a legal move from the table (env.ExactSolver), on
// Scale; weak scores only the class.
func (t *Table) ScoreMove(_ context.Context, s env.State, action int, weak bool) (env.Bounds, error) {
	if s.Outcome().Over {
		return env.Bounds{}, fmt.Errorf("the game is over")
	}
	if err := t.Covers(s); err != nil {
		return env.Bounds{}, err
	}
	if !env.IsLegal(s, action) {
		return env.Bounds{}, fmt.Errorf("action %d is not legal in %s", action, s)
	}
	child := env.Unwrap(s).Clone()
	child.Apply(action)
	v, err := t.Value(child)
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

// BestMove plays perfectly from the table: the shortest win, else a draw,
// else the longest loss, with a random choice among equal moves. It
// refuses a position of another board.
func (t *Table) BestMove(s env.State, rng *rand.Rand) (int, error) {
	if s.Outcome().Over {
		return 0, fmt.Errorf("no legal move: the game is over")
	}
	actions, values, err := t.Moves(s)
	if err != nil {
		return 0, err
	}
	best, ties := 0, 0
	for i, v := range values {
		switch {
		case i == 0 || v.Better(values[best]):
			best, ties = i, 1
		case v == values[best]:
			ties++
			if rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return actions[best], nil
}

// Plays reports whether every game of g is on the table's board: a Slider
// game of its size and blocked cells (not random layouts).
func (t *Table) Plays(g env.Game) bool {
	sg, ok := slider.Of(g)
	if !ok {
		return false
	}
	cfg := sg.Config()
	return sg.Size() == t.Size() && !cfg.RandomBlocked && slider.FormatCells(cfg.Blocked) == slider.FormatCells(t.Blocked())
}

// Measures checks that the table's board is one the runs of g play on:
// the same size, and its blocked cells are g's, or, with random layouts,
// a layout the referee's scheme can draw.
func (t *Table) Measures(game env.Game) error {
	g, ok := slider.Of(game)
	if !ok {
		return fmt.Errorf("the table is for Slider; the run plays %s", game.Name())
	}
	if t.Size() != g.Size() {
		return fmt.Errorf("the table is for %s; the run plays %dx%d", t.Describe(), g.Size(), g.Size())
	}
	gc := g.Config()
	want := slider.FormatCells(gc.Blocked)
	have := slider.FormatCells(t.Blocked())
	if gc.RandomBlocked {
		for _, c := range t.Blocked() {
			if c.X < 1 || c.Y < 1 || c.X > g.Size()-2 || c.Y > g.Size()-2 {
				return fmt.Errorf("the table's blocked cell %s is never blocked by the random layouts", c)
			}
		}
		if len(t.Blocked()) > 2 {
			return fmt.Errorf("the random layouts block at most 2 cells; the table has %s", have)
		}
		return nil
	}
	if want != have {
		return fmt.Errorf("the table is for %s; the run's blocked cells are %q", t.Describe(), want)
	}
	return nil
}

// Starts are the board's starting positions, H first and V first.
func (t *Table) Starts() []env.State {
	var out []env.State
	for _, first := range []env.Side{slider.H, slider.V} {
		g := slider.MustNew(slider.Config{Size: t.Size(), Blocked: t.Blocked(), First: first})
		out = append(out, g.NewState(nil))
	}
	return out
}

// DrawPosition is RandomPosition as an env.State.
func (t *Table) DrawPosition(rng *rand.Rand) env.State { return t.RandomPosition(rng) }

// PositionSets are the table's Sets.
func (t *Table) PositionSets() map[string][]string { return t.Sets }

// Summary gives the table's size and solving time, its counts of wins,
// draws and losses, and the value of the start for each side to move.
func (t *Table) Summary() string {
	st := t.Stats()
	lines := []string{
		fmt.Sprintf("%s: %d positions solved in %.1fs", t.Describe(), t.Positions(), t.Seconds),
		fmt.Sprintf("with both sides on the board: %d wins, %d draws, %d losses for the side to move; longest game %d plies",
			st.Wins, st.Draws, st.Losses, st.Longest),
	}
	g := t.game
	start := g.NewState(nil)
	for _, side := range []env.Side{slider.H, slider.V} {
		s, err := g.PositionOn(start.Pieces(slider.H), start.Pieces(slider.V), start.Blocked(), side)
		if err != nil {
			panic(err) // the start's own pieces refused: a bug
		}
		v, _ := t.Value(s)
		lines = append(lines, fmt.Sprintf("the start with %s to move: %v for %s", g.SideName(side), v, g.SideName(side)))
	}
	return strings.Join(lines, "\n")
}
