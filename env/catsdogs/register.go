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
		New: func(s registry.Spec) (env.Game, error) {
			if n := s.Int("size"); n != 0 && n != Size {
				return nil, fmt.Errorf("the board of Cats & Dogs is 7x7, not %dx%d", n, n)
			}
			return NewWith(s.Int("plycap"), s.Int("features") == 1)
		},
	})
}
