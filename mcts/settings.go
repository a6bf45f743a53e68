package mcts

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The search's settings, each under one name: a training configuration's
// "search" object, a player spec's options, the engine's set command, the
// web app and every error message use the names of this table. Names a
// setting had before are still read (old command lines, scripts); errors
// and help give the name of the table.

// SettingType is what kind of value a setting takes.
type SettingType int

const (
	Whole   SettingType = iota // a whole number
	Number                     // a decimal number
	Switch                     // true or false
	Seconds                    // a time: seconds (1.5) or a duration (250ms)
)

// MaxTime bounds every time budget: a day.
const MaxTime = 24 * time.Hour

// MaxNodesLimit bounds max_nodes: at 56 bytes a node, a tree of this many
// nodes takes about 1.9 GB, and a tree reused between moves may keep a
// second one.
const MaxNodesLimit = 1 << 25

// Setting is one search setting.
type Setting struct {
	Name string
	Help string
	Type SettingType
	// Min and Max bound a number; with Below the value must be under Max.
	Min, Max float64
	Below    bool
	// ZeroIsDefault: a stored 0 means the default (files written before
	// the setting existed), though a user may not give 0.
	ZeroIsDefault bool
	// Play: a player's search takes it (specs, the engine, the web app);
	// Train: a training configuration's search does.
	Play, Train bool
	// Old are names the setting was given before; an inverted one is a
	// switch of the opposite sense (proofs=false is no_proofs=true).
	Old []OldName
	// field points at the setting's value in p: *int, *float64, *bool or
	// *time.Duration, by Type.
	field func(p *Params) any
}

// OldName is a name a setting had before.
type OldName struct {
	Name     string
	Inverted bool
}

