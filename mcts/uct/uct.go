// Package uct is plain Monte Carlo tree search: UCB1 selection and random
// playouts to the end of the game, with no knowledge of the game beyond
// env.State. It is a baseline for the network-guided search.
package uct

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/sliderzero/sliderzero/env"
)

// DefaultC is the exploration constant of UCB1 for rewards in [0, 1].
const DefaultC = 1.4

// MaxNodes bounds the tree, and so the search's memory: a search that
// reaches it stops with its best move so far.
const MaxNodes = 1 << 22

// Config is a search budget: simulations, wall-clock time, or both (the
// first reached stops the search). C is the exploration constant.
type Config struct {
	Sims int
	Time time.Duration
	C    float64
	// MaxNodes bounds the tree below MaxNodes (0: MaxNodes).
	MaxNodes int
}

// node is a tree node. Children of a node are contiguous in the arena.
type node struct {
	action     int32
	firstChild int32 // -1 until expanded
	numChild   int32
	visits     int32
	// wins is the sum of rewards in [0, 1] for the side that made the move
	// into this node.
	wins  float64
	mover env.Side
}

// Searcher runs searches; it keeps its buffers between them. It is not
// safe for concurrent use.
type Searcher struct {
	cfg   Config
	rng   *rand.Rand
	nodes []node
	path  []int32
	buf   []int
	state env.State

	// LastSims is the number of simulations of the last search, and
	// LastValue its value of the chosen move for the side that chose it,
	// from -1 to 1 (its playouts' mean result).
	LastSims  int
	LastValue float64

	// OnProgress, when set, is called during a search every Every (the
	// first time after 64 simulations) with the simulations so far; the
	// tree is then readable (RootChildren, PV). Returning false stops
	// the search.
	OnProgress func(sims int) bool
	Every      time.Duration
}

// New returns a searcher. rng drives playouts and tie-breaking.
func New(cfg Config, rng *rand.Rand) *Searcher {
	if cfg.C == 0 {
		cfg.C = DefaultC
	}
	return &Searcher{cfg: cfg, rng: rng}
}

// Search returns the most visited move at root. It stops at the budget or
// when ctx is done, whichever comes first.
// Budget is the searcher's simulations and time a search; SetBudget
// changes them (0 and 0: until the context ends or the tree is full).
func (u *Searcher) Budget() (int, time.Duration) { return u.cfg.Sims, u.cfg.Time }

// SetBudget sets the simulations and time of the searches after it.
func (u *Searcher) SetBudget(sims int, t time.Duration) { u.cfg.Sims, u.cfg.Time = sims, t }

func (u *Searcher) Search(ctx context.Context, root env.State) (int, error) {
	legal := root.LegalActions(u.buf[:0])
	if len(legal) == 0 {
		return 0, fmt.Errorf("no legal move: the game is over")
	}
	if len(legal) == 1 {
		// No search: the tree is emptied so that RootChildren and PV do
		// not show the last position's.
		u.LastSims, u.LastValue, u.nodes = 0, 0, u.nodes[:0]
		return legal[0], nil
	}
	var deadline time.Time
	if u.cfg.Time > 0 {
		deadline = time.Now().Add(u.cfg.Time)
	}
	u.nodes = append(u.nodes[:0], node{action: -1, firstChild: -1})
	if u.state == nil {
		u.state = root.Clone()
	}
	sims := 0
	limit := MaxNodes
	if u.cfg.MaxNodes > 0 {
		limit = min(limit, u.cfg.MaxNodes)
	}
	var lastReport time.Time
	for (u.cfg.Sims <= 0 || sims < u.cfg.Sims) && len(u.nodes) < limit {
		if sims&63 == 0 && sims > 0 {
			if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
				break
			}
			if u.OnProgress != nil && time.Since(lastReport) >= u.Every {
				if !u.OnProgress(sims) {
					break
				}
				lastReport = time.Now()
			}
		}
		u.simulate(root)
		sims++
	}
	u.LastSims = sims
	r := u.nodes[0]
	best, bestVisits := int32(-1), int32(-1)
	for i := r.firstChild; i < r.firstChild+r.numChild; i++ {
		if v := u.nodes[i].visits; v > bestVisits {
			best, bestVisits = i, v
		}
	}
	u.LastValue = 2*u.nodes[best].wins/float64(max(bestVisits, 1)) - 1
	return int(u.nodes[best].action), nil
}

