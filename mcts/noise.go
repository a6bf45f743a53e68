package mcts

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// dirichlet draws a sample of Dirichlet(alpha, ..., alpha) into dst: n
// independent Gamma(alpha, 1) draws, normalised. The gamma draws are
// gonum's, which switch below alpha 0.2 to a method made for small shapes
// (Liu, Martin and Syring), where boosting alpha by one and scaling by
// u^(1/alpha) underflows to zero. (gonum's Dirichlet in distmv would do
// the same with a slice of alphas and a fresh allocation each root.)
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
