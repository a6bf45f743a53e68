// Package solver serves the games' exact solvers to the tools that judge
// play: position sets and accuracy, the solver's perfect players, solve's
// scored positions and the web app's verdicts. Each game's solver lives
// in the game's own directory (env/connect4/solve, env/slider/solve) and
// registers itself (registry.Solver); all.go imports them, and the tools
// ask here what a game's solver can do, never naming a game.
//
// The solvers judge play; they never teach it. Training, search and the
// network (the packages under train, mcts and model) must not import
// this package nor any solver (boundary_test.go).
package solver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

// Exact returns a new exact solver for g (one per goroutine: they are not
// safe for concurrent use) with a table of about tableMB megabytes (0:
// the default), and what its scores mean. A game solved into tables
// needs its table (ReadTable).
func Exact(g env.Game, tableMB int) (env.ExactSolver, string, error) {
	return ExactWithBudget(g, tableMB, 0)
}

// ExactWithBudget is Exact with a budget of nodes for each move's score
// (0: none): a move it does not settle gets env.ErrBudget. Unlike a time
// limit, a budget gives the same answers on every machine.
func ExactWithBudget(g env.Game, tableMB int, nodes uint64) (env.ExactSolver, string, error) {
	s, ok := registry.SolverOf(g.Name())
	if !ok || s.New == nil {
		note := ""
		if t := Titles(Tabled); t != "" {
			note = " (" + t + " is solved into tables: sliderzero solve)"
		}
		return nil, "", fmt.Errorf("%s has no exact solver that needs no table%s", g.Name(), note)
	}
	if tableMB < 0 || tableMB > MaxTableMB() {
		return nil, "", fmt.Errorf("a solver table of %d MB: want 0 (the default) to %d (a quarter of this machine's memory)", tableMB, MaxTableMB())
	}
	return s.New(g, tableMB, nodes), s.Scale, nil
}

// Solvable reports whether Exact has a solver for g: g's positions are
// solved when asked.
func Solvable(g env.Game) bool { return Searched(g.Name()) }

// Searched reports whether the named game's positions are solved when
// asked (registry.Solver.New).
func Searched(game string) bool {
	s, ok := registry.SolverOf(game)
	return ok && s.New != nil
}

// Tabled reports whether the named game is solved into tables
// (registry.Solver.Tables).
func Tabled(game string) bool {
	s, ok := registry.SolverOf(game)
	return ok && s.Tables != nil
}

// Scale says what the scores of g's exact solver mean ("" when g has
// none).
func Scale(g env.Game) string {
	s, _ := registry.SolverOf(g.Name())
	return s.Scale
}

// Titles names the games of one kind (Searched or Tabled) for people:
// "Connect Four", "Slider and ...".
func Titles(kind func(game string) bool) string {
	var out []string
	for _, name := range registry.Solved() {
		if !kind(name) {
			continue
		}
		title := name
		if g, err := registry.Lookup(name); err == nil && g.Title != "" {
			title = g.Title
		}
		out = append(out, title)
	}
	if len(out) > 1 {
		return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
	}
	return strings.Join(out, "")
}

// ReadTable loads a table file of any game solved into tables: the
// table of the first game whose tables read it, else the first error.
func ReadTable(path string) (registry.Table, error) {
	var first error
	for _, name := range registry.Solved() {
		s, _ := registry.SolverOf(name)
		if s.Tables == nil {
			continue
		}
		t, err := s.Tables.Read(path)
		if err == nil {
			return t, nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = fmt.Errorf("%s: no game here is solved into tables", path)
	}
	return nil, first
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
