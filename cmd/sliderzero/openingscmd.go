package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
)

const openingsAbout = `Makes a set of balanced openings for matches (match --openings FILE):
from the game's start (a random layout for Slider with --blocked random,
the first player as --first says), --plies uniformly random moves, then a
reference search (--judge, a player that reports its value: mcts, net: or
player:) values the position for its side to move; positions within
--balance of even are kept, each once, until --count of them.

Example: sliderzero openings --size 5 --blocked random --first random --count 50 --plies 6 --out open5.txt`

func runOpenings(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("openings", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs, false)
	count := rangeVar(fs, "count", 50, 1, maxPositions, "openings to make")
	plies := rangeVar(fs, "plies", 6, 0, maxPlies, "random moves from the start")
	seed := fs.Uint64("seed", 1, "seed of the random moves and the judge")
	judge := fs.String("judge", "mcts:sims=2000", "player whose search values each candidate")
	balance := fs.Float64("balance", 0.25, "keep positions the judge values within this of even (values run from -1 to 1)")
	out := fs.String("out", "", "file to write (default: standard output)")
	force := forceVar(fs)
	if err := parseFlags(fs, args, io, openingsAbout); err != nil {
		return ignoreHelp(err)
	}
	g, err := gf.build()
	if err != nil {
		return err
	}
	if *balance <= 0 || *balance > 1 {
		return usageError{fmt.Errorf("openings: --balance %v: want a number above 0 and at most 1", *balance)}
	}
	if *out != "" {
		if err := checkOutput("--out", *out, *force, specFiles(*judge)...); err != nil {
			return fmt.Errorf("openings: %w", err)
		}
	}
	judged, err := new(tables).players().Read(*judge, g, player.Options{})
	if err != nil {
		return fmt.Errorf("--judge: %w", err)
	}
	if p, _ := judged.New(g, 0); !reports(p) {
		return fmt.Errorf("--judge %s does not report a value; use mcts, net:FILE or player:FILE", *judge)
	}
	bar := newCountBar(io.err, *count, "openings")
	kept, judgedCount, err := match.BalancedOpenings(ctx, g, judged, match.OpeningsOptions{Count: *count, Plies: *plies, Balance: *balance, Seed: *seed, OnKept: func() { bar.Add(1) }})
	bar.Finish()
	// Interrupted, the openings made are kept, and the command fails.
	interrupted := interruptedBy(ctx, err)
	if err != nil && (!interrupted || len(kept) == 0) {
		return fmt.Errorf("openings: %w", err)
	}
	if err := writeOpenings(io, *out, kept, judgedCount); err != nil {
		return err
	}
	if interrupted {
		return fmt.Errorf("openings interrupted after %d of %d openings (kept)", len(kept), *count)
	}
	return nil
}

// writeOpenings writes the openings to out, or to standard output.
func writeOpenings(io stdio, out string, kept []string, judged int) error {
	text := strings.Join(kept, "\n") + "\n"
	if out == "" {
		_, err := fmt.Fprint(io.out, text)
		return err
	}
	if err := store.WriteAtomic(out, []byte(text)); err != nil {
		return err
	}
	fmt.Fprintf(io.out, "%d openings written to %s (%d candidates judged)\n", len(kept), out, judged)
	return nil
}

// reports says whether p tells the value its search found.
func reports(p player.Player) bool {
	_, ok := p.(player.Reporter)
	return ok
}
