package mcts

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// MaxThreads bounds a search's threads: each keeps up to ThreadBatch
// leaves in flight, and a node counts its visits in flight in 16 bits.
const MaxThreads = 256

// ThreadBatch is the most leaves one thread of a parallel search gathers
// (each under virtual loss) before it runs the network on them as one
// batch: the network's batched pass costs less a position than one
// position at a time, and more leaves in flight spread the search thinner
// on small budgets.
const ThreadBatch = 4

// checkEvery is the simulations between two looks at the clock, the
// context and the caller's check: cheap next to a network call.
const checkEvery = 16

// Search runs a whole search on one tree with an evaluator, then returns
// the best move (temperature 0). ctx ends it early.
func Search(ctx context.Context, t *Tree, ev Network, temperature float64) (int, error) {
	return SearchThreads(ctx, t, []Network{ev}, temperature)
}

// SearchThreads is Search on one thread per evaluator (each thread needs
// its own: a network keeps scratch buffers). One evaluator gives exactly
// Search's sequential loop; more give the parallel search of Drive.
func SearchThreads(ctx context.Context, t *Tree, evs []Network, temperature float64) (int, error) {
	var deadline time.Time
	if t.params.Time > 0 {
		deadline = time.Now().Add(t.params.Time)
	}
	Drive(ctx, t, evs, func() bool { return deadline.IsZero() || time.Now().Before(deadline) })
	return t.Choose(temperature)
}

// Stats is what a search's threads did: the network's batches and the
// positions in them, and the descents that found their leaf already out
// for evaluation with another thread.
type Stats struct {
	Batches, Evaluated, Collisions int
}

// MeanBatch is the mean positions a network call.
func (s Stats) MeanBatch() float64 {
	if s.Batches == 0 {
		return 0
	}
	return float64(s.Evaluated) / float64(s.Batches)
}

// Drive searches t until its simulation budget is spent, the root is
// proven, ctx ends, or more returns false; more is called every few
// simulations, and with more than one thread under the tree's lock, so it
// may read the tree (Lines, Policy, Value) but must be quick. With one
// evaluator the search is the sequential loop of SelectLeaf and Expand,
// and a seeded search gives the same result every run. With N evaluators,
// N threads descend the one tree: a thread gathers up to ThreadBatch
// leaves, each under virtual loss (its visit counts as a loss for the
// side choosing it until its value arrives, so that the next descent
// looks elsewhere), runs its network on them as one batch with the lock
// released, then expands them and backs their values up under the lock.
// The tree's work is serial and the network's parallel: the network is
// most of a simulation's cost. Results then depend on the threads'
// timing, and differ from run to run.
func Drive(ctx context.Context, t *Tree, evs []Network, more func() bool) Stats {
	if len(evs) == 0 {
		return Stats{} // nothing to evaluate with: no search (Choose says so)
	}
	if len(evs) == 1 || t.params.Gumbel {
		// Gumbel's halving plans its visits one at a time (Params.Check
		// refuses it with threads; a caller that did not check gets one).
		return driveOne(ctx, t, evs[0], more)
	}
	d := &driver{t: t, ctx: ctx, more: more}
	d.cond = sync.NewCond(&d.mu)
	var wg sync.WaitGroup
	d.mu.Lock()
	for _, ev := range evs[:min(len(evs), MaxThreads)] {
		w := newWorker(t, ev)
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.work(w)
		}()
	}
	d.mu.Unlock()
	wg.Wait()
	return d.stats
}

// driveOne is the sequential search.
func driveOne(ctx context.Context, t *Tree, ev Network, more func() bool) Stats {
	g := t.root.Game()
	input := make([]float32, g.InputShape().Size())
	logits := make([]float32, g.ActionSize())
	values, plies := make([]float32, 1), make([]float32, 1)
	var st Stats
	for i := 0; !t.Done(); i++ {
		if i%checkEvery == 0 && i > 0 && (ctx.Err() != nil || !more()) {
			break
		}
		leaf := t.SelectLeaf()
		if leaf == nil {
			continue
		}
		leaf.Encode(input)
		ev.Run(1, input, logits, values, plies)
		t.Expand(logits, values[0], plies[0])
		st.Batches++
		st.Evaluated++
	}
	return st
}

