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

// playFlags are play's flags.
type playFlags struct {
	gf      gameFlags
	p1, p2  *string
	seed    *uint64
	rep     *int
	hints   hintsFlag
	threads *int
	records *string
}

func runPlay(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	var f playFlags
	f.gf.register(fs, false)
	f.p1 = fs.String("p1", "human", "player spec of the first side (H)")
	f.p2 = fs.String("p2", "alphabeta", "player spec of the second side (V)")
	f.seed = fs.Uint64("seed", 0, "seed of the players and of random blocked cells (default: from the clock, printed, for a new game each time)")
	f.rep = countVar(fs, "repetition", 0, "tie when a position occurs more than `N` times (the course server used 5; 0: off)")
	fs.Var(&f.hints, "hints", "after each move, show a trained player's value of the position and its top moves: --hints=SPEC names the adviser (net:... or player:...); --hints alone takes the trained player among --p1 and --p2")
	f.threads = threadsFlag(fs)
	f.records = fs.String("records", "", "file to add the game to (one JSON line, as match writes; watch it with sliderzero replay)")
	if err := parseFlags(fs, args, io, playAbout+playerHelp()); err != nil {
		return ignoreHelp(err)
	}
	sess, err := f.session(fs, io)
	if err != nil {
		return err
	}
	// Without --seed each game is a new one (random layouts and players'
	// draws); the seed is printed so that it can be replayed.
	clockSeed := *f.seed == 0 || !flagGiven(fs, "seed")
	if clockSeed {
		*f.seed = uint64(time.Now().UnixNano())%1000000 + 1
	}
	if err := sess.seat(f); err != nil {
		return err
	}
	if clockSeed {
		fmt.Fprintf(io.out, "seed %d (repeat this game with --seed %d)\n", *f.seed, *f.seed)
	}
	rec, err := sess.play(ctx, *f.seed, *f.rep)
	if errors.Is(err, player.ErrQuit) {
		fmt.Fprintf(io.out, "game abandoned (%v); nothing recorded\n", err)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(io.out, describeResult(sess.g, rec))
	if *f.records != "" {
		rec.Spec = games.Keep(f.gf.spec)
		if err := saveRecords(*f.records, true, []match.Record{rec}); err != nil {
			return err
		}
		fmt.Fprintf(io.out, "game added to %s\n", *f.records)
	}
	return nil
}

// playSession is one game in the terminal: its players, the adviser whose
// hints follow each move, and the position before the last move.
type playSession struct {
	io      stdio
	g       env.Game
	players *player.Factory
	specs   [2]player.Spec
	sides   [2]player.Player
	hinter  player.Analyzer
	prev    env.State
}

// session reads the players' specs and the game they play: a trained
// player's file names its game when no game flag does, as the engine's.
func (f *playFlags) session(fs *flag.FlagSet, io stdio) (*playSession, error) {
	sess := &playSession{io: io, players: new(tables).players()}
	for side, spec := range []string{*f.p1, *f.p2} {
		sp, err := parseSpec(fmt.Sprintf("--p%d", side+1), spec)
		if err != nil {
			return nil, err
		}
		sess.specs[side] = sp
	}
	spec, err := playersGame("play", fs, &f.gf, sess.players, sess.specs[:]...)
	if err != nil {
		return nil, err
	}
	f.gf.spec = spec
	if sess.g, err = games.New(spec); err != nil {
		return nil, err
	}
	return sess, checkRecords(*f.records, true, false)
}

// seat builds the two players and the adviser, seeded.
func (s *playSession) seat(f playFlags) error {
	for side, sp := range s.specs {
		p, err := s.players.Build(sp, s.g, player.Options{Seed: match.PlayerSeed(*f.seed, 0, side), In: s.io.in, Out: s.io.out, Threads: *f.threads})
		if err != nil {
			return fmt.Errorf("--p%d: %w", side+1, err)
		}
		s.sides[side] = p
	}
	if !f.hints.on {
		return nil
	}
	candidates := []player.Spec{s.specs[1], s.specs[0]}
	if f.hints.spec != "" {
		sp, err := parseSpec("--hints", f.hints.spec)
		if err != nil {
			return err
		}
		candidates = []player.Spec{sp}
	}
	for _, sp := range candidates {
		if k, _ := s.players.Kind(sp.Kind); k.Search {
			p, err := s.players.Build(sp, s.g, player.Options{Seed: *f.seed, Threads: *f.threads})
			if err != nil {
				return fmt.Errorf("--hints: %w", err)
			}
			an, ok := p.(player.Analyzer)
			if !ok {
				return fmt.Errorf("--hints: %s does not analyse positions", sp)
			}
			s.hinter = an
			return nil
		}
	}
	if f.hints.spec != "" {
		return fmt.Errorf("--hints=%s: an adviser is a trained player, net:FILE or player:FILE", f.hints.spec)
	}
	return fmt.Errorf("--hints needs a trained player: name one with --hints=player:FILE, or play against one (net:... or player:...)")
}

// play plays the game from the seed's start, drawing each position.
func (s *playSession) play(ctx context.Context, seed uint64, repetition int) (match.Record, error) {
	g := s.g
	start := g.Start(rand.New(rand.NewPCG(seed, 0)))
	fmt.Fprintf(s.io.out, "%s\n%s: %s\n%s: %s\n\n%s", g.Describe(),
		g.SideName(0), s.sides[0], g.SideName(1), s.sides[1], start.Display())
	s.showHints(ctx, start)
	s.prev = start.Clone() // the position before the next move
	return match.Play(ctx, start, s.sides, match.Options{
		RepetitionLimit: repetition,
		OnMove: func(st env.State, side env.Side, move string) {
			fmt.Fprintf(s.io.out, "\n%s plays %s%s\n%s", g.SideName(side), move, lastMoveMark(s.prev, move), st.Display())
			s.prev = st.Clone()
			s.showHints(ctx, st)
		},
		OnUndo: func(st env.State, plies int) {
			if plies == 0 {
				fmt.Fprintln(s.io.out, "nothing to undo: you have not moved yet")
				return
			}
			fmt.Fprintf(s.io.out, "\n%d plies taken back\n%s", plies, st.Display())
			s.prev = st.Clone()
			s.showHints(ctx, st)
		},
	})
}

// showHints prints the adviser's view of s.
func (s *playSession) showHints(ctx context.Context, st env.State) {
	if s.hinter == nil || st.Outcome().Over {
		return
	}
	an, err := s.hinter.Analyze(ctx, st, 3)
	if err != nil {
		fmt.Fprintf(s.io.out, "(no hint: %v)\n", err)
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
	fmt.Fprintf(s.io.out, "hint: %s for %s; top moves %s\n", value, s.g.SideName(st.ToMove()), strings.Join(top, ", "))
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
