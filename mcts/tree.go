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
	"math/rand/v2"

	"github.com/sliderzero/sliderzero/env"
)

// Network runs the network: for batch encoded positions it writes the
// policy logits (batch x actions), the values for the side to move and,
// when plies is not nil, the predicted plies to the end (negative from a
// network that does not predict them). model.Forward implements it.
type Network interface {
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
	// lazy is set on a node whose children have their logits but not yet
	// their priors: a one-thread search leaves the softmax of a new leaf's
	// logits until a descent first chooses among its children (most
	// leaves are never descended through), and then does the very same
	// arithmetic (softmax).
	lazy  bool
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

// arena holds a tree's nodes, each node's children side by side; node 0
// is the root.
type arena []node

// Tree is one search tree. It is not safe for concurrent use.
type Tree struct {
	params Params
	pol    policy
	rng    *rand.Rand
	nodes  arena
	spare  arena     // the arena Advance copies the kept subtree into next
	root   env.State // the root position (owned)
	// rootSide is the root's side to move, asked once a move (startMove,
	// after every change of the root): the backup of every simulation
	// wants it, and the root's results are told for it.
	rootSide env.Side
	one      leafPath // SelectLeaf's descent
	// leafPending is set between SelectLeaf and Expand.
	leafPending bool
	sims        int
	buf         []int
	probe       winProbe
	scratch     []float64 // noise, sampling weights
	exps        []float32 // softmax's
	pi          []float64 // Policy's
	// quiet turns the root noise off (SetBudget).
	quiet bool
	// counts is set once the network has given a plies estimate: the
	// moves-left utility applies.
	counts bool
	// isPUCT is set when pol is puct: the descent calls it directly.
	isPUCT bool
}

// NewTree returns an empty tree; call Reset before searching.
func NewTree(p Params, rng *rand.Rand) (*Tree, error) {
	if p.Sims <= 0 && p.Time <= 0 {
		return nil, fmt.Errorf("search needs a budget: sims or time")
	}
	p = p.WithDefaults()
	t := &Tree{params: p, pol: p.newPolicy(), rng: rng}
	_, t.isPUCT = t.pol.(puct)
	return t, nil
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
	t.rootSide = t.root.ToMove()
	if t.nodes[0].firstChild >= 0 {
		t.nodes.softmax(0, &t.exps)
		t.pol.startMove(t)
	}
}

// Root returns the root position. It must not be modified.
func (t *Tree) Root() env.State { return t.root }

// children is node i's children.
func (a arena) children(i int32) []node {
	n := &a[i]
	first := n.firstChild
	if first < 0 {
		return nil
	}
	return a[first : first+n.numChild : first+n.numChild]
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

// Policy writes the search's policy over the action space into dst (len
// ActionSize), the training target: visit counts for PUCT, the improved
// policy for Gumbel.
func (t *Tree) Policy(dst []float32) {
	clear(dst)
	kids := t.nodes.children(0)
	if kids == nil {
		return
	}
	if k := t.nodes.provenChoice(t.rootSide); k >= 0 && t.nodes[0].proof != Unproven {
		// The proof's move is what the search teaches.
		dst[kids[k].action] = 1
		return
	}
	t.pi = t.pol.target(t, t.pi[:0])
	for k, p := range t.pi {
		dst[kids[k].action] = float32(p)
	}
}

// Verdict is what a search says of its root besides the value of its
// move: the network's own value, the expected plies to the end and what
// is proven.
type Verdict struct {
	// Raw is the network's own value of the root position for its side
	// to move, before any search (0 until the root is expanded). Unlike
	// the search's, it does not see the ply cap coming.
	Raw float32
	// Plies is the search's estimate of the plies from the root to the
	// end, negative when the network does not estimate them.
	Plies float32
	// Proof is what the search has proven of the root position, for its
	// side to move, and ProofPlies the plies of the proven line.
	Proof      Proof
	ProofPlies int
}

// Verdict returns the root's verdict so far.
func (t *Tree) Verdict() Verdict {
	if len(t.nodes) == 0 {
		return Verdict{Plies: -1}
	}
	r := &t.nodes[0]
	v := Verdict{Raw: r.raw, Plies: -1, Proof: r.proof, ProofPlies: int(r.plies)}
	if t.counts {
		v.Plies = r.moves
	}
	return v
}

// Value is the value, for the root's side to move, of the move the search
// would play: the mean value below it. (A visit-weighted mean over all root
// moves would be dragged down by the moves Gumbel's halving tries evenly.)
func (t *Tree) Value() float32 {
	kids := t.nodes.children(0)
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
	if k.mover != t.rootSide {
		return -k.q()
	}
	return k.q()
}

// Choose picks the move to play. With temperature 0 it is the best move:
// the most visited (PUCT) or the halving's winner (Gumbel). Otherwise it is
// sampled from the visit counts raised to 1/temperature (PUCT), or is the
// Gumbel winner, whose Gumbel noise already makes it a sample.
func (t *Tree) Choose(temperature float64) (int, error) {
	kids := t.nodes.children(0)
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
	if k := t.nodes.provenChoice(t.rootSide); k >= 0 {
		return k
	}
	k := t.pol.choose(t, temperature)
	kids := t.nodes.children(0)
	side := t.rootSide
	first := t.nodes[0].firstChild
	if t.nodes.told(first+int32(k), side, side) != ProvenLoss {
		return k
	}
	best := -1
	for j := range kids {
		if t.nodes.told(first+int32(j), side, side) != ProvenLoss && (best < 0 || kids[j].visits > kids[best].visits) {
			best = j
		}
	}
	if best < 0 {
		return k
	}
	return best
}
