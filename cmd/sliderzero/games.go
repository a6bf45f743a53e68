package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
)

// gameFlags are the flags that choose a game and its configuration: one a
// setting (size, base, pawns, blocked, first, plycap), each game reading
// those it has (games.Options).
type gameFlags struct {
	spec games.Spec
	fs   *flag.FlagSet
}

// settingKeys are the settings games share, the game flags.
var settingKeys = []string{"size", "base", "pawns", "blocked", "first", "plycap"}

// settingHelp is a flag's help: what each game that has the setting says
// of it, with the game's default unless the flag has its own (a command
// may default differently from the game: train plays random layouts).
func settingHelp(key string, withDefault bool) string {
	var parts []string
	for _, name := range games.Names() {
		opts, _ := games.Options(name)
		for _, o := range opts {
			if o.Key != key {
				continue
			}
			text := name + ": " + o.Help
			if o.Max > 0 {
				text += fmt.Sprintf(", %d to %d", o.Min, o.Max)
			}
			if withDefault && o.Default != "" {
				text += ", default " + o.Default
			}
			parts = append(parts, text)
		}
	}
	return strings.Join(parts, "; ")
}

func (f *gameFlags) register(fs *flag.FlagSet, defaultBlocked, defaultFirst string) {
	f.fs = fs
	fs.StringVar(&f.spec.Name, "game", games.Default(), "the game: "+strings.Join(games.Names(), ", "))
	fs.IntVar(&f.spec.Size, "size", 0, settingHelp("size", true))
	fs.IntVar(&f.spec.Base, "base", 0, settingHelp("base", true))
	fs.IntVar(&f.spec.Pawns, "pawns", 0, settingHelp("pawns", true))
	fs.StringVar(&f.spec.Blocked, "blocked", defaultBlocked, settingHelp("blocked", false))
	fs.StringVar(&f.spec.First, "first", defaultFirst, settingHelp("first", false))
	fs.IntVar(&f.spec.PlyCap, "plycap", 0, settingHelp("plycap", true))
}

// isSetting reports whether a flag is a game setting.
func isSetting(name string) bool {
	for _, k := range settingKeys {
		if k == name {
			return true
		}
	}
	return false
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
// (games.Apply): a flag for a game that does not have the setting, or out
// of range, is a usage error, not silently ignored or taken for the
// default; the defaults of settings the game does not have are dropped.
func (f *gameFlags) resolve() error {
	if err := f.checkApplies(); err != nil {
		return err
	}
	f.spec = games.Keep(f.spec)
	if f.fs == nil {
		return nil
	}
	given := map[string]string{}
	f.fs.Visit(func(fl *flag.Flag) {
		if isSetting(fl.Name) {
			given[fl.Name] = fl.Value.String()
		}
	})
	spec, err := games.Apply(f.spec, given)
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
		if !isSetting(fl.Name) || bad != nil {
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
