// One simulation's steps: the descent to a leaf (with its proofs found on
// the way), the leaf's expansion with the network's priors, and the backup
// of its value; SelectLeaf and Expand drive them one leaf at a time.

package mcts

import (
	"math"

	"github.com/sliderzero/sliderzero/env"
)

// leafPath is one descent to a leaf: the nodes from the root down and the
// leaf's position. A one-thread search has one; a parallel search one per
// leaf out for evaluation.
type leafPath struct {
	path      []int32
	leaf      env.State
	expansion expansion
}

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
func (t *Tree) descend(f *leafPath) descent {
	s := f.leaf
	s.CopyFrom(t.root)
	f.path = append(f.path[:0], 0)
	cur := int32(0)
	for t.nodes[cur].firstChild >= 0 {
		if t.nodes[cur].lazy {
			t.nodes.softmax(cur, &t.exps)
		}
		switch {
		case t.isPUCT:
			cur = puct{}.selectChild(t, cur) // its selectRoot too
		case cur == 0:
			cur = t.pol.selectRoot(t)
		default:
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
		if n.firstChild >= 0 {
			// Expanded, so not over: its outcome was looked at when it
			// was reached first.
			continue
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
				t.nodes.propagate(f.path)
			}
			t.backup(f.path, n.mover, n.termValue, 0)
			return leafKnown
		}
	}
	if t.nodes[cur].pending > 0 {
		return leafBusy
	}
	if cur != 0 && t.params.checksWins() && t.probe.find(s) >= 0 {
		// The side to move wins at once: the leaf is proven with no
		// network call, lost for its mover unless the mover moves again
		// (in games whose turns do not alternate).
		n := &t.nodes[cur]
		n.proof, n.plies = ProvenLoss, 1
		if s.ToMove() == n.mover {
			n.proof = ProvenWin
		}
		t.nodes.propagate(f.path)
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
	// The priors wait for the first descent through the leaf (softmax).
	t.one.expansion.actions = t.one.leaf.LegalActions(t.one.expansion.actions[:0])
	t.one.expansion.priors = t.one.expansion.priors[:0]
	t.expand(&t.one, logits, value, plies)
}

// expansion is a new leaf's moves and their priors, worked out from the
// network's logits before the tree is touched: a parallel search does it
// outside the tree's lock.
type expansion struct {
	actions []int
	priors  []float32
}

// fill sets b to the legal moves of s and the softmax of their logits.
func (b *expansion) fill(s env.State, logits []float32) {
	b.actions = s.LegalActions(b.actions[:0])
	// The logits of the legal moves, gathered once.
	n := len(b.actions)
	if cap(b.priors) < n {
		b.priors = make([]float32, n, max(n, 2*cap(b.priors)))
	}
	priors := b.priors[:n]
	b.priors = priors
	for k, a := range b.actions {
		priors[k] = logits[a]
	}
	sum := expShifted(priors, largest(priors))
	for k := range priors {
		priors[k] /= sum
	}
}

// largest is the softmax's shift, the largest of xs, found by
// comparisons, which go from one element to the next without the chain
// of the builtin max's care for NaN and signed zeros: a NaN is kept aside
// and wins at the end, as with max, and which zero wins changes no
// exponential (x-0 and x+0 are x, exp(+0) = exp(-0)).
func largest(xs []float32) float32 {
	m := float32(math.Inf(-1))
	nan := false
	for _, x := range xs {
		if x > m {
			m = x
		}
		nan = nan || x != x
	}
	if nan {
		return float32(math.NaN())
	}
	return m
}

// softmax sets the priors of node i's children from their logits, if
// not yet set (lazy): the same arithmetic, in the same order, as expansion.s
// fill. The exponentials are worked out in scratch, a buffer kept for it.
func (a arena) softmax(i int32, scratch *[]float32) {
	n := &a[i]
	if !n.lazy {
		return
	}
	n.lazy = false
	kids := a.children(i)
	// The exponentials in a buffer of their own, to be worked out in one
	// loop (expShifted).
	exps := (*scratch)[:0]
	for k := range kids {
		exps = append(exps, kids[k].logit)
	}
	*scratch = exps
	sum := expShifted(exps, largest(exps))
	for k := range kids {
		c := &kids[k]
		// An unvisited child's exploration weight is its prior.
		c.prior = exps[k] / sum
		c.explore = c.prior
	}
}

// expand adds the children of f's leaf (f.expansion filled) and backs up its
// value.
func (t *Tree) expand(f *leafPath, logits []float32, value, plies float32) {
	leafIdx := f.path[len(f.path)-1]
	s := f.leaf
	acts := f.expansion.actions
	if need := len(t.nodes) + len(acts); need > cap(t.nodes) && cap(t.nodes) >= t.params.MaxNodes {
		// The arena is at the cap: a parallel search's leaves still in
		// flight when the tree filled back their values up unexpanded.
		// (Growing it again for each, by a copy of the whole arena, once
		// took an analysis on two threads from 597 MB to 1.06 GB.)
		if plies >= 0 {
			t.counts = true
		}
		t.backup(f.path, s.ToMove(), value, plies)
		return
	}
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
	t.nodes = t.nodes[:len(t.nodes)+len(acts)]
	kids := t.nodes[first:]
	lazy := len(f.expansion.priors) != len(acts)
	if lazy {
		for k, a := range acts[:len(kids)] {
			kids[k] = node{action: int32(a), firstChild: -1, logit: logits[a], mover: mover}
		}
	} else {
		priors := f.expansion.priors[:len(kids)]
		for k, a := range acts[:len(kids)] {
			// An unvisited child's exploration weight is its prior.
			p := priors[k]
			kids[k] = node{action: int32(a), firstChild: -1, prior: p, explore: p, logit: logits[a], mover: mover}
		}
	}
	leaf := &t.nodes[leafIdx]
	leaf.firstChild, leaf.numChild, leaf.raw, leaf.lazy = first, int32(len(acts)), value, lazy
	if lazy && leafIdx == 0 {
		// The root's priors are wanted at once (noise, Gumbel's sample).
		t.nodes.softmax(0, &t.exps)
	}
	if plies >= 0 {
		t.counts = true
	}
	t.backup(f.path, mover, value, plies)
	if leafIdx == 0 {
		if t.params.checksWins() {
			if w := t.probe.find(s); w >= 0 {
				t.nodes.proveRootWin(w)
			}
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
			who = t.rootSide
		}
		if who == side {
			n.valueSum += value
		} else {
			n.valueSum -= value
		}
		if n.pending != 0 {
			n.refresh()
			if t.counts {
				n.moves += (plies + float32(last-j) - n.moves) * (1 / float32(n.visits))
			}
			continue
		}
		// refresh's one-thread formulas, with 1/visits worked out once.
		var r float32
		if v := n.visits; uint32(v) < uint32(len(smallRecip)) {
			r = smallRecip[v]
		} else {
			r = 1 / float32(v)
		}
		n.mean = n.valueSum * r
		n.explore = n.prior / float32(1+n.visits)
		if t.counts {
			n.moves += (plies + float32(last-j) - n.moves) * r
		}
	}
	t.sims++
}

// smallRecip[n] is 1/float32(n) for the visit counts most backups meet:
// the same values the division gives, looked up.
var smallRecip = func() (t [1024]float32) {
	for n := range t {
		t[n] = 1 / float32(n)
	}
	return t
}()
