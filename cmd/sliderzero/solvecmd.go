package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/solver"
)

const solveAbout = `Solves positions exactly, for judging players (sliderzero accuracy, sets,
the solver players, the training ladder); training never learns from it.
--game chooses the game: slider (the default), or a game whose positions
are solved when asked, read as for Connect Four below (connect4, hex),
with its settings as flags (hex: --size).

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
  44444453	2	-2 -2 2 - -2 1 -1
Scores: 0 a draw; a win scores the winner's discs left unplayed after its
winning disc, plus one (18 for the fastest win, 1 for a win with the last
disc); a loss scores the negative. --weak answers only 1, 0 or -1, faster.
When --time cuts a position, its scores are bounds, lo..hi, and a fourth
field says timeout; an interrupt (Ctrl-C) answers the position being
solved so, the fourth field interrupted, keeps the lines answered (in
--out too) and exits with status 1. A bad line (malformed, an illegal move, a finished
game) gets the line (quoted, with escapes, when it holds control
characters), error and the reason, on standard output and on
standard error, and the command exits with status 1 once every other line
is answered. The table (--table-mb) is kept from one position to the next:
positions of one game solve faster in order. Positions late in the game
solve in microseconds, middle-game ones in milliseconds; the first moves
can take minutes (give --time). --out is written to a temporary name and
renamed into place when all is done.

Examples:
  sliderzero solve --size 5 --out checkpoints/tables/slider-5x5.table
  echo 44444453 | sliderzero solve --game connect4
  sliderzero solve --game connect4 --in positions.txt --out scores.txt --time 10s`

// A game's solver is of one of two kinds (registry.Solver), and solve
// takes the flags of the kind of the game's: those of a game solved into
// tables (its table's settings and these), or those of a game whose
// positions are scored when asked.
var (
	tableFlags    = []string{"verify", "positions", "games-per-pair", "seed", "parallel"}
	positionFlags = []string{"in", "time", "weak", "table-mb"}
)

// solveFlags are the flags the named game's solve takes (the rest are
// refused): its settings (a table's, or the game's own for positions
// solved when asked) and its kind's.
func solveFlags(game string) []string {
	var keys []string
	for _, o := range solveSettings(game) {
		keys = append(keys, o.Key)
	}
	if s, _ := registry.SolverOf(game); s.Tables == nil {
		return append(keys, positionFlags...)
	}
	return append(keys, tableFlags...)
}

// solveSettings are the settings the named game's solve takes as flags:
// those that choose a table, or the game's own.
func solveSettings(game string) []registry.Option {
	if s, _ := registry.SolverOf(game); s.Tables != nil {
		return s.Tables.Settings
	}
	opts, _ := games.Options(game)
	return opts
}

// solverGames lists the games of one kind (solver.Tabled or
// solver.Searched), each with words when given: "slider (into a table)".
func solverGames(kind func(string) bool, words string) []string {
	var out []string
	for _, name := range registry.Solved() {
		if kind(name) {
			out = append(out, strings.TrimSpace(name+" "+words))
		}
	}
	return out
}

// either joins a list as "a, b or c" (and, with and).
func either(list []string, or string) string {
	if len(list) < 2 {
		return strings.Join(list, "")
	}
	return strings.Join(list[:len(list)-1], ", ") + " " + or + " " + list[len(list)-1]
}

// solveOptions are solve's flags.
type solveOptions struct {
	game, out                         string
	verify, force                     bool
	positions, gamesPerPair, parallel *int
	seed                              uint64
	lines                             linesOptions
}

