package connect4

import (
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

func init() {
	registry.Register(registry.Game{
		Name:  "connect4",
		Title: "Connect Four",
		Options: []registry.Option{
			{Key: "features", Help: "1 gives the network each side's threats (the empty cells where its disc would make four), 0 the discs alone", Min: 0, Max: 1, Default: "0", Learned: true, Input: true},
		},
		New: func(s registry.Spec) (env.Game, error) {
			if s.Text("size") != "" {
				return nil, fmt.Errorf("the board of Connect Four is 7 columns of 6 rows; it has no size setting")
			}
			if s.Int("features") == 1 {
				return NewWithFeatures(), nil
			}
			return New(), nil
		},
	})
}
