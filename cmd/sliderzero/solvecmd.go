package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/solver"
)

const solveAbout = `Solves positions exactly, for judging players (sliderzero accuracy, sets,
the solver players, the training ladder); training never learns from it.
--game chooses the game: slider (the default) or connect4.

Slider (--game slider): solves a small board by retrograde analysis into a
table file (--out, required): the value (win, draw or loss for the side to
move) and the distance to the end in plies (shortest win, longest loss) of
every position, either side to move, with no ply cap; positions neither
side can force are draws. The file also keeps two sets of critical
positions (where some legal move gives away the value), --positions each:
from real games between baseline players, and drawn uniformly from every
position. On two cores: 4x4 in well under a second; 5x5 in about a
minute, with about 0.5 GB of memory and a 60 MB file. 6x6 is out of reach
(about 10^11 positions). --verify then checks every entry against its
moves.

Connect Four (--game connect4, 7x6): reads positions, one a line, from
--in (default standard input) and writes each one's exact score and every
column's, by the search solver of env/connect4/solve. A position is
  the columns played from the empty board as digits 1 to 7: 4453
  the same as the game's moves, letters a to g, maybe spaced: ddec, d d e c
  the game's one-line form: ......./......./......./......./......./...X... O
  - for the empty board.
Blank lines and lines starting with # are skipped (they get no output
line). Each position gets one output line, in input order, its fields
separated by tabs: the position as given; its score for the side to move;
the score of playing each column 1 to 7, separated by spaces, - for a full
column:
  4453	-2	-4 -3 -2 -2 -3 -4 -5
Scores: 0 a draw; a win scores the winner's discs left unplayed after its
winning disc, plus one (18 for the fastest win, 1 for a win with the last
disc); a loss scores the negative. --weak answers only 1, 0 or -1, faster.
When --time cuts a position, its scores are bounds, lo..hi, and a fourth
field says timeout. A bad line (malformed, an illegal move, a finished
game) gets the line, error and the reason, on standard output and on
standard error, and the command exits with status 1 once every other line
is answered. The table (--table-mb) is kept from one position to the next:
positions of one game solve faster in order. Positions late in the game
solve in microseconds, middle-game ones in milliseconds; the first moves
can take minutes (give --time). --out is written to a temporary name and
renamed into place when all is done.

Examples:
  sliderzero solve --size 5 --out checkpoints/tables/slider-5x5.table
  echo 4453 | sliderzero solve --game connect4
  sliderzero solve --game connect4 --in positions.txt --out scores.txt --time 10s`

// solveFlags are the flags each game's solve takes (the rest are
// refused).
var solveFlags = map[string][]string{
	"slider":   {"size", "blocked", "verify", "positions", "games-per-pair", "seed", "parallel"},
	"connect4": {"in", "time", "weak", "table-mb"},
}

func runSolve(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	gameName := fs.String("game", "slider", "the game: slider (a board's table) or connect4 (positions read from --in)")
	size := fs.Int("size", 5, "slider: board size (3 to 5 in practice)")
	blockedFlag := fs.String("blocked", "none", "slider: blocked cells: none, or a list such as c3,d4 (one table per layout)")
	out := fs.String("out", "", "slider: the table file to write (required); connect4: the results (default: standard output)")
	verify := fs.Bool("verify", false, "slider: check every entry against its moves after solving")
	positions := fs.Int("positions", 1000, "slider: critical positions in each set (0: no sets, just the values)")
	gamesPerPair := fs.Int("games-per-pair", 6, "slider: real games per ordered pair of baselines")
	seed := fs.Uint64("seed", 1, "slider: seed of the baselines' games and of the random positions")
	parallel := fs.Int("parallel", runtime.NumCPU(), "slider: games played at once")
	in := fs.String("in", "", "connect4: the positions, one a line (default: standard input)")
	limit := fs.Duration("time", 0, "connect4: time for each position, such as 10s; a position cut short gets bounds (0: no limit)")
	weak := fs.Bool("weak", false, "connect4: only win (1), draw (0) or loss (-1), faster")
	tableMB := fs.Int("table-mb", 180, "connect4: the transposition table's memory in MB")
	if err := parseFlags(fs, args, io, solveAbout); err != nil {
		return ignoreHelp(err)
	}
	game := strings.ToLower(*gameName)
	if _, ok := solveFlags[game]; !ok {
		if _, err := games.Options(game); err != nil {
			return fmt.Errorf("solve: %w", err)
		}
		return usageError{fmt.Errorf("solve: --game %s: solve solves slider (into a table) and connect4 (positions); see sliderzero prove for the others", game)}
	}
	var misplaced error
	fs.Visit(func(f *flag.Flag) {
		for g, names := range solveFlags {
			if g != game && slices.Contains(names, f.Name) && misplaced == nil {
				misplaced = fmt.Errorf("solve: --%s applies to --game %s, not %s", f.Name, g, game)
			}
		}
	})
	if misplaced != nil {
		return misplaced
	}
	if game == "connect4" {
		return solveConnect4(ctx, io, c4Options{in: *in, out: *out, limit: *limit, weak: *weak, tableMB: *tableMB})
	}
	if *out == "" {
		return usageError{fmt.Errorf("solve: --out FILE is required")}
	}
	if err := checkWritable(*out); err != nil {
		return err
	}
	cells, random, err := slider.ParseBlocked(*blockedFlag)
	if err != nil {
		return fmt.Errorf("--blocked: %w", err)
	}
	if random {
		return fmt.Errorf("--blocked random: a table covers one layout; give the cells, or none")
	}
	if *positions < 0 || *parallel < 1 || *gamesPerPair < 1 {
		return usageError{fmt.Errorf("solve: --positions must not be negative, --games-per-pair and --parallel must be at least 1")}
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

// maxLineBytes bounds an input line: a position's longest form is under
// 100 bytes, and a longer line is answered as a bad one without being
// kept whole.
const maxLineBytes = 4096

// roundDuration keeps three significant digits of a duration.
func roundDuration(d time.Duration) time.Duration {
	unit := time.Duration(1)
	for d/unit >= 1000 {
		unit *= 10
	}
	return d.Round(unit)
}
