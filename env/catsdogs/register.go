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
			{Key: registry.PlyCapKey, Help: "plies after which the game is a tie", Min: 1, Max: registry.NoCap, Default: "200 (far above the longest game)"},
		},
		New: func(s registry.Spec) (env.Game, error) {
			if n := s.Int("size"); n != 0 && n != Size {
				return nil, fmt.Errorf("the board of Cats & Dogs is 7x7, not %dx%d", n, n)
			}
			return New(s.Int("plycap"))
		},
	})
}
