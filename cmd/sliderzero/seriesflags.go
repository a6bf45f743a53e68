// The flags of the commands that play series of games (match and
// tournament), declared and checked once.

package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
)

// seriesFlags are how many games, from which starts, at what speed and
// where they are kept.
type seriesFlags struct {
	fs          *flag.FlagSet
	games       *int
	seed        *uint64
	parallel    *int
	movetime    *string
	repetition  *int
	records     *string
	appendTo    *bool
	force       *bool
	openings    *string
	order       *string
	randomPlies *int
}

// register declares the flags; the help of --games and --openings says
// what a game and an opening are to the command.
func (f *seriesFlags) register(fs *flag.FlagSet, gamesDefault int, gamesHelp, openingsHelp string) {
	f.fs = fs
	f.games = rangeVar(fs, "games", gamesDefault, 1, maxGames, gamesHelp)
	f.seed = fs.Uint64("seed", 1, "seed of the players and of random blocked cells (with --blocked random and no --seed: from the clock, printed)")
	f.parallel = parallelVar(fs, "parallel", runtime.NumCPU(), "games played at once")
	f.movetime = fs.String("movetime", "", "time per move for every player, in seconds (overrides their specs' budgets)")
	f.repetition = countVar(fs, "repetition", 0, "tie when a position occurs more than `N` times (0: off)")
	f.records = fs.String("records", "", "file to save the games to (default: none)")
	f.appendTo = fs.Bool("append", false, "add the games to the --records file instead of refusing to overwrite it")
	f.force = fs.Bool("force", false, "replace the --records file if it exists (never one of the command's inputs)")
	f.openings = fs.String("openings", "", openingsHelp)
	f.order = fs.String("openings-order", "sequential", "sequential or random (drawn from --seed)")
	f.randomPlies = rangeVar(fs, "random-plies", 0, 0, maxPlies, "without --openings: each pair of games starts this many random moves past the start, drawn from --seed (players that search deterministically otherwise repeat one game a colour); the position they reach starts the game afresh, its ply count (and the ply cap) from 0, as an opening's does, so that its record replays")
}

// check refuses bad values and reads the openings for game g; players
// are the players' specs, whose files --records must not replace.
func (f *seriesFlags) check(g env.Game, players []string) (openings []string, shuffle bool, err error) {
	if err := checkRecords(*f.records, *f.appendTo, *f.force, append(specFiles(players...), *f.openings)...); err != nil {
		return nil, false, err
	}
	if *f.movetime != "" {
		if _, err := player.ParseSeconds(*f.movetime); err != nil {
			return nil, false, usageError{fmt.Errorf("--movetime: %w", err)}
		}
	}
	return readOpenings(*f.openings, *f.order, g)
}

// series is the series the flags describe for the game of spec (its
// players, whose specs are given, and seed left to the caller: the seed
// may yet be drawn).
func (f *seriesFlags) series(spec registry.Spec, g env.Game, players ...string) (match.Series, error) {
	openings, shuffle, err := f.check(g, players)
	if err != nil {
		return match.Series{}, err
	}
	return match.Series{Spec: spec, Games: *f.games, Parallel: *f.parallel, Options: match.Options{RepetitionLimit: *f.repetition},
		RandomPlies: *f.randomPlies, Openings: openings, ShuffleOpenings: shuffle}, nil
}

// read reads a player a flag gave, once, as a player of g with
// --movetime's budget, if given.
func (f *seriesFlags) read(players *player.Factory, flagName, text string, g env.Game) (*player.Setup, error) {
	sp, err := parseSpec(flagName, text)
	if err != nil {
		return nil, err
	}
	s, err := players.Prepare(sp, g, player.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flagName, text, err)
	}
	if *f.movetime != "" {
		d, _ := player.ParseSeconds(*f.movetime) // checked by check
		s = s.WithBudget(player.Budget{Time: d})
	}
	return s, nil
}

// drawSeed draws a fresh seed from the clock when a setting of the game
// is drawn at random for each game (a "random" value: Slider's layouts or
// first player) and --seed is not given, and prints it so that the draws
// can be repeated.
func (f *seriesFlags) drawSeed(spec registry.Spec, out io.Writer) {
	random := false
	for _, k := range spec.Keys() {
		random = random || strings.EqualFold(spec.Text(k), "random")
	}
	if flagGiven(f.fs, "seed") || !random {
		return
	}
	*f.seed = uint64(time.Now().UnixNano())%1000000 + 1
	fmt.Fprintf(out, "seed %d (repeat these draws with --seed %d)\n", *f.seed, *f.seed)
}
