package mcts

import (
	"math"
	"math/rand/v2"
)

// dirichlet draws a sample of Dirichlet(alpha, ..., alpha) into dst.
func dirichlet(rng *rand.Rand, alpha float64, n int, dst []float64) []float64 {
	dst = dst[:0]
	var sum float64
	for i := 0; i < n; i++ {
		g := gamma(rng, alpha)
		dst = append(dst, g)
		sum += g
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

// gamma draws from Gamma(alpha, 1) (Marsaglia and Tsang; alpha < 1 by
// boosting to alpha + 1).
func gamma(rng *rand.Rand, alpha float64) float64 {
	if alpha < 1 {
		u := rng.Float64()
		return gamma(rng, alpha+1) * math.Pow(u, 1/alpha)
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
