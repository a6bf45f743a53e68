// The examiner of a training run: its network measured at every
// evaluation against perfect play, on position sets of its game.

package accuracy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/train/evaluate"
)

// ExaminerOptions say what a run measures accuracy on.
type ExaminerOptions struct {
	// Source is the run's eval.accuracy_table as written: a table file
	// (a game solved into tables), set files (a game solved when asked),
	// or "auto"; Files is Source split into files.
	Source string
	Files  []string
	// Positions limits each set to its first N positions (0: all).
	Positions int
	Seed      uint64
	Workers   int
	// Dir is where "auto" keeps the tables and sets it makes, shared by
	// runs (checkpoints/tables).
	Dir string
	// Log hears notes (nil: nowhere).
	Log io.Writer
}

// setExaminer measures a run's network against perfect play on position
// sets: a table's own two sets, or the set files of a game that solves
// its positions when asked.
type setExaminer struct {
	game     env.Game
	sets     []*Set
	limit    int
	parallel int
	seed     uint64
	// convert is the number of won positions of each set played out
	// against the perfect defender that newDefender builds.
	convert     int
	newDefender func(seed uint64) player.Player
}

// convertPositions is how many won positions of each set an evaluation
// plays out: enough to see conversion rise, cheap next to the ladder.
const convertPositions = 100

func (x *setExaminer) Examine(ctx context.Context, newPlayer func(uint64) (player.Player, error)) ([]evaluate.Accuracy, error) {
	var out []evaluate.Accuracy
	for _, set := range x.sets {
		r, err := MeasureSet(ctx, x.game, set, newPlayer, Options{Limit: x.limit, Seed: x.seed, Parallel: x.parallel})
		if err != nil {
			return nil, err
		}
		lo, hi := r.All.Interval()
		a := evaluate.Accuracy{Set: set.Name, Kept: r.All.Kept, Total: r.All.Total, Lo: lo, Hi: hi,
			WonKept: r.Won.Kept, WonTotal: r.Won.Total, DrawnKept: r.Drawn.Kept, DrawnTotal: r.Drawn.Total,
			SingleKept: r.Single.Kept, SingleTotal: r.Single.Total}
		if x.convert > 0 {
			c, err := ConvertSet(ctx, x.game, set, newPlayer, func(seed uint64) (player.Player, error) {
				return x.newDefender(seed), nil
			}, Options{Limit: x.convert, Seed: x.seed, Parallel: x.parallel})
			if err != nil {
				return nil, err
			}
			a.Converted, a.Played = c.Kept, c.Total
		}
		out = append(out, a)
	}
	return out, nil
}

// NewExaminer builds the examiner of a run of g, solving its table or
// building its sets first when "auto" finds none; nil when g's runs are
// not measured (no exact solver, or tables out of reach, with "auto").
func NewExaminer(ctx context.Context, g env.Game, o ExaminerOptions) (evaluate.Examiner, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	s, ok := registry.SolverOf(g.Name())
	switch {
	case ok && s.New != nil:
		return newSolverExaminer(ctx, g, o)
	case ok && s.Tables != nil:
		return newTableExaminer(ctx, g, s.Tables, o)
	case o.Source == "auto":
		return nil, nil
	}
	return nil, fmt.Errorf("eval.accuracy_table: solver tables are for %s, and the run plays %s", solver.Titles(solver.Tabled), g.Name())
}

// newTableExaminer measures on a table's own sets.
func newTableExaminer(ctx context.Context, g env.Game, tables *registry.Tables, o ExaminerOptions) (evaluate.Examiner, error) {
	path := o.Source
	if path == "auto" {
		if tables.Auto == nil {
			return nil, nil
		}
		a, err := tables.Auto(g)
		if err != nil {
			fmt.Fprintf(o.Log, "accuracy: %v\n", err)
			return nil, nil
		}
		path = filepath.Join(o.Dir, a.File+".table")
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			if err := solveForRun(ctx, tables, a, path, o); err != nil {
				return nil, err
			}
		}
	}
	tab, err := tables.Read(path)
	if err != nil {
		return nil, fmt.Errorf("eval.accuracy_table: %w", err)
	}
	if err := tab.Measures(g); err != nil {
		return nil, fmt.Errorf("eval.accuracy_table %s: %w", path, err)
	}
	x := &setExaminer{game: tab.Game(), limit: o.Positions, parallel: o.Workers, seed: o.Seed, convert: convertPositions,
		newDefender: func(seed uint64) player.Player {
			return solver.NewTablePlayer(tab, "solver", rand.New(rand.NewPCG(seed, 0)))
		}}
	for _, name := range SetNames {
		set, err := TableSet(tab, name)
		if err != nil {
			return nil, fmt.Errorf("eval.accuracy_table %s: %w", path, err)
		}
		x.sets = append(x.sets, set)
	}
	fmt.Fprintf(o.Log, "accuracy: measured at every evaluation against %s (%s)\n", path, tab.Describe())
	return x, nil
}

