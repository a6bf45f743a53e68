package registry

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// Solver is a game's exact solver as the tools that judge play see it
// (solve, sets, accuracy, the solver player, the web app's verdicts).
// The solver's own package registers it (RegisterSolver, in its init),
// never the game's: exact solvers judge play and never teach it, so a
// game's rules do not import its solver, and package solver names the
// solvers' packages in one line each (solver/all.go). A game has one of
// the two kinds: New (it solves positions when asked) or Tables (it is
// solved into table files first).
type Solver struct {
	// Scale says what the solver's scores mean, in a sentence: for people,
	// and for the header of position set files.
	Scale string
	// MaxScore is the largest score on Scale (of a win, the negative of a
	// loss), for checking scores read from files (0: not said).
	MaxScore int
	// PliesToEnd, when set, is how many plies from st a game with best
	// play lasts, given an exact score on Scale of st (or of one of its
	// moves, from the side to move's point of view): to the winning ply.
	// ok is false for a draw.
	PliesToEnd func(st env.State, score int) (plies int, ok bool)

	// New, for a game that solves its positions when asked (Connect
	// Four's search), returns an exact solver of g's positions, one per
	// goroutine, with a table of about tableMB megabytes (0: the
	// default) and a budget of nodes for each move's score (0: none; a
	// move it does not settle gets env.ErrBudget).
	New func(g env.Game, tableMB int, nodes uint64) env.ExactSolver
	// ReadPosition, with New, reads a position as the solver's users
	// write it, for solve to score a line at a time (Connect Four also
	// reads the columns played, 4453); it refuses a finished game,
	// saying why. Without it, solve reads the game's one-line form, and
	// "-" for the start.
	ReadPosition func(text string) (env.State, error)

	// Tables, for a game solved into table files (Slider's boards).
	Tables *Tables
}

// Tables are how a game solved into table files solves and reads them.
type Tables struct {
	// Solve solves the one configuration of g (a game that draws its
	// set-up, such as random layouts, is refused) into a table; progress,
	// when set, hears of the work done out of the total.
	Solve func(ctx context.Context, g env.Game, progress func(done, total int64)) (Table, error)
	// Read loads a table file, refusing with a one-line error a file
	// that is not a table or is corrupt.
	Read func(path string) (Table, error)
	// Auto is the table that measures the runs of g when their
	// configuration asks for one "auto": an error (a note for the run's
	// log) when g's tables are out of reach.
	Auto func(g env.Game) (Auto, error)
	// Settings are the game's settings that choose a table (Slider: its
	// size and blocked cells), as solve takes them: flags of its own
	// help and default, checked as the game's settings are.
	Settings []Option
}

// Auto names the table a run is measured on.
type Auto struct {
	// Game is the configuration to solve.
	Game env.Game
	// File is the table's file name, without directory or extension.
	File string
	// Title names the configuration in a note ("the 4x4 board"), and
	// Cost says what solving it takes ("about two minutes on 5x5").
	Title, Cost string
}

// Table is a solved configuration of a game: the exact value of every
// position on it (env.ExactSolver, on the solver's Scale). It is safe for
// concurrent use.
type Table interface {
	env.ExactSolver
	// Game is the game of the table's positions.
	Game() env.Game
	// Describe names the configuration in one line.
	Describe() string
	// Covers reports, as an error that says why not, whether a position
	// is on the table.
	Covers(s env.State) error
	// Plays reports whether every game of g is played on the table (a
	// perfect player's condition).
	Plays(g env.Game) bool
	// Measures reports, as an error that says why not, whether the runs
	// of g play games on the table (some of them, when g draws its
	// set-up): whether the table measures them.
	Measures(g env.Game) error
	// Starts are the table's starting positions, one for each side
	// moving first.
	Starts() []env.State
	// DrawPosition draws a position uniformly from the table's positions
	// whose game is not over, with its ply count at 0.
	DrawPosition(rng *rand.Rand) env.State
	// BestMove is a perfect move: the quickest win, else a draw, else
	// the slowest loss, a random choice (from rng) among equal ones.
	BestMove(s env.State, rng *rand.Rand) (int, error)
	// PositionSets are the named lists of positions in the one-line form
	// kept with the table (package accuracy builds them): the table's
	// own map.
	PositionSets() map[string][]string
	// Summary says in a few lines what the table holds, for a person.
	Summary() string
	// Verify checks every entry against its moves, and returns how many
	// it checked.
	Verify(ctx context.Context) (int64, error)
	// Write saves the table atomically.
	Write(path string) error
}

var solvers = map[string]Solver{}

// RegisterSolver adds the exact solver of the named game; a second
// solver of a game, or one of neither kind or both, is a mistake in the
// program, and panics.
func RegisterSolver(game string, s Solver) {
	mu.Lock()
	defer mu.Unlock()
	name := strings.ToLower(game)
	if _, dup := solvers[name]; dup || name == "" || (s.New == nil) == (s.Tables == nil) {
		panic(fmt.Sprintf("registry: the solver of %q registered twice, or not of one kind (New or Tables)", game))
	}
	if t := s.Tables; t != nil && (t.Solve == nil || t.Read == nil) {
		panic(fmt.Sprintf("registry: the tables of %q need Solve and Read", game))
	}
	solvers[name] = s
}

// SolverOf is the named game's exact solver; ok is false when the game
// has none.
func SolverOf(game string) (s Solver, ok bool) {
	mu.RLock()
	defer mu.RUnlock()
	s, ok = solvers[strings.ToLower(game)]
	return s, ok
}

// Solved lists the games with an exact solver, in Names' order.
func Solved() []string {
	mu.RLock()
	defer mu.RUnlock()
	var out []string
	for _, n := range namesLocked() {
		if _, ok := solvers[n]; ok {
			out = append(out, n)
		}
	}
	// solvers of games not registered (in tests) come last
	var rest []string
	for n := range solvers {
		if _, ok := games[n]; !ok {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
