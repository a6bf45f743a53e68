package catsdogs

import (
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

func init() {
	registry.Register(registry.Game{
		Name:  "catsdogs",
		Title: "Cats & Dogs",
		Options: []registry.Option{
			{Key: "features", Help: "1 gives the network planes worked out from the rules (the Dogs the Cats can take, the captures that lose, Cats sharing a line), 0 the board alone", Min: 0, Max: 1, Default: "0", Learned: true, Input: true},
			{Key: registry.PlyCapKey, Help: "plies after which the game is a tie", Min: 1, Max: registry.NoCap, Default: "200 (far above the longest game)"},
		},
		// Runs learn with the feature planes: in experiments/cdfeatures
		// they made the Dogs win 19 plies sooner and the Cats last 6
		// longer against alpha-beta, for 13% of the simulations.
		Training: registry.Spec{Name: "catsdogs"}.With("features", "1"),
		// A self-play search of 200 simulations rather than 64: in
		// experiments/cdsims, at an equal 20 minutes, its Dogs won 8 plies
		// sooner and its Cats lasted 6 longer against alpha-beta, from a
		// third of the games (one run each; a second seed of the 200
		// run moved each seat by 4-7 plies, and 400 simulations were
		// level with 200: experiments/cdsims400).
		SelfPlaySims: 200,
		New: func(s registry.Spec) (env.Game, error) {
			if n := s.Int("size"); n != 0 && n != Size {
				return nil, fmt.Errorf("the board of Cats & Dogs is 7x7, not %dx%d", n, n)
			}
			return NewWith(s.Int("plycap"), s.Int("features") == 1)
		},
	})
}
