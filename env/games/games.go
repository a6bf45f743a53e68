// Package games is the games a program plays: it links every game in
// (all.go, one import line a game: each registers itself from its own
// package, in package registry) and builds and reads games from their
// specs (registry.Spec). Package registry holds the declarations, and
// imports no game; this package is what brings them in.
package games

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

// DefaultTraining is the game the built-in training configuration learns:
// the first game's training spec (Training).
func DefaultTraining() registry.Spec { return Training(registry.Default()) }

// Training is the spec a run of the named game learns by default, by one
// rule for every game: a player learns the game at the values of its
// learned settings (a board's size: the game's default, written out), and must play
// every value of the others, so training draws those at random where the
// game can ("random" among their values: Slider's layouts and first
// player); a setting of the input alone (Input) only adds what the
// network sees, so training takes the most of it (Connect Four's threats
// and Cats & Dogs' capture planes, measured better in
// experiments/strength2 and experiments/cdfeatures). An unknown game's is
// its name alone.
func Training(name string) registry.Spec {
	g, err := registry.Lookup(name)
	if err != nil {
		return registry.Spec{Name: name}
	}
	spec := registry.Spec{Name: g.Name}
	for _, o := range g.Options {
		_, numeric := strconv.Atoi(o.Default)
		switch {
		case o.Input && o.Number():
			spec = spec.With(o.Key, strconv.Itoa(o.Max))
		case !o.Learned && slices.Contains(o.Values, "random"):
			spec = spec.With(o.Key, "random")
		case o.Learned && numeric == nil:
			spec = spec.With(o.Key, o.Default)
		}
	}
	return spec
}

// Describe is g's one-line description for people: g.Describe(), but a
// game with no ply cap (the engine's games, whose cap is registry.NoCap)
// says so rather than giving the cap's number.
func Describe(g env.Game) string {
	return strings.Replace(g.Describe(), " "+registry.PlyCapKey+"="+strconv.Itoa(registry.NoCap), " (no ply cap)", 1)
}

// New builds the game a spec describes.
func New(s registry.Spec) (env.Game, error) {
	g, err := registry.Lookup(s.Name)
	if err != nil {
		return nil, err
	}
	s.Name = g.Name
	return g.New(s)
}

// Options lists a game's settings.
func Options(name string) ([]registry.Option, error) {
	g, err := registry.Lookup(name)
	if err != nil {
		return nil, err
	}
	return g.Options, nil
}

// Configure sets the given settings (key to value) on spec, whose Name is the
// game, and checks the game they make: an unknown key, a number out of its
// range (0 included: a setting given is never "the default") and a value
// the game refuses (an edge cell blocked, say) are errors naming them.
// The engine's game command, the commands' flags and the web app all
// check settings here.
func Configure(spec registry.Spec, given map[string]string) (registry.Spec, error) {
	g, err := registry.Lookup(spec.Name)
	if err != nil {
		return spec, err
	}
	spec.Name = g.Name
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := given[k]
		opt, ok := g.Option(strings.ToLower(k))
		switch {
		case !ok && len(g.Options) == 0:
			return spec, fmt.Errorf("%s has no settings (%s given)", g.Name, k)
		case !ok:
			return spec, fmt.Errorf("%s has no setting %s (its settings: %s)", g.Name, k, strings.Join(g.Keys(), ", "))
		}
		if opt.Number() {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < opt.Min || n > opt.Max {
				return spec, fmt.Errorf("%s %s=%s: want a whole number from %d to %d", g.Name, opt.Key, env.Excerpt(v, 20), opt.Min, opt.Max)
			}
			v = strconv.Itoa(n)
		}
		spec = spec.With(opt.Key, v)
	}
	if err := Check(spec); err != nil {
		return spec, fmt.Errorf("%s: %w", g.Name, err)
	}
	return spec, nil
}

// Keep returns spec with only the settings its game has: a spec made for
// another game, or given settings the game does not have, keeps what
// applies.
func Keep(spec registry.Spec) registry.Spec {
	g, err := registry.Lookup(spec.Name)
	if err != nil {
		return spec
	}
	out := registry.Spec{Name: g.Name}
	for _, o := range g.Options {
		out = out.With(o.Key, spec.Text(o.Key))
	}
	return out
}

// Check reports whether a spec is a game a person may configure: one New
// builds, and its own Check allows.
func Check(spec registry.Spec) error {
	reg, err := registry.Lookup(spec.Name)
	if err != nil {
		return err
	}
	g, err := New(spec)
	if err != nil {
		return err
	}
	if reg.Check != nil {
		return reg.Check(g)
	}
	return nil
}

// CheckSettings is Check for a spec that arrives whole (the web app's
// JSON) rather than as settings given as text: each setting given is
// checked as Apply checks it (one the game does not have, a Slider spec
// with pawns, is refused, not ignored), then the game they make.
func CheckSettings(spec registry.Spec) error {
	given := map[string]string{}
	for _, k := range spec.Keys() {
		given[k] = spec.Text(k)
	}
	_, err := Configure(registry.Spec{Name: spec.Name}, given)
	return err
}

// SpecOf is the spec of the game a position (in the one-line form of the
// game playing is) belongs to: playing itself, unless the game's
// positions carry settings of their own.
func SpecOf(position string, playing registry.Spec) (registry.Spec, error) {
	reg, err := registry.Lookup(playing.Name)
	if err != nil || reg.SpecOf == nil {
		return playing, err
	}
	return reg.SpecOf(position, playing)
}

// FromLine builds the game a Describe line names ("slider size=5
// blocked=none first=H"): the engine protocol's game command and the
// header of files that name their game.
func FromLine(line string) (env.Game, error) {
	spec, err := SpecFromLine(line)
	if err != nil {
		return nil, err
	}
	return New(spec)
}

// SpecFromLine is the spec of the game a Describe line names.
func SpecFromLine(line string) (registry.Spec, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return registry.Spec{}, fmt.Errorf("no game named")
	}
	given := map[string]string{}
	for _, kv := range f[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return registry.Spec{}, fmt.Errorf("game setting %s is not key=value", env.Quote(kv))
		}
		given[k] = v
	}
	return Configure(registry.Spec{Name: f[0]}, given)
}

// SameRules reports whether two games are one game under the same rules,
// differing at most in settings that change only the network's input
// (registry.Option.Input): a player of one plays the other's positions
// read in its own game.
func SameRules(a, b env.Game) bool {
	return a.Name() == b.Name() && RulesLine(a.Describe()) == RulesLine(b.Describe())
}

// isInput reports whether key is one of opts' input settings.
func isInput(opts []registry.Option, key string) bool {
	for _, o := range opts {
		if o.Key == key {
			return o.Input
		}
	}
	return false
}

// RulesLine is a Describe line without the settings that change only the
// network's input (registry.Option.Input): two games have the same rules
// exactly when their lines' RulesLine are equal (SameRules), so it names
// what depends on the rules alone, such as a set of solved positions. A
// line of an unknown game comes back as it is.
func RulesLine(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return line
	}
	opts, err := Options(f[0])
	if err != nil {
		return line
	}
	kept := []string{f[0]}
	for _, kv := range f[1:] {
		if k, _, ok := strings.Cut(kv, "="); ok && isInput(opts, k) {
			continue
		}
		kept = append(kept, kv)
	}
	return strings.Join(kept, " ")
}
