package mcts

import (
	"math"
	"slices"
)

// gumbel is Gumbel root search with sequential halving (Danihelka et al.,
// ICLR 2022, as DeepMind's mctx implements it): the root samples GumbelM
// candidates by Gumbel noise plus logit and halves them in phases by
// noise + logit + sigma(completed Q); below the root the deterministic
// rule picks the child whose improved-policy share most exceeds its visit
// share; it teaches the improved policy and plays the halving's winner.
type gumbel struct {
	noise      []float64 // per root child: its Gumbel sample
	candidates []int32   // root children still in the halving
	phaseVisit int32     // visits each candidate has by the end of the phase
	phasesLeft int
	q          []float64 // completedQ's
}

func (g *gumbel) startMove(t *Tree) {
	kids := t.nodes.children(0)
	g.noise = g.noise[:0]
	for range kids {
		x := 0.0
		if t.rng != nil {
			x = -math.Log(-math.Log(t.rng.Float64()*(1-2e-12) + 1e-12))
		}
		g.noise = append(g.noise, x)
	}
	// Keep the m children with the largest noise + logit.
	g.candidates = g.candidates[:0]
	for i := range kids {
		g.candidates = append(g.candidates, int32(i))
	}
	g.sortCandidates(func(i int32) float64 { return g.noise[i] + float64(kids[i].logit) })
	m := min(t.params.GumbelM, len(kids))
	g.candidates = g.candidates[:m]
	g.phasesLeft = max(1, int(math.Ceil(math.Log2(float64(m)))))
	g.nextPhase(t)
}

// budgetLeft is the number of simulations the halving plans for.
func (g *gumbel) budgetLeft(t *Tree) int {
	if t.params.Sims <= 0 {
		return t.params.GumbelTimedVisits * len(g.candidates)
	}
	return max(t.params.Sims-t.sims, len(g.candidates))
}

// nextPhase sets the visit target of the current halving phase.
func (g *gumbel) nextPhase(t *Tree) {
	per := max(1, g.budgetLeft(t)/(g.phasesLeft*len(g.candidates)))
	kids := t.nodes.children(0)
	var most int32
	for _, c := range g.candidates {
		most = max(most, kids[c].visits)
	}
	g.phaseVisit = most + int32(per)
}

func (g *gumbel) selectRoot(t *Tree) int32 {
	first := t.nodes[0].firstChild
	kids := t.nodes.children(0)
	for {
		// Candidates proven lost for the side to move leave the halving.
		g.candidates = slices.DeleteFunc(g.candidates, func(c int32) bool { return kids[c].proof == ProvenLoss })
		if len(g.candidates) == 0 {
			// Every candidate is proven lost: search the other moves.
			return puct{}.selectChild(t, 0)
		}
		var best int32 = -1
		for _, c := range g.candidates {
			if v := kids[c].visits; v < g.phaseVisit && (best < 0 || v < kids[best].visits) {
				best = c
			}
		}
		if best >= 0 {
			return first + best
		}
		// Phase over: keep the better half for the next one.
		if len(g.candidates) > 1 {
			g.halve(t)
		}
		g.phasesLeft = max(1, g.phasesLeft-1)
		g.nextPhase(t)
	}
}

func (g *gumbel) halve(t *Tree) {
	kids := t.nodes.children(0)
	sigma := sigmaScale(t, 0)
	qs := g.completedQ(t, 0)
	g.sortCandidates(func(i int32) float64 {
		return g.noise[i] + float64(kids[i].logit) + sigma*qs[i]
	})
	g.candidates = g.candidates[:max(1, (len(g.candidates)+1)/2)]
}

// sortCandidates orders the candidates by decreasing score (stable).
func (g *gumbel) sortCandidates(score func(int32) float64) {
	c := g.candidates
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && score(c[j]) > score(c[j-1]); j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
}

// selectChild is the deterministic rule below the root: the argmax of the
// improved policy less the visit share.
func (g *gumbel) selectChild(t *Tree, i int32) int32 {
	p := t.nodes[i]
	kids := t.nodes.children(i)
	pi := g.improvedPolicy(t, i)
	total := float64(p.visits - 1)
	best, bestScore := 0, math.Inf(-1)
	for k := range kids {
		if kids[k].proof == ProvenLoss {
			continue
		}
		score := pi[k] - float64(kids[k].visits)/(1+total)
		if score > bestScore {
			best, bestScore = k, score
		}
	}
	return p.firstChild + int32(best)
}

func (g *gumbel) target(t *Tree, dst []float64) []float64 {
	return append(dst, g.improvedPolicy(t, 0)...)
}

// choose is the candidate with the best noise (when sampling) + logit +
// sigma(completed Q).
func (g *gumbel) choose(t *Tree, temperature float64) int {
	kids := t.nodes.children(0)
	if len(g.candidates) == 0 {
		return mostVisited(kids)
	}
	sigma := sigmaScale(t, 0)
	qs := g.completedQ(t, 0)
	best, bestScore := int32(0), math.Inf(-1)
	for _, c := range g.candidates {
		x := 0.0
		if temperature > 0 {
			x = g.noise[c]
		}
		if s := x + float64(kids[c].logit) + sigma*qs[c]; s > bestScore {
			best, bestScore = c, s
		}
	}
	return int(best)
}

// completedQ returns, per child of node i, its value for the side choosing
// rescaled to [0, 1]; unvisited children get the mix of the node's raw
// network value with the prior-weighted values of the visited children
// (mctx's qtransform_completed_by_mix_value).
func (g *gumbel) completedQ(t *Tree, i int32) []float64 {
	kids := t.nodes.children(i)
	var sumPrior, sumPQ, visited float64
	for k := range kids {
		if kids[k].visits > 0 {
			sumPrior += float64(kids[k].prior)
			sumPQ += float64(kids[k].prior) * float64(kids[k].q())
			visited += float64(kids[k].visits)
		}
	}
	// The node's raw value is for its side to move, the side choosing
	// among kids, as the children's q are.
	mix := float64(t.nodes[i].raw)
	if sumPrior > 0 {
		mix = (mix + visited*sumPQ/sumPrior) / (1 + visited)
	}
	qs := g.q[:0]
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
	g.q = qs
	return qs
}

// sigmaScale is sigma's factor at node i: it grows with the most visited
// child's visits.
func sigmaScale(t *Tree, i int32) float64 {
	var most int32
	for _, k := range t.nodes.children(i) {
		most = max(most, k.visits)
	}
	return (t.params.GumbelVisitInit + float64(most)) * t.params.GumbelValueScale
}

// improvedPolicy is softmax(logits + sigma(completed Q)) over node i's
// children.
func (g *gumbel) improvedPolicy(t *Tree, i int32) []float64 {
	kids := t.nodes.children(i)
	sigma := sigmaScale(t, i)
	qs := g.completedQ(t, i)
	hi := math.Inf(-1)
	for k := range qs {
		qs[k] = float64(kids[k].logit) + sigma*qs[k]
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
