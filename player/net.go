package player

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
)

// Net plays with the network-guided search and a trained network. It keeps
// its tree between moves and reuses the subtree when the new position is
// one move after its last.
type Net struct {
	spec string
	tree *mcts.Tree
	// fwds is one network pass for each of the search's threads.
	fwds []mcts.Network
	net  *model.Net
	buf  []int
	// The last search's root policy and value, kept for analysis before
	// the tree moves on.
	lastPi     []float32
	lastValue  float32
	lastVisits int
	// lastProofs holds what the last search proved: the root's (for its
	// side to move) first, then each move's, as "win in 5" and so on.
	lastProof  string
	lastProofs map[int]string
	// File is what the network was loaded from.
	File *model.NetFile
	// own is the game the network was trained for, when it sees other
	// games' positions through it: the same rules with another input
	// (games.SameRules); nil when it plays the games it is given.
	own env.Game
	// sight is the last position given in another game and what it was
	// read as in own: a position a move or two later is read by playing
	// those moves, so that what the text form leaves out (the ply count)
	// carries over and the tree is reused.
	sight struct{ given, read env.State }
}

// newNet builds a net player from a spec's options.
func newNet(sp Spec, o *options, game env.Game, opts Options, rng *rand.Rand) (*Net, error) {
	path := o.arg()
	if _, v, ok := o.lookup("checkpoint", "file"); ok {
		if path != "" {
			return nil, fmt.Errorf("player net: give the file once, as net:PATH or net:checkpoint=PATH")
		}
		path = v
	}
	if path == "" {
		return nil, fmt.Errorf("player net needs a file: net:checkpoint=PATH (a checkpoint.msgpack or weights.msgpack)")
	}
	base := mcts.DefaultParams()
	base.Threads = opts.Threads
	cfg, err := searchOptions(o, base)
	if err != nil {
		return nil, err
	}
	f, net, err := filesOf(opts).Net(path)
	if err != nil {
		return nil, err
	}
	own, err := ownGame(f.Weights, f.Game, game)
	if err != nil {
		return nil, fmt.Errorf("%s was trained for %s: %w", path, f.Game, err)
	}
	p, err := netPlayer(sp.String(), net, cmp.Or(own, game), cfg, rng)
	if err != nil {
		return nil, err
	}
	p.File, p.own = f, own
	return p, nil
}

// filesOf is the options' file cache, or one for this build alone.
func filesOf(opts Options) *Files {
	if opts.Files != nil {
		return opts.Files
	}
	return NewFiles()
}

// searchOptions applies a spec's search settings to base (mcts's table of
// settings, by their names or old ones): sims and time, when either is
// given, replace its budget together.
func searchOptions(o *options, base mcts.Params) (mcts.Params, error) {
	cfg := base
	var budget mcts.Params
	given := map[string]string{}
	o.hint = "its search settings: " + strings.Join(mcts.SettingNames(true), ", ")
	for _, k := range o.keys() {
		s, _, ok := mcts.LookupSetting(k)
		if !ok || !s.Play {
			continue // done reports it, unless the kind reads it
		}
		o.used[k] = true
		if prev, dup := given[s.Name]; dup {
			o.fail(fmt.Errorf("%s is given twice (as %s and %s)", s.Name, prev, k))
			continue
		}
		given[s.Name] = k
		target := &cfg
		if s.Name == "sims" || s.Name == "time" {
			target = &budget
		}
		if err := target.Set(k, o.spec.Options[k]); err != nil {
			o.fail(err)
		}
	}
	if budget.Sims > 0 || budget.Time > 0 {
		cfg.Sims, cfg.Time = budget.Sims, budget.Time
	}
	if _, ok := given["threads"]; !ok && cfg.Gumbel {
		// A default of many threads gives way to a Gumbel search, which
		// runs on one; only an explicit threads=N is refused with it.
		cfg.Threads = 1
	}
	if o.err != nil {
		return cfg, o.done()
	}
	if err := cfg.Check(); err != nil {
		return cfg, specError{fmt.Errorf("%s: %w", kindLabel(o.spec.Kind), err)}
	}
	return cfg, nil
}

// NewNet returns a player that searches with cfg and the given weights.
func NewNet(spec string, w *model.Weights, game env.Game, cfg mcts.Params, rng *rand.Rand) (*Net, error) {
	net, err := model.NewNet(w)
	if err != nil {
		return nil, err
	}
	return netPlayer(spec, net, game, cfg, rng)
}

// netPlayer is NewNet with the network made ready.
func netPlayer(spec string, net *model.Net, game env.Game, cfg mcts.Params, rng *rand.Rand) (*Net, error) {
	if err := net.Arch().CheckGame(game); err != nil {
		return nil, err
	}
	tree, err := mcts.NewTree(cfg, rng)
	if err != nil {
		return nil, err
	}
	return &Net{spec: spec, tree: tree, fwds: forwards(net, cfg.Threads), net: net}, nil
}

// forwards is one network pass for each of threads (at least one).
func forwards(net *model.Net, threads int) []mcts.Network {
	fs := make([]mcts.Network, max(1, threads))
	for i := range fs {
		fs[i] = net.NewForward()
	}
	return fs
}

func (p *Net) String() string { return p.spec }

