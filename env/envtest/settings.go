package envtest

import (
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

// settingsGame plays TakeAway's rules under a name and settings of its
// own.
type settingsGame struct {
	*TakeAway
	name    string
	komi    int
	variant string
}

func (g settingsGame) Name() string { return g.name }

func (g settingsGame) Describe() string {
	return fmt.Sprintf("%s komi=%d variant=%s", g.name, g.komi, g.variant)
}

// SettingsGame is the registration of a game that exists only in a test,
// with settings no registered game has: komi, a whole number from 0 to 10
// (default 5), and variant, text (plain or x, default plain). Tests of
// code that must take a game's settings from its declaration alone (flags,
// the engine's game command, file formats) register it under a name of
// their own.
func SettingsGame(name string) registry.Game {
	return registry.Game{
		Name:  name,
		Title: "Settings test",
		Options: []registry.Option{
			{Key: "komi", Help: "points for the second player", Min: 0, Max: 10, Default: "5"},
			{Key: "variant", Help: "the rules' variant: plain or x", Default: "plain", Values: []string{"plain", "x"}},
		},
		New: func(s registry.Spec) (env.Game, error) {
			g := settingsGame{TakeAway: &TakeAway{Stones: 7}, name: name, komi: 5, variant: "plain"}
			if s.Text("komi") != "" {
				g.komi = s.Int("komi")
			}
			switch v := s.Text("variant"); v {
			case "":
			case "plain", "x":
				g.variant = v
			default:
				return nil, fmt.Errorf("variant %s: want plain or x", env.Quote(v))
			}
			return g, nil
		},
	}
}
