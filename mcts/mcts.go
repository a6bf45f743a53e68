// Package mcts is the network-guided tree search: PUCT as in AlphaZero, or
// Gumbel root search with sequential halving (Danihelka et al., ICLR 2022).
// It knows games only through env.State; turns need not alternate, since
// every node remembers which side chose it.
//
// A Tree is driven step by step (SelectLeaf, then Expand with the network's
// output) so that a caller can run many trees at once and evaluate their
// leaves in one batch; Search does the whole loop for a single tree.
package mcts

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/sliderzero/sliderzero/env"
)

// Evaluator runs the network: for batch encoded positions it writes the
// policy logits (batch x actions) and the values for the side to move.
// model.Forward implements it.
type Evaluator interface {
	Run(batch int, input, logits, values []float32)
}

// Config sets up a search.
type Config struct {
	// Sims is the number of simulations per move; Time, when set, stops
	// the search earlier. At least one of them must be set.
	Sims int
	Time time.Duration
	// CPUCT weighs the prior against the value in PUCT.
	CPUCT float64
	// Dirichlet noise at the root (self-play only): a fraction NoiseFrac of
	// the prior is replaced by Dirichlet(NoiseAlpha) noise.
	NoiseAlpha float64
	NoiseFrac  float64
	// Gumbel switches to Gumbel root search with sequential halving over
	// GumbelM sampled actions, and the deterministic Gumbel selection below
	// the root.
	Gumbel  bool
	GumbelM int
	// MaxNodes bounds the tree's size, and so its memory: a search that
	// reaches it stops with its best move so far (0: DefaultMaxNodes).
	MaxNodes int
}

// DefaultMaxNodes is the node limit when none is given: about 200 MB of
// tree, some minutes of search on a laptop.
const DefaultMaxNodes = 1 << 22

// DefaultConfig returns the settings used when a spec gives none.
func DefaultConfig() Config {
	return Config{Sims: 100, CPUCT: 1.5, GumbelM: 16}
}

// Gumbel search's transformation of values (the paper's sigma), with the
// constants of DeepMind's mctx.
const (
	gumbelVisitInit = 50
	gumbelScale     = 0.1
)

type node struct {
	action     int32
	firstChild int32 // -1 until expanded
	numChild   int32
	visits     int32
	valueSum   float32 // from the point of view of mover
	prior      float32
	logit      float32
	mover      env.Side // the side that chose this node's action
	terminal   bool
	termValue  float32 // outcome for mover when terminal
}

func (n *node) q() float32 { return n.valueSum / float32(n.visits) }

// Tree is one search tree. It is not safe for concurrent use.
type Tree struct {
	cfg   Config
	rng   *rand.Rand
	nodes []node
	root  env.State // the root position (owned)
	leaf  env.State // scratch: the position at the selected leaf
	path  []int32
	// pending is set between SelectLeaf and Expand.
	pending bool
	sims    int
	// Root statistics for Gumbel search.
	gumbel     []float64 // per root child
	candidates []int32   // root children still in the halving
	phaseVisit int32     // visits each candidate gets by the end of the phase
	phasesLeft int
	buf        []int
	noise      []float64
	scratch    []float64
	// quiet turns the root noise off (SetBudget).
	quiet bool
}

// NewTree returns an empty tree; call Reset before searching.
func NewTree(cfg Config, rng *rand.Rand) (*Tree, error) {
	if cfg.Sims <= 0 && cfg.Time <= 0 {
		return nil, fmt.Errorf("search needs a budget: sims or time")
	}
	if cfg.CPUCT <= 0 {
		cfg.CPUCT = DefaultConfig().CPUCT
	}
	if cfg.GumbelM <= 0 {
		cfg.GumbelM = DefaultConfig().GumbelM
	}
	if cfg.MaxNodes <= 0 {
		cfg.MaxNodes = DefaultMaxNodes
	}
	return &Tree{cfg: cfg, rng: rng}, nil
}

// SetBudget sets the simulations of the searches that start after it (at
// the next Reset or Advance) and whether their root gets exploration
// noise. Self-play's playout cap randomisation (KataGo) runs most moves
// with a small budget and no noise, and trains only on the full searches.
func (t *Tree) SetBudget(sims int, noise bool) {
	t.cfg.Sims = sims
	t.quiet = !noise
}

// Config returns the tree's settings.
func (t *Tree) Config() Config { return t.cfg }

