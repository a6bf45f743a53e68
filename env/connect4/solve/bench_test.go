package solve

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// The solver's benchmark: 7x6 positions from BenchPositions' games (seed
// 1), end-game ones of 28 to 34 discs and middle-game ones of 15 to 24,
// each solved from an empty table of BenchTableEntries entries (emptied
// outside the timing), strongly and weakly. One op is one position; the
// ops walk through the list in order, so -benchtime 1000x (end game) or
// 200x (middle game) covers the whole list once, as sliderzero bench
// --solver does:
//
//	go test ./env/connect4/solve -run XXX -bench Solver/end -benchtime 1000x
//	go test ./env/connect4/solve -run XXX -bench Solver/middle -benchtime 200x
func BenchmarkSolver(b *testing.B) {
	board, _ := NewBoard(7, 6)
	s := New(board, BenchTableEntries)
	for _, group := range []struct {
		name     string
		n        int
		min, max int
	}{{"end", 1000, 28, 34}, {"middle", 200, 15, 24}} {
		positions := BenchPositions(board, group.n, group.min, group.max, 1)
		for _, mode := range []struct {
			name string
			mode Mode
		}{{"strong", Strong}, {"weak", Weak}} {
			b.Run(fmt.Sprintf("%s/%s", group.name, mode.name), func(b *testing.B) {
				var nodes uint64
				var elapsed time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					s.Reset()
					p := positions[i%len(positions)]
					n0, t0 := s.Nodes(), time.Now()
					b.StartTimer()
					if _, err := s.Solve(context.Background(), p, mode.mode); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					elapsed += time.Since(t0)
					nodes += s.Nodes() - n0
					b.StartTimer()
				}
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
				if elapsed > 0 {
					b.ReportMetric(float64(nodes)/elapsed.Seconds(), "nodes/s")
				}
			})
		}
	}
}

// The benchmark's positions are the same for the same seed, have the
// discs asked, and each needs a search.
func TestBenchPositions(t *testing.T) {
	board, _ := NewBoard(7, 6)
	a := BenchPositions(board, 50, 28, 34, 1)
	b := BenchPositions(board, 50, 28, 34, 1)
	if len(a) != 50 {
		t.Fatalf("%d positions", len(a))
	}
	for i, p := range a {
		if p != b[i] {
			t.Fatalf("position %d differs between two calls with one seed", i)
		}
		if p.moves < 28 || p.moves > 34 || board.Over(p) {
			t.Fatalf("position %d: %d discs, over %v", i, p.moves, board.Over(p))
		}
		for c := 0; c < board.W; c++ {
			if board.CanPlay(p, c) && board.Wins(p, c) {
				t.Fatalf("position %d wins at once in column %d:\n%s", i, c+1, board.Grid(p))
			}
		}
	}
	s := New(board, 1<<16)
	r, err := Bench(context.Background(), s, a[:10], Weak)
	if err != nil || r.Positions != 10 || r.Nodes == 0 {
		t.Errorf("bench: %+v %v", r, err)
	}
}
