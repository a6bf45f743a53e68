package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
)

const setsAbout = `Writes a position set: critical positions (where some legal move gives
away the exact value: turns a win into a draw or a loss, or a draw into a
loss) with the exact score of every legal move, as a text file that
sliderzero accuracy --set judges any player on. Every game with an exact
solver has sets: Connect Four solves its positions itself; Slider reads
them from a solved table (--table, made by sliderzero solve).

--from selfplay plays games between --players (every ordered pair, each
player against itself included, --games-per-pair games each) and draws
from their distinct positions; --from random plays random games and draws
one position from each. Candidates are solved in a seeded random order
until --count critical ones are found. A position the solver does not
settle within --nodes nodes a move (or --time) is skipped and counted in
the file's header: early Connect Four positions can take minutes, and a
node budget, unlike a time, gives the same set on every machine;
--min-ply skips the opening.

The file: "# key: value" header lines (name, game, scale, from), then one
line a position, tab-separated: the position in the game's one-line form,
its score, and every legal move as move:score, separated by spaces.
Scores are on the solver's scale, written in the header: positive a win
for the side to move, 0 a draw, negative a loss, larger always better.

Examples:
  sliderzero sets --game connect4 --from selfplay --count 1000 --min-ply 8 --out c4-real.set
  sliderzero sets --game connect4 --from random --count 1000 --out c4-random.set
  sliderzero sets --table t5.table --from random --count 500 --out slider5-random.set
  sliderzero accuracy --set c4-real.set --player "alphabeta:time=0.1"`

// setsFlags are sets' flags.
type setsFlags struct {
	gf                                  gameFlags
	from, players, tablePath, name, out *string
	count, gamesPerPair, minPly, mb     *int
	parallel                            *int
	limit                               *time.Duration
	nodes, seed                         *uint64
	force                               *bool
}

func (f *setsFlags) register(fs *flag.FlagSet) {
	f.gf.register(fs, false)
	f.from = fs.String("from", accuracy.FromGames, "where positions come from: selfplay (games between --players) or random (random playouts)")
	f.count = rangeVar(fs, "count", 1000, 1, maxPositions, "critical positions in the set")
	f.players = fs.String("players", "", "with --from selfplay: player specs separated by ; (default: the baselines random, greedy, alpha-beta at depths 2, 4 and 8, mcts:sims=300)")
	f.gamesPerPair = rangeVar(fs, "games-per-pair", 6, 1, maxGames, "with --from selfplay: games each ordered pair of players plays; the games in all at most 1000000")
	f.minPly = countVar(fs, "min-ply", 0, "skip positions with fewer plies played")
	f.limit = fs.Duration("time", 0, "the solver's time on one position; a position not settled in it is skipped (0: no limit)")
	f.nodes = fs.Uint64("nodes", 10_000_000, "the solver's nodes for one move's score (games that solve positions themselves); a position not settled within them is skipped (0: no limit; at most 10^12)")
	f.tablePath = fs.String("table", "", "Slider: the solved table (sliderzero solve) that scores the positions")
	f.mb = tableMBVar(fs, "mb", 64, "memory of each worker's solver table, in MB (games that solve positions themselves); the workers' tables together at most the bound")
	f.seed = fs.Uint64("seed", 1, "seed of the games, the playouts and the sample")
	f.parallel = parallelVar(fs, "parallel", runtime.NumCPU(), "positions solved (and games played) at once")
	f.name = fs.String("name", "", "the set's name in reports (default: real-games for selfplay, random for random)")
	f.out = fs.String("out", "", "the set file to write (required)")
	f.force = forceVar(fs)
}

