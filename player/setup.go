package player

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/mcts"
)

// Setup is a player spec read once, at the edge where its text came in (a
// flag, an engine command, a web request, a configuration): a kind the
// factory knows with checked options, ready to build a player for each
// game. Building reads no file the factory loaded before. A Setup never
// changes: the With methods return changed copies, so one Setup may be
// shared by goroutines.
type Setup struct {
	f       *Factory
	kind    Kind
	spec    Spec
	threads int
	in      io.Reader
	out     io.Writer
}

// Read parses a spec's text and prepares it (Prepare).
func (f *Factory) Read(text string, game env.Game, opts Options) (*Setup, error) {
	sp, err := ParseSpec(text)
	if err != nil {
		return nil, err
	}
	return f.Prepare(sp, game, opts)
}

// Prepare checks a spec by building one player of it for game (loading
// what it reads into the factory's files), and keeps what building more
// needs: the options' threads, keyboard and screen (not its seed).
func (f *Factory) Prepare(sp Spec, game env.Game, opts Options) (*Setup, error) {
	k, ok := f.Kind(sp.Kind)
	if !ok {
		_, err := f.Build(sp, game, opts) // names the kinds there are
		return nil, err
	}
	s := &Setup{f: f, kind: k, spec: sp.clone(), threads: opts.Threads, in: opts.In, out: opts.Out}
	p, err := s.New(game, opts.Seed)
	if err != nil {
		return nil, err
	}
	closePlayer(p)
	return s, nil
}

// New builds a player of the setup for game, seeded with seed.
func (s *Setup) New(game env.Game, seed uint64) (Player, error) {
	return s.f.Build(s.spec, game, Options{Seed: seed, In: s.in, Out: s.out, Threads: s.threads, Files: s.f.files})
}

// Spec is the setup's spec, with every change made to it.
func (s *Setup) Spec() Spec { return s.spec.clone() }

// String is the setup's spec as text.
func (s *Setup) String() string { return s.spec.String() }

// Name is the player's short name for tables: its name= option, or its
// spec.
func (s *Setup) Name() string {
	if n := s.spec.Options["name"]; n != "" {
		return n
	}
	return s.spec.String()
}

// Kind is the setup's kind of player.
func (s *Setup) Kind() Kind { return s.kind }

// Threads is the threads a search of the setup uses when its spec does
// not say.
func (s *Setup) Threads() int { return s.threads }

// Budget limits one move's search: simulations, time, or both (the first
// reached stops it). Zero values mean the player's defaults.
type Budget struct {
	Sims int
	Time time.Duration
}

// WithBudget returns the setup with the budget's non-zero parts replacing
// its own: simulations under the kind's name for them (sims, nodes,
// visits), time as time.
func (s *Setup) WithBudget(b Budget) *Setup {
	c := s.clone()
	if b.Sims > 0 {
		for _, alias := range []string{"sims", "visits", "nodes"} {
			delete(c.spec.Options, alias)
		}
		c.spec.Options[cmp.Or(s.kind.SimsKey, "visits")] = strconv.Itoa(b.Sims)
	}
	if b.Time > 0 {
		c.spec.Options["time"] = strconv.FormatFloat(b.Time.Seconds(), 'f', -1, 64)
	}
	return c
}

// WithThreads returns the setup searching with n threads when its spec
// does not say; one whose spec says takes n instead.
func (s *Setup) WithThreads(n int) (*Setup, error) {
	if n < 1 || n > mcts.MaxThreads {
		return nil, fmt.Errorf("threads %d: want a whole number from 1 to %d", n, mcts.MaxThreads)
	}
	c := s.clone()
	c.threads = n
	if _, ok := c.spec.Options["threads"]; ok {
		c.spec.Options["threads"] = strconv.Itoa(n)
	}
	return c, nil
}

// WithSetting returns the setup with a search setting (mcts.Settings, by
// name or an old one) set, checked against its range; kinds without the
// network search refuse it.
func (s *Setup) WithSetting(name, value string) (*Setup, error) {
	set, _, ok := mcts.LookupSetting(name)
	if !ok || !set.Play {
		return nil, fmt.Errorf("%w %s: want one of %s", mcts.ErrUnknownSetting, name, strings.Join(mcts.SettingNames(true), ", "))
	}
	if !s.kind.Search {
		return nil, fmt.Errorf("%s has no search setting %s (the network players, net and player, have)", kindLabel(s.kind.Name), set.Name)
	}
	var p mcts.Params
	if err := p.Set(name, value); err != nil {
		return nil, err
	}
	c := s.clone()
	for _, o := range set.Old {
		delete(c.spec.Options, o.Name)
	}
	v, _ := p.Get(set.Name)
	c.spec.Options[set.Name] = v
	return c, nil
}

func (s *Setup) clone() *Setup {
	c := *s
	c.spec = s.spec.clone()
	return &c
}