func (p *Net) Move(ctx context.Context, s env.State) (int, error) {
	if s.Outcome().Over {
		return 0, fmt.Errorf("no legal move: the game is over")
	}
	given := s
	s, err := p.seen(given)
	if err != nil {
		return 0, err
	}
	p.follow(s)
	a, err := mcts.SearchThreads(ctx, p.tree, p.fwds, 0)
	if err != nil {
		return 0, err
	}
	if len(p.lastPi) != s.Game().ActionSize() {
		p.lastPi = make([]float32, s.Game().ActionSize())
	}
	p.tree.Policy(p.lastPi)
	p.lastValue = p.tree.Value()
	p.lastVisits = p.tree.Sims()
	v := p.tree.Verdict()
	p.lastProof = mcts.Describe(v.Proof, v.ProofPlies)
	clear(p.lastProofs)
	for _, act := range s.LegalActions(p.buf[:0]) {
		if text := mcts.Describe(p.tree.ChildProof(act)); text != "" {
			if p.lastProofs == nil {
				p.lastProofs = map[int]string{}
			}
			p.lastProofs[act] = text
		}
	}
	p.tree.Advance(a)
	if s != given {
		// The position after the move, read as the tree now holds it.
		p.sight.given.Apply(a)
		p.sight.read.Apply(a)
	}
	return a, nil
}

// LastSearch is the last search's value for the side that moved and its
// simulations.
func (p *Net) LastSearch() (float32, int) { return p.lastValue, p.lastVisits }

// Analysis is the last search's view of the position it was asked about:
// the value for its side to move, and the search policy copied into dst.
func (p *Net) Analysis(dst []float32) float32 {
	copy(dst, p.lastPi)
	return p.lastValue
}

// LastProof is what the last search proved of its position, for the side
// to move ("win in 5", "loss in 4", "draw"; "" for nothing), and of the
// move action ("win in 5": the move wins).
func (p *Net) LastProof(action int) (position, move string) {
	return p.lastProof, p.lastProofs[action]
}

// Analyze searches s and returns its value for the side to move and the
// top candidate moves by the search's policy.
func (p *Net) Analyze(ctx context.Context, s env.State, top int) (Analysis, error) {
	if _, err := p.Move(ctx, s); err != nil {
		return Analysis{}, err
	}
	return analysis(p, s, top), nil
}

// follow points the tree at s, reusing the subtree when s is one move
// after the tree's root.
func (p *Net) follow(s env.State) {
	if h, ok := s.(env.HistoryBound); ok && h.HistoryBound() {
		// Under a repetition rule the position comes with the game's
		// history, which the move just played has changed: search it
		// afresh (replaying the move on the old root would count it twice).
		p.tree.Reset(s)
		return
	}
	root := p.tree.Root()
	if root == nil || root.Game() != s.Game() {
		p.tree.Reset(s)
		return
	}
	if root.Hash() == s.Hash() && root.String() == s.String() {
		return
	}
	p.buf = root.LegalActions(p.buf[:0])
	next := root.Clone()
	for _, a := range p.buf {
		next.CopyFrom(root)
		next.Apply(a)
		if next.Hash() == s.Hash() && next.String() == s.String() && next.Ply() == s.Ply() {
			p.tree.Advance(a)
			return
		}
	}
	p.tree.Reset(s)
}

// ownGame is the game a network trained for trained (its file's spec)
// must see game's positions through: nil when it fits game itself, its
// own game when that has game's rules and another input, else an error.
func ownGame(w *model.Weights, trained registry.Spec, game env.Game) (env.Game, error) {
	err := w.Arch.CheckGame(game)
	if err == nil {
		return nil, nil
	}
	own, gerr := games.New(trained)
	if gerr != nil || !games.SameRules(own, game) || w.Arch.CheckGame(own) != nil {
		return nil, err
	}
	return own, nil
}

// seen is s as the network sees it: read in the player's own game when
// it plays another game's positions (ownGame).
func (p *Net) seen(s env.State) (env.State, error) {
	if p.own == nil || s.Game() == p.own || p.net.Arch().CheckGame(s.Game()) == nil {
		return s, nil
	}
	t := p.sightOf(s)
	if t == nil {
		var err error
		if t, err = p.own.ParseState(s.String()); err != nil {
			return nil, fmt.Errorf("reading %s as %s: %w", s, games.Describe(p.own), err)
		}
	}
	p.sight.given, p.sight.read = s.Clone(), t.Clone()
	return t, nil
}

// sightOf is s read in the player's own game by playing, from the last
// position read, the moves that lead to s (none, one or two); nil when no
// such line is found.
func (p *Net) sightOf(s env.State) env.State {
	given, read := p.sight.given, p.sight.read
	if given == nil || given.Game() != s.Game() {
		return nil
	}
	same := func(a, b env.State) bool {
		return a.Hash() == b.Hash() && a.Ply() == b.Ply() && a.String() == b.String()
	}
	if same(given, s) {
		return read.Clone()
	}
	for _, a := range given.LegalActions(nil) {
		g1, r1 := given.Clone(), read.Clone()
		g1.Apply(a)
		r1.Apply(a)
		if same(g1, s) {
			return r1
		}
		if g1.Outcome().Over {
			continue
		}
		for _, b := range g1.LegalActions(nil) {
			g2 := g1.Clone()
			g2.Apply(b)
			if same(g2, s) {
				r1.Apply(b)
				return r1
			}
		}
	}
	return nil
}

// Params are the settings the player searches with.
func (p *Net) Params() mcts.Params { return p.tree.Params() }
