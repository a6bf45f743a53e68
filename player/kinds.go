package player

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/mcts"
)

// Kind is a kind of player, as a spec names it: how a spec of it is read
// and built, and what the commands, the engine and the web app say of it.
type Kind struct {
	Name string
	// Usage is the spec's form, Help what the kind is, for help texts.
	Usage, Help string
	// Served marks a kind the web app may offer: one that needs no
	// terminal, runs no program the server was not started with, and
	// judges no play.
	Served bool
	// SimsKey is the option that carries a budget of simulations (sims,
	// nodes, visits), "" for a kind that has none; every kind takes
	// time= and visits= and ignores what it cannot use.
	SimsKey string
	// Search marks a kind that searches with the network search and
	// takes its settings (mcts.Settings).
	Search bool
	// New builds a player of the kind from its spec, reading and checking
	// the spec's options itself. Kinds added outside this package give
	// it; the built-in ones read their options through build.
	New func(sp Spec, game env.Game, o Options) (Player, error)
	// build builds a built-in kind, reading its options through o (which
	// then reports the unread ones).
	build func(sp Spec, o *options, game env.Game, opts Options, rng *rand.Rand) (Player, error)
}

// Options are what building a player needs beyond its spec.
type Options struct {
	// Seed makes every random choice of the player reproducible.
	Seed uint64
	// In and Out are the keyboard and screen of a human player.
	In  io.Reader
	Out io.Writer
	// Threads is how many threads a network player's search uses when
	// its spec does not say (threads=N): 0 or 1 for one. Interactive
	// commands give the machine's cores; matches, evaluations and
	// self-play, which run games side by side, keep one.
	Threads int
	// Files loads each network and player file once (nil: a cache of its
	// own for this one build).
	Files *Files
}

// builtin are the kinds this package defines, in the order help lists
// them.
var builtin = []Kind{
	{Name: "human", Usage: "human", Help: "moves typed at the terminal (sliderzero play)", build: buildInstant},
	{Name: "random", Usage: "random", Help: "uniform over the legal moves", Served: true, build: buildInstant},
	{Name: "greedy", Usage: "greedy", Help: "best move by the game's evaluation, one ply deep", Served: true, build: buildInstant},
	{Name: "alphabeta", Usage: "alphabeta[:depth=D,time=T,nodes=N]", SimsKey: "nodes", Served: true, build: buildAlphaBeta,
		Help: "iterative-deepening alpha-beta with a transposition table (default depth=10; time and nodes stop it earlier; one thread)"},
	{Name: "mcts", Usage: "mcts[:sims=N,time=T,c=C,threads=N]", SimsKey: "sims", Served: true, build: buildUCT,
		Help: "plain UCT with random playouts (default sims=1000); threads=N searches N trees at once and adds up their root moves (with a sims budget, the same moves on any timing)"},
	{Name: "net", Usage: "net:checkpoint=PATH[,SETTING=VALUE...]", SimsKey: "sims", Served: true, Search: true, build: buildNet,
		Help: "the network-guided search with a trained network (a run's checkpoint.msgpack or weights.msgpack; default sims=100), with any search setting below"},
	{Name: "player", Usage: "player:FILE[,SETTING=VALUE...]", SimsKey: "sims", Served: true, Search: true, build: buildFilePlayer,
		Help: "an exported player file (sliderzero export), searching with its own defaults unless a search setting below says otherwise"},
	{Name: "engine", Usage: "engine:cmd=PROGRAM ARGS[,time=T,timeout=T]", SimsKey: "visits", build: buildExternal,
		Help: "another program speaking the engine protocol (docs/protocol.md); it is told the game and the position before each move, and loses the game if it dies, answers garbage or an illegal move, or is silent past timeout (default twice time and a second, or 30s)"},
}

func buildInstant(sp Spec, o *options, game env.Game, opts Options, rng *rand.Rand) (Player, error) {
	// They answer at once: budgets do not apply.
	o.duration(0, "time")
	o.int(0, 0, mcts.MaxSims, "visits")
	switch sp.Kind {
	case "random":
		return &Random{spec: sp.String(), rng: rng}, nil
	case "greedy":
		ev, err := evaluator(game, sp.Kind)
		if err != nil {
			return nil, err
		}
		return &Greedy{spec: sp.String(), eval: ev, rng: rng}, nil
	}
	if opts.In == nil || opts.Out == nil {
		return nil, fmt.Errorf("player human needs a terminal; it cannot be used here")
	}
	return NewHuman(opts.In, opts.Out), nil
}

func buildAlphaBeta(sp Spec, o *options, game env.Game, _ Options, rng *rand.Rand) (Player, error) {
	ev, err := evaluator(game, sp.Kind)
	if err != nil {
		return nil, err
	}
	cfg := AlphaBetaConfig{
		Depth: o.int(0, 1, MaxDepth, "depth"),
		Time:  o.duration(0, "time"),
		Nodes: o.int(0, 1, MaxNodes, "nodes", "visits"),
	}
	if cfg.Depth == 0 && cfg.Time == 0 && cfg.Nodes == 0 {
		cfg.Depth = DefaultAlphaBetaDepth
	}
	return NewAlphaBeta(sp.String(), game, ev, cfg, rng), nil
}

