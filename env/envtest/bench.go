package envtest

import (
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env"
)

// BenchmarkPlayouts plays random games of g to the end through env.State
// and reports plies per second: the benchmark every game runs.
func BenchmarkPlayouts(b *testing.B, g env.Game) {
	rng := rand.New(rand.NewPCG(1, 2))
	start := g.Start(rng)
	s := start.Clone()
	buf := make([]int, 0, 256)
	plies := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.CopyFrom(start)
		for !s.Outcome().Over {
			buf = s.LegalActions(buf[:0])
			s.Apply(buf[rng.IntN(len(buf))])
			plies++
		}
	}
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
}
