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
// with a network that costs nothing (Uniform), on one thread and on two;
// ns/sim is the search's own cost a simulation. The sliderzero bench
// --search command gives the same with a real network.
func BenchmarkSearch(b *testing.B) {
	g5 := slider.MustNew(slider.Config{Size: 5})
	for _, c := range []struct {
		name string
		s    env.State
	}{{"slider5", g5.Start(nil)}, {"connect4", connect4.New().Start(nil)}} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", c.name, threads), func(b *testing.B) {
				tree, _ := NewTree(Params{Sims: 800, Threads: threads}, rand.New(rand.NewPCG(1, 2)))
				evs := evaluators(threads, Uniform{c.s.Game().ActionSize()})
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
