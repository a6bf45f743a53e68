package solve

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env"
)

// The solver's benchmark: every move of a position scored exactly, from
// an empty table of DefaultTableMB (emptied outside the timing); one op
// is one position. The starts of Kalah(4,3), the default, and of
// Kalah(6,3); and positions of Kalah(4,3) and Kalah(6,3) after random
// plies (benchPositions), through which the ops walk in order:
//
//	go test ./env/kalah/solve -run XXX -bench Solver/start
//	go test ./env/kalah/solve -run XXX -bench Solver/middle -benchtime 50x
func BenchmarkSolver(b *testing.B) {
	x := NewExact(DefaultTableMB, 0)
	for _, c := range []struct {
		name      string
		pits, ply int
		positions int
	}{{"start/4x3", 4, 0, 1}, {"start/6x3", 6, 0, 1}, {"middle/4x3-ply4", 4, 4, 50}, {"middle/6x3-ply12", 6, 12, 50}} {
		g := newGame(b, c.pits, 3)
		positions := benchPositions(g, c.positions, c.ply, 1)
		b.Run(c.name, func(b *testing.B) {
			var nodes uint64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				x.Reset()
				n0 := x.Nodes()
				b.StartTimer()
				if _, err := env.ScoreMoves(context.Background(), x, positions[i%len(positions)], nil, false); err != nil {
					b.Fatal(err)
				}
				nodes += x.Nodes() - n0
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// benchPositions are n positions of g after ply random plies (the start
// for 0), each from its own seeded game, the finished ones left out.
func benchPositions(g env.Game, n, ply int, seed uint64) []env.State {
	rng := rand.New(rand.NewPCG(seed, 0xb))
	var out []env.State
	for len(out) < n {
		s := g.Start(nil)
		for s.Ply() < ply && !s.Outcome().Over {
			legal := s.LegalActions(nil)
			s.Apply(legal[rng.IntN(len(legal))])
		}
		if !s.Outcome().Over {
			out = append(out, s)
		}
	}
	return out
}

// The benchmark's positions are the same for the same seed.
func TestBenchPositions(t *testing.T) {
	g := newGame(t, 4, 3)
	a, b := benchPositions(g, 20, 4, 1), benchPositions(g, 20, 4, 1)
	for i := range a {
		if a[i].String() != b[i].String() || a[i].Ply() != 4 {
			t.Fatalf("position %d: %s (ply %d) and %s", i, a[i], a[i].Ply(), b[i])
		}
	}
}
