package main

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

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/evaluate"
)

// tablesDir is where "auto" keeps the tables it solves.
var tablesDir = filepath.Join("checkpoints", "tables")

// maxAutoSize is the largest board "auto" solves: 5x5 takes about a
// minute and half a gigabyte; 6x6 is out of reach.
const maxAutoSize = 5

// setExaminer measures a run's network against perfect play on position
// sets: a Slider table's own two sets, or the set files of a game that
// solves its positions itself.
type setExaminer struct {
	game     env.Game
	sets     []*accuracy.Set
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
		r, err := accuracy.MeasureSet(ctx, x.game, set, newPlayer, accuracy.Options{Limit: x.limit, Seed: x.seed, Parallel: x.parallel})
		if err != nil {
			return nil, err
		}
		lo, hi := r.All.Interval()
		a := evaluate.Accuracy{Set: set.Name, Kept: r.All.Kept, Total: r.All.Total, Lo: lo, Hi: hi,
			WonKept: r.Won.Kept, WonTotal: r.Won.Total, DrawnKept: r.Drawn.Kept, DrawnTotal: r.Drawn.Total,
			SingleKept: r.Single.Kept, SingleTotal: r.Single.Total}
		if x.convert > 0 {
			c, err := accuracy.ConvertSet(ctx, x.game, set, newPlayer, func(seed uint64) (player.Player, error) {
				return x.newDefender(seed), nil
			}, accuracy.Options{Limit: x.convert, Seed: x.seed, Parallel: x.parallel})
			if err != nil {
				return nil, err
			}
			a.Converted, a.Played = c.Kept, c.Total
		}
		out = append(out, a)
	}
	return out, nil
}

