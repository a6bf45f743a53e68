package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"

	"github.com/sliderzero/sliderzero/engine"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/player"
)

const engineAbout = `Speaks the engine protocol (docs/protocol.md, modelled on GTP) on
standard input and output, so that referees, GUIs and programs in other
languages can drive any player, in any of the games. Commands:
protocol_version, name, version, list_commands, known_command, game,
boardsize, clear_board, position, play, genmove, undo, analyze,
legal_moves, showboard, result, set (movetime, visits, seed, gametime,
repetition, threads), quit.

A trained player (net: or player:) brings its game: the engine starts in
it, and game flags that ask for another are refused. The engine's games
have no ply cap unless --plycap sets one: the referee decides when a game
ends.

Example: echo "genmove H" | sliderzero engine --player mcts:sims=500

`

// threadsFlag is --threads of the interactive commands: a network or UCT
// player's search threads, every core by default.
func threadsFlag(fs *flag.FlagSet) *int {
	return rangeVar(fs, "threads", min(runtime.NumCPU(), mcts.MaxThreads), 1, mcts.MaxThreads, "search a network player (net:, player:) or plain UCT (mcts:) with `N` threads unless its spec says threads=N (default: every core; 1 gives seeded searches that repeat exactly)")
}

func runEngine(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("engine", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs, false)
	spec := fs.String("player", "alphabeta", "player spec that answers genmove")
	seed := fs.Uint64("seed", 1, "seed of the player and of random layouts (the protocol's set seed changes the player's)")
	threads := threadsFlag(fs)
	if err := parseFlags(fs, args, io, engineAbout+playerHelp()); err != nil {
		return ignoreHelp(err)
	}
	sp, err := parseSpec("--player", *spec)
	if err != nil {
		return err
	}
	players := new(tables).players()
	game, err := playersGame("engine", fs, &gf, players, sp)
	if err != nil {
		return err
	}
	setup, err := prepareFor(players, game, sp, player.Options{Threads: *threads})
	if err != nil {
		return err
	}
	e, err := engine.New(engine.Config{Name: "sliderzero", Version: version, Game: game, Player: setup, Seed: *seed})
	if err != nil {
		return err
	}
	return e.Run(ctx, io.in, io.out)
}

// playersGame is the game a command plays: the one the game flags name,
// or the one the first trained player's file among sps names (play's
// --p1/--p2, the engine's --player) when no game flag is given. Flags
// that name another game than the player's are an error.
func playersGame(cmd string, fs *flag.FlagSet, gf *gameFlags, players *player.Factory, sps ...player.Spec) (registry.Spec, error) {
	if _, err := gf.build(); err != nil {
		return registry.Spec{}, err
	}
	var fileGame *registry.Spec
	var sp player.Spec
	for _, cand := range sps {
		if g, ok, err := players.Files().TrainedGame(cand); ok && err == nil {
			fileGame, sp = &g, cand
			break
		}
	}
	if fileGame == nil {
		return gf.spec, nil
	}
	// The settings a trained player learns are its file's (a flag may
	// repeat them); the others, such as a layout or the first player, are
	// the command line's, not training's random draws.
	opts, _ := games.Options(fileGame.Name)
	learned := map[string]bool{}
	for _, o := range opts {
		learned[o.Key] = o.Learned
	}
	var conflicts []string
	fs.Visit(func(f *flag.Flag) {
		switch {
		case f.Name == "game":
			if gf.spec.Name != fileGame.Name {
				conflicts = append(conflicts, "--game "+gf.spec.Name)
			}
		case learned[f.Name]:
			if have := fileGame.Text(f.Name); have != "" && gf.spec.Text(f.Name) != have {
				conflicts = append(conflicts, "--"+f.Name+" "+f.Value.String())
			}
		}
	})
	if len(conflicts) > 0 {
		return registry.Spec{}, fmt.Errorf("%s: %s plays %s; %v asks for another game (leave the game flags out, or give the player's)", cmd, sp.Arg, fileGame, conflicts)
	}
	g := registry.Spec{Name: fileGame.Name}
	for _, o := range opts {
		from := gf.spec
		if o.Learned && fileGame.Text(o.Key) != "" {
			from = *fileGame
		}
		g = g.With(o.Key, from.Text(o.Key))
	}
	return games.Keep(g), nil
}

// parseSpec reads a player spec a flag gave: the command's one reader of
// the text of specs.
func parseSpec(flagName, text string) (player.Spec, error) {
	sp, err := player.ParseSpec(text)
	if err != nil {
		return sp, fmt.Errorf("%s: %w", flagName, err)
	}
	return sp, nil
}

// prepareFor prepares a spec for the game a spec describes (the engine's
// games start with no ply cap).
func prepareFor(players *player.Factory, game registry.Spec, sp player.Spec, opts player.Options) (*player.Setup, error) {
	g, err := games.New(game)
	if err != nil {
		return nil, err
	}
	return players.Prepare(sp, g, opts)
}
