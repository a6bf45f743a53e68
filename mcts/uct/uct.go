// Package uct is plain Monte Carlo tree search: UCB1 selection and random
// playouts to the end of the game, with no knowledge of the game beyond
// env.State. It is a baseline for the network-guided search.
package uct

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
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
	// Threads searches the root with that many trees at once, each on its
	// own thread with its own playouts, and adds up their root moves'
	// statistics (root parallelisation, Chaslot, Winands and van den
	// Herik 2008: for UCT with random playouts it scales as well as one
	// shared tree, with no locks). A simulation budget is shared out
	// among the trees, so a search with Sims makes the same moves however
	// the threads are timed; the node bound is shared out too, so the
	// memory stays that of one tree. 0 or 1: one tree, on the caller's
	// thread.
	Threads int
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
	// helpers are the other trees of a search on more than one thread
	// (threaded is set during and after one), each telling its root's
	// statistics through its shared snapshot.
	helpers  []*Searcher
	shared   *snapshot
	threaded bool
	// reported is the view a progress report's count came from: during
	// the report RootChildren returns it, so that the moves it shows add
	// up to the simulations reported (the helpers go on meanwhile).
	reported []Child

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

// Budget is the searcher's simulations and time a search; SetBudget
// changes them (0 and 0: until the context ends or the tree is full).
func (u *Searcher) Budget() (int, time.Duration) { return u.cfg.Sims, u.cfg.Time }

// SetBudget sets the simulations and time of the searches after it.
func (u *Searcher) SetBudget(sims int, t time.Duration) { u.cfg.Sims, u.cfg.Time = sims, t }

// Search returns the most visited move at root. It stops at the budget or
// when ctx is done, whichever comes first.
func (u *Searcher) Search(ctx context.Context, root env.State) (int, error) {
	u.threaded = false
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
	limit := MaxNodes
	if u.cfg.MaxNodes > 0 {
		limit = min(limit, u.cfg.MaxNodes)
	}
	if u.cfg.Threads > 1 {
		return u.searchThreads(ctx, root, deadline, limit)
	}
	u.LastSims = u.run(ctx, root, u.cfg.Sims, deadline, limit)
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

// run grows the tree from root until its simulations reach budget (0: no
// bound), the deadline or the node limit is reached, ctx ends or the
// progress report asks to stop; it returns its simulations.
func (u *Searcher) run(ctx context.Context, root env.State, budget int, deadline time.Time, limit int) int {
	u.nodes = append(u.nodes[:0], node{action: -1, firstChild: -1})
	if u.state == nil {
		u.state = root.Clone()
	}
	sims := 0
	var lastReport time.Time
	for (budget <= 0 || sims < budget) && len(u.nodes) < limit {
		if sims&63 == 0 && sims > 0 {
			if u.shared != nil {
				u.publish(sims)
			}
			if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
				break
			}
			if u.OnProgress != nil && time.Since(lastReport) >= u.Every {
				total := sims
				if u.threaded {
					u.reported, total = u.view(sims)
				}
				goOn := u.OnProgress(total)
				u.reported = nil
				if !goOn {
					break
				}
				lastReport = time.Now()
			}
		}
		u.simulate(root)
		sims++
	}
	if u.shared != nil {
		u.publish(sims)
	}
	return sims
}

// rootStat is a root move's statistics in one tree.
type rootStat struct {
	action int32
	visits int32
	wins   float64
}

// snapshot is what a helper tree last told of its root: its root moves'
// statistics and its simulations, under mu.
type snapshot struct {
	mu    sync.Mutex
	stats []rootStat
	sims  int
}

// publish copies the root's statistics into u.shared, for the searcher
// that leads the search to add up.
func (u *Searcher) publish(sims int) {
	sh := u.shared
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.stats, sh.sims = sh.stats[:0], sims
	r := u.nodes[0]
	for k := r.firstChild; k < r.firstChild+r.numChild; k++ {
		n := &u.nodes[k]
		sh.stats = append(sh.stats, rootStat{n.action, n.visits, n.wins})
	}
}

