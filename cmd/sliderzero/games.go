package main

import (
	"flag"
	"fmt"

	"github.com/sliderzero/sliderzero/engine"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
)

// gameFlags are the flags that choose a game and its configuration. This
// file is the only place that knows which games exist.
type gameFlags struct {
	game    string
	size    int
	blocked string
	first   string
	plyCap  int
}

func (f *gameFlags) register(fs *flag.FlagSet, defaultBlocked string) {
	fs.StringVar(&f.game, "game", "slider", "the game: slider")
	fs.IntVar(&f.size, "size", 5, fmt.Sprintf("board size, %d to %d", slider.MinSize, slider.MaxSize))
	fs.StringVar(&f.blocked, "blocked", defaultBlocked, "blocked cells: none, random (the course referee's scheme, drawn per game), or a list such as c3,d4")
	fs.StringVar(&f.first, "first", "H", "the side that moves first: H or V")
	fs.IntVar(&f.plyCap, "plycap", 0, "plies after which the game is a tie, passes included (0: 4*size*size)")
}

func (f *gameFlags) build() (env.Game, error) {
	switch f.game {
	case "slider":
		cells, random, err := slider.ParseBlocked(f.blocked)
		if err != nil {
			return nil, fmt.Errorf("--blocked: %w", err)
		}
		var first env.Side
		switch f.first {
		case "H", "h":
			first = slider.H
		case "V", "v":
			first = slider.V
		default:
			return nil, fmt.Errorf("--first %q: want H or V", f.first)
		}
		return slider.New(slider.Config{Size: f.size, Blocked: cells, RandomBlocked: random, First: first, PlyCap: f.plyCap})
	}
	return nil, fmt.Errorf("--game %q: unknown game; want slider", f.game)
}

// engineRules tells the engine protocol how to make games of another size
// and read positions.
func (f *gameFlags) engineRules() (engine.Rules, error) {
	switch f.game {
	case "slider":
		return engine.Rules{
			NewGame: func(n int) (env.Game, error) {
				return slider.New(slider.Config{Size: n, PlyCap: f.plyCap})
			},
			ParsePosition: func(text string) (env.State, error) {
				s, err := slider.ParsePosition(text)
				if err != nil || f.plyCap == 0 {
					return s, err
				}
				g, err := slider.New(slider.Config{Size: s.Rules().Size(), PlyCap: f.plyCap})
				if err != nil {
					return nil, err
				}
				return g.ParsePosition(text)
			},
			Size: func(g env.Game) int { return g.(*slider.Game).Size() },
		}, nil
	}
	return engine.Rules{}, fmt.Errorf("--game %q: the engine protocol supports slider only", f.game)
}