func (u *Searcher) simulate(root env.State) {
	s := u.state
	s.CopyFrom(root)
	u.path = append(u.path[:0], 0)
	cur := int32(0)
	// Selection: descend through expanded nodes.
	for u.nodes[cur].firstChild >= 0 && !s.Outcome().Over {
		cur = u.selectChild(cur)
		s.Apply(int(u.nodes[cur].action))
		u.path = append(u.path, cur)
	}
	// Expansion: add every child at once, in random order so that the
	// first-visit order does not favour low action numbers.
	if !s.Outcome().Over {
		u.expand(cur, s)
		cur = u.selectChild(cur)
		s.Apply(int(u.nodes[cur].action))
		u.path = append(u.path, cur)
	}
	// Playout.
	for !s.Outcome().Over {
		u.buf = s.LegalActions(u.buf[:0])
		s.Apply(u.buf[u.rng.IntN(len(u.buf))])
	}
	o := s.Outcome()
	for _, i := range u.path {
		n := &u.nodes[i]
		n.visits++
		n.wins += float64(o.Value(n.mover)+1) / 2
	}
}

func (u *Searcher) expand(i int32, s env.State) {
	u.buf = s.LegalActions(u.buf[:0])
	u.rng.Shuffle(len(u.buf), func(a, b int) { u.buf[a], u.buf[b] = u.buf[b], u.buf[a] })
	first := int32(len(u.nodes))
	mover := s.ToMove()
	for _, a := range u.buf {
		u.nodes = append(u.nodes, node{action: int32(a), firstChild: -1, mover: mover})
	}
	u.nodes[i].firstChild = first
	u.nodes[i].numChild = int32(len(u.buf))
}

// selectChild picks the child with the highest UCB1 score, an unvisited
// child first.
func (u *Searcher) selectChild(i int32) int32 {
	p := u.nodes[i]
	logN := math.Log(float64(p.visits) + 1)
	best, bestScore := p.firstChild, math.Inf(-1)
	for c := p.firstChild; c < p.firstChild+p.numChild; c++ {
		n := &u.nodes[c]
		if n.visits == 0 {
			return c
		}
		score := n.wins/float64(n.visits) + u.cfg.C*math.Sqrt(logN/float64(n.visits))
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// Child is a move at the root after a search: its visits and its mean
// playout result for the side that made it, from -1 to 1.
type Child struct {
	Action int
	Visits int
	Value  float64
}

// PV is the line of most visited moves from the root move action, that
// move first, at most depth moves long (nil if action is not a root move).
func (u *Searcher) PV(action, depth int) []int {
	if len(u.nodes) == 0 || u.nodes[0].firstChild < 0 {
		return nil
	}
	var pv []int
	parent := u.nodes[0]
	for len(pv) < depth && parent.firstChild >= 0 {
		best := int32(-1)
		for k := parent.firstChild; k < parent.firstChild+parent.numChild; k++ {
			n := u.nodes[k]
			if (len(pv) == 0 && int(n.action) == action) || (len(pv) > 0 && n.visits > 0 && (best < 0 || n.visits > u.nodes[best].visits)) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		pv = append(pv, int(u.nodes[best].action))
		parent = u.nodes[best]
	}
	return pv
}

// RootChildren are the last search's root moves with their statistics,
// in the order the tree holds them (nil before any search).
func (u *Searcher) RootChildren() []Child {
	if len(u.nodes) == 0 || u.nodes[0].firstChild < 0 {
		return nil
	}
	r := u.nodes[0]
	out := make([]Child, 0, r.numChild)
	for k := r.firstChild; k < r.firstChild+r.numChild; k++ {
		n := u.nodes[k]
		v := 0.0
		if n.visits > 0 {
			v = 2*n.wins/float64(n.visits) - 1
		}
		out = append(out, Child{Action: int(n.action), Visits: int(n.visits), Value: v})
	}
	return out
}
