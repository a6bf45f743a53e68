package main

import (
	"context"
	"flag"

	"github.com/sliderzero/sliderzero/engine"
	"github.com/sliderzero/sliderzero/player"
)

const engineAbout = `Speaks the engine protocol (docs/protocol.md, modelled on GTP) on
standard input and output, so that referees, GUIs and programs in other
languages can drive any player. Commands: protocol_version, name, version,
list_commands, known_command, boardsize, clear_board, position, play,
genmove, legal_moves, showboard, result, set (movetime, visits, seed), quit.

Example: echo "genmove H" | sliderzero engine --player mcts:sims=500

` + player.Help

func runEngine(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("engine", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs, "none", "H")
	spec := fs.String("player", "alphabeta", "player spec that answers genmove")
	seed := fs.Uint64("seed", 1, "seed of the player (the protocol's set seed changes it)")
	if err := parseFlags(fs, args, io, engineAbout); err != nil {
		return ignoreHelp(err)
	}
	g, err := gf.build()
	if err != nil {
		return err
	}
	rules, err := gf.engineRules()
	if err != nil {
		return err
	}
	sp, err := player.ParseSpec(*spec)
	if err != nil {
		return err
	}
	e, err := engine.New(engine.Config{Name: "sliderzero", Version: version, Rules: rules, Game: g, Player: sp, Seed: *seed,
		Kinds: new(tables).playerKinds()})
	if err != nil {
		return err
	}
	return e.Run(ctx, io.in, io.out)
}
