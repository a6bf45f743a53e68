package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
)

// gameFlags are the flags that choose a game and its configuration:
// --game, and a flag for each setting some game declares (games.Options),
// made from the declarations, so that a game's new setting is a flag of
// every command with no change here. Each game takes the flags of the
// settings it has; the others are refused.
type gameFlags struct {
	spec registry.Spec
	fs   *flag.FlagSet
	// training starts a game from the spec it trains on by default
	// (Slider's random layouts and first player) rather than from its
	// defaults.
	training bool
	keys     []string // the setting flags
}

// settingKeys are the keys of the settings the games declare, each once,
// in the games' order.
func settingKeys() []string {
	var keys []string
	seen := map[string]bool{}
	for _, name := range registry.Names() {
		opts, _ := games.Options(name)
		for _, o := range opts {
			if !seen[o.Key] {
				seen[o.Key] = true
				keys = append(keys, o.Key)
			}
		}
	}
	return keys
}

// setting is what the games that declare a key say of it: whether it is
// a whole number in all of them (a flag of numbers, else of text), its
// default when they all have the same one and the default game has it
// (the flag's, shown as such),
// and the help: each game's, with its range, and its default when they
// differ. With training, a game's default is its training spec's value
// where it has one.
func setting(key string, training bool) (number bool, def, help string) {
	type declared struct {
		game string
		o    registry.Option
		def  string
	}
	var decls []declared
	for _, name := range registry.Names() {
		opts, _ := games.Options(name)
		for _, o := range opts {
			if o.Key != key {
				continue
			}
			d := declared{name, o, o.Default}
			if t := games.Training(name); training && t.Text(key) != "" {
				d.def = t.Text(key)
			}
			decls = append(decls, d)
		}
	}
	number = true
	// A default shown as the flag's is one every game that has the key
	// shares, and only when the game played without --game has it: a
	// default of a setting that game refuses (Connect Four's features,
	// to a Slider run) would read as Slider's.
	same, primary := true, false
	for _, d := range decls {
		number = number && d.o.Number()
		same = same && d.def == decls[0].def
		primary = primary || d.game == registry.Default()
	}
	same = same && primary
	if same && len(decls) > 0 {
		def = decls[0].def
		if _, err := strconv.Atoi(def); number && err != nil {
			def, same = "", false
		}
	}
	var parts []string
	for _, d := range decls {
		text := d.game + ": " + d.o.Help
		if d.o.Number() {
			text += fmt.Sprintf(", %d to %d", d.o.Min, d.o.Max)
		}
		if !same && d.def != "" {
			text += ", default " + d.def
		}
		parts = append(parts, text)
	}
	return number, def, strings.Join(parts, "; ")
}

// register declares the flags on fs. With training, a game starts from
// the spec it trains on by default, else from its defaults; the flags
// given change it.
func (f *gameFlags) register(fs *flag.FlagSet, training bool) {
	f.fs, f.training, f.keys = fs, training, settingKeys()
	fs.StringVar(&f.spec.Name, "game", registry.Default(), "the game: "+strings.Join(registry.Names(), ", "))
	for _, key := range f.keys {
		// Only a flag given is read (resolve): one not given leaves the
		// game's default, so its own default is there for the help.
		number, def, help := setting(key, training)
		if number {
			n, _ := strconv.Atoi(def)
			fs.Int(key, n, help)
		} else {
			fs.String(key, def, help)
		}
	}
}

// isSetting reports whether a flag is a game setting.
func (f *gameFlags) isSetting(name string) bool {
	for _, k := range f.keys {
		if k == name {
			return true
		}
	}
	return false
}

// isGameFlag reports whether a flag chooses the game: --game or a
// setting.
func (f *gameFlags) isGameFlag(name string) bool {
	return name == "game" || f.isSetting(name)
}

// build makes the game the flags describe (resolve, then the game).
func (f *gameFlags) build() (env.Game, error) {
	if err := f.resolve(); err != nil {
		return nil, err
	}
	g, err := games.New(f.spec)
	if err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	return g, nil
}

// resolve settles the spec the flags describe. The flags given are
// checked as the engine's game command checks its settings
// (games.Configure): a flag for a game that does not have the setting, or out
// of range, is a usage error, not silently ignored or taken for the
// default.
func (f *gameFlags) resolve() error {
	if err := f.checkApplies(); err != nil {
		return err
	}
	base := registry.Spec{Name: f.spec.Name}
	if t := games.Training(f.spec.Name); f.training && t.Name != "" {
		base = t
	}
	f.spec = games.Keep(base)
	if f.fs == nil {
		return nil
	}
	given := map[string]string{}
	f.fs.Visit(func(fl *flag.Flag) {
		if f.isSetting(fl.Name) {
			given[fl.Name] = fl.Value.String()
		}
	})
	spec, err := games.Configure(f.spec, given)
	if err != nil {
		return usageError{fmt.Errorf("game: %w", err)}
	}
	f.spec = spec
	return nil
}

// checkApplies refuses game flags set on the command line that the chosen
// game does not have.
func (f *gameFlags) checkApplies() error {
	if f.fs == nil {
		return nil
	}
	opts, err := games.Options(f.spec.Name)
	if err != nil {
		return nil // games.New names the unknown game
	}
	var allowed []string
	for _, o := range opts {
		allowed = append(allowed, o.Key)
	}
	var bad error
	f.fs.Visit(func(fl *flag.Flag) {
		if !f.isSetting(fl.Name) || bad != nil {
			return
		}
		for _, a := range allowed {
			if a == fl.Name {
				return
			}
		}
		name := strings.ToLower(f.spec.Name)
		if len(allowed) == 0 {
			bad = usageError{fmt.Errorf("--%s does not apply to %s, which has no options", fl.Name, name)}
			return
		}
		bad = usageError{fmt.Errorf("--%s does not apply to %s (its options: --%s)", fl.Name, name, strings.Join(allowed, ", --"))}
	})
	return bad
}