// Reset makes s (copied) the root of a new, empty tree.
func (t *Tree) Reset(s env.State) {
	if t.root == nil {
		t.root, t.leaf = s.Clone(), s.Clone()
	} else {
		t.root.CopyFrom(s)
	}
	t.nodes = append(t.nodes[:0], node{action: -1, firstChild: -1, mover: env.NoSide})
	t.startMove()
}

// startMove prepares the per-move state of a search from the current root.
func (t *Tree) startMove() {
	t.sims, t.pending = 0, false
	t.candidates = t.candidates[:0]
	if t.nodes[0].firstChild >= 0 {
		t.prepareRoot()
	}
}

// Root returns the root position. It must not be modified.
func (t *Tree) Root() env.State { return t.root }

// Advance plays action at the root, keeping the subtree below it.
func (t *Tree) Advance(action int) {
	r := t.nodes[0]
	t.root.Apply(action)
	if r.firstChild < 0 {
		t.Reset(t.root)
		return
	}
	var child int32 = -1
	for c := r.firstChild; c < r.firstChild+r.numChild; c++ {
		if int(t.nodes[c].action) == action {
			child = c
		}
	}
	if child < 0 || t.nodes[child].firstChild < 0 {
		t.Reset(t.root)
		return
	}
	// Copy the subtree to the front of a fresh arena, breadth first, so
	// that children stay contiguous.
	old := t.nodes
	fresh := make([]node, 0, len(old)/2+1)
	fresh = append(fresh, old[child])
	fresh[0].action, fresh[0].mover = -1, env.NoSide
	for i := 0; i < len(fresh); i++ {
		n := fresh[i]
		if n.firstChild < 0 {
			continue
		}
		first := int32(len(fresh))
		fresh = append(fresh, old[n.firstChild:n.firstChild+n.numChild]...)
		fresh[i].firstChild = first
	}
	t.nodes = fresh
	t.startMove()
}

// Done reports whether the simulation budget is spent. (The time budget
// is the driver's business, as only it knows when evaluations happen.)
func (t *Tree) Done() bool {
	if t.root.Outcome().Over {
		return true
	}
	if t.cfg.Sims > 0 && t.sims >= t.cfg.Sims {
		return true
	}
	if len(t.nodes) >= t.cfg.MaxNodes {
		return t.nodes[0].firstChild >= 0 // the root at least is expanded
	}
	// A root with one legal move needs no search once expanded.
	return t.nodes[0].firstChild >= 0 && t.nodes[0].numChild == 1
}

// Sims is the number of simulations run for the current move.
func (t *Tree) Sims() int { return t.sims }

// SelectLeaf descends to a leaf. When the leaf needs the network it
// returns its position (valid until the next call), for the caller to
// encode, evaluate and pass to Expand. When the leaf is terminal its value
// is backed up at once and SelectLeaf returns nil.
func (t *Tree) SelectLeaf() env.State {
	if t.pending {
		panic("mcts: SelectLeaf called twice without Expand")
	}
	s := t.leaf
	s.CopyFrom(t.root)
	t.path = append(t.path[:0], 0)
	cur := int32(0)
	for t.nodes[cur].firstChild >= 0 {
		if cur == 0 {
			cur = t.selectRoot()
		} else {
			cur = t.selectChild(cur)
		}
		s.Apply(int(t.nodes[cur].action))
		t.path = append(t.path, cur)
		n := &t.nodes[cur]
		if n.terminal {
			t.backup(n.mover, n.termValue)
			return nil
		}
		if o := s.Outcome(); o.Over {
			n.terminal, n.termValue = true, o.Value(n.mover)
			t.backup(n.mover, n.termValue)
			return nil
		}
	}
	t.pending = true
	return s
}

// Expand adds the children of the pending leaf with the network's logits
// (over the whole action space) and backs up its value (for the leaf's
// side to move).
func (t *Tree) Expand(logits []float32, value float32) {
	if !t.pending {
		panic("mcts: Expand without a pending leaf")
	}
	t.pending = false
	leafIdx := t.path[len(t.path)-1]
	s := t.leaf
	t.buf = s.LegalActions(t.buf[:0])
	first := int32(len(t.nodes))
	mover := s.ToMove()
	maxLogit := float32(math.Inf(-1))
	for _, a := range t.buf {
		maxLogit = max(maxLogit, logits[a])
	}
	var sum float32
	for _, a := range t.buf {
		p := float32(math.Exp(float64(logits[a] - maxLogit)))
		sum += p
		t.nodes = append(t.nodes, node{action: int32(a), firstChild: -1, prior: p, logit: logits[a], mover: mover})
	}
	for i := first; i < int32(len(t.nodes)); i++ {
		t.nodes[i].prior /= sum
	}
	t.nodes[leafIdx].firstChild = first
	t.nodes[leafIdx].numChild = int32(len(t.buf))
	t.backup(mover, value)
	if leafIdx == 0 {
		t.prepareRoot()
	}
}

