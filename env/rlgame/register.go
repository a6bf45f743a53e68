package rlgame

import (
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

func init() {
	registry.Register(registry.Game{
		Name:  "rlgame",
		Title: "RLGame",
		Options: []registry.Option{
			{Key: "size", Help: "board size", Min: 4, Max: 8, Default: "8", Learned: true},
			{Key: "base", Help: "size of the bases", Min: 1, Max: 3, Default: "2", Learned: true},
			{Key: "pawns", Help: "pawns per side", Min: 1, Max: 100, Default: "10", Learned: true},
			{Key: registry.PlyCapKey, Help: "plies after which the game is a tie", Min: 1, Max: registry.NoCap, Default: "200"},
		},
		New: func(s registry.Spec) (env.Game, error) {
			return New(Config{Size: s.Int("size"), Base: s.Int("base"), Pawns: s.Int("pawns"), PlyCap: s.Int("plycap")})
		},
	})
}