func runSolve(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	o := solveFlagSet(fs)
	if err := parseFlags(fs, args, io, solveAbout); err != nil {
		return ignoreHelp(err)
	}
	game := strings.ToLower(o.game)
	s, ok := registry.SolverOf(game)
	if !ok {
		if _, err := games.Options(game); err != nil {
			return fmt.Errorf("solve: %w", err)
		}
		kinds := append(solverGames(solver.Tabled, "(into a table)"), solverGames(solver.Searched, "(positions)")...)
		return usageError{fmt.Errorf("solve: --game %s: solve solves %s; see sliderzero prove for the others", game, either(kinds, "and"))}
	}
	var misplaced error
	own := solveFlags(game)
	fs.Visit(func(f *flag.Flag) {
		for _, g := range registry.Solved() {
			if g != game && slices.Contains(solveFlags(g), f.Name) && !slices.Contains(own, f.Name) && misplaced == nil {
				misplaced = usageError{fmt.Errorf("solve: --%s applies to --game %s, not %s", f.Name, g, game)}
			}
		}
	})
	if misplaced != nil {
		return misplaced
	}
	if s.Tables == nil {
		o.lines.out, o.lines.force = o.out, o.force
		given := map[string]string{}
		fs.Visit(func(f *flag.Flag) {
			if slices.Contains(own, f.Name) && !slices.Contains(positionFlags, f.Name) && f.Name != "game" {
				given[f.Name] = f.Value.String()
			}
		})
		spec, err := games.Configure(registry.Spec{Name: game}, given)
		if err != nil {
			return usageError{fmt.Errorf("solve: %w", err)}
		}
		return solvePositions(ctx, io, spec, o.lines)
	}
	return solveTable(ctx, io, fs, game, s.Tables, o)
}

// solveFlagSet declares solve's flags, each kind's help naming its games.
func solveFlagSet(fs *flag.FlagSet) *solveOptions {
	var o solveOptions
	tabled, searched := solverGames(solver.Tabled, ""), solverGames(solver.Searched, "")
	tp, sp := either(tabled, "or")+": ", either(searched, "or")+": "
	def := registry.Default()
	if solved := registry.Solved(); len(solved) > 0 {
		def = solved[0]
	}
	kinds := append(solverGames(solver.Tabled, "(a board's table)"), solverGames(solver.Searched, "(positions read from --in)")...)
	fs.StringVar(&o.game, "game", def, "the game: "+either(kinds, "or"))
	declareSolveSettings(fs)
	fs.StringVar(&o.out, "out", "", tp+"the table file to write (required); "+sp+"the results (default: standard output)")
	fs.BoolVar(&o.verify, "verify", false, tp+"check every entry against its moves after solving")
	fs.BoolVar(&o.force, "force", false, "replace the --out file if it exists (never one of the command's inputs)")
	o.positions = rangeVar(fs, "positions", 1000, 0, maxPositions, tp+"critical positions in each set (0: no sets, just the values)")
	o.gamesPerPair = rangeVar(fs, "games-per-pair", 6, 1, maxGames/len(accuracy.Baselines)/len(accuracy.Baselines), tp+"real games per ordered pair of baselines")
	fs.Uint64Var(&o.seed, "seed", 1, tp+"seed of the baselines' games and of the random positions")
	o.parallel = parallelVar(fs, "parallel", runtime.NumCPU(), tp+"games played at once")
	fs.StringVar(&o.lines.in, "in", "", sp+"the positions, one a line (default: standard input)")
	fs.DurationVar(&o.lines.limit, "time", 0, sp+"time for each position, such as 10s; a position cut short gets bounds (0: no limit)")
	fs.BoolVar(&o.lines.weak, "weak", false, sp+"only win (1), draw (0) or loss (-1), faster")
	o.lines.tableMB = tableMBVar(fs, "table-mb", 180, sp+"the transposition table's memory in MB")
	return &o
}

