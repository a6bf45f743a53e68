package player

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/mcts"
)

// ErrBadSpec is what every error about a spec as written wraps (not
// parsed, an unknown kind or option, an option out of range), so that a
// command can tell a bad command line from a player that failed.
var ErrBadSpec = errors.New("bad player spec")

// specError marks an error as ErrBadSpec without changing its message.
type specError struct{ error }

func (e specError) Unwrap() []error { return []error{e.error, ErrBadSpec} }

// BadSpec marks err, an error about a spec as written (an option out of
// its range, unknown or malformed), as ErrBadSpec without changing its
// message: for kinds of players defined outside this package.
func BadSpec(err error) error { return specError{err} }

// Spec is a parsed player spec string: a kind, then after a colon an
// optional positional argument and key=value options separated by commas,
// e.g. "alphabeta:depth=4", "mcts:sims=1000,time=1s", "player:FILE,sims=800".
type Spec struct {
	Kind    string
	Arg     string
	Options map[string]string
}

// ParseSpec reads a spec string.
func ParseSpec(text string) (Spec, error) {
	t := strings.TrimSpace(text)
	kind, rest, _ := strings.Cut(t, ":")
	kind = strings.ToLower(strings.TrimSpace(kind))
	if kind == "" {
		return Spec{}, specError{fmt.Errorf("empty player spec: want a kind such as random, greedy, alphabeta:depth=4 or mcts:sims=1000")}
	}
	sp := Spec{Kind: kind, Options: map[string]string{}}
	if strings.TrimSpace(rest) == "" {
		return sp, nil
	}
	for i, item := range strings.Split(rest, ",") {
		item = strings.TrimSpace(item)
		k, v, ok := strings.Cut(item, "=")
		switch {
		case !ok && i == 0 && item != "":
			sp.Arg = item
		case !ok:
			return Spec{}, specError{fmt.Errorf("player spec %q: option %q is not key=value", text, item)}
		default:
			k = strings.ToLower(strings.TrimSpace(k))
			if k == "" {
				return Spec{}, specError{fmt.Errorf("player spec %q: option %q has no name", text, item)}
			}
			if _, dup := sp.Options[k]; dup {
				return Spec{}, specError{fmt.Errorf("player spec %q: option %s given twice", text, k)}
			}
			sp.Options[k] = strings.TrimSpace(v)
		}
	}
	return sp, nil
}

// String writes the spec back in the form ParseSpec reads, options sorted.
func (sp Spec) String() string {
	var parts []string
	if sp.Arg != "" {
		parts = append(parts, sp.Arg)
	}
	keys := make([]string, 0, len(sp.Options))
	for k := range sp.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, k+"="+sp.Options[k])
	}
	if len(parts) == 0 {
		return sp.Kind
	}
	return sp.Kind + ":" + strings.Join(parts, ",")
}

// With returns a copy of the spec with one option set.
func (sp Spec) With(key, value string) Spec {
	c := sp.clone()
	c.Options[key] = value
	return c
}

// clone is a copy of the spec that shares no map with it.
func (sp Spec) clone() Spec {
	c := Spec{Kind: sp.Kind, Arg: sp.Arg, Options: make(map[string]string, len(sp.Options)+1)}
	for k, v := range sp.Options {
		c.Options[k] = v
	}
	return c
}

// options reads a spec's options, remembering which were used so that
// misspelt ones are reported rather than ignored.
type options struct {
	spec    Spec
	used    map[string]bool
	argUsed bool
	err     error
	// hint names the options the kind takes, for an unknown one.
	hint string
}

func newOptions(sp Spec) *options { return &options{spec: sp, used: map[string]bool{}} }

// arg is the spec's argument before its options (a file, a command),
// which only the kinds that read it take.
func (o *options) arg() string {
	o.argUsed = true
	return o.spec.Arg
}

// keys are the spec's option names, sorted.
func (o *options) keys() []string {
	keys := make([]string, 0, len(o.spec.Options))
	for k := range o.spec.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (o *options) lookup(keys ...string) (string, string, bool) {
	for _, k := range keys {
		if v, ok := o.spec.Options[k]; ok {
			o.used[k] = true
			return k, v, true
		}
	}
	return "", "", false
}

// int reads a whole number option (any of the given names) from lo to
// hi.
func (o *options) int(def, lo, hi int, keys ...string) int {
	k, v, ok := o.lookup(keys...)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		o.fail(fmt.Errorf("option %s=%q: want a whole number from %d to %d", k, env.Excerpt(v, 20), lo, hi))
		return def
	}
	return n
}

// MaxDepth bounds alpha-beta's depth (depth=): the depth it searches to
// when only a time or nodes bound it.
const MaxDepth = 100

// MaxNodes bounds alpha-beta's nodes= budget: days of search.
const MaxNodes = 1_000_000_000_000

// float reads a decimal option.
func (o *options) float(def float64, keys ...string) float64 {
	k, v, ok := o.lookup(keys...)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= 0) || math.IsInf(f, 0) {
		o.fail(fmt.Errorf("option %s=%q: want a non-negative number", k, v))
		return def
	}
	return f
}

// duration reads a time option: a Go duration ("1s", "250ms") or plain
// seconds ("1.5").
func (o *options) duration(def time.Duration, keys ...string) time.Duration {
	k, v, ok := o.lookup(keys...)
	if !ok {
		return def
	}
	d, err := ParseSeconds(v)
	if err != nil {
		o.fail(fmt.Errorf("option %s: %w", k, err))
		return def
	}
	return d
}

// MaxTime bounds every time budget: a day.
const MaxTime = mcts.MaxTime

// ParseSeconds reads a time as a Go duration ("1s", "250ms") or as a
// decimal number of seconds ("1.5").
func ParseSeconds(v string) (time.Duration, error) { return mcts.ParseSeconds(v) }

func (o *options) fail(err error) {
	if o.err == nil {
		o.err = err
	}
}

// kindLabel names a kind of player in errors: "player alphabeta", and
// "player file" for the kind whose name is player.
func kindLabel(kind string) string {
	if kind == "player" {
		return "player file"
	}
	return "player " + kind
}

// done reports the first bad or unknown option.
func (o *options) done() error {
	if o.err != nil {
		return specError{fmt.Errorf("%s: %w", kindLabel(o.spec.Kind), o.err)}
	}
	if o.spec.Arg != "" && !o.argUsed {
		// Only a file or a command comes before the options: "mcts:sims"
		// is a forgotten "=N", not a setting to drop.
		return specError{fmt.Errorf("%s takes no argument (%s): its options are key=value", kindLabel(o.spec.Kind), env.Quote(env.Excerpt(o.spec.Arg, 40)))}
	}
	var unknown []string
	for k := range o.spec.Options {
		if !o.used[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		hint := ""
		if o.hint != "" {
			hint = " (" + o.hint + ")"
		}
		return specError{fmt.Errorf("%s: unknown option %s%s", kindLabel(o.spec.Kind), strings.Join(unknown, ", "), hint)}
	}
	return nil
}