// check refuses values out of their bounds, or that do not go together,
// and an output that cannot or must not be written.
func (f *setsFlags) check() error {
	switch {
	case *f.out == "":
		return usageError{fmt.Errorf("sets: --out FILE is required")}
	case *f.nodes > solver.MaxNodes:
		return usageError{fmt.Errorf("sets: --nodes %d: want 0 (no limit) to %d", *f.nodes, uint64(solver.MaxNodes))}
	case *f.tablePath == "" && *f.mb**f.parallel > solver.MaxTableMB():
		return usageError{fmt.Errorf("sets: --mb %d times --parallel %d is %d MB of solver tables; at most %d (%s)", *f.mb, *f.parallel, *f.mb**f.parallel, solver.MaxTableMB(), memoryWhy)}
	case *f.from != accuracy.FromGames && *f.from != accuracy.FromRandom:
		return usageError{fmt.Errorf("sets: --from %s: want selfplay or random", env.Quote(*f.from))}
	}
	if err := checkSeconds("sets", "--time", *f.limit); err != nil {
		return err
	}
	specs := splitSpecs(*f.players)
	if strings.TrimSpace(*f.players) != "" && len(specs) == 0 {
		return usageError{fmt.Errorf("sets: --players %s names no player", env.Quote(*f.players))}
	}
	n := len(specs)
	if n == 0 {
		n = len(accuracy.Baselines)
	}
	if n*n > maxGames / *f.gamesPerPair {
		return tooMany("sets", fmt.Sprintf("--games-per-pair %d with %d players", *f.gamesPerPair, n), n*n**f.gamesPerPair, maxGames, "games")
	}
	return checkOutput("--out", *f.out, *f.force, append(specFiles(specs...), *f.tablePath)...)
}

func runSets(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("sets", flag.ContinueOnError)
	var f setsFlags
	f.register(fs)
	if err := parseFlags(fs, args, io, setsAbout); err != nil {
		return ignoreHelp(err)
	}
	if err := f.check(); err != nil {
		return err
	}
	tabs := new(tables)
	g, newSolver, scale, err := setsSolver(tabs, &f.gf, *f.tablePath, *f.mb, *f.nodes)
	if err != nil {
		return err
	}
	if *f.name == "" {
		*f.name = map[string]string{accuracy.FromGames: accuracy.RealGames, accuracy.FromRandom: accuracy.Random}[*f.from]
	}
	setups, err := readPlayers(tabs.players(), "--players", splitSpecs(*f.players), g, player.Options{})
	if err != nil {
		return err
	}
	bar := newCountBar(io.err, *f.count, "critical positions")
	found := 0
	t0 := time.Now()
	budget := accuracy.BudgetWords(*f.nodes, *f.limit)
	set, st, err := accuracy.BuildSet(ctx, g, accuracy.BuildSetOptions{Name: *f.name, From: *f.from, Players: setups,
		GamesPerPair: *f.gamesPerPair, Count: *f.count, MinPly: *f.minPly, Time: *f.limit, Seed: *f.seed, Parallel: *f.parallel,
		NewSolver: newSolver, Scale: scale, Limit: budget, Progress: func(done, _ int) {
			bar.Add(done - found)
			found = done
		}})
	bar.Finish()
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("sets interrupted: nothing written (a set is written whole)")
	}
	if err != nil {
		return err
	}
	return writeSet(io.out, *f.out, set, st, g, *f.count, budget, t0)
}

// writeSet writes a set's file and says what it holds and what building
// it met.
func writeSet(w io.Writer, out string, set *accuracy.Set, st accuracy.BuildStats, g env.Game, count int, budget string, t0 time.Time) error {
	if err := set.WriteFile(out); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %d critical positions of %s (%s) in %s\n", out, len(set.Entries), g.Describe(), set.Name, time.Since(t0).Round(time.Second))
	fmt.Fprintf(w, "%d candidate positions: %d solved (%d of them critical), %d skipped (not settled within %s)\n", st.Candidates+st.Skipped, st.Candidates, st.Critical, st.Skipped, budget)
	if len(set.Entries) < count {
		fmt.Fprintf(w, "fewer than the %d asked: the sources ran out of distinct critical positions; play more games (--games-per-pair) or lower --min-ply\n", count)
	}
	return nil
}

// setsSolver is the game a set is made of and its exact solver: a
// table's (--table), or the game's own (the game flags) with a table of mb
// megabytes and a budget of nodes a move.
func setsSolver(tabs *tables, gf *gameFlags, tablePath string, mb int, nodes uint64) (env.Game, func() env.ExactSolver, string, error) {
	if tablePath != "" {
		tab, err := tabs.Table(tablePath)
		if err != nil {
			return nil, nil, "", err
		}
		return tab.Game(), func() env.ExactSolver { return tab }, solver.Scale(tab.Game()), nil
	}
	g, err := gf.build()
	if err != nil {
		return nil, nil, "", err
	}
	_, scale, err := solver.ExactWithBudget(g, 1, 0)
	if err != nil {
		return nil, nil, "", fmt.Errorf("sets: %w", err)
	}
	return g, func() env.ExactSolver {
		x, _, _ := solver.ExactWithBudget(g, mb, nodes)
		return x
	}, scale, nil
}
