package learn

import (
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/model/internal/kernel"
)

// The optimiser's pure-Go loop gives the SIMD kernels' bits, so that a run
// resumed on a machine without them (or on another architecture, where
// the loop's products are kept unfused) trains on exactly.
func TestAdamSameBitsWithoutSIMD(t *testing.T) {
	if !kernel.Available() {
		t.Skip("no SIMD kernels on this machine: the pure-Go loop is the only path")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	sizes := []int{1, 15, 16, 33, 1000}
	params := func() [][]float32 {
		var out [][]float32
		for _, n := range sizes {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(rng.NormFloat64())
			}
			out = append(out, x)
		}
		return out
	}
	p, g := params(), params()
	clone := func(x [][]float32) [][]float32 {
		var out [][]float32
		for _, v := range x {
			out = append(out, append([]float32(nil), v...))
		}
		return out
	}
	fast, slow := NewAdam(1e-4), NewAdam(1e-4)
	pf, ps := clone(p), clone(p)
	for _, o := range []*Adam{fast, slow} {
		for _, v := range p {
			o.M = append(o.M, make([]float32, len(v)))
			o.V = append(o.V, make([]float32, len(v)))
		}
	}
	for step := 0; step < 5; step++ {
		fast.update(pf, g, 1e-3)
		kernel.WithoutSIMD(func() { slow.update(ps, g, 1e-3) })
	}
	for i := range pf {
		for j := range pf[i] {
			if pf[i][j] != ps[i][j] || fast.M[i][j] != slow.M[i][j] || fast.V[i][j] != slow.V[i][j] {
				t.Fatalf("tensor %d entry %d: SIMD %v %v %v, pure Go %v %v %v", i, j, pf[i][j], fast.M[i][j], fast.V[i][j], ps[i][j], slow.M[i][j], slow.V[i][j])
			}
		}
	}
}
