// Package registry is where games register themselves: each game's package
// describes its settings and how to build it in one Register call (in its
// init), and package games names the packages in one line each. Every
// command's flags and help, the engine's game command, checkpoints, player
// files and the web app's list of games read this, so that nothing outside
// a game's package names a game.
package registry

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/sliderzero/sliderzero/env"
)

// Spec chooses a game and its configuration; run configurations,
// checkpoints, player files and shards store it. Zero values mean the
// game's defaults. The fields are the settings games share; a game reads
// those its Options name.
type Spec struct {
	Name string `json:"name" msgpack:"name"`
	// Size is the board size.
	Size int `json:"size,omitempty" msgpack:"size"`
	// Base and Pawns are RLGame's base size and pawns per side.
	Base  int `json:"base,omitempty" msgpack:"base"`
	Pawns int `json:"pawns,omitempty" msgpack:"pawns"`
	// Blocked is a layout of blocked cells: "none", "random" or a list.
	Blocked string `json:"blocked,omitempty" msgpack:"blocked"`
	// First is the side that moves first: the game's side name, or
	// "random" for a fair draw each game (what self-play wants).
	First string `json:"first,omitempty" msgpack:"first"`
	// PlyCap ends games as ties after this many plies (0: the default).
	PlyCap int `json:"plycap,omitempty" msgpack:"plycap"`
}

// String writes the spec as the engine's game command takes it: the name,
// then the settings given (zero ones are the game's defaults).
func (s Spec) String() string {
	out := s.Name
	for _, kv := range []struct {
		key string
		n   int
	}{{"size", s.Size}, {"base", s.Base}, {"pawns", s.Pawns}} {
		if kv.n != 0 {
			out += fmt.Sprintf(" %s=%d", kv.key, kv.n)
		}
	}
	if s.Blocked != "" {
		out += " blocked=" + s.Blocked
	}
	if s.First != "" {
		out += " first=" + s.First
	}
	switch {
	case s.PlyCap >= NoCap:
		out += " plycap=none"
	case s.PlyCap != 0:
		out += fmt.Sprintf(" plycap=%d", s.PlyCap)
	}
	return out
}

// NoCap is a ply cap no game reaches: the engine's games, which only the
// rules end, have it. Settings take at most this.
const NoCap = 1 << 30

// Option is a game setting, given as key=value to the engine's game
// command and as --key to the commands.
type Option struct {
	// Key is one of Spec's settings: size, base, pawns, blocked, first,
	// plycap.
	Key  string
	Help string
	// Min and Max bound a whole number; a text setting has Max 0.
	Min, Max int
	// Default is what the game takes when the setting is not given, for
	// help texts.
	Default string
}

// Game is a game's registration.
type Game struct {
	Name string
	// Title is the game's name for people ("Cats & Dogs").
	Title   string
	Options []Option
	// New builds the game of a spec (zero settings: the defaults).
	New func(Spec) (env.Game, error)
	// Check, when set, refuses a game a person may not configure though
	// New builds it (Slider: a cell blocked on the edge, which positions
	// given whole may have but layouts may not).
	Check func(env.Game) error
	// SpecOf, when set, gives the spec of the game a position in the
	// game's one-line form belongs to, from the spec of the game being
	// played: for games whose positions carry settings (a Slider position
	// its board size and blocked cells).
	SpecOf func(position string, playing Spec) (Spec, error)
	// Training is the spec a run learns by default, when it differs from
	// the zero spec (Slider: random layouts, random first player).
	Training *Spec
	// OpeningPlies is how many uniformly random plies, at most, self-play
	// starts a game with by default (each game draws 0 to this many; they
	// are not trained on): a measured setting of the game's (Slider's in
	// experiments/strength2), 0 for none.
	OpeningPlies int
	// RandomStarts is the share of self-play games started by default from
	// a position the game draws at random (env.RandomStarter): measured,
	// like OpeningPlies (Slider's in experiments/strength2); 0 for none.
	RandomStarts float64
	// Primary marks the game the commands play when none is named (the
	// project's own, Slider); it comes first in lists.
	Primary bool
}

var (
	mu    sync.RWMutex
	games = map[string]Game{}
)

// Register adds a game; a second game of the same name is a mistake in
// the program, and panics.
func Register(g Game) {
	mu.Lock()
	defer mu.Unlock()
	name := strings.ToLower(g.Name)
	if _, dup := games[name]; dup || name == "" || g.New == nil {
		panic(fmt.Sprintf("registry: game %q registered twice, or without a name or New", g.Name))
	}
	g.Name = name
	games[name] = g
}

// Lookup finds a registered game by name ("" is the first game, Slider).
func Lookup(name string) (Game, error) {
	mu.RLock()
	defer mu.RUnlock()
	if name == "" {
		name = primaryLocked()
	}
	g, ok := games[strings.ToLower(name)]
	if !ok {
		return Game{}, fmt.Errorf("unknown game %q: want one of %s", name, strings.Join(namesLocked(), ", "))
	}
	return g, nil
}

// Names lists the registered games, the primary first, then by name.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	var out []string
	for n := range games {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool {
		if games[out[i]].Primary != games[out[j]].Primary {
			return games[out[i]].Primary
		}
		return out[i] < out[j]
	})
	return out
}

// Default is the game the commands play when none is named: the primary
// game, else the first by name.
func Default() string {
	mu.RLock()
	defer mu.RUnlock()
	return primaryLocked()
}

func primaryLocked() string {
	if names := namesLocked(); len(names) > 0 {
		return names[0]
	}
	return ""
}

// Option finds a game's setting by key.
func (g Game) Option(key string) (Option, bool) {
	for _, o := range g.Options {
		if o.Key == key {
			return o, true
		}
	}
	return Option{}, false
}

// Keys lists a game's settings' keys.
func (g Game) Keys() []string {
	keys := make([]string, len(g.Options))
	for i, o := range g.Options {
		keys[i] = o.Key
	}
	return keys
}