// newExaminer builds the examiner a run's configuration asks for, solving
// the table first when "auto" finds none; nil when the run measures no
// accuracy. Notes go to log (nil: nowhere).
func newExaminer(ctx context.Context, cfg train.Config, game env.Game, workers int, log io.Writer) (evaluate.Examiner, error) {
	if log == nil {
		log = io.Discard
	}
	e := cfg.Eval
	if e.Minutes == 0 || e.AccuracyTable == "" {
		return nil, nil
	}
	if solver.Solvable(game) {
		return newSolverExaminer(ctx, cfg, game, workers, log)
	}
	g, ok := slider.Of(game)
	if !ok {
		if e.AccuracyTable != "auto" {
			return nil, fmt.Errorf("eval.accuracy_table: solver tables are for Slider, and the run plays %s", game.Name())
		}
		return nil, nil
	}
	gc := g.Config()
	path := e.AccuracyTable
	if path == "auto" {
		if g.Size() > maxAutoSize {
			fmt.Fprintf(log, "accuracy: no exact table for %dx%d boards (too many positions); measured on boards up to %dx%d\n", g.Size(), g.Size(), maxAutoSize, maxAutoSize)
			return nil, nil
		}
		name := fmt.Sprintf("slider-%dx%d", g.Size(), g.Size())
		if len(gc.Blocked) > 0 && !gc.RandomBlocked {
			name += "-" + slider.FormatCells(gc.Blocked)
		}
		path = filepath.Join(tablesDir, name+".table")
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			if err := solveForRun(ctx, g.Size(), gc, path, workers, log); err != nil {
				return nil, err
			}
		}
	}
	tab, err := solver.Read(path)
	if err != nil {
		return nil, fmt.Errorf("eval.accuracy_table: %w", err)
	}
	if err := tableFits(tab, g); err != nil {
		return nil, fmt.Errorf("eval.accuracy_table %s: %w", path, err)
	}
	x := &setExaminer{game: tab.Game(), limit: e.AccuracyPositions, parallel: workers, seed: cfg.Seed, convert: convertPositions,
		newDefender: func(seed uint64) player.Player {
			return solver.NewPlayer(tab, "solver", rand.New(rand.NewPCG(seed, 0)))
		}}
	for _, name := range accuracy.SetNames {
		set, err := accuracy.TableSet(tab, name)
		if err != nil {
			return nil, fmt.Errorf("eval.accuracy_table %s: %w", path, err)
		}
		x.sets = append(x.sets, set)
	}
	fmt.Fprintf(log, "accuracy: measured at every evaluation against %s (%s)\n", path, tab.Describe())
	return x, nil
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
// a real-game and a random set kept in checkpoints/tables and shared by
// runs, built on first use.
func newSolverExaminer(ctx context.Context, cfg train.Config, g env.Game, workers int, log io.Writer) (evaluate.Examiner, error) {
	e := cfg.Eval
	var paths []string
	if e.AccuracyTable == "auto" {
		for _, from := range []string{accuracy.FromGames, accuracy.FromRandom} {
			path, err := autoSet(ctx, g, from, workers, log)
			if err != nil {
				return nil, err
			}
			paths = append(paths, path)
		}
	} else {
		paths = splitSpecs(e.AccuracyTable)
	}
	x := &setExaminer{game: g, limit: e.AccuracyPositions, parallel: workers, seed: cfg.Seed, convert: convertPositions,
		newDefender: func(seed uint64) player.Player {
			es, _, _ := solver.Exact(g, 32)
			return solver.NewPerfect(es, "solver", defenderTime, rand.New(rand.NewPCG(seed, 0)))
		}}
	for _, path := range paths {
		set, err := accuracy.ReadSetFile(path)
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
	fmt.Fprintf(log, "accuracy: measured at every evaluation on %s\n", strings.Join(paths, ", "))
	return x, nil
}

// autoSet is the path of the game's shared set of one source, built when
// missing. It is named by the game's rules alone: runs that differ only
// in the network's input share it.
func autoSet(ctx context.Context, g env.Game, from string, workers int, log io.Writer) (string, error) {
	name := map[string]string{accuracy.FromGames: accuracy.RealGames, accuracy.FromRandom: accuracy.Random}[from]
	path := filepath.Join(tablesDir, strings.Join(strings.Fields(games.RulesLine(g.Describe())), "-")+"-"+name+".set")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	fmt.Fprintf(log, "accuracy: building the %s set of %s once (%d critical positions, each solved exactly; minutes; saved to %s)\n", name, g.Name(), autoSetCount, path)
	t0 := time.Now()
	set, st, err := accuracy.BuildSet(ctx, g, accuracy.BuildSetOptions{Name: name, From: from, GamesPerPair: 6, Count: autoSetCount,
		Seed: 1, Parallel: max(1, workers), Limit: budgetWords(autoSetNodes, 0),
		NewSolver: func() env.ExactSolver { x, _, _ := solver.ExactWithBudget(g, 64, autoSetNodes); return x }})
	if err != nil {
		return "", fmt.Errorf("building the %s set for accuracy: %w", name, err)
	}
	_, set.Scale, _ = solver.ExactWithBudget(g, 1, 0)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	if err := set.WriteFile(path); err != nil {
		return "", err
	}
	fmt.Fprintf(log, "accuracy: %s written in %s (%d candidates solved, %d skipped)\n", path, time.Since(t0).Round(time.Second), st.Candidates, st.Skipped)
	return path, nil
}

// tableFits checks that a table's board is one the run's games are played
// on: the same size, and its blocked cells are the run's, or, with random
// layouts, a layout the referee's scheme can draw.
func tableFits(tab *solver.Table, g *slider.Game) error {
	if tab.Size() != g.Size() {
		return fmt.Errorf("the table is for %s; the run plays %dx%d", tab.Describe(), g.Size(), g.Size())
	}
	gc := g.Config()
	want := slider.FormatCells(gc.Blocked)
	have := slider.FormatCells(tab.Blocked())
	if gc.RandomBlocked {
		for _, c := range tab.Blocked() {
			if c.X < 1 || c.Y < 1 || c.X > g.Size()-2 || c.Y > g.Size()-2 {
				return fmt.Errorf("the table's blocked cell %s is never blocked by the random layouts", c)
			}
		}
		if len(tab.Blocked()) > 2 {
			return fmt.Errorf("the random layouts block at most 2 cells; the table has %s", have)
		}
		return nil
	}
	if want != have {
		return fmt.Errorf("the table is for %s; the run's blocked cells are %q", tab.Describe(), want)
	}
	return nil
}

// solveForRun makes the table "auto" names, once.
func solveForRun(ctx context.Context, n int, gc slider.Config, path string, workers int, log io.Writer) error {
	var cells []slider.Cell
	if !gc.RandomBlocked {
		cells = gc.Blocked
	}
	fmt.Fprintf(log, "accuracy: solving the %dx%d board once to measure against perfect play (about two minutes on 5x5; saved to %s)\n", n, n, path)
	t0 := time.Now()
	tab, err := solver.Solve(ctx, n, cells, nil)
	if err != nil {
		return fmt.Errorf("solving the table for accuracy: %w", err)
	}
	err = accuracy.Build(ctx, tab, accuracy.BuildOptions{Count: 1000, GamesPerPair: 6, Seed: 1, Parallel: max(1, workers)})
	if err != nil {
		return fmt.Errorf("building the accuracy positions: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := tab.Write(path); err != nil {
		return err
	}
	fmt.Fprintf(log, "accuracy: %s written in %.0fs\n", path, time.Since(t0).Seconds())
	return nil
}