func buildUCT(sp Spec, o *options, _ env.Game, opts Options, rng *rand.Rand) (Player, error) {
	cfg := UCTConfig{
		Sims:     o.int(0, 1, mcts.MaxSims, "sims", "visits"),
		Time:     o.duration(0, "time"),
		C:        o.float(0, "c"),
		MaxNodes: o.int(0, 1000, mcts.MaxNodesLimit, "max_nodes"),
		Threads:  o.int(max(opts.Threads, 1), 1, mcts.MaxThreads, "threads"),
	}
	if cfg.Sims == 0 && cfg.Time == 0 {
		cfg.Sims = DefaultUCTSims
	}
	return NewUCT(sp.String(), cfg, rng), nil
}

func buildNet(sp Spec, o *options, game env.Game, opts Options, rng *rand.Rand) (Player, error) {
	return newNet(sp, o, game, opts, rng)
}

func buildFilePlayer(sp Spec, o *options, game env.Game, opts Options, rng *rand.Rand) (Player, error) {
	return newFilePlayer(sp, o, game, opts, rng)
}

func buildExternal(sp Spec, o *options, _ env.Game, _ Options, _ *rand.Rand) (Player, error) {
	return newExternal(sp, o)
}

// Help describes the spec strings of the given kinds, for --help texts.
func Help(kinds []Kind) string {
	var b strings.Builder
	b.WriteString("Player specs: KIND or KIND:key=value,key=value\n")
	search := false
	for _, k := range kinds {
		b.WriteString(entry(k.Usage, k.Help))
		search = search || k.Search
	}
	if search {
		b.WriteString("Search settings of net and player, as NAME=VALUE (the engine's set NAME\nVALUE; a training configuration's \"search\" keys):\n")
		for _, s := range mcts.Settings() {
			if s.Play {
				b.WriteString(entry(s.Name, s.Help+"; "+s.Range()))
			}
		}
	}
	b.WriteString(`Times are seconds (1.5) or durations (1s, 250ms). Every kind accepts time=
and visits= (the engine's movetime and visits); players that answer at once
ignore them. Every kind accepts name=NAME, the player's short name in
tables.`)
	return b.String()
}

// entry is a term and its description, the description beside a short
// term and below a long one.
func entry(term, text string) string {
	const indent = 29
	body := wrap(text, indent, 76)
	if len(term)+2 < indent-1 {
		return "  " + term + body[len(term)+2:]
	}
	return "  " + term + "\n" + body
}

// wrap breaks text into lines of at most width, each indented by indent.
func wrap(text string, indent, width int) string {
	var b strings.Builder
	line := 0
	for _, w := range strings.Fields(text) {
		if line > 0 && line+1+len(w) > width-indent {
			b.WriteString("\n")
			line = 0
		}
		if line == 0 {
			b.WriteString(strings.Repeat(" ", indent))
		} else {
			b.WriteString(" ")
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	b.WriteString("\n")
	return b.String()
}

// ErrUnknownKind is what an error about a kind of player the factory does
// not know wraps.
var ErrUnknownKind = errors.New("unknown player kind")

// Factory builds players: it knows the kinds of player a program offers
// (this package's and any added, such as the solver's perfect player) and
// loads each file they read once. A program makes one and hands it to
// whatever builds players; it is safe for concurrent use.
type Factory struct {
	kinds []Kind
	files *Files
}

// NewFactory returns a factory of the built-in kinds and those added.
func NewFactory(added ...Kind) (*Factory, error) {
	f := &Factory{kinds: slices.Clone(builtin), files: NewFiles()}
	for _, k := range added {
		if _, dup := f.Kind(k.Name); dup || k.Name == "" || k.New == nil {
			return nil, fmt.Errorf("player kind %q is added twice, or has no name or New", k.Name)
		}
		f.kinds = append(f.kinds, k)
	}
	return f, nil
}

// Kinds lists the factory's kinds.
func (f *Factory) Kinds() []Kind { return slices.Clone(f.kinds) }

// Kind finds a kind by name.
func (f *Factory) Kind(name string) (Kind, bool) {
	for _, k := range f.kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Served lists the kinds the web app may offer (Kind.Served).
func (f *Factory) Served() []string {
	var out []string
	for _, k := range f.kinds {
		if k.Served {
			out = append(out, k.Name)
		}
	}
	return out
}

// Files is the factory's cache of loaded files.
func (f *Factory) Files() *Files { return f.files }

// Help describes the specs of the factory's kinds, but human (which only
// play takes).
func (f *Factory) Help() string {
	var ks []Kind
	for _, k := range f.kinds {
		if k.Name != "human" {
			ks = append(ks, k)
		}
	}
	return Help(ks)
}

// Build builds a player from a spec.
func (f *Factory) Build(sp Spec, game env.Game, opts Options) (Player, error) {
	k, ok := f.Kind(sp.Kind)
	if !ok {
		names := make([]string, len(f.kinds))
		for i, k := range f.kinds {
			names[i] = k.Name
		}
		return nil, specError{fmt.Errorf("%w %s: want one of %s", ErrUnknownKind, env.Quote(sp.Kind), strings.Join(names, ", "))}
	}
	if opts.Files == nil {
		opts.Files = f.files
	}
	if k.build == nil {
		return k.New(sp, game, opts)
	}
	o := newOptions(sp)
	o.lookup("name") // a short name for tables (Setup.Name), any kind
	p, err := k.build(sp, o, game, opts, rand.New(rand.NewPCG(opts.Seed, 0x5eed)))
	if err != nil {
		return nil, err
	}
	if err := o.done(); err != nil {
		closePlayer(p)
		return nil, err
	}
	return p, nil
}

// closePlayer ends a player that holds something open (another program).
func closePlayer(p Player) {
	if c, ok := p.(interface{ Close() error }); ok {
		c.Close()
	}
}
