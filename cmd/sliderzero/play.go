package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
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
	gf.register(fs, "none", "H")
	p1 := fs.String("p1", "human", "player spec of the first side (H)")
	p2 := fs.String("p2", "alphabeta", "player spec of the second side (V)")
	seed := fs.Uint64("seed", 0, "seed of the players and of random blocked cells (0: from the clock, printed)")
	rep := fs.Int("repetition", 0, "tie when a position occurs more than this many times (the course server used 5; 0: off)")
	hints := fs.Bool("hints", false, "after each move, show a trained player's (net: or player:) value of the position and its top moves")
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
	kinds := new(tables).playerKinds()
	for side, spec := range []string{*p1, *p2} {
		p, err := player.New(spec, g, player.Options{Seed: match.PlayerSeed(*seed, 0, side), In: io.in, Out: io.out, Kinds: kinds})
		if err != nil {
			return fmt.Errorf("--p%d: %w", side+1, err)
		}
		players[side] = p
	}
	var hinter *player.Net
	if *hints {
		for _, spec := range []string{*p2, *p1} {
			if sp, err := player.ParseSpec(spec); err == nil && (sp.Kind == "net" || sp.Kind == "player") {
				p, err := player.FromSpec(sp, g, player.Options{Seed: *seed})
				if err != nil {
					return err
				}
				hinter = p.(*player.Net)
				break
			}
		}
		if hinter == nil {
			return fmt.Errorf("--hints needs a trained player (net:... or player:...) as --p1 or --p2")
		}
	}
	showHints := func(s env.State) {
		if hinter == nil || s.Outcome().Over {
			return
		}
		an, err := hinter.Analyze(ctx, s, 3)
		if err != nil {
			fmt.Fprintf(io.out, "(no hint: %v)\n", err)
			return
		}
		var top []string
		for _, c := range an.Best {
			if c.Proof != "" {
				top = append(top, fmt.Sprintf("%s %.0f%% (%s)", c.Move, 100*c.Share, c.Proof))
				continue
			}
			top = append(top, fmt.Sprintf("%s %.0f%%", c.Move, 100*c.Share))
		}
		value := fmt.Sprintf("value %+.2f", an.Value)
		if an.Proof != "" {
			value = an.Proof
		}
		fmt.Fprintf(io.out, "hint: %s for %s; top moves %s\n", value, g.SideName(s.ToMove()), strings.Join(top, ", "))
	}
	if clockSeed {
		fmt.Fprintf(io.out, "seed %d (repeat this game with --seed %d)\n", *seed, *seed)
	}
	start := g.Start(rand.New(rand.NewPCG(*seed, 0)))
	fmt.Fprintf(io.out, "%s\n%s: %s\n%s: %s\n\n%s", g.Describe(),
		g.SideName(0), players[0], g.SideName(1), players[1], start.Display())
	showHints(start)
	rec, err := match.Play(ctx, start, players, match.Options{
		RepetitionLimit: *rep,
		OnMove: func(s env.State, side env.Side, move string) {
			fmt.Fprintf(io.out, "\n%s plays %s\n%s", g.SideName(side), move, s.Display())
			showHints(s)
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
	case rec.End == match.EndRepetition:
		return fmt.Sprintf("tie by repetition after %d plies", len(rec.Moves))
	case rec.End == match.EndPlyCap:
		return fmt.Sprintf("tie at the ply cap after %d plies", len(rec.Moves))
	case o.Winner == env.NoSide:
		return fmt.Sprintf("tie after %d plies", len(rec.Moves))
	case rec.End.Forfeit():
		return fmt.Sprintf("%s (%s) wins after %d plies: the other side forfeits (%s: %s)", g.SideName(o.Winner), rec.Players[o.Winner], len(rec.Moves), rec.End, rec.Detail)
	}
	return fmt.Sprintf("%s (%s) wins after %d plies", g.SideName(o.Winner), rec.Players[o.Winner], len(rec.Moves))
}

func ignoreHelp(err error) error {
	if errors.Is(err, errHelp) {
		return nil
	}
	return err
}
