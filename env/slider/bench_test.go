package slider

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
)

// BenchmarkPlayout plays random games to the end through the concrete type
// and reports plies per second.
func BenchmarkPlayout(b *testing.B) {
	for _, n := range []int{5, 6} {
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			g := MustNew(Config{Size: n})
			rng := rand.New(rand.NewPCG(1, 2))
			start := g.NewState(nil)
			var s State
			buf := make([]int, 0, 64)
			plies := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s = *start
				for !s.outcome.Over {
					buf = s.LegalActions(buf[:0])
					s.Apply(buf[rng.IntN(len(buf))])
					plies++
				}
			}
			b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
			b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
		})
	}
}

// BenchmarkPlayoutInterface is the same through env.State, as the search
// and the baselines see a game.
func BenchmarkPlayoutInterface(b *testing.B) {
	for _, n := range []int{5, 6} {
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			envtest.BenchmarkPlayouts(b, MustNew(Config{Size: n}))
		})
	}
}

// BenchmarkLegalApply measures move generation plus one apply over a fixed
// set of mid-game positions.
func BenchmarkLegalApply(b *testing.B) {
	for _, n := range []int{5, 6} {
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(9, 9))
			g := MustNew(Config{Size: n})
			var positions []State
			for len(positions) < 1024 {
				s := g.NewState(nil)
				for ply := 0; ply < 20 && !s.outcome.Over; ply++ {
					a := s.LegalActions(nil)
					s.Apply(a[rng.IntN(len(a))])
				}
				if !s.outcome.Over {
					positions = append(positions, *s)
				}
			}
			buf := make([]int, 0, 64)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s := positions[i&1023]
				buf = s.LegalActions(buf[:0])
				s.Apply(buf[0])
			}
		})
	}
}
