package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/rating"
)

const matchAbout = `Plays games between players A and B, alternating colours: A plays the
first side in odd-numbered games (1, 3, ...). With --blocked random, each
pair of games shares one layout with the colours swapped. Each game's
players get seeds derived from --seed and the game's number, so the results
do not depend on --parallel.

It prints wins, ties and losses per colour, A's score, the Elo difference
with its 95% interval and the likelihood of superiority, and saves every
game to --records (one JSON line each; watch one with sliderzero replay).
--sprt stops as soon as a sequential probability ratio test decides between
two Elo differences, e.g. --sprt 0,50 (alpha = beta = 0.05).

Example: sliderzero match --a alphabeta:depth=4 --b mcts:sims=1000 --games 100 --size 6

` + player.Help

func runMatch(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs, "none", "H")
	specA := fs.String("a", "alphabeta", "player spec of A")
	specB := fs.String("b", "random", "player spec of B")
	games := fs.Int("games", 20, "number of games (at most, with --sprt)")
	seed := fs.Uint64("seed", 1, "seed of the players and of random blocked cells")
	parallel := fs.Int("parallel", runtime.NumCPU(), "games played at once")
	movetime := fs.String("movetime", "", "time per move for both players, in seconds (overrides their specs' budgets)")
	rep := fs.Int("repetition", 0, "tie when a position occurs more than this many times (0: off)")
	records := fs.String("records", "", "file to save the games to (default: none)")
	sprt := fs.String("sprt", "", "stop early by an SPRT between two Elo differences of A over B, e.g. 0,50")
	appendTo := fs.Bool("append", false, "add the games to the --records file instead of refusing to overwrite it")
	if err := parseFlags(fs, args, io, matchAbout); err != nil {
		return ignoreHelp(err)
	}
	if err := checkRecords(*records, *appendTo); err != nil {
		return err
	}
	g, err := gf.build()
	if err != nil {
		return err
	}
	if *games < 1 {
		return fmt.Errorf("--games %d: want at least 1", *games)
	}
	if *parallel < 1 {
		return fmt.Errorf("--parallel %d: want at least 1", *parallel)
	}
	a, b := *specA, *specB
	if *movetime != "" {
		if _, err := player.ParseSeconds(*movetime); err != nil {
			return fmt.Errorf("--movetime: %w", err)
		}
		if a, err = withBudget(a, "time", *movetime); err != nil {
			return fmt.Errorf("--a: %w", err)
		}
		if b, err = withBudget(b, "time", *movetime); err != nil {
			return fmt.Errorf("--b: %w", err)
		}
	}
	s := match.Series{Spec: gf.spec, A: a, B: b, Games: *games, Seed: *seed, Parallel: *parallel,
		Options: match.Options{RepetitionLimit: *rep}, Factory: new(tables).factory()}
	if *sprt != "" {
		var e0, e1 float64
		if _, err := fmt.Sscanf(*sprt, "%g,%g", &e0, &e1); err != nil || e0 >= e1 {
			return fmt.Errorf("--sprt %q: want two Elo differences, the lower first, e.g. 0,50", *sprt)
		}
		s.SPRT = &rating.SPRT{Elo0: e0, Elo1: e1, Alpha: 0.05, Beta: 0.05}
	}
	bar := newCountBar(io.err, *games, "games")
	s.OnGame = func(int, match.Record) { bar.Add(1) }
	res, err := s.Run(ctx)
	bar.Finish()
	if err != nil {
		return err
	}
	if *records != "" {
		if err := saveRecords(*records, *appendTo, res.Records); err != nil {
			return err
		}
	}
	printScore(io, g, a, b, res)
	if *records != "" {
		fmt.Fprintf(io.out, "games saved to %s\n", *records)
	}
	return nil
}

// withBudget sets a budget on a spec string.
func withBudget(spec, budget, value string) (string, error) {
	sp, err := player.ParseSpec(spec)
	if err != nil {
		return "", err
	}
	return sp.WithBudget(budget, value).String(), nil
}

// printScore prints A's wins, ties and losses per colour, its score, the
// Elo difference with its interval, and the likelihood of superiority.
func printScore(io stdio, g env.Game, specA, specB string, res match.SeriesResult) {
	plies := 0
	for _, r := range res.Records {
		plies += len(r.Moves)
	}
	n := len(res.Records)
	fmt.Fprintf(io.out, "%s\nA = %s\nB = %s\n%d games, %.1f plies a game\n\n", g.Describe(), player.DisplayName(specA), player.DisplayName(specB), n, float64(plies)/float64(max(n, 1)))
	fmt.Fprintf(io.out, "%-10s %6s %6s %6s\n", "", "wins", "ties", "losses")
	for side := env.Side(0); side < 2; side++ {
		r := res.ByColour[side]
		fmt.Fprintf(io.out, "%-10s %6d %6d %6d\n", "A as "+g.SideName(side), r.Wins, r.Ties, r.Losses)
	}
	t := res.Total()
	fmt.Fprintf(io.out, "%-10s %6d %6d %6d\n\n", "total", t.Wins, t.Ties, t.Losses)
	fmt.Fprintf(io.out, "score of A: %.1f%%, %s, likelihood of superiority %.1f%%\n", 100*t.Score(), t, 100*t.LOS())
	if res.Verdict != rating.Continue {
		fmt.Fprintf(io.out, "SPRT: %s after %d games\n", res.Verdict, n)
	}
}

// countBar is a progress bar of finished items on a terminal, or nothing.
type countBar struct{ p *progress }

func newCountBar(w io.Writer, total int, unit string) *countBar {
	p := newProgress(w)
	p.Phase(unit, total)
	return &countBar{p}
}

func (c *countBar) Add(n int) { c.p.Add(n, "") }
func (c *countBar) Finish()   { c.p.Done() }
