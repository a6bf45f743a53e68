// Package mcts is the network-guided tree search: one search loop with the
// way it chooses plugged in as a policy, PUCT as in AlphaZero or Gumbel
// root search with sequential halving (Danihelka et al., ICLR 2022), as
// mctx passes its action-selection functions into one loop. It knows games
// only through env.State; turns need not alternate, since every node
// remembers which side chose it.
//
// A Tree is driven step by step (SelectLeaf, then Expand with the network's
// output) so that a caller can run many trees at once and evaluate their
// leaves in one batch; Search does the whole loop for a single tree.
package mcts

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sliderzero/sliderzero/env"
)

// Evaluator runs the network: for batch encoded positions it writes the
// policy logits (batch x actions), the values for the side to move and,
// when plies is not nil, the predicted plies to the end (negative from a
// network that does not predict them). model.Forward implements it.
type Evaluator interface {
	Run(batch int, input, logits, values, plies []float32)
}

// policy is how a search chooses, plugged into the one loop of Tree: where
// to descend at the root and below it, what the search teaches and which
// move it plays. A new policy is one more implementation.
type policy interface {
	// startMove prepares a move's search once the root has children
	// (exploration noise, a Gumbel sample).
	startMove(t *Tree)
	// selectRoot and selectChild return the child of the root, or of node
	// i, to descend to.
	selectRoot(t *Tree) int32
	selectChild(t *Tree, i int32) int32
	// target appends to dst the search's policy over the root's children,
	// the training target, one entry per child.
	target(t *Tree, dst []float64) []float64
	// choose returns the index among the root's children of the move to
	// play.
	choose(t *Tree, temperature float64) int
}

type node struct {
	action     int32
	firstChild int32 // -1 until expanded
	numChild   int32
	visits     int32
	valueSum   float32 // from the point of view of mover
	// mean is valueSum/visits and explore prior/(1+visits), kept up to
	// date by backup, so that selection, which reads every sibling, does
	// no division.
	mean    float32
	explore float32
	// raw is the network's value of the node's position for its side to
	// move (the side choosing among its children), set when expanded:
	// Gumbel's completed Q mixes this, not the mean below the node.
	raw      float32
	prior    float32
	logit    float32
	mover    env.Side // the side that chose this node's action
	terminal bool
	// pending counts the visits on their way through the node to a leaf
	// that a search thread is evaluating: each counts as a loss for the
	// mover until its value arrives (virtual loss), so that other threads
	// spread out; always 0 in a one-thread search.
	pending   int16
	termValue float32 // outcome for mover when terminal
	// proof is what the search proved of the node, for its mover (the
	// root's for its side to move), and plies the length of the proven
	// line from the node's position (proof.go).
	proof Proof
	plies int16
	// moves is the mean, over the simulations through the node, of the
	// plies from its position to the end (the network's estimate at the
	// leaf plus the plies down to it), when the network estimates them.
	moves float32
}

func (n *node) q() float32 { return n.mean }

// setPrior sets the node's prior (and the exploration weight it gives).
func (n *node) setPrior(p float32) {
	n.prior = p
	n.explore = p / float32(1+n.visits+int32(n.pending))
}

// seen is the visits selection counts: the finished ones and those on
// their way.
func (n *node) seen() int32 { return n.visits + int32(n.pending) }

// refresh recomputes mean and explore after visits, valueSum or pending
// change; a pending visit weighs as a loss for the mover.
func (n *node) refresh() {
	if n.seen() == 0 {
		n.mean, n.explore = 0, n.prior
		return
	}
	if n.pending == 0 {
		// The one-thread formula, kept bit for bit.
		n.mean = n.valueSum * (1 / float32(n.visits))
		n.explore = n.prior / float32(1+n.visits)
		return
	}
	seen := float32(n.seen())
	n.mean = (n.valueSum - float32(n.pending)) / seen
	n.explore = n.prior / (1 + seen)
}

// flight is one descent to a leaf: the nodes from the root down and the
// leaf's position. A one-thread search has one; a parallel search one per
// leaf out for evaluation.
type flight struct {
	path  []int32
	leaf  env.State
	brood brood
}

