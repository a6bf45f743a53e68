package mcts

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The move a search plays is its most visited child; a tie in visits goes
// to the higher prior, and a tie in both to the first child, so that a
// seeded search plays the same move whatever the order it would scan in.
func TestMostVisitedBreaksTies(t *testing.T) {
	kid := func(visits int32, prior float32) node { return node{visits: visits, prior: prior} }
	cases := []struct {
		name string
		kids []node
		want int
	}{
		{"most visits", []node{kid(3, 0.9), kid(5, 0.1), kid(4, 0)}, 1},
		{"a tie in visits: the higher prior", []node{kid(5, 0.2), kid(5, 0.5), kid(2, 0.9)}, 1},
		{"a tie in both: the first", []node{kid(1, 0.25), kid(4, 0.25), kid(4, 0.25), kid(4, 0.25)}, 1},
		{"unvisited, equal priors: the first", []node{kid(0, 0.5), kid(0, 0.5)}, 0},
	}
	for _, c := range cases {
		if got := mostVisited(c.kids); got != c.want {
			t.Errorf("%s: child %d, want %d", c.name, got, c.want)
		}
	}
}

// PUCT compares scores through orderKey: it must order every pair of
// non-NaN floats as the float comparison does, -0 equal to +0 included.
func TestOrderKeyOrdersAsFloats(t *testing.T) {
	inf := float32(math.Inf(1))
	vals := []float32{-inf, -math.MaxFloat32, -1, -math.SmallestNonzeroFloat32, float32(math.Copysign(0, -1)), 0,
		math.SmallestNonzeroFloat32, 1, math.MaxFloat32, inf}
	rng := rand.New(rand.NewPCG(1, 2))
	for len(vals) < 400 {
		if x := math.Float32frombits(rng.Uint32()); x == x {
			vals = append(vals, x)
		}
	}
	for _, a := range vals {
		for _, b := range vals {
			ka, kb := orderKey(a), orderKey(b)
			if (a < b) != (ka < kb) || (a == b) != (ka == kb) {
				t.Fatalf("%g, %g: keys %d, %d do not order as the floats", a, b, ka, kb)
			}
		}
	}
}