var settings = []Setting{
	{Name: "sims", Help: "simulations a move (with time, the first reached stops the search)", Type: Whole, Min: 1, Max: MaxSims, ZeroIsDefault: true, Play: true, Train: true,
		Old: []OldName{{Name: "visits"}}, field: func(p *Params) any { return &p.Sims }},
	{Name: "time", Help: "time a move, in seconds or as a duration; 0 for none", Type: Seconds, Min: 0, Max: MaxTime.Seconds(), Play: true,
		Old: []OldName{{Name: "movetime"}}, field: func(p *Params) any { return &p.Time }},
	{Name: "c_puct", Help: "PUCT's exploration constant: the prior's weight against the value", Type: Number, Min: 0, Max: 100, ZeroIsDefault: true, Play: true, Train: true,
		Old: []OldName{{Name: "cpuct"}}, field: func(p *Params) any { return &p.CPUCT }},
	{Name: "fpu_reduction", Help: "how much worse than its parent an unvisited child is assumed (first-play urgency)", Type: Number, Min: 0, Max: 2, ZeroIsDefault: true, Play: true, Train: true,
		field: func(p *Params) any { return &p.FPUReduction }},
	{Name: "noise_alpha", Help: "the Dirichlet noise's alpha at the root (self-play only)", Type: Number, Min: 0, Max: 100, Train: true,
		field: func(p *Params) any { return &p.NoiseAlpha }},
	{Name: "noise_frac", Help: "the share of the root's prior replaced by Dirichlet noise (self-play only)", Type: Number, Min: 0, Max: 1, Below: true, Train: true,
		field: func(p *Params) any { return &p.NoiseFrac }},
	{Name: "gumbel", Help: "Gumbel root search with sequential halving instead of PUCT", Type: Switch, Play: true, Train: true,
		field: func(p *Params) any { return &p.Gumbel }},
	{Name: "gumbel_m", Help: "the actions Gumbel search samples at the root", Type: Whole, Min: 1, Max: 1024, ZeroIsDefault: true, Play: true, Train: true,
		field: func(p *Params) any { return &p.GumbelM }},
	{Name: "gumbel_visit_init", Help: "Gumbel's sigma: the visits added to the most visited child's before scaling q", Type: Number, Min: 0, Max: 1e6, ZeroIsDefault: true, Play: true, Train: true,
		field: func(p *Params) any { return &p.GumbelVisitInit }},
	{Name: "gumbel_value_scale", Help: "Gumbel's sigma: q's scale", Type: Number, Min: 0, Max: 100, ZeroIsDefault: true, Play: true, Train: true,
		field: func(p *Params) any { return &p.GumbelValueScale }},
	{Name: "gumbel_timed_visits", Help: "the visits a candidate Gumbel's halving plans for under a time budget", Type: Whole, Min: 1, Max: MaxSims, ZeroIsDefault: true, Play: true, Train: true,
		field: func(p *Params) any { return &p.GumbelTimedVisits }},
	{Name: "max_nodes", Help: "the tree's size cap, and so its memory (56 bytes a node); a search that reaches it stops", Type: Whole, Min: 1000, Max: MaxNodesLimit, ZeroIsDefault: true, Play: true, Train: true,
		field: func(p *Params) any { return &p.MaxNodes }},
	{Name: "no_proofs", Help: "turns off the proofs of won and lost lines (MCTS-Solver)", Type: Switch, Play: true, Train: true,
		Old: []OldName{{Name: "proofs", Inverted: true}}, field: func(p *Params) any { return &p.NoProofs }},
	{Name: "no_win_check", Help: "turns off the look one move ahead at each new leaf for a move that wins at once", Type: Switch, Play: true, Train: true,
		Old: []OldName{{Name: "wincheck", Inverted: true}}, field: func(p *Params) any { return &p.NoWinCheck }},
	{Name: "no_moves_left", Help: "ignores the network's plies to the end (the moves-left utility)", Type: Switch, Play: true, Train: true,
		Old: []OldName{{Name: "movesleft", Inverted: true}}, field: func(p *Params) any { return &p.NoMovesLeft }},
	{Name: "moves_left_effect", Help: "the most value the moves-left utility adds or takes", Type: Number, Min: 0, Max: 1, ZeroIsDefault: true, Play: true, Train: true,
		Old: []OldName{{Name: "movesleft_effect"}}, field: func(p *Params) any { return &p.MovesLeftEffect }},
	{Name: "moves_left_slope", Help: "the value a ply sooner is worth to the moves-left utility", Type: Number, Min: 0, Max: 1, ZeroIsDefault: true, Play: true, Train: true,
		Old: []OldName{{Name: "movesleft_slope"}}, field: func(p *Params) any { return &p.MovesLeftSlope }},
	{Name: "moves_left_threshold", Help: "how decided a value must be before the moves-left utility counts", Type: Number, Min: 0, Max: 1, Below: true, ZeroIsDefault: true, Play: true, Train: true,
		Old: []OldName{{Name: "movesleft_threshold"}}, field: func(p *Params) any { return &p.MovesLeftThreshold }},
	{Name: "threads", Help: "threads searching one tree (more than one makes seeded searches differ from run to run)", Type: Whole, Min: 1, Max: MaxThreads, ZeroIsDefault: true, Play: true,
		field: func(p *Params) any { return &p.Threads }},
}

// Settings lists the search's settings.
func Settings() []Setting { return append([]Setting(nil), settings...) }

// LookupSetting finds a setting by its name or an old one; inverted says
// the name given is a switch of the opposite sense.
func LookupSetting(name string) (s Setting, inverted, ok bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, s := range settings {
		if s.Name == name {
			return s, false, true
		}
		for _, o := range s.Old {
			if o.Name == name {
				return s, o.Inverted, true
			}
		}
	}
	return Setting{}, false, false
}

// ErrUnknownSetting is what an error about a name that is no search
// setting wraps.
var ErrUnknownSetting = errors.New("unknown search setting")

// Set gives the named setting (by its name or an old one) a value written
// as text, checked against the setting's range. Errors name the setting
// as the table does.
func (p *Params) Set(name, value string) error {
	s, inverted, ok := LookupSetting(name)
	if !ok {
		return fmt.Errorf("%w %s", ErrUnknownSetting, name)
	}
	return s.set(p, name, value, inverted)
}