// Tree is one search tree. It is not safe for concurrent use.
type Tree struct {
	params Params
	pol    policy
	rng    *rand.Rand
	nodes  []node
	spare  []node    // the arena Advance copies the kept subtree into next
	root   env.State // the root position (owned)
	one    flight    // SelectLeaf's descent
	// leafPending is set between SelectLeaf and Expand.
	leafPending bool
	sims        int
	buf         []int
	// probe and winBuf are winningMove's scratch.
	probe   env.State
	winBuf  []int
	scratch []float64 // noise, sampling weights
	pi      []float64 // Policy's
	// quiet turns the root noise off (SetBudget).
	quiet bool
	// counts is set once the network has given a plies estimate: the
	// moves-left utility applies.
	counts bool
}

// NewTree returns an empty tree; call Reset before searching.
func NewTree(p Params, rng *rand.Rand) (*Tree, error) {
	if p.Sims <= 0 && p.Time <= 0 {
		return nil, fmt.Errorf("search needs a budget: sims or time")
	}
	p = p.WithDefaults()
	return &Tree{params: p, pol: p.newPolicy(), rng: rng}, nil
}

// SetBudget sets the simulations of the searches that start after it (at
// the next Reset or Advance) and whether their root gets exploration
// noise. Self-play's playout cap randomisation (KataGo) runs most moves
// with a small budget and no noise, and trains only on the full searches.
func (t *Tree) SetBudget(sims int, noise bool) {
	t.params.Sims = sims
	t.quiet = !noise
}

// Params returns the tree's settings, defaults filled in.
func (t *Tree) Params() Params { return t.params }

// Reset makes s (copied) the root of a new, empty tree.
func (t *Tree) Reset(s env.State) {
	if t.root == nil {
		t.root, t.one.leaf = s.Clone(), s.Clone()
	} else {
		t.root.CopyFrom(s)
	}
	t.nodes = append(t.nodes[:0], node{action: -1, firstChild: -1, mover: env.NoSide})
	t.counts = false
	t.startMove()
}

// startMove prepares the per-move state of a search from the current root.
func (t *Tree) startMove() {
	t.sims, t.leafPending = 0, false
	if t.nodes[0].firstChild >= 0 {
		t.pol.startMove(t)
	}
}

// Root returns the root position. It must not be modified.
func (t *Tree) Root() env.State { return t.root }

// children is node i's children.
func (t *Tree) children(i int32) []node {
	n := t.nodes[i]
	if n.firstChild < 0 {
		return nil
	}
	return t.nodes[n.firstChild : n.firstChild+n.numChild]
}

