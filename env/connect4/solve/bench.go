package solve

import (
	"context"
	"math/rand/v2"
	"time"
)

// BenchTableEntries is the table of the benchmark: small, as it is
// emptied before each position and emptying it costs time in proportion
// to its size (the emptying is not timed).
const BenchTableEntries = 1 << 20

// BenchPositions returns n positions of b with minDiscs to maxDiscs discs,
// the same ones for the same seed, for benchmarks. Each comes from its own
// game in which both sides play a move that wins at once when they have
// one, and otherwise a random move among those that do not let the
// opponent win at once (any move when every one does): games that look
// like play rather than noise, without a player to tune. The game stops
// at a number of discs drawn uniformly from minDiscs to maxDiscs; a game
// that ends before it, and a position whose score needs no search (its
// side to move wins at once, or cannot stop the opponent winning next),
// is thrown away and another game played. minDiscs and maxDiscs must be
// within the board and leave room for such positions (on 7x6, 34 discs at
// most is safe).
func BenchPositions(b *Board, n, minDiscs, maxDiscs int, seed uint64) []Position {
	rng := rand.New(rand.NewPCG(seed, 0xc4))
	out := make([]Position, 0, n)
	var moves []int
	for len(out) < n {
		target := minDiscs + rng.IntN(maxDiscs-minDiscs+1)
		var p Position
		for p.moves < target && !b.Over(p) {
			moves = moves[:0]
			for c := 0; c < b.W; c++ {
				if b.CanPlay(p, c) && b.Wins(p, c) {
					moves = append(moves, c)
				}
			}
			if len(moves) == 0 {
				safe := b.nonLosing(p)
				for c := 0; c < b.W; c++ {
					if safe&b.column(c) != 0 {
						moves = append(moves, c)
					}
				}
			}
			if len(moves) == 0 {
				for c := 0; c < b.W; c++ {
					if b.CanPlay(p, c) {
						moves = append(moves, c)
					}
				}
			}
			p = b.Play(p, moves[rng.IntN(len(moves))])
		}
		if b.Over(p) || b.winning(p.cur, p.mask)&b.possible(p.mask) != 0 || b.nonLosing(p) == 0 {
			continue
		}
		out = append(out, p)
	}
	return out
}

// BenchResult is what solving a list of positions took.
type BenchResult struct {
	Positions int
	Elapsed   time.Duration
	Nodes     uint64
}

// PerPosition is the mean time a position took.
func (r BenchResult) PerPosition() time.Duration {
	if r.Positions == 0 {
		return 0
	}
	return r.Elapsed / time.Duration(r.Positions)
}

// NodesPerPosition is the mean nodes a position took.
func (r BenchResult) NodesPerPosition() float64 {
	if r.Positions == 0 {
		return 0
	}
	return float64(r.Nodes) / float64(r.Positions)
}

// NodesPerSecond is the search's speed.
func (r BenchResult) NodesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Nodes) / r.Elapsed.Seconds()
}

// Bench solves each position with s in the given mode, from an empty
// table each time (s.Reset, outside the timing), one after another on the
// calling goroutine, and returns the time and nodes the solves took. It
// stops early, with what it measured, when ctx ends.
func Bench(ctx context.Context, s *Solver, positions []Position, mode Mode) (BenchResult, error) {
	var r BenchResult
	for _, p := range positions {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		s.Reset()
		n0, t0 := s.nodes, time.Now()
		if _, err := s.Solve(ctx, p, mode); err != nil {
			return r, err
		}
		r.Elapsed += time.Since(t0)
		r.Nodes += s.nodes - n0
		r.Positions++
	}
	return r, nil
}