// view is the root moves' statistics added up over this searcher's tree
// (with own simulations) and, in a threaded search, the helpers' last
// snapshots, in this tree's order, and the simulations of them all.
func (u *Searcher) view(own int) ([]Child, int) {
	r := u.nodes[0]
	kids := make([]Child, 0, r.numChild)
	wins := make([]float64, 0, r.numChild)
	at := make(map[int32]int, r.numChild)
	for k := r.firstChild; k < r.firstChild+r.numChild; k++ {
		n := &u.nodes[k]
		at[n.action] = len(kids)
		kids = append(kids, Child{Action: int(n.action), Visits: int(n.visits)})
		wins = append(wins, n.wins)
	}
	sims := own
	var helpers []*Searcher
	if u.threaded {
		helpers = u.helpers[:u.cfg.Threads-1]
	}
	for _, h := range helpers {
		sh := h.shared
		sh.mu.Lock()
		sims += sh.sims
		for _, st := range sh.stats {
			if j, ok := at[st.action]; ok {
				kids[j].Visits += int(st.visits)
				wins[j] += st.wins
			}
		}
		sh.mu.Unlock()
	}
	for j := range kids {
		if kids[j].Visits > 0 {
			kids[j].Value = 2*wins[j]/float64(kids[j].Visits) - 1
		}
	}
	return kids, sims
}

// searchThreads is a search with Threads trees: this searcher's on the
// caller's thread (it reports progress, and its stop stops the others)
// and its helpers' each on its own; the move is the most visited over
// all of them.
func (u *Searcher) searchThreads(ctx context.Context, root env.State, deadline time.Time, limit int) (int, error) {
	n := u.cfg.Threads
	for len(u.helpers) < n-1 {
		// Each helper's playouts draw from their own stream, seeded once
		// from this searcher's, so that a seeded search repeats.
		cfg := u.cfg
		cfg.Threads = 1
		h := New(cfg, rand.New(rand.NewPCG(u.rng.Uint64(), u.rng.Uint64())))
		h.shared = &snapshot{}
		u.helpers = append(u.helpers, h)
	}
	limit = max(limit/n, 1000)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	for _, h := range u.helpers[:n-1] {
		h.shared.stats, h.shared.sims = h.shared.stats[:0], 0
	}
	u.threaded = true
	var wg sync.WaitGroup
	for i, h := range u.helpers[:n-1] {
		wg.Go(func() { h.run(ctx, root, share(u.cfg.Sims, n, i+1), deadline, limit) })
	}
	mine := share(u.cfg.Sims, n, 0)
	own := u.run(ctx, root, mine, deadline, limit)
	if mine == 0 || own < mine {
		// Stopped before its share (by the clock, ctx, the node bound or
		// the progress report): the others stop too.
		stop()
	}
	wg.Wait()
	kids, sims := u.view(own)
	best := 0
	for j := range kids {
		if kids[j].Visits > kids[best].Visits {
			best = j
		}
	}
	u.LastSims, u.LastValue = sims, kids[best].Value
	return kids[best].Action, nil
}

// share is tree i's part of a budget of sims shared among n trees (0: no
// bound).
func share(sims, n, i int) int {
	if sims <= 0 {
		return 0
	}
	s := sims / n
	if i < sims%n {
		s++
	}
	return max(s, 1)
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
// move first, at most depth moves long (nil if action is not a root move);
// in a search on more than one thread, the line in this searcher's own
// tree.
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
// in the order the tree holds them (nil before any search); in and after
// a search on more than one thread, added up over its trees (the helpers'
// as of their last report).
func (u *Searcher) RootChildren() []Child {
	if len(u.nodes) == 0 || u.nodes[0].firstChild < 0 {
		return nil
	}
	if u.reported != nil {
		return u.reported
	}
	kids, _ := u.view(0)
	return kids
}
