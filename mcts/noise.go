package mcts

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// dirichlet draws a sample of Dirichlet(alpha, ..., alpha) into dst: n
// independent Gamma(alpha, 1) draws, normalised. The gamma draws are
// gonum's, which switch below alpha 0.2 to a method made for small shapes
// (Liu, Martin and Syring) instead of boosting alpha by one and scaling by
// u^(1/alpha), a factor that for alpha 0.001 is under 1e-300 half the
// time. It runs once a searched root, not a simulation: that gonum wraps
// the source in a small rand.Rand each draw costs nothing that shows.
func dirichlet(rng *rand.Rand, alpha float64, n int, dst []float64) []float64 {
	dst = dst[:0]
	g := distuv.Gamma{Alpha: alpha, Beta: 1, Src: rng}
	var sum float64
	for i := 0; i < n; i++ {
		x := g.Rand()
		dst = append(dst, x)
		sum += x
	}
	if sum == 0 {
		for i := range dst {
			dst[i] = 1 / float64(n)
		}
		return dst
	}
	for i := range dst {
		dst[i] /= sum
	}
	return dst
}
