package hex

import (
	"strconv"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

func init() {
	registry.Register(registry.Game{
		Name:  "hex",
		Title: "Hex",
		Options: []registry.Option{
			{Key: "size", Help: "the board's width and height in cells", Min: MinSize, Max: MaxSize, Default: strconv.Itoa(DefaultSize), Learned: true},
		},
		New: func(s registry.Spec) (env.Game, error) {
			n := s.Int("size")
			if n == 0 {
				n = DefaultSize
			}
			return New(n)
		},
	})
}