// Advance plays action at the root, keeping the subtree below it.
func (t *Tree) Advance(action int) {
	r := t.nodes[0]
	t.root.Apply(action)
	// Under a repetition rule the game's history grows with the move, so
	// values and proofs found with the old history may not hold.
	if h, ok := t.root.(env.HistoryBound); r.firstChild < 0 || ok && h.HistoryBound() {
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
	// Copy the subtree to the front of the spare arena, breadth first, so
	// that children stay contiguous; the old arena is the next spare (no
	// garbage a move).
	old := t.nodes
	if cap(t.spare) < len(old) {
		// Sized once like the arena, not by append's growth.
		t.spare = make([]node, 0, cap(old))
	}
	fresh := append(t.spare[:0], old[child])
	if old[child].mover != t.root.ToMove() {
		// The root's proof and value are told for its side to move.
		fresh[0].proof = fresh[0].proof.flip()
		fresh[0].valueSum, fresh[0].mean = -fresh[0].valueSum, -fresh[0].mean
	}
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
	t.nodes, t.spare = fresh, old
	t.startMove()
}

// Done reports whether the simulation budget is spent. (The time budget
// is the driver's business, as only it knows when evaluations happen.)
func (t *Tree) Done() bool {
	if t.root.Outcome().Over {
		return true
	}
	if t.params.Sims > 0 && t.sims >= t.params.Sims {
		return true
	}
	// A proven root needs no more search.
	if t.nodes[0].proof != Unproven {
		return true
	}
	if len(t.nodes) >= t.params.MaxNodes {
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
	if t.leafPending {
		panic("mcts: SelectLeaf called twice without Expand")
	}
	if t.descend(&t.one) != leafNeedsNet {
		return nil
	}
	t.leafPending = true
	return t.one.leaf
}

// descent is where a descent ended.
type descent int8

const (
	leafNeedsNet descent = iota // a new leaf, for the network
	leafKnown                   // a terminal or proven node: backed up at once
	leafBusy                    // a leaf another thread is evaluating
)

// descend walks f from the root to a leaf. A terminal or proven end is
// backed up at once; a leaf in flight elsewhere is left alone.
func (t *Tree) descend(f *flight) descent {
	s := f.leaf
	s.CopyFrom(t.root)
	f.path = append(f.path[:0], 0)
	cur := int32(0)
	for t.nodes[cur].firstChild >= 0 {
		if cur == 0 {
			cur = t.pol.selectRoot(t)
		} else {
			cur = t.pol.selectChild(t, cur)
		}
		s.Apply(int(t.nodes[cur].action))
		f.path = append(f.path, cur)
		n := &t.nodes[cur]
		if n.proof != Unproven {
			// Known exactly: no network call, and nothing below to search.
			t.backup(f.path, n.mover, n.proof.value(), float32(n.plies))
			return leafKnown
		}
		if n.terminal {
			t.backup(f.path, n.mover, n.termValue, 0)
			return leafKnown
		}
		if o := s.Outcome(); o.Over {
			n.terminal, n.termValue = true, o.Value(n.mover)
			if !t.params.NoProofs && ruleEnd(s) {
				n.proof = ProvenDraw
				if o.Winner == n.mover {
					n.proof = ProvenWin
				} else if o.Winner != env.NoSide {
					n.proof = ProvenLoss
				}
				t.propagate(f.path)
			}
			t.backup(f.path, n.mover, n.termValue, 0)
			return leafKnown
		}
	}
	if t.nodes[cur].pending > 0 {
		return leafBusy
	}
	if cur != 0 && t.checksWins() && t.winningMove(s) >= 0 {
		// The side to move wins at once: the leaf is proven with no
		// network call, lost for its mover unless the mover moves again
		// (in games whose turns do not alternate).
		n := &t.nodes[cur]
		n.proof, n.plies = ProvenLoss, 1
		if s.ToMove() == n.mover {
			n.proof = ProvenWin
		}
		t.propagate(f.path)
		t.backup(f.path, n.mover, n.proof.value(), 1)
		return leafKnown
	}
	return leafNeedsNet
}

// Expand adds the children of the pending leaf with the network's logits
// (over the whole action space) and backs up its value (for the leaf's
// side to move) and its estimate of the plies to the end (negative for
// none).
func (t *Tree) Expand(logits []float32, value, plies float32) {
	if !t.leafPending {
		panic("mcts: Expand without a pending leaf")
	}
	t.leafPending = false
	t.one.brood.fill(t.one.leaf, logits)
	t.expand(&t.one, logits, value, plies)
}

// brood is a new leaf's moves and their priors, worked out from the
// network's logits before the tree is touched: a parallel search does it
// outside the tree's lock.
type brood struct {
	actions []int
	priors  []float32
}

// fill sets b to the legal moves of s and the softmax of their logits.
func (b *brood) fill(s env.State, logits []float32) {
	b.actions = s.LegalActions(b.actions[:0])
	maxLogit := float32(math.Inf(-1))
	for _, a := range b.actions {
		maxLogit = max(maxLogit, logits[a])
	}
	var sum float32
	b.priors = b.priors[:0]
	for _, a := range b.actions {
		p := float32(math.Exp(float64(logits[a] - maxLogit)))
		sum += p
		b.priors = append(b.priors, p)
	}
	for k := range b.priors {
		b.priors[k] /= sum
	}
}

// expand adds the children of f's leaf (f.brood filled) and backs up its
// value.
func (t *Tree) expand(f *flight, logits []float32, value, plies float32) {
	leafIdx := f.path[len(f.path)-1]
	s := f.leaf
	acts := f.brood.actions
	if need := len(t.nodes) + len(acts); need > cap(t.nodes) {
		// Grow by doubling, but never past the node cap: append's own
		// growth would overshoot it by up to a half, and the tree keeps
		// a second arena of the same size for reuse between moves.
		size := min(max(need, 2*cap(t.nodes)), max(need, t.params.MaxNodes+len(acts)))
		grown := make([]node, len(t.nodes), size)
		copy(grown, t.nodes)
		t.nodes = grown
	}
	first := int32(len(t.nodes))
	mover := s.ToMove()
	for k, a := range acts {
		// An unvisited child's exploration weight is its prior.
		p := f.brood.priors[k]
		t.nodes = append(t.nodes, node{action: int32(a), firstChild: -1, prior: p, explore: p, logit: logits[a], mover: mover})
	}
	leaf := &t.nodes[leafIdx]
	leaf.firstChild, leaf.numChild, leaf.raw = first, int32(len(acts)), value
	if plies >= 0 {
		t.counts = true
	}
	t.backup(f.path, mover, value, plies)
	if leafIdx == 0 {
		if t.checksWins() {
			t.proveRootWin(s)
		}
		t.pol.startMove(t)
	}
}

// backup adds a value, from side's point of view, along the path, and,
// when the network estimates plies, the plies from the path's last
// position to the end.
// The root, which nobody chose, keeps its value for its side to move.
func (t *Tree) backup(path []int32, side env.Side, value, plies float32) {
	last := len(path) - 1
	for j, i := range path {
		n := &t.nodes[i]
		n.visits++
		who := n.mover
		if who == env.NoSide {
			who = t.root.ToMove()
		}
		if who == side {
			n.valueSum += value
		} else {
			n.valueSum -= value
		}
		n.refresh()
		if t.counts {
			n.moves += (plies + float32(last-j) - n.moves) * (1 / float32(n.visits))
		}
	}
	t.sims++
}

// Policy writes the search's policy over the action space into dst (len
// ActionSize), the training target: visit counts for PUCT, the improved
// policy for Gumbel.
func (t *Tree) Policy(dst []float32) {
	clear(dst)
	kids := t.children(0)
	if kids == nil {
		return
	}
	if k := t.provenChoice(); k >= 0 && t.nodes[0].proof != Unproven {
		// The proof's move is what the search teaches.
		dst[kids[k].action] = 1
		return
	}
	t.pi = t.pol.target(t, t.pi[:0])
	for k, p := range t.pi {
		dst[kids[k].action] = float32(p)
	}
}

// RawValue is the network's own value of the root position for its side
// to move, before any search (0 until the root is expanded). Unlike the
// search's, it does not see the ply cap coming.
func (t *Tree) RawValue() float32 {
	if len(t.nodes) == 0 {
		return 0
	}
	return t.nodes[0].raw
}

// Value is the value, for the root's side to move, of the move the search
// would play: the mean value below it. (A visit-weighted mean over all root
// moves would be dragged down by the moves Gumbel's halving tries evenly.)
func (t *Tree) Value() float32 {
	kids := t.children(0)
	if kids == nil {
		return 0
	}
	if p := t.nodes[0].proof; p != Unproven {
		return p.value()
	}
	k := &kids[t.choice(0)]
	if k.visits == 0 {
		return 0
	}
	if k.mover != t.root.ToMove() {
		return -k.q()
	}
	return k.q()
}

// Choose picks the move to play. With temperature 0 it is the best move:
// the most visited (PUCT) or the halving's winner (Gumbel). Otherwise it is
// sampled from the visit counts raised to 1/temperature (PUCT), or is the
// Gumbel winner, whose Gumbel noise already makes it a sample.
func (t *Tree) Choose(temperature float64) (int, error) {
	kids := t.children(0)
	if kids == nil {
		legal := t.root.LegalActions(t.buf[:0])
		if len(legal) == 1 {
			return legal[0], nil
		}
		return 0, fmt.Errorf("no search was run")
	}
	return int(kids[t.choice(temperature)].action), nil
}

// choice is the root child to play: the one a proof decides, else the
// policy's, unless that is a proven loss and another move is not.
func (t *Tree) choice(temperature float64) int {
	if k := t.provenChoice(); k >= 0 {
		return k
	}
	k := t.pol.choose(t, temperature)
	kids := t.children(0)
	side := t.root.ToMove()
	first := t.nodes[0].firstChild
	if t.told(first+int32(k), side) != ProvenLoss {
		return k
	}
	best := -1
	for j := range kids {
		if t.told(first+int32(j), side) != ProvenLoss && (best < 0 || kids[j].visits > kids[best].visits) {
			best = j
		}
	}
	if best < 0 {
		return k
	}
	return best
}