// backup adds a value, from side's point of view, along the path.
func (t *Tree) backup(side env.Side, value float32) {
	for _, i := range t.path {
		n := &t.nodes[i]
		n.visits++
		switch n.mover {
		case side:
			n.valueSum += value
		case env.NoSide: // the root: nobody chose it
		default:
			n.valueSum -= value
		}
	}
	t.sims++
}

// prepareRoot adds exploration noise (PUCT) or draws the Gumbel sample and
// the halving schedule (Gumbel), once the root has children.
func (t *Tree) prepareRoot() {
	r := t.nodes[0]
	kids := t.nodes[r.firstChild : r.firstChild+r.numChild]
	if !t.cfg.Gumbel {
		if t.cfg.NoiseFrac > 0 && !t.quiet && t.rng != nil && len(kids) > 1 {
			t.noise = dirichlet(t.rng, t.cfg.NoiseAlpha, len(kids), t.noise)
			f := float32(t.cfg.NoiseFrac)
			for i := range kids {
				kids[i].prior = (1-f)*kids[i].prior + f*float32(t.noise[i])
			}
		}
		return
	}
	t.gumbel = t.gumbel[:0]
	for range kids {
		g := 0.0
		if t.rng != nil {
			g = -math.Log(-math.Log(t.rng.Float64()*(1-2e-12) + 1e-12))
		}
		t.gumbel = append(t.gumbel, g)
	}
	// Keep the m children with the largest g + logit.
	t.candidates = t.candidates[:0]
	for i := range kids {
		t.candidates = append(t.candidates, int32(i))
	}
	t.sortCandidates(func(i int32) float64 { return t.gumbel[i] + float64(kids[i].logit) })
	m := min(t.cfg.GumbelM, len(kids))
	t.candidates = t.candidates[:m]
	t.phasesLeft = max(1, int(math.Ceil(math.Log2(float64(m)))))
	t.nextPhase()
}

// budgetLeft is the number of simulations the halving plans for. A search
// bounded by time only plans as if for 32 simulations per candidate.
func (t *Tree) budgetLeft() int {
	if t.cfg.Sims <= 0 {
		return 32 * len(t.candidates)
	}
	return max(t.cfg.Sims-t.sims, len(t.candidates))
}

// nextPhase sets the visit target of the current halving phase.
func (t *Tree) nextPhase() {
	per := max(1, t.budgetLeft()/(t.phasesLeft*len(t.candidates)))
	var most int32
	for _, c := range t.candidates {
		most = max(most, t.nodes[t.nodes[0].firstChild+c].visits)
	}
	t.phaseVisit = most + int32(per)
}

// selectRoot picks the root child to simulate.
func (t *Tree) selectRoot() int32 {
	if !t.cfg.Gumbel {
		return t.selectChild(0)
	}
	first := t.nodes[0].firstChild
	for {
		var best int32 = -1
		for _, c := range t.candidates {
			if v := t.nodes[first+c].visits; v < t.phaseVisit && (best < 0 || v < t.nodes[first+best].visits) {
				best = c
			}
		}
		if best >= 0 {
			return first + best
		}
		// Phase over: keep the better half for the next one.
		if len(t.candidates) > 1 {
			t.halve()
		}
		t.phasesLeft = max(1, t.phasesLeft-1)
		t.nextPhase()
	}
}

func (t *Tree) halve() {
	first := t.nodes[0].firstChild
	sigma := t.sigmaScale(0)
	qs := t.completedQ(0)
	t.sortCandidates(func(i int32) float64 {
		return t.gumbel[i] + float64(t.nodes[first+i].logit) + sigma*qs[i]
	})
	t.candidates = t.candidates[:max(1, (len(t.candidates)+1)/2)]
}

// sortCandidates orders the candidates by decreasing score (stable).
func (t *Tree) sortCandidates(score func(int32) float64) {
	c := t.candidates
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && score(c[j]) > score(c[j-1]); j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
}

