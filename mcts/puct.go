package mcts

import (
	"math"

	"github.com/sliderzero/sliderzero/env"
)

// puct is AlphaZero's policy: descend by the PUCT score, with Dirichlet
// noise on the root's priors in self-play; teach the visit counts; play the
// most visited move, or sample by visits with a temperature.
type puct struct{}

func (puct) startMove(t *Tree) {
	p := t.params
	kids := t.nodes.children(0)
	if p.NoiseFrac <= 0 || t.quiet || t.rng == nil || len(kids) < 2 {
		return
	}
	noise := dirichlet(t.rng, p.NoiseAlpha, len(kids), t.scratch[:0])
	f := float32(p.NoiseFrac)
	for i := range kids {
		kids[i].setPrior((1-f)*kids[i].prior + f*float32(noise[i]))
	}
	t.scratch = noise
}

func (u puct) selectRoot(t *Tree) int32 { return u.selectChild(t, 0) }

func (puct) selectChild(t *Tree, i int32) int32 {
	p := &t.nodes[i]
	kids := t.nodes.children(i)
	// The exploration term's numerator, the same for every child.
	u := float32(t.params.CPUCT * sqrtOf(p.seen()))
	// Unvisited children take the parent's value less a margin (first-play
	// urgency), from the point of view of the side choosing.
	fpu := float32(0)
	if p.visits > 0 && p.mover != env.NoSide {
		fpu = p.q()
		if kids[0].mover != p.mover {
			fpu = -fpu
		}
	}
	fpu -= float32(t.params.FPUReduction)
	var ml movesLeftTerm
	if t.counts { // the call costs even when it adds nothing
		ml = t.params.movesLeft(t.nodes, i, true)
	}
	// The child's value and the best child are chosen without branches,
	// which a wide node's mix of visited and unvisited children would
	// mispredict; Go selects integers, not floats, with conditional moves,
	// so the choices go through the values' bits. The running best is
	// kept and compared as an integer (orderKey): kept as a float, it
	// went between the float and the integer registers at every child, a
	// chain of latencies from one child to the next (its removal saved
	// 4-6% of the search alone, experiments/threads).
	best := 0
	fpuBits := math.Float32bits(fpu)
	bestKey := orderKey(float32(math.Inf(-1)))
	for k := range kids {
		c := &kids[k]
		qBits := math.Float32bits(c.mean + ml.utility(c))
		if c.seen() == 0 {
			qBits = fpuBits
		}
		q := math.Float32frombits(qBits)
		if c.proof != Unproven { // rare
			if c.proof == ProvenLoss { // for the chooser: never worth a visit
				continue
			}
			q = c.proof.value()
		}
		score := q + u*c.explore
		key := orderKey(score)
		if score != score { // NaN, which a float comparison passes over
			key = math.MinInt32
		}
		if key > bestKey {
			best, bestKey = k, key
		}
	}
	return p.firstChild + int32(best)
}

// orderKey maps a float32 to an int32 that orders as the float does
// (NaN aside): -0 becomes +0, to which it compares equal, and a negative
// float's magnitude bits are flipped, so that more negative is smaller.
func orderKey(x float32) int32 {
	b := int32(math.Float32bits(x + 0))
	return b ^ int32(uint32(b>>31)>>1)
}

// smallSqrt[n] is math.Sqrt(n) for the visit counts most selections
// meet, so that a selection takes no square root; the table holds the
// very values math.Sqrt gives, so results do not change.
var smallSqrt = func() (t [1024]float64) {
	for n := range t {
		t[n] = math.Sqrt(float64(n))
	}
	return t
}()

// sqrtOf is the square root of a visit count.
func sqrtOf(n int32) float64 {
	if uint32(n) < uint32(len(smallSqrt)) {
		return smallSqrt[n]
	}
	return math.Sqrt(float64(n))
}

// target is the root's visit shares (its priors before any visit).
func (puct) target(t *Tree, dst []float64) []float64 {
	kids := t.nodes.children(0)
	var total float64
	for _, k := range kids {
		total += float64(k.visits)
	}
	for _, k := range kids {
		if total == 0 {
			dst = append(dst, float64(k.prior))
		} else {
			dst = append(dst, float64(k.visits)/total)
		}
	}
	return dst
}

func (puct) choose(t *Tree, temperature float64) int {
	kids := t.nodes.children(0)
	if temperature <= 0 || t.rng == nil {
		return mostVisited(kids)
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
		return t.rng.IntN(len(kids))
	}
	x := t.rng.Float64() * sum
	for k, w := range weights {
		if x -= w; x < 0 {
			return k
		}
	}
	return len(kids) - 1
}

// mostVisited is the child with the most visits, the higher prior on a
// tie.
func mostVisited(kids []node) int {
	best := 0
	for k := range kids {
		if kids[k].visits > kids[best].visits || (kids[k].visits == kids[best].visits && kids[k].prior > kids[best].prior) {
			best = k
		}
	}
	return best
}

// movesLeftTerm is the moves-left utility at one node: how much a child's
// plies to the end, against the node's own estimate, is worth to the side
// choosing. The zero value adds nothing.
type movesLeftTerm struct {
	parent float32 // the node's plies to the end
	// perPly is the value a ply sooner is worth to the chooser (negative
	// when the chooser is losing and wants the game long), and limit the
	// most it adds or takes.
	perPly, limit float32
}

// movesLeft is the moves-left utility for the children of node i: none
// unless the network estimates plies (counts) and the chooser's value is
// decided beyond the threshold, growing from there to all of
// MovesLeftEffect at a certain result.
func (pr *Params) movesLeft(a arena, i int32, counts bool) movesLeftTerm {
	p := &a[i]
	if !counts || pr.NoMovesLeft || p.visits == 0 || p.firstChild < 0 {
		return movesLeftTerm{}
	}
	q := p.mean // the root's is its side to move's, the chooser's
	if p.mover != env.NoSide && a[p.firstChild].mover != p.mover {
		q = -q
	}
	size := float32(math.Abs(float64(q)))
	th := float32(pr.MovesLeftThreshold)
	if size <= th {
		return movesLeftTerm{}
	}
	scale := min(1, (size-th)/(1-th))
	slope := float32(pr.MovesLeftSlope) * scale
	if q < 0 {
		slope = -slope
	}
	return movesLeftTerm{parent: p.moves, perPly: slope, limit: float32(pr.MovesLeftEffect) * scale}
}

// utility is what child c's estimate is worth: the plies it saves (or
// adds) against its parent's estimate, one of them being c's own move.
func (m movesLeftTerm) utility(c *node) float32 {
	if m.perPly == 0 {
		return 0
	}
	return max(-m.limit, min(m.limit, m.perPly*(m.parent-(c.moves+1))))
}
