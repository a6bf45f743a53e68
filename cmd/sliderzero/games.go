package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/slider"
)

// gameFlags are the flags that choose a game and its configuration.
type gameFlags struct {
	spec games.Spec
	fs   *flag.FlagSet
}

// gameOptions lists, per game, the game flags that apply to it.
var gameOptions = map[string][]string{
	"slider":   {"size", "blocked", "first", "plycap"},
	"rlgame":   {"size", "base", "pawns", "plycap"},
	"catsdogs": {"plycap"},
}

func (f *gameFlags) register(fs *flag.FlagSet, defaultBlocked, defaultFirst string) {
	f.fs = fs
	fs.StringVar(&f.spec.Name, "game", "slider", "the game: "+strings.Join(games.Names, ", "))
	fs.IntVar(&f.spec.Size, "size", 0, fmt.Sprintf("board size (slider: %d to %d, default 5; rlgame: 4 to 8, default 8; catsdogs: 7)", slider.MinSize, slider.MaxSize))
	fs.IntVar(&f.spec.Base, "base", 0, "rlgame: size of the bases (default 2)")
	fs.IntVar(&f.spec.Pawns, "pawns", 0, "rlgame: pawns per side (default 10)")
	fs.StringVar(&f.spec.Blocked, "blocked", defaultBlocked, "blocked cells: none, random (the course referee's scheme, drawn per game), or a list such as c3,d4")
	fs.StringVar(&f.spec.First, "first", defaultFirst, "the side that moves first: H, V, or random (drawn per game)")
	fs.IntVar(&f.spec.PlyCap, "plycap", 0, "plies after which the game is a tie, passes included (0: 4*size*size)")
}

// build makes the game the flags describe. The flags given are checked
// as the engine's game command checks its settings (games.Apply): a flag
// for a game it does not apply to, or out of range, is an error, not
// silently ignored or taken for the default.
func (f *gameFlags) build() (env.Game, error) {
	if err := f.checkApplies(); err != nil {
		return nil, err
	}
	if f.fs != nil {
		given := map[string]string{}
		f.fs.Visit(func(fl *flag.Flag) {
			switch fl.Name {
			case "size", "blocked", "first", "plycap", "base", "pawns":
				given[fl.Name] = fl.Value.String()
			}
		})
		spec, err := games.Apply(f.spec, given)
		if err != nil {
			return nil, fmt.Errorf("game: %w", err)
		}
		f.spec = spec
	}
	g, err := games.New(f.spec)
	if err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	return g, nil
}

// checkApplies refuses game flags set on the command line that the chosen
// game does not have.
func (f *gameFlags) checkApplies() error {
	if f.fs == nil {
		return nil
	}
	name := strings.ToLower(f.spec.Name)
	allowed, known := gameOptions[name]
	if !known {
		return nil // games.New names the unknown game
	}
	var bad error
	f.fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "size", "blocked", "first", "plycap", "base", "pawns":
		default:
			return
		}
		for _, a := range allowed {
			if a == fl.Name {
				return
			}
		}
		if bad == nil {
			bad = fmt.Errorf("--%s does not apply to %s (its options: --%s)", fl.Name, name, strings.Join(allowed, ", --"))
		}
	})
	return bad
}
