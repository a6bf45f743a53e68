package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/solver"
)

const solveAbout = `Solves a small Slider board exactly, by retrograde analysis: the value
(win, draw or loss for the side to move) and the distance to the end in
plies (shortest win, longest loss) of every position, either side to move,
with no ply cap; positions neither side can force are draws. The table
judges players (sliderzero accuracy, the solver:table=FILE player, the
training ladder); training never learns from it.

The file also keeps two sets of critical positions (where some legal move
gives away the value), --positions each: from real games between baseline
players, and drawn uniformly from every position.

On two cores: 4x4 in well under a second; 5x5 in about a minute, with
about 0.5 GB of memory and a 60 MB file. 6x6 is out of reach (about 10^11
positions). --verify then checks every entry against its moves.

Example: sliderzero solve --size 5 --out checkpoints/tables/slider-5x5.table`

func runSolve(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	size := fs.Int("size", 5, "board size (3 to 5 in practice)")
	blockedFlag := fs.String("blocked", "none", "blocked cells: none, or a list such as c3,d4 (one table per layout)")
	out := fs.String("out", "", "the table file to write (required)")
	verify := fs.Bool("verify", false, "check every entry against its moves after solving")
	positions := fs.Int("positions", 1000, "critical positions in each set (0: no sets, just the values)")
	gamesPerPair := fs.Int("games-per-pair", 6, "real games per ordered pair of baselines")
	seed := fs.Uint64("seed", 1, "seed of the baselines' games and of the random positions")
	parallel := fs.Int("parallel", runtime.NumCPU(), "games played at once")
	if err := parseFlags(fs, args, io, solveAbout); err != nil {
		return ignoreHelp(err)
	}
	if *out == "" {
		return fmt.Errorf("solve: --out FILE is required")
	}
	cells, random, err := slider.ParseBlocked(*blockedFlag)
	if err != nil {
		return fmt.Errorf("--blocked: %w", err)
	}
	if random {
		return fmt.Errorf("--blocked random: a table covers one layout; give the cells, or none")
	}
	if *positions < 0 || *parallel < 1 || *gamesPerPair < 1 {
		return fmt.Errorf("solve: --positions must not be negative, --games-per-pair and --parallel must be at least 1")
	}
	t0 := time.Now()
	bar := newCountBar(io.err, 1000, "solving")
	last := 0
	tab, err := solver.Solve(ctx, *size, cells, func(done, total int64) {
		now := int(1000 * done / total)
		bar.Add(now - last)
		last = now
	})
	bar.Finish()
	if err != nil {
		return err
	}
	st := tab.Stats()
	fmt.Fprintf(io.out, "%s: %d positions solved in %.1fs\n", tab.Describe(), tab.Positions(), tab.Seconds)
	fmt.Fprintf(io.out, "with both sides on the board: %d wins, %d draws, %d losses for the side to move; longest game %d plies\n",
		st.Wins, st.Draws, st.Losses, st.Longest)
	g := tab.Game()
	start := g.NewState(nil)
	for _, side := range []env.Side{slider.H, slider.V} {
		s, err := g.PositionOn(start.Pieces(slider.H), start.Pieces(slider.V), start.Blocked(), side)
		if err != nil {
			return err
		}
		v, _ := tab.Value(s)
		fmt.Fprintf(io.out, "the start with %s to move: %v for %s\n", g.SideName(side), v, g.SideName(side))
	}
	if *verify {
		t1 := time.Now()
		n, err := tab.Verify(ctx)
		if err != nil {
			return fmt.Errorf("verification failed: %w", err)
		}
		fmt.Fprintf(io.out, "verified: all %d entries agree with their moves (%.1fs)\n", n, time.Since(t1).Seconds())
	}
	if *positions > 0 {
		gbar := newCountBar(io.err, len(accuracy.Baselines)*len(accuracy.Baselines)**gamesPerPair, "baseline games")
		err = accuracy.Build(ctx, tab, accuracy.BuildOptions{Count: *positions, GamesPerPair: *gamesPerPair, Seed: *seed,
			Parallel: *parallel, Progress: func(int, int) { gbar.Add(1) }})
		gbar.Finish()
		if err != nil {
			return err
		}
		for _, name := range accuracy.SetNames {
			fmt.Fprintf(io.out, "position set %s: %d critical positions\n", name, len(tab.Sets[name]))
		}
	}
	if err := tab.Write(*out); err != nil {
		return err
	}
	fmt.Fprintf(io.out, "wrote %s (%.1f MB) in %.1fs in all; peak memory %s\n", *out, fileMB(*out), time.Since(t0).Seconds(), peakMemory())
	return nil
}

// fileMB is a file's size in megabytes, 0 if it cannot be read.
func fileMB(path string) float64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return float64(fi.Size()) / (1 << 20)
}
