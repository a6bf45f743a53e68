package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/rating"
	"github.com/sliderzero/sliderzero/store"
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

`

func runMatch(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs, false)
	specA := fs.String("a", "alphabeta", "player spec of A")
	specB := fs.String("b", "random", "player spec of B")
	var sf seriesFlags
	sf.register(fs, 20, "number of games (at most, with --sprt)", "file of start positions, one a line in the game's form; each is played twice, colours swapped")
	sprt := fs.String("sprt", "", "stop early by an SPRT on A's Elo over B: elo0=0,elo1=5[,alpha=0.05,beta=0.05] (or 0,5), judged on pairs of games")
	if err := parseFlags(fs, args, io, matchAbout+playerHelp()); err != nil {
		return ignoreHelp(err)
	}
	g, err := gf.build()
	if err != nil {
		return err
	}
	s, err := sf.series(gf.spec, g, *specA, *specB)
	if err != nil {
		return err
	}
	if *sprt != "" {
		t, err := rating.ParseSPRT(*sprt)
		if err != nil {
			return usageError{fmt.Errorf("--sprt: %w", err)}
		}
		s.SPRT = &t
	}
	players := new(tables).players()
	a, err := sf.read(players, "--a", *specA, g)
	if err != nil {
		return err
	}
	b, err := sf.read(players, "--b", *specB, g)
	if err != nil {
		return err
	}
	sf.drawSeed(gf.spec, io.out)
	s.A, s.B, s.Seed = a, b, *sf.seed
	// The games are written as they are counted (--records, or dropped):
	// a series of a million holds none.
	write, finish, abort, err := openRecords(*sf.records, *sf.appendTo)
	if err != nil {
		return err
	}
	defer abort()
	s.OnRecord = write
	prog := newSeriesProgress(io.err, *sf.games)
	s.OnProgress = prog.update
	res, err := s.Run(ctx)
	prog.finish()
	// Interrupted, the games finished in order are kept and scored.
	interrupted := interruptedBy(ctx, err)
	if err != nil && (!interrupted || res.Counted == 0) {
		return err
	}
	return reportMatch(io, g, a, b, res, interrupted, &sf, finish)
}

// reportMatch puts a match's games where --records says (finish) and
// prints its score; interrupted, it says how many games count and fails.
func reportMatch(io stdio, g env.Game, a, b *player.Setup, res match.SeriesResult, interrupted bool, sf *seriesFlags, finish func() error) error {
	if interrupted {
		fmt.Fprintf(io.out, "interrupted: the first %d of %d games were finished, and count\n", res.Counted, *sf.games)
	}
	if err := finish(); err != nil {
		return err
	}
	printScore(io, g, a, b, res)
	if *sf.records != "" {
		fmt.Fprintf(io.out, "games saved to %s\n", *sf.records)
	}
	if interrupted {
		return fmt.Errorf("match interrupted after %d games", res.Counted)
	}
	return nil
}

// interruptedBy reports whether err is ctx ending (Ctrl-C, a deadline),
// not a failure: a series then returns the games it finished.
func interruptedBy(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err())
}

// printScore prints A's wins, ties and losses per colour, its score, the
// Elo difference with its interval, and the likelihood of superiority.
func printScore(io stdio, g env.Game, a, b *player.Setup, res match.SeriesResult) {
	n := res.Counted
	fmt.Fprintf(io.out, "%s\nA = %s\nB = %s\n%d games, %.1f plies a game\n\n", g.Describe(), a.Name(), b.Name(), n, float64(res.Plies)/float64(max(n, 1)))
	// How fast a side wins and how long it holds out in a lost game say
	// more than the score where one side wins under perfect play.
	length := res.Lengths // A's side, A won (0) or lost (1)
	meanPlies := func(c match.PlyCount) string {
		if c.Games == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f", c.Mean())
	}
	fmt.Fprintf(io.out, "%-10s %6s %6s %6s %12s %12s\n", "", "wins", "ties", "losses", "plies/win", "plies/loss")
	for side := env.Side(0); side < 2; side++ {
		r := res.ByColour[side]
		fmt.Fprintf(io.out, "%-10s %6d %6d %6d %12s %12s\n", "A as "+g.SideName(side), r.Wins, r.Ties, r.Losses,
			meanPlies(length[side][0]), meanPlies(length[side][1]))
	}
	t := res.Total()
	fmt.Fprintf(io.out, "%-10s %6d %6d %6d\n\n", "total", t.Wins, t.Ties, t.Losses)
	printLosses(io, [2]string{"A", "B"}, res)
	if d := res.Distinct(); d < n {
		fmt.Fprintf(io.out, "warning: only %d of the %d games are distinct; repeated games are not new evidence, and the interval below overstates it (give --openings)\n", d, n)
	}
	if p := res.Pairs; p.Pairs() > 0 {
		elo, lo, hi := p.Elo()
		fmt.Fprintf(io.out, "pairs of games by A's score 0, 0.5, 1, 1.5, 2: %v: Elo %s [%s, %s] (pentanomial)\n", [5]int(p),
			rating.FormatElo(elo), rating.FormatElo(lo), rating.FormatElo(hi))
	}
	fmt.Fprintf(io.out, "score of A: %.1f%%, %s, likelihood of superiority %.1f%%\n", 100*t.Score(), t, 100*t.LOS())
	if res.Verdict != rating.Continue {
		fmt.Fprintf(io.out, "SPRT: %s after %d games (LLR %.2f)\n", res.Verdict, n, res.LLR)
	}
}

// countBar is a progress bar of finished items on a terminal, or nothing.
type countBar struct{ p *progress }

func newCountBar(w io.Writer, total int, unit string) *countBar {
	p := newProgress(w)
	p.Phase(unit, unit, total)
	return &countBar{p}
}

func (c *countBar) Add(n int) { c.p.Add(n, "") }
func (c *countBar) Finish()   { c.p.Done() }

// readOpenings reads an openings file: one position a line, blank lines and
// lines starting with # skipped; each must be a position of g (when not
// nil) that is not over.
func readOpenings(path, order string, g env.Game) ([]string, bool, error) {
	switch order {
	case "sequential", "random":
	default:
		return nil, false, usageError{fmt.Errorf("--openings-order %q: want sequential or random", order)}
	}
	if path == "" {
		return nil, false, nil
	}
	data, err := store.ReadFile(path, 64<<20)
	if err != nil {
		return nil, false, fmt.Errorf("--openings: %w", err)
	}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, false, fmt.Errorf("--openings %s is not a text file of positions (one a line, as the game writes them)", path)
	}
	var out []string
	for n, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if g != nil {
			st, err := g.ParseState(l)
			if err != nil {
				return nil, false, fmt.Errorf("--openings %s line %d (%q): %v", path, n+1, env.Excerpt(l, 60), err)
			}
			if st.Outcome().Over {
				return nil, false, fmt.Errorf("--openings %s line %d (%q) is a finished game: no move to play from it", path, n+1, env.Excerpt(l, 60))
			}
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, false, fmt.Errorf("--openings %s holds no positions", path)
	}
	return out, order == "random", nil
}

// seriesProgress shows a series' running result: a bar on a terminal, or
// a timestamped line every tenth of the games (and when an SPRT decides)
// elsewhere.
type seriesProgress struct {
	w     io.Writer
	tty   bool
	bar   *progress
	total int
	every int
	last  int
}

func newSeriesProgress(w io.Writer, total int) *seriesProgress {
	p := &seriesProgress{w: w, total: total, every: max(1, total/10), bar: newProgress(w)}
	p.tty = p.bar.tty
	p.bar.Phase("games", "games", total)
	return p
}

func (p *seriesProgress) update(pr match.Progress) {
	t := pr.Total
	elo, lo, hi := t.Elo()
	line := fmt.Sprintf("score %.1f%% (+%d =%d -%d), Elo %s [%s, %s]", 100*t.Score(), t.Wins, t.Ties, t.Losses,
		rating.FormatElo(elo), rating.FormatElo(lo), rating.FormatElo(hi))
	if pr.Lower != 0 || pr.Upper != 0 {
		line += fmt.Sprintf(", LLR %.2f [%.2f, %.2f]", pr.LLR, pr.Lower, pr.Upper)
	}
	if p.tty {
		p.bar.Add(pr.Counted-p.last, line)
		p.last = pr.Counted
		return
	}
	decided := (pr.Lower != 0 || pr.Upper != 0) && (pr.LLR >= pr.Upper || pr.LLR <= pr.Lower)
	if pr.Counted%p.every == 0 || pr.Counted == p.total || decided {
		fmt.Fprintf(p.w, "%s %d/%d games: %s\n", time.Now().UTC().Format(time.RFC3339), pr.Counted, p.total, line)
	}
}

func (p *seriesProgress) finish() { p.bar.Done() }

// printLosses says how each player's losses came when any was not by the
// rules: a forfeit (an illegal move, time, a crash) with its first message.
func printLosses(io stdio, names [2]string, res match.SeriesResult) {
	for _, l := range res.Forfeits(names[0], names[1]) {
		fmt.Fprintln(io.out, l)
	}
}
