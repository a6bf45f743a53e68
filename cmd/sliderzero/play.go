package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
)

const playAbout = `Plays one game in the terminal and draws the board after every move.
--p1 plays the game's first side (H in Slider, whoever moves first) and
--p2 the other. "human" reads moves from the keyboard.

Example: sliderzero play --p1 human --p2 alphabeta:time=1s --size 6

` + player.Help

func runPlay(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs, "none")
	p1 := fs.String("p1", "human", "player spec of the first side (H)")
	p2 := fs.String("p2", "alphabeta", "player spec of the second side (V)")
	seed := fs.Uint64("seed", 0, "seed of the players and of random blocked cells (0: from the clock, printed)")
	rep := fs.Int("repetition", 0, "tie when a position occurs more than this many times (the course server used 5; 0: off)")
	if err := parseFlags(fs, args, io, playAbout); err != nil {
		return ignoreHelp(err)
	}
	g, err := gf.build()
	if err != nil {
		return err
	}
	clockSeed := *seed == 0
	if clockSeed {
		*seed = uint64(time.Now().UnixNano())%1000000 + 1
	}
	var players [2]player.Player
	for side, spec := range []string{*p1, *p2} {
		p, err := player.New(spec, g, player.Options{Seed: match.PlayerSeed(*seed, 0, side), In: io.in, Out: io.out})
		if err != nil {
			return fmt.Errorf("--p%d: %w", side+1, err)
		}
		players[side] = p
	}
	if clockSeed {
		fmt.Fprintf(io.out, "seed %d (repeat this game with --seed %d)\n", *seed, *seed)
	}
	start := g.Start(rand.New(rand.NewPCG(*seed, 0)))
	fmt.Fprintf(io.out, "%s\n%s: %s\n%s: %s\n\n%s", g.Describe(),
		g.SideName(0), players[0], g.SideName(1), players[1], start.Display())
	rec, err := match.Play(ctx, start, players, match.Options{
		RepetitionLimit: *rep,
		OnMove: func(s env.State, side env.Side, move string) {
			fmt.Fprintf(io.out, "\n%s plays %s\n%s", g.SideName(side), move, s.Display())
		},
	})
	if errors.Is(err, player.ErrQuit) {
		fmt.Fprintln(io.out, "game abandoned")
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(io.out, describeResult(g, rec))
	return nil
}

// describeResult says how a game ended, naming the players.
func describeResult(g env.Game, rec match.Record) string {
	o := rec.Outcome
	switch {
	case rec.Repetition:
		return fmt.Sprintf("tie by repetition after %d plies", len(rec.Moves))
	case o.Winner == env.NoSide:
		return fmt.Sprintf("tie after %d plies", len(rec.Moves))
	}
	return fmt.Sprintf("%s (%s) wins after %d plies", g.SideName(o.Winner), rec.Players[o.Winner], len(rec.Moves))
}

func ignoreHelp(err error) error {
	if errors.Is(err, errHelp) {
		return nil
	}
	return err
}