// driver is the state the threads of one parallel search share, all of it
// (and the tree) under mu.
type driver struct {
	t    *Tree
	ctx  context.Context
	more func() bool
	mu   sync.Mutex
	// cond wakes a thread whose every descent found a leaf out with
	// another thread, once some thread has expanded its leaves.
	cond     *sync.Cond
	inFlight int
	stop     bool
	// since counts descents since the last look at ctx and more.
	since int
	stats Stats
}

// worker is one thread's own: its leaves in flight and the network's
// buffers for them.
type worker struct {
	ev                           Network
	paths                        []leafPath
	input, logits, values, plies []float32
	inputSize, actionSize        int
}

func newWorker(t *Tree, ev Network) *worker {
	g := t.root.Game()
	w := &worker{ev: ev, inputSize: g.InputShape().Size(), actionSize: g.ActionSize()}
	w.paths = make([]leafPath, ThreadBatch)
	for i := range w.paths {
		w.paths[i].leaf = t.root.Clone()
	}
	w.input = make([]float32, ThreadBatch*w.inputSize)
	w.logits = make([]float32, ThreadBatch*w.actionSize)
	w.values, w.plies = make([]float32, ThreadBatch), make([]float32, ThreadBatch)
	return w
}

// spent reports whether no more leaves should be sent out: the search is
// done, or the leaves in flight will spend the simulation budget.
func (d *driver) spent() bool {
	t := d.t
	return d.stop || t.Done() || t.params.Sims > 0 && t.sims+d.inFlight >= t.params.Sims
}

// tick counts descents and, every checkEvery, looks at ctx and more.
func (d *driver) tick(n int) {
	d.since += n
	if d.since >= checkEvery {
		d.since = 0
		if d.ctx.Err() != nil || !d.more() {
			d.stop = true
		}
	}
}

func (d *driver) work(w *worker) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.cond.Broadcast() // a thread waiting on this one's leaves
	t := d.t
	for !d.spent() {
		n, busy := 0, false
		for n < len(w.paths) && !busy && !d.spent() {
			f := &w.paths[n]
			switch t.descend(f) {
			case leafNeedsNet:
				t.nodes.hold(f.path)
				d.inFlight++
				n++
			case leafBusy:
				busy = true
				d.stats.Collisions++
			case leafKnown:
				d.tick(1)
			}
		}
		if n == 0 {
			if busy {
				d.cond.Wait()
			}
			continue
		}
		d.mu.Unlock()
		for k := 0; k < n; k++ {
			w.paths[k].leaf.Encode(w.input[k*w.inputSize : (k+1)*w.inputSize])
		}
		w.ev.Run(n, w.input[:n*w.inputSize], w.logits[:n*w.actionSize], w.values[:n], w.plies[:n])
		for k := 0; k < n; k++ {
			w.paths[k].expansion.fill(w.paths[k].leaf, w.logits[k*w.actionSize:(k+1)*w.actionSize])
		}
		d.lock()
		for k := 0; k < n; k++ {
			f := &w.paths[k]
			t.nodes.release(f.path)
			t.expand(f, w.logits[k*w.actionSize:(k+1)*w.actionSize], w.values[k], w.plies[k])
		}
		d.inFlight -= n
		d.stats.Batches++
		d.stats.Evaluated += n
		d.cond.Broadcast()
		d.tick(n)
	}
}

// lockSpins bounds how many times lock tries the tree's lock before it
// sleeps on it.
const lockSpins = 200

// lock takes the tree's lock, trying it for a while before sleeping on
// it: the lock is held for a few microseconds at a time, and a thread put
// to sleep on it wakes late. Sleeping at once left two threads with 1.22
// cores busy of two on a 7x7 search (experiments/threads).
func (d *driver) lock() {
	for i := 0; i < lockSpins; i++ {
		if d.mu.TryLock() {
			return
		}
		runtime.Gosched()
	}
	d.mu.Lock()
}

// hold puts a visit in flight on every node of path (virtual loss).
func (a arena) hold(path []int32) {
	for _, i := range path {
		n := &a[i]
		n.pending++
		n.refresh()
	}
}

// release takes back path's visits in flight (hold) as their leaf is expanded:
// the backup along the same path that follows recomputes each node's
// mean, so it is not done twice here.
func (a arena) release(path []int32) {
	for _, i := range path {
		a[i].pending--
	}
}
