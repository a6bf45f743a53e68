package solve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env"
)

// scoreAll scores every move of s, failing the benchmark on an error.
func scoreAll(b *testing.B, x *Exact, s env.State, weak bool) {
	for _, a := range s.LegalActions(nil) {
		if _, err := x.ScoreMove(context.Background(), s, a, weak); err != nil {
			b.Fatal(err)
		}
	}
}

// The empty 5x5 board, every first move scored from an empty table:
// go test -run - -bench Empty -benchtime 1x ./env/hex/solve
func BenchmarkEmptyWeak(b *testing.B)   { benchEmpty(b, true) }
func BenchmarkEmptyStrong(b *testing.B) { benchEmpty(b, false) }

func benchEmpty(b *testing.B, weak bool) {
	g := game(b, 5)
	for i := 0; i < b.N; i++ {
		x := NewExact(g, 256, 0)
		scoreAll(b, x, g.Start(nil), weak)
		b.ReportMetric(float64(x.Nodes()), "nodes")
	}
}

// Positions of random 5x5 games after 4, 6, 8 and 10 stones, every move
// scored exactly, a position at a time from an empty table.
func BenchmarkMidgame(b *testing.B) {
	g := game(b, 5)
	for _, stones := range []int{4, 6, 8, 10} {
		rng := rand.New(rand.NewPCG(1, uint64(stones)))
		var positions []env.State
		for len(positions) < 10 {
			s := g.Start(nil)
			for p := 0; p < stones && !s.Outcome().Over; p++ {
				l := s.LegalActions(nil)
				s.Apply(l[rng.IntN(len(l))])
			}
			if !s.Outcome().Over {
				positions = append(positions, s)
			}
		}
		b.Run(fmt.Sprintf("stones=%d", stones), func(b *testing.B) {
			x := NewExact(g, 64, 0)
			for i := 0; i < b.N; i++ {
				for _, s := range positions {
					x.Reset()
					scoreAll(b, x, s, false)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(positions))/1000, "ms/position")
		})
	}
}
