package mcts

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/env/slider"
)

// BenchmarkSearch times the search alone: searches of 800 simulations
// with a network that costs nothing (uniform policy, value 0, no plies
// estimate: noNet), on one thread and on two; ns/sim is the search's own
// cost a simulation. The sliderzero bench --search command gives the same
// with a real network.
func BenchmarkSearch(b *testing.B) {
	g5 := slider.MustNew(slider.Config{Size: 5})
	for _, c := range []struct {
		name string
		s    env.State
	}{{"slider5", g5.Start(nil)}, {"connect4", connect4.New().Start(nil)}} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", c.name, threads), func(b *testing.B) {
				tree, _ := NewTree(Params{Sims: 800, Threads: threads}, rand.New(rand.NewPCG(1, 2)))
				evs := evaluators(threads, noNet{c.s.Game().ActionSize()})
				sims := 0
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					tree.Reset(c.s)
					Drive(context.Background(), tree, evs, func() bool { return true })
					sims += tree.Sims()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(sims), "ns/sim")
			})
		}
	}
}

// noNet is the benchmark's network that costs nothing: uniform, value 0,
// and, like a network without the plies head, no estimate of the plies to
// the end (uniform leaves them 0, an estimate that turns the moves-left
// utility's bookkeeping on, which no shipped network pays).
type noNet struct{ actions int }

func (u noNet) Run(batch int, input, logits, values, plies []float32) {
	clear(logits[:batch*u.actions])
	clear(values[:batch])
	for i := range plies[:batch] {
		plies[i] = -1
	}
}
