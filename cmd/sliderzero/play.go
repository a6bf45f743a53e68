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
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
)

const playAbout = `Plays one game in the terminal and draws the board after every move.
--p1 plays the game's first side (H in Slider, whoever moves first) and
--p2 the other. "human" reads moves from the keyboard.

Example: sliderzero play --p1 human --p2 alphabeta:time=1s --size 6

`

func runPlay(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs, false)
	p1 := fs.String("p1", "human", "player spec of the first side (H)")
	p2 := fs.String("p2", "alphabeta", "player spec of the second side (V)")
	seed := fs.Uint64("seed", 0, "seed of the players and of random blocked cells (default: from the clock, printed, for a new game each time)")
	rep := countVar(fs, "repetition", 0, "tie when a position occurs more than `N` times (the course server used 5; 0: off)")
	var hints hintsFlag
	fs.Var(&hints, "hints", "after each move, show a trained player's value of the position and its top moves: --hints=SPEC names the adviser (net:... or player:...); --hints alone takes the trained player among --p1 and --p2")
	threads := threadsFlag(fs)
	records := fs.String("records", "", "file to add the game to (one JSON line, as match writes; watch it with sliderzero replay)")
	if err := parseFlags(fs, args, io, playAbout+playerHelp()); err != nil {
		return ignoreHelp(err)
	}
	var sps [2]player.Spec
	for side, spec := range []string{*p1, *p2} {
		sp, err := parseSpec(fmt.Sprintf("--p%d", side+1), spec)
		if err != nil {
			return err
		}
		sps[side] = sp
	}
	players := new(tables).players()
	// A trained player's file names its game: without game flags, that
	// is the game played, as the engine does.
	spec, err := playersGame("play", fs, &gf, players, sps[:]...)
	if err != nil {
		return err
	}
	gf.spec = spec
	g, err := games.New(spec)
	if err != nil {
		return err
	}
	if err := checkRecords(*records, true); err != nil {
		return err
	}
	// Without --seed each game is a new one (random layouts and players'
	// draws); the seed is printed so that it can be replayed.
	clockSeed := *seed == 0 || !flagGiven(fs, "seed")
	if clockSeed {
		*seed = uint64(time.Now().UnixNano())%1000000 + 1
	}
	var sides [2]player.Player
	for side, sp := range sps {
		p, err := players.Build(sp, g, player.Options{Seed: match.PlayerSeed(*seed, 0, side), In: io.in, Out: io.out, Threads: *threads})
		if err != nil {
			return fmt.Errorf("--p%d: %w", side+1, err)
		}
		sides[side] = p
	}
	var hinter player.Analyzer
	if hints.on {
		candidates := []player.Spec{sps[1], sps[0]}
		if hints.spec != "" {
			sp, err := parseSpec("--hints", hints.spec)
			if err != nil {
				return err
			}
			candidates = []player.Spec{sp}
		}
		for _, sp := range candidates {
			if k, _ := players.Kind(sp.Kind); k.Search {
				p, err := players.Build(sp, g, player.Options{Seed: *seed, Threads: *threads})
				if err != nil {
					return fmt.Errorf("--hints: %w", err)
				}
				an, ok := p.(player.Analyzer)
				if !ok {
					return fmt.Errorf("--hints: %s does not analyse positions", sp)
				}
				hinter = an
				break
			}
		}
		switch {
		case hinter == nil && hints.spec != "":
			return fmt.Errorf("--hints=%s: an adviser is a trained player, net:FILE or player:FILE", hints.spec)
		case hinter == nil:
			return fmt.Errorf("--hints needs a trained player: name one with --hints=player:FILE, or play against one (net:... or player:...)")
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
		g.SideName(0), sides[0], g.SideName(1), sides[1], start.Display())
	showHints(start)
	prev := start.Clone() // the position before the next move
	rec, err := match.Play(ctx, start, sides, match.Options{
		RepetitionLimit: *rep,
		OnMove: func(s env.State, side env.Side, move string) {
			fmt.Fprintf(io.out, "\n%s plays %s%s\n%s", g.SideName(side), move, lastMoveMark(prev, move), s.Display())
			prev = s.Clone()
			showHints(s)
		},
		OnUndo: func(s env.State, plies int) {
			if plies == 0 {
				fmt.Fprintln(io.out, "nothing to undo: you have not moved yet")
				return
			}
			fmt.Fprintf(io.out, "\n%d plies taken back\n%s", plies, s.Display())
			prev = s.Clone()
			showHints(s)
		},
	})
	if errors.Is(err, player.ErrQuit) {
		fmt.Fprintf(io.out, "game abandoned (%v); nothing recorded\n", err)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(io.out, describeResult(g, rec))
	if *records != "" {
		rec.Spec = games.Keep(gf.spec)
		if err := saveRecords(*records, true, []match.Record{rec}); err != nil {
			return err
		}
		fmt.Fprintf(io.out, "game added to %s\n", *records)
	}
	return nil
}

// lastMoveMark names the cells of a move played from position before,
// where the game says (env.Shaped), so the eye finds it on the board:
// " (b2 to c2)", " (a5 off the board)", " (to d1)".
func lastMoveMark(before env.State, move string) string {
	if _, ok := env.Unwrap(before).(env.Shaped); !ok {
		return ""
	}
	a, err := before.ParseAction(move)
	if err != nil {
		return ""
	}
	sh := env.ShapeOf(before, a)
	name := func(c *env.Cell) string { return fmt.Sprintf("%c%d", 'a'+c.Col, c.Row+1) }
	switch {
	case sh.From != nil && sh.Off:
		return " (" + name(sh.From) + " off the board)"
	case sh.From != nil && sh.To != nil:
		return " (" + name(sh.From) + " to " + name(sh.To) + ")"
	case sh.To != nil:
		return " (to " + name(sh.To) + ")"
	}
	return ""
}

// hintsFlag is --hints alone (the trained player among the two) or
// --hints=SPEC (an adviser of one's own).
type hintsFlag struct {
	on   bool
	spec string
}

func (h *hintsFlag) String() string {
	if h == nil || !h.on {
		return ""
	}
	return h.spec
}

func (h *hintsFlag) Set(v string) error {
	h.on = v != "false"
	if v != "true" && v != "false" {
		h.spec = v
	}
	return nil
}

func (h *hintsFlag) IsBoolFlag() bool { return true }

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