// selectChild applies PUCT, or Gumbel's deterministic rule, below the root.
func (t *Tree) selectChild(i int32) int32 {
	p := t.nodes[i]
	kids := t.nodes[p.firstChild : p.firstChild+p.numChild]
	if t.cfg.Gumbel {
		// argmax of improved policy minus visit share.
		pi := t.improvedPolicy(i)
		total := float64(p.visits - 1)
		best, bestScore := 0, math.Inf(-1)
		for k := range kids {
			score := pi[k] - float64(kids[k].visits)/(1+total)
			if score > bestScore {
				best, bestScore = k, score
			}
		}
		return p.firstChild + int32(best)
	}
	sqrtN := math.Sqrt(float64(p.visits))
	// Unvisited children take the parent's value less a margin (first-play
	// urgency), from the point of view of the side choosing.
	fpu := float32(0)
	if p.visits > 0 && p.mover != env.NoSide {
		fpu = p.q()
		if kids[0].mover != p.mover {
			fpu = -fpu
		}
	}
	fpu -= 0.2
	best, bestScore := 0, math.Inf(-1)
	for k := range kids {
		c := &kids[k]
		q := fpu
		if c.visits > 0 {
			q = c.q()
		}
		score := float64(q) + t.cfg.CPUCT*float64(c.prior)*sqrtN/float64(1+c.visits)
		if score > bestScore {
			best, bestScore = k, score
		}
	}
	return p.firstChild + int32(best)
}

// completedQ returns, per child of node i, its value for the side choosing
// rescaled to [0, 1]; unvisited children get the mixed value estimate
// (mctx's qtransform_completed_by_mix_value).
func (t *Tree) completedQ(i int32) []float64 {
	p := t.nodes[i]
	kids := t.nodes[p.firstChild : p.firstChild+p.numChild]
	// The network's value of the node, for the side choosing among kids.
	var sumPrior, sumPQ float64
	var visited float64
	for k := range kids {
		if kids[k].visits > 0 {
			sumPrior += float64(kids[k].prior)
			sumPQ += float64(kids[k].prior) * float64(kids[k].q())
			visited += float64(kids[k].visits)
		}
	}
	// The node's own value estimate (for the chooser): its mean value if it
	// has a mover equal to the chooser, else the negation; the root has none.
	var v float64
	if p.visits > 0 && p.mover != env.NoSide {
		v = float64(p.q())
		if kids[0].mover != p.mover {
			v = -v
		}
	}
	mix := v
	if sumPrior > 0 {
		mix = (v + visited*sumPQ/sumPrior) / (1 + visited)
	}
	qs := t.scratch[:0]
	lo, hi := math.Inf(1), math.Inf(-1)
	for k := range kids {
		q := mix
		if kids[k].visits > 0 {
			q = float64(kids[k].q())
		}
		qs = append(qs, q)
		lo, hi = math.Min(lo, q), math.Max(hi, q)
	}
	for k := range qs {
		qs[k] = (qs[k] - lo) / math.Max(hi-lo, 1e-8)
	}
	t.scratch = qs
	return qs
}

func (t *Tree) sigmaScale(i int32) float64 {
	p := t.nodes[i]
	var most int32
	for c := p.firstChild; c < p.firstChild+p.numChild; c++ {
		most = max(most, t.nodes[c].visits)
	}
	return (gumbelVisitInit + float64(most)) * gumbelScale
}

// improvedPolicy is softmax(logits + sigma(completed Q)) over node i's
// children.
func (t *Tree) improvedPolicy(i int32) []float64 {
	p := t.nodes[i]
	sigma := t.sigmaScale(i)
	qs := t.completedQ(i)
	hi := math.Inf(-1)
	for k := range qs {
		qs[k] = float64(t.nodes[p.firstChild+int32(k)].logit) + sigma*qs[k]
		hi = math.Max(hi, qs[k])
	}
	var sum float64
	for k := range qs {
		qs[k] = math.Exp(qs[k] - hi)
		sum += qs[k]
	}
	for k := range qs {
		qs[k] /= sum
	}
	return qs
}

// Policy writes the search's policy over the action space into dst (len
// ActionSize), the training target: visit counts for PUCT, the improved
// policy for Gumbel.
func (t *Tree) Policy(dst []float32) {
	clear(dst)
	r := t.nodes[0]
	if r.firstChild < 0 {
		return
	}
	kids := t.nodes[r.firstChild : r.firstChild+r.numChild]
	if t.cfg.Gumbel {
		for k, p := range t.improvedPolicy(0) {
			dst[kids[k].action] = float32(p)
		}
		return
	}
	var total float32
	for _, k := range kids {
		total += float32(k.visits)
	}
	if total == 0 {
		for _, k := range kids {
			dst[k.action] = k.prior
		}
		return
	}
	for _, k := range kids {
		dst[k.action] = float32(k.visits) / total
	}
}