// declareSolveSettings declares a flag for each setting a solved game's
// solve takes (solveSettings), once, with each such game's help; its
// default is the first game's (a table's settings are read from their
// flags, given or not; a game's own only when given).
func declareSolveSettings(fs *flag.FlagSet) {
	var keys []string
	first := map[string]registry.Option{}
	help := map[string][]string{}
	for _, name := range registry.Solved() {
		for _, st := range solveSettings(name) {
			if _, ok := first[st.Key]; !ok {
				keys, first[st.Key] = append(keys, st.Key), st
			}
			help[st.Key] = append(help[st.Key], name+": "+st.Help)
		}
	}
	for _, k := range keys {
		st, h := first[k], strings.Join(help[k], "; ")
		if n, err := strconv.Atoi(st.Default); st.Number() && err == nil {
			fs.Int(k, n, h)
		} else {
			fs.String(k, st.Default, h)
		}
	}
}

// solveTable solves the board the flags describe into a table file, with
// its position sets.
func solveTable(ctx context.Context, io stdio, fs *flag.FlagSet, game string, tables *registry.Tables, o *solveOptions) error {
	if o.out == "" {
		return usageError{fmt.Errorf("solve: --out FILE is required")}
	}
	if err := checkOutput("--out", o.out, o.force); err != nil {
		return err
	}
	spec := registry.Spec{Name: game}
	for _, st := range tables.Settings {
		v := fs.Lookup(st.Key).Value.String()
		if n, err := strconv.Atoi(v); st.Number() && (err != nil || n < st.Min || n > st.Max) {
			return usageError{fmt.Errorf("solve: --%s %s: want a whole number from %d to %d", st.Key, v, st.Min, st.Max)}
		}
		spec = spec.With(st.Key, v)
	}
	g, err := games.New(spec)
	if err != nil {
		// made of the flags alone: a setting out of its range
		return usageError{fmt.Errorf("solve: %w", err)}
	}
	t0 := time.Now()
	bar := newCountBar(io.err, 1000, "solving")
	last := 0
	tab, err := tables.Solve(ctx, g, func(done, total int64) {
		now := int(1000 * done / total)
		bar.Add(now - last)
		last = now
	})
	bar.Finish()
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("solve interrupted while solving the table: nothing written")
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(io.out, tab.Summary())
	if err := verifyAndBuild(ctx, io, tab, o); err != nil && ctx.Err() != nil {
		return fmt.Errorf("solve interrupted after solving the table, while checking it or building its position sets: nothing written")
	} else if err != nil {
		return err
	}
	if err := tab.Write(o.out); err != nil {
		return err
	}
	fmt.Fprintf(io.out, "wrote %s (%.1f MB) in %.1fs in all; peak memory %s\n", o.out, fileMB(o.out), time.Since(t0).Seconds(), peakMemory())
	return nil
}

// verifyAndBuild verifies a solved table when asked, and builds its
// position sets.
func verifyAndBuild(ctx context.Context, io stdio, tab registry.Table, o *solveOptions) error {
	if o.verify {
		t1 := time.Now()
		n, err := tab.Verify(ctx)
		if err != nil {
			return fmt.Errorf("verification failed: %w", err)
		}
		fmt.Fprintf(io.out, "verified: all %d entries agree with their moves (%.1fs)\n", n, time.Since(t1).Seconds())
	}
	if *o.positions == 0 {
		return nil
	}
	gbar := newCountBar(io.err, len(accuracy.Baselines)*len(accuracy.Baselines)**o.gamesPerPair, "baseline games")
	err := accuracy.Build(ctx, tab, accuracy.BuildOptions{Count: *o.positions, GamesPerPair: *o.gamesPerPair, Seed: o.seed,
		Parallel: *o.parallel, Progress: func(int, int) { gbar.Add(1) }})
	gbar.Finish()
	if err != nil {
		return err
	}
	for _, name := range accuracy.SetNames {
		fmt.Fprintf(io.out, "position set %s: %d critical positions\n", name, len(tab.PositionSets()[name]))
	}
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

// roundDuration keeps three significant digits of a duration.
func roundDuration(d time.Duration) time.Duration {
	unit := time.Duration(1)
	for d/unit >= 1000 {
		unit *= 10
	}
	return d.Round(unit)
}
