package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/train"
)

// searchBench is one line of bench --search.
type searchBench struct {
	threads   int
	sims      int
	elapsed   time.Duration
	meanBatch float64
	collided  float64 // descents that found their leaf taken, a simulation
}

func (b searchBench) perSecond() float64 { return float64(b.sims) / b.elapsed.Seconds() }

// benchSearchThreads times searches of sims simulations each, from a fixed
// set of positions of g, for d, with one evaluator a thread from newEval.
func benchSearchThreads(ctx context.Context, g env.Game, newEval func() mcts.Network, threads, sims int, d time.Duration) (searchBench, error) {
	// Positions: 16 starts with 0 to 15 random plies, the same every run.
	rng := rand.New(rand.NewPCG(1, 2))
	var starts []env.State
	var buf []int
	for i := 0; len(starts) < 16; i++ {
		s := g.Start(rng)
		for k := 0; k < i%16 && !s.Outcome().Over; k++ {
			buf = s.LegalActions(buf[:0])
			s.Apply(buf[rng.IntN(len(buf))])
		}
		if !s.Outcome().Over {
			starts = append(starts, s)
		}
	}
	evs := make([]mcts.Network, threads)
	for i := range evs {
		evs[i] = newEval()
	}
	p := mcts.DefaultParams()
	p.Sims, p.Threads = sims, threads
	tree, err := mcts.NewTree(p, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		return searchBench{}, err
	}
	var st mcts.Stats
	r := searchBench{threads: threads}
	t0 := time.Now()
	for i := 0; time.Since(t0) < d && ctx.Err() == nil; i++ {
		tree.Reset(starts[i%len(starts)])
		s := mcts.Drive(ctx, tree, evs, func() bool { return true })
		r.sims += tree.Sims()
		st.Batches += s.Batches
		st.Evaluated += s.Evaluated
		st.Collisions += s.Collisions
	}
	r.elapsed = time.Since(t0)
	r.meanBatch = st.MeanBatch()
	r.collided = float64(st.Collisions) / float64(max(1, r.sims))
	return r, ctx.Err()
}

// benchSearch prints bench --search: the search alone (a trivial
// evaluator) and with a network, at each thread count.
func benchSearch(ctx context.Context, io stdio, g env.Game, playerFile string, sims int, d time.Duration) error {
	var w *model.Weights
	what := ""
	if playerFile != "" {
		pf, err := player.LoadPlayerFile(playerFile)
		if err != nil {
			return err
		}
		if err := pf.Weights.Arch.CheckGame(g); err != nil {
			return fmt.Errorf("--player %s does not play %s: %w", playerFile, g.Describe(), err)
		}
		w, what = pf.Weights, playerFile
	} else {
		cfg := train.DefaultConfig()
		a := cfg.Net.Arch(g)
		var err error
		if w, err = model.NewWeights(a, rand.New(rand.NewPCG(1, 1))); err != nil {
			return err
		}
		what = "the default network, untrained"
	}
	net, err := model.NewNet(w)
	if err != nil {
		return err
	}
	threads := []int{1, 2, 4, 8}
	if n := runtime.NumCPU(); !slices.Contains(threads, n) {
		threads = append(threads, n)
		slices.Sort(threads)
	}
	fmt.Fprintf(io.out, "%s, searches of %d simulations, %d cores (GOMAXPROCS %d)\n", g.Describe(), sims, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	for _, ev := range []struct {
		name string
		new  func() mcts.Network
	}{
		{"search alone (uniform policy, value 0)", func() mcts.Network { return mcts.Uniform{Actions: g.ActionSize()} }},
		{"with " + what + " (" + w.Arch.String() + ")", func() mcts.Network { return net.NewForward() }},
	} {
		fmt.Fprintf(io.out, "%s:\n", ev.name)
		var one float64
		for _, n := range threads {
			r, err := benchSearchThreads(ctx, g, ev.new, n, sims, d)
			if err != nil {
				return err
			}
			if n == 1 {
				one = r.perSecond()
			}
			unit := "threads"
			if n == 1 {
				unit = "thread "
			}
			fmt.Fprintf(io.out, "  %2d %s: %8.0f simulations/s (%.2fx one thread), %6.2f us a simulation, mean batch %.2f, collisions %.3f a simulation\n",
				n, unit, r.perSecond(), r.perSecond()/one, 1e6/r.perSecond(), r.meanBatch, r.collided)
		}
	}
	return nil
}