// Value is the value, for the root's side to move, of the move the search
// would play: the mean value below it. (A visit-weighted mean over all root
// moves would be dragged down by the moves Gumbel's halving tries evenly.)
func (t *Tree) Value() float32 {
	r := t.nodes[0]
	if r.firstChild < 0 {
		return 0
	}
	a, err := t.Choose(0)
	if err != nil {
		return 0
	}
	for c := r.firstChild; c < r.firstChild+r.numChild; c++ {
		if k := t.nodes[c]; int(k.action) == a && k.visits > 0 {
			if k.mover != t.root.ToMove() {
				return -k.q()
			}
			return k.q()
		}
	}
	return 0
}

// Choose picks the move to play. With temperature 0 it is the best move:
// the most visited (PUCT) or the halving's winner (Gumbel). Otherwise it is
// sampled from the visit counts raised to 1/temperature (PUCT), or is the
// Gumbel winner, whose Gumbel noise already makes it a sample.
func (t *Tree) Choose(temperature float64) (int, error) {
	r := t.nodes[0]
	if r.firstChild < 0 {
		legal := t.root.LegalActions(t.buf[:0])
		if len(legal) == 1 {
			return legal[0], nil
		}
		return 0, fmt.Errorf("no search was run")
	}
	kids := t.nodes[r.firstChild : r.firstChild+r.numChild]
	if t.cfg.Gumbel && len(t.candidates) > 0 {
		sigma := t.sigmaScale(0)
		qs := t.completedQ(0)
		best, bestScore := int32(0), math.Inf(-1)
		for _, c := range t.candidates {
			g := 0.0
			if temperature > 0 {
				g = t.gumbel[c]
			}
			if s := g + float64(kids[c].logit) + sigma*qs[c]; s > bestScore {
				best, bestScore = c, s
			}
		}
		return int(kids[best].action), nil
	}
	if temperature <= 0 || t.rng == nil {
		best := 0
		for k := range kids {
			if kids[k].visits > kids[best].visits || (kids[k].visits == kids[best].visits && kids[k].prior > kids[best].prior) {
				best = k
			}
		}
		return int(kids[best].action), nil
	}
	weights := t.scratch[:0]
	var sum float64
	for _, k := range kids {
		w := math.Pow(float64(k.visits), 1/temperature)
		weights = append(weights, w)
		sum += w
	}
	t.scratch = weights
	if sum == 0 {
		return int(kids[t.rng.IntN(len(kids))].action), nil
	}
	x := t.rng.Float64() * sum
	for k, w := range weights {
		if x -= w; x < 0 {
			return int(kids[k].action), nil
		}
	}
	return int(kids[len(kids)-1].action), nil
}

// Search runs a whole search on one tree with an evaluator, then returns
// the best move (temperature 0). ctx ends it early.
func Search(ctx context.Context, t *Tree, ev Evaluator, temperature float64) (int, error) {
	g := t.root.Game()
	input := make([]float32, g.InputShape().Size())
	logits := make([]float32, g.ActionSize())
	values := make([]float32, 1)
	var deadline time.Time
	if t.cfg.Time > 0 {
		deadline = time.Now().Add(t.cfg.Time)
	}
	for i := 0; !t.Done(); i++ {
		if i&15 == 0 && i > 0 && (ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline))) {
			break
		}
		leaf := t.SelectLeaf()
		if leaf == nil {
			continue
		}
		leaf.Encode(input)
		ev.Run(1, input, logits, values)
		t.Expand(logits, values[0])
	}
	return t.Choose(temperature)
}

// dirichlet draws a sample of Dirichlet(alpha, ..., alpha) into dst.
func dirichlet(rng *rand.Rand, alpha float64, n int, dst []float64) []float64 {
	dst = dst[:0]
	var sum float64
	for i := 0; i < n; i++ {
		g := gamma(rng, alpha)
		dst = append(dst, g)
		sum += g
	}
	if sum == 0 {
		for i := range dst {
			dst[i] = 1 / float64(n)
		}
		return dst
	}
	for i := range dst {
		dst[i] /= sum
	}
	return dst
}

// gamma draws from Gamma(alpha, 1) (Marsaglia and Tsang; alpha < 1 by
// boosting to alpha + 1).
func gamma(rng *rand.Rand, alpha float64) float64 {
	if alpha < 1 {
		u := rng.Float64()
		return gamma(rng, alpha+1) * math.Pow(u, 1/alpha)
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
