// Package registry is where games register themselves: each game's package
// declares its settings and how to build it in one Register call (in its
// init), and package games names the packages in one line each. Every
// command's flags and help, the engine's game command, checkpoints, player
// files and the web app's games and settings read this, so that nothing
// outside a game's package names a game or one of its settings.
package registry

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/sliderzero/sliderzero/env"
)

// NoCap is a ply cap no game reaches: the engine's games, which only the
// rules end, have it. Settings take at most this.
const NoCap = 1 << 30

// PlyCapKey is the key a game's ply cap (env.Capped) is declared under, the
// one setting a program outside the games sets: the engine plays with no
// cap (NoCap) unless one is given.
const PlyCapKey = "plycap"

// Option is a game setting, declared by its game: given as key=value to
// the engine's game command, as --key to the commands, as a control of
// the web app's form and as a key of a Spec in files; all of them read
// this declaration, and Apply checks a value against it.
type Option struct {
	// Key is the setting's name: lower case letters, digits and "-",
	// neither "name" (a spec's own key in files) nor "game" (the flag that
	// names the game), nor another of the commands' flags' names, since
	// it becomes one of them. Games that share a key share the flag.
	Key  string
	Help string
	// Min and Max bound a whole number; a text setting has Max 0.
	Min, Max int
	// Default is what the game takes when the setting is not given: the
	// value, or words when it depends on other settings ("4 x size x
	// size"); help texts and forms show it.
	Default string
	// Values are the choices a form offers for a text setting. The game
	// may take other text too (Slider's blocked takes cells); its New
	// refuses what it cannot build.
	Values []string
	// Learned marks a setting a trained player learns the game at (a
	// board's size): a player file's game fixes it, so the commands
	// refuse a flag that asks another value of that player, and the web
	// app offers a game only the players trained at its value. The other
	// settings (a layout, the first player, a ply cap) each game played
	// chooses for itself.
	Learned bool
	// Input marks a learned setting that changes only the network's
	// input, not the rules (a game's feature planes): a player trained
	// at one value plays the positions of a game at another, seen
	// through its own game (games.SameRules).
	Input bool
}

// Number reports whether the setting is a whole number (else text).
func (o Option) Number() bool { return o.Max > 0 }

// Game is a game's registration.
type Game struct {
	Name string
	// Title is the game's name for people ("Cats & Dogs").
	Title   string
	Options []Option
	// New builds the game of a spec, reading its settings with
	// Spec.Int and Spec.Text (a setting not given: its default).
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
	// Primary marks the game the commands play when none is named (the
	// project's own, Slider); it comes first in lists.
	Primary bool
}

var (
	mu    sync.RWMutex
	games = map[string]Game{}
)

// Register adds a game; a second game of the same name, or a setting
// badly declared, is a mistake in the program, and panics.
func Register(g Game) {
	mu.Lock()
	defer mu.Unlock()
	name := strings.ToLower(g.Name)
	if _, dup := games[name]; dup || name == "" || g.New == nil {
		panic(fmt.Sprintf("registry: game %q registered twice, or without a name or New", g.Name))
	}
	seen := map[string]bool{}
	for _, o := range g.Options {
		// A key files write as one of the old fields reads 0 as "not
		// given" (spec.go): its range must be above 0.
		zeroLost := o.Number() && o.Min < 1 && legacyNumber(o.Key)
		if !validKey(o.Key) || seen[o.Key] || o.Number() && o.Min > o.Max || zeroLost {
			panic(fmt.Sprintf("registry: game %q: setting %q is declared twice, or its key or range is not valid", g.Name, o.Key))
		}
		seen[o.Key] = true
	}
	g.Name = name
	games[name] = g
}

// validKey reports whether a setting's key can be a flag and a key=value
// word, and is not taken.
func validKey(key string) bool {
	if key == "" || key == "name" || key == "game" || key[0] < 'a' || key[0] > 'z' {
		return false
	}
	for _, c := range key {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
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
