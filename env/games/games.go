// Package games knows which games exist and builds them from a spec. It is
// the one place outside each game's own package, and the command's flags,
// that names games, so that search and training stay game-agnostic.
package games

import (
	"fmt"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/catsdogs"
	"github.com/sliderzero/sliderzero/env/rlgame"
	"github.com/sliderzero/sliderzero/env/slider"
)

// Names lists the games, for help texts.
var Names = []string{"slider", "rlgame", "catsdogs"}

// Spec chooses a game and its configuration; it is stored in run
// configurations and checkpoints. Zero values mean the game's defaults.
type Spec struct {
	Name string `json:"name" msgpack:"name"`
	// Size is the board size (Slider: 3 to 8, default 5; RLGame: 4 to 8,
	// default 8; Cats & Dogs: 7).
	Size int `json:"size,omitempty" msgpack:"size"`
	// Base and Pawns are RLGame's base size and pawns per side (default 2
	// and 10).
	Base  int `json:"base,omitempty" msgpack:"base"`
	Pawns int `json:"pawns,omitempty" msgpack:"pawns"`
	// Blocked is Slider's blocked cells: "none", "random" or a list "c3,d4".
	Blocked string `json:"blocked,omitempty" msgpack:"blocked"`
	// First is the side that moves first: the game's side name, or
	// "random" for a fair draw each game (what self-play wants).
	First string `json:"first,omitempty" msgpack:"first"`
	// PlyCap ends games as ties after this many plies (0: the default).
	PlyCap int `json:"plycap,omitempty" msgpack:"plycap"`
}

// DefaultTraining is the game the built-in training configuration learns:
// Slider 5x5 on the course referee's random layouts, the first player
// drawn per game so that self-play sees both.
func DefaultTraining() Spec {
	return Spec{Name: "slider", Size: 5, Blocked: "random", First: "random"}
}

func (s Spec) String() string {
	return fmt.Sprintf("%s size=%d blocked=%s first=%s plycap=%d", s.Name, s.Size, s.Blocked, s.First, s.PlyCap)
}

// New builds the game a spec describes.
func New(s Spec) (env.Game, error) {
	switch strings.ToLower(s.Name) {
	case "slider", "":
		size := s.Size
		if size == 0 {
			size = 5
		}
		cells, random, err := slider.ParseBlocked(s.Blocked)
		if err != nil {
			return nil, err
		}
		cfg := slider.Config{Size: size, Blocked: cells, RandomBlocked: random, PlyCap: s.PlyCap}
		switch strings.ToUpper(s.First) {
		case "", "H":
		case "V":
			cfg.First = slider.V
		case "RANDOM":
			cfg.RandomFirst = true
		default:
			return nil, fmt.Errorf("first player %q: want H, V or random", s.First)
		}
		return slider.New(cfg)
	case "rlgame":
		return rlgame.New(rlgame.Config{Size: s.Size, Base: s.Base, Pawns: s.Pawns, PlyCap: s.PlyCap})
	case "catsdogs":
		if s.Size != 0 && s.Size != catsdogs.Size {
			return nil, fmt.Errorf("Cats & Dogs is played on 7x7, not %dx%d", s.Size, s.Size)
		}
		return catsdogs.New(s.PlyCap)
	}
	return nil, fmt.Errorf("unknown game %q: want one of %s", s.Name, strings.Join(Names, ", "))
}