// solveForRun makes the table "auto" names, once.
func solveForRun(ctx context.Context, tables *registry.Tables, a registry.Auto, path string, o ExaminerOptions) error {
	fmt.Fprintf(o.Log, "accuracy: solving %s once to measure against perfect play (%s; saved to %s)\n", a.Title, a.Cost, path)
	t0 := time.Now()
	tab, err := tables.Solve(ctx, a.Game, nil)
	if err != nil {
		return fmt.Errorf("solving the table for accuracy: %w", err)
	}
	err = Build(ctx, tab, BuildOptions{Count: 1000, GamesPerPair: 6, Seed: 1, Parallel: max(1, o.Workers)})
	if err != nil {
		return fmt.Errorf("building the accuracy positions: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := tab.Write(path); err != nil {
		return err
	}
	fmt.Fprintf(o.Log, "accuracy: %s written in %.0fs\n", path, time.Since(t0).Seconds())
	return nil
}

// Sets of games that solve their own positions: how "auto" builds them.
const (
	autoSetCount = 1000
	// autoSetNodes bounds the solver on each move of a candidate: an
	// early position it does not settle is left out of the set.
	autoSetNodes = 10_000_000
	// defenderTime bounds the perfect defender's move in conversion.
	defenderTime = 2 * time.Second
)

// newSolverExaminer measures against the game's own exact solver, on set
// files: those eval.accuracy_table names (separated by ;), or with "auto"
// a real-game and a random set kept in Dir and shared by runs, built on
// first use.
func newSolverExaminer(ctx context.Context, g env.Game, o ExaminerOptions) (evaluate.Examiner, error) {
	paths := o.Files
	if o.Source == "auto" {
		paths = nil
		for _, from := range []string{FromGames, FromRandom} {
			path, err := autoSet(ctx, g, from, o)
			if err != nil {
				return nil, err
			}
			paths = append(paths, path)
		}
	}
	x := &setExaminer{game: g, limit: o.Positions, parallel: o.Workers, seed: o.Seed, convert: convertPositions,
		newDefender: func(seed uint64) player.Player {
			es, _, _ := solver.Exact(g, 32)
			return solver.NewPerfect(es, "solver", defenderTime, rand.New(rand.NewPCG(seed, 0)))
		}}
	for _, path := range paths {
		set, err := ReadSetFile(path)
		if err != nil {
			return nil, fmt.Errorf("eval.accuracy_table: %w", err)
		}
		if games.RulesLine(set.Game) != games.RulesLine(g.Describe()) {
			return nil, fmt.Errorf("eval.accuracy_table %s is a set of %s; the run plays %s", path, set.Game, g.Describe())
		}
		if err := set.Check(g); err != nil {
			return nil, fmt.Errorf("eval.accuracy_table %s: %w", path, err)
		}
		x.sets = append(x.sets, set)
	}
	fmt.Fprintf(o.Log, "accuracy: measured at every evaluation on %s\n", strings.Join(paths, ", "))
	return x, nil
}

// autoSet is the path of the game's shared set of one source, built when
// missing. It is named by the game's rules alone: runs that differ only
// in the network's input share it.
func autoSet(ctx context.Context, g env.Game, from string, o ExaminerOptions) (string, error) {
	name := map[string]string{FromGames: RealGames, FromRandom: Random}[from]
	path := filepath.Join(o.Dir, strings.Join(strings.Fields(games.RulesLine(g.Describe())), "-")+"-"+name+".set")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	fmt.Fprintf(o.Log, "accuracy: building the %s set of %s once (%d critical positions, each solved exactly; minutes; saved to %s)\n", name, g.Name(), autoSetCount, path)
	t0 := time.Now()
	set, st, err := BuildSet(ctx, g, BuildSetOptions{Name: name, From: from, GamesPerPair: 6, Count: autoSetCount,
		Seed: 1, Parallel: max(1, o.Workers), Limit: BudgetWords(autoSetNodes, 0),
		NewSolver: func() env.ExactSolver { x, _, _ := solver.ExactWithBudget(g, 64, autoSetNodes); return x }})
	if err != nil {
		return "", fmt.Errorf("building the %s set for accuracy: %w", name, err)
	}
	set.Scale = solver.Scale(g)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	if err := set.WriteFile(path); err != nil {
		return "", err
	}
	fmt.Fprintf(o.Log, "accuracy: %s written in %s (%d candidates solved, %d skipped)\n", path, time.Since(t0).Round(time.Second), st.Candidates, st.Skipped)
	return path, nil
}

// BudgetWords says what limits the solver on a position, for a set's
// header: nodes a move, time a position, or no limit.
func BudgetWords(nodes uint64, limit time.Duration) string {
	var parts []string
	if nodes > 0 {
		parts = append(parts, fmt.Sprintf("%d nodes a move", nodes))
	}
	if limit > 0 {
		parts = append(parts, limit.String()+" a position")
	}
	if len(parts) == 0 {
		return "no limit"
	}
	return strings.Join(parts, " and ")
}
