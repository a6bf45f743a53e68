package games

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env/slider"
)

// Option is a game setting, given as key=value to the engine's game
// command and as --key to the commands: the one description both read.
type Option struct {
	Key  string
	Help string
	// Min and Max bound a whole number; a text option has Max 0.
	Min, Max int
}

// optionsOf lists each game's settings.
var optionsOf = map[string][]Option{
	"slider": {
		{Key: "size", Help: "board size", Min: 3, Max: 8},
		{Key: "blocked", Help: "blocked cells: none, random (the course referee's scheme), or interior cells such as c3,d4"},
		{Key: "first", Help: "the side that moves first: H, V or random"},
		{Key: "plycap", Help: "plies after which the game is a tie", Min: 1, Max: 1 << 30},
	},
	"rlgame": {
		{Key: "size", Help: "board size", Min: 4, Max: 8},
		{Key: "base", Help: "size of the bases", Min: 1, Max: 3},
		{Key: "pawns", Help: "pawns per side", Min: 1, Max: 100},
		{Key: "plycap", Help: "plies after which the game is a tie", Min: 1, Max: 1 << 30},
	},
	"catsdogs": {
		{Key: "plycap", Help: "plies after which the game is a tie", Min: 1, Max: 1 << 30},
	},
}

// Options lists a game's settings.
func Options(name string) ([]Option, error) {
	opts, ok := optionsOf[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("unknown game %q: want one of %s", name, strings.Join(Names, ", "))
	}
	return opts, nil
}

// Apply sets the given settings (key to value) on spec, whose Name is the
// game, and checks the game they make: an unknown key, a number out of its
// range (0 included: a setting given is never "the default") and a value
// the game refuses (an edge cell blocked, say) are errors naming them.
func Apply(spec Spec, given map[string]string) (Spec, error) {
	opts, err := Options(spec.Name)
	if err != nil {
		return spec, err
	}
	spec.Name = strings.ToLower(spec.Name)
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := given[k]
		var opt *Option
		for i := range opts {
			if opts[i].Key == strings.ToLower(k) {
				opt = &opts[i]
			}
		}
		if opt == nil {
			names := make([]string, len(opts))
			for i, o := range opts {
				names[i] = o.Key
			}
			return spec, fmt.Errorf("%s has no setting %s (its settings: %s)", spec.Name, k, strings.Join(names, ", "))
		}
		if opt.Max > 0 {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < opt.Min || n > opt.Max {
				return spec, fmt.Errorf("%s %s=%s: want a whole number from %d to %d", spec.Name, opt.Key, v, opt.Min, opt.Max)
			}
			switch opt.Key {
			case "size":
				spec.Size = n
			case "base":
				spec.Base = n
			case "pawns":
				spec.Pawns = n
			case "plycap":
				spec.PlyCap = n
			}
			continue
		}
		switch opt.Key {
		case "blocked":
			spec.Blocked = v
		case "first":
			spec.First = v
		}
	}
	if err := Check(spec); err != nil {
		return spec, fmt.Errorf("%s: %w", spec.Name, err)
	}
	return spec, nil
}

// Check reports whether a spec is a game a person may configure: one New
// builds, with a layout the rules allow.
func Check(spec Spec) error {
	g, err := New(spec)
	if err != nil {
		return err
	}
	if sg, ok := g.(*slider.Game); ok {
		return slider.CheckLayout(sg.Config().Blocked, sg.Size())
	}
	return nil
}
