package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
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

// tableExaminer measures a run's network against perfect play.
type tableExaminer struct {
	tab      *solver.Table
	limit    int
	parallel int
	seed     uint64
	// convert is the number of won positions of each set played out
	// against the perfect defender.
	convert int
}

// convertPositions is how many won positions of each set an evaluation
// plays out: enough to see conversion rise, cheap next to the ladder.
const convertPositions = 100

func (x *tableExaminer) Examine(ctx context.Context, newPlayer func(uint64) (player.Player, error)) ([]evaluate.Accuracy, error) {
	var out []evaluate.Accuracy
	for _, set := range accuracy.SetNames {
		r, err := accuracy.Measure(ctx, x.tab, set, newPlayer, accuracy.Options{Limit: x.limit, Seed: x.seed, Parallel: x.parallel})
		if err != nil {
			return nil, err
		}
		lo, hi := r.All.Interval()
		a := evaluate.Accuracy{Set: set, Kept: r.All.Kept, Total: r.All.Total, Lo: lo, Hi: hi,
			WonKept: r.Won.Kept, WonTotal: r.Won.Total, DrawnKept: r.Drawn.Kept, DrawnTotal: r.Drawn.Total}
		if x.convert > 0 {
			c, err := accuracy.Convert(ctx, x.tab, set, newPlayer, func(seed uint64) (player.Player, error) {
				return solver.NewPlayer(x.tab, "solver", rand.New(rand.NewPCG(seed, 0))), nil
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
	g, ok := game.(*slider.Game)
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
	fmt.Fprintf(log, "accuracy: measured at every evaluation against %s (%s)\n", path, tab.Describe())
	return &tableExaminer{tab: tab, limit: e.AccuracyPositions, parallel: workers, seed: cfg.Seed, convert: convertPositions}, nil
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
