package kalah

import (
	"fmt"
	"strconv"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

func init() {
	registry.Register(registry.Game{
		Name:  "kalah",
		Title: "Kalah",
		Options: []registry.Option{
			{Key: "pits", Help: "pits on each side", Min: MinPits, Max: MaxPits, Default: strconv.Itoa(DefaultPits), Learned: true},
			{Key: "seeds", Help: "seeds in each pit at the start", Min: MinSeeds, Max: MaxSeeds, Default: strconv.Itoa(DefaultSeeds), Learned: true},
		},
		New: func(s registry.Spec) (env.Game, error) {
			if s.Text("size") != "" {
				return nil, fmt.Errorf("kalah has no size setting: its board is pits (a side) and seeds (a pit)")
			}
			return New(s.Int("pits"), s.Int("seeds"))
		},
	})
}
