package solver

import (
	"context"
	"errors"
	"fmt"
	"sync"

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

// Cache keeps the exact scores exact solvers settle, shared by the
// solvers of one command (its games, its players): an opening position a
// perfect player met once costs nothing the next time. Only settled
// scores are kept, and answers within a node budget (the same on every
// machine); scores cut by a clock are not.
type Cache struct {
	mu     sync.Mutex
	scores map[cacheKey]cachedScore
}

// cachedScore is a score and whether a budget cut it.
type cachedScore struct {
	b      env.Bounds
	budget bool
}

type cacheKey struct {
	position string
	action   int
	weak     bool
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{scores: map[cacheKey]cachedScore{}} }

// Cached returns x answering through the cache c.
func (c *Cache) Cached(x env.ExactSolver) env.ExactSolver { return cached{x, c} }

type cached struct {
	x env.ExactSolver
	c *Cache
}

func (s cached) ScoreMove(ctx context.Context, st env.State, action int, weak bool) (env.Bounds, error) {
	k := cacheKey{st.String(), action, weak}
	s.c.mu.Lock()
	sc, ok := s.c.scores[k]
	if !ok && weak {
		// a settled strong score answers a weak question too
		if strong, sok := s.c.scores[cacheKey{k.position, action, false}]; sok && strong.b.Exact() {
			c, _ := strong.b.Class()
			sc, ok = cachedScore{b: env.Bounds{Lo: c, Hi: c}}, true
		}
	}
	s.c.mu.Unlock()
	if ok {
		if sc.budget {
			return sc.b, env.ErrBudget
		}
		return sc.b, nil
	}
	b, err := s.x.ScoreMove(ctx, st, action, weak)
	if err == nil || errors.Is(err, env.ErrBudget) {
		s.c.mu.Lock()
		s.c.scores[k] = cachedScore{b, err != nil}
		s.c.mu.Unlock()
	}
	return b, err
}