func (s Setting) set(p *Params, given, value string, inverted bool) error {
	label := s.Name + "=" + value
	if given != s.Name {
		label += " (given as " + given + ")"
	}
	value = strings.TrimSpace(value)
	switch f := s.field(p).(type) {
	case *bool:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("%s: want true or false", label)
		}
		*f = b != inverted
	case *int:
		n, err := strconv.Atoi(value)
		if err != nil || float64(n) < s.Min || float64(n) > s.Max {
			return fmt.Errorf("%s: want %s", label, s.Range())
		}
		*f = n
	case *float64:
		x, err := strconv.ParseFloat(value, 64)
		if err != nil || !s.inRange(x) {
			return fmt.Errorf("%s: want %s", label, s.Range())
		}
		*f = x
	case *time.Duration:
		d, err := ParseSeconds(value)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		*f = d
	}
	return nil
}

// inRange reports whether x is within the setting's bounds (NaN is not).
func (s Setting) inRange(x float64) bool {
	if !(x >= s.Min) || x > s.Max || s.Below && x >= s.Max {
		return false
	}
	return true
}

// Range says in words which values the setting takes.
func (s Setting) Range() string {
	r := s.span()
	if s.ZeroIsDefault && s.Min <= 0 {
		def, _ := DefaultParams().Get(s.Name)
		r += " (0 keeps the default, " + def + ")"
	}
	return r
}

func (s Setting) span() string {
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	switch s.Type {
	case Switch:
		return "true or false"
	case Whole:
		return fmt.Sprintf("a whole number from %s to %s", num(s.Min), num(s.Max))
	case Seconds:
		return fmt.Sprintf("a time from 0 to %s seconds", num(s.Max))
	}
	if s.Below {
		return fmt.Sprintf("a number from %s up to (not including) %s", num(s.Min), num(s.Max))
	}
	return fmt.Sprintf("a number from %s to %s", num(s.Min), num(s.Max))
}

// Get is the named setting's value in p, written as Set reads it.
func (p Params) Get(name string) (string, error) {
	s, inverted, ok := LookupSetting(name)
	if !ok {
		return "", fmt.Errorf("%w %s", ErrUnknownSetting, name)
	}
	switch f := s.field(&p).(type) {
	case *bool:
		return strconv.FormatBool(*f != inverted), nil
	case *int:
		return strconv.Itoa(*f), nil
	case *float64:
		return strconv.FormatFloat(*f, 'f', -1, 64), nil
	case *time.Duration:
		return strconv.FormatFloat(f.Seconds(), 'f', -1, 64), nil
	}
	return "", nil
}

// checkRanges reports the first setting whose stored value is out of its
// range, by its name.
func (p Params) checkRanges() error {
	for _, s := range settings {
		var x float64
		switch f := s.field(&p).(type) {
		case *int:
			x = float64(*f)
		case *float64:
			x = *f
		case *time.Duration:
			x = f.Seconds()
		default:
			continue
		}
		if s.ZeroIsDefault && x == 0 || s.inRange(x) {
			continue
		}
		return fmt.Errorf("search: %s=%v: want %s", s.Name, x, s.Range())
	}
	return nil
}

// SettingNames lists the settings' names a surface takes: play for a
// player's search, else a training configuration's.
func SettingNames(play bool) []string {
	var out []string
	for _, s := range settings {
		if play && s.Play || !play && s.Train {
			out = append(out, s.Name)
		}
	}
	sort.Strings(out)
	return out
}

// ParseSeconds reads a time as a Go duration ("1s", "250ms") or as a
// decimal number of seconds ("1.5"), from 0 to MaxTime.
func ParseSeconds(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		f, ferr := strconv.ParseFloat(v, 64)
		switch {
		case ferr != nil && !errors.Is(ferr, strconv.ErrRange), math.IsNaN(f):
			return 0, fmt.Errorf("time %q: want seconds (1.5) or a duration (1s, 250ms)", v)
		case f < 0:
			return 0, fmt.Errorf("time %q is negative", v)
		case f > MaxTime.Seconds():
			return 0, fmt.Errorf("time %q: at most %.0f seconds", v, MaxTime.Seconds())
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d < 0 {
		return 0, fmt.Errorf("time %q is negative", v)
	}
	if d > MaxTime {
		return 0, fmt.Errorf("time %q: at most %.0f seconds", v, MaxTime.Seconds())
	}
	return d, nil
}
