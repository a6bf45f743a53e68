package learn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/sliderzero/sliderzero/model/internal/kernel"
)

// The kernels' Sgemm gives gonum's results within rounding, for every
// transposition, beta 0 and 1, widths that fill the kernels' blocks and
// widths that do not, and strides wider than the rows; alpha other than 1
// goes to gonum.
func TestFastSgemmAgreesWithGonum(t *testing.T) {
	if !kernel.Available() {
		t.Skip("no SIMD kernels on this machine")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, dims := range [][3]int{{1, 1, 1}, {128, 128, 75}, {75, 128, 128}, {128, 76, 128}, {128, 1, 128}, {5, 33, 7}, {64, 96, 3}} {
				for _, beta := range []float32{0, 1} {
					for _, alpha := range []float32{1, 0.5} {
						m, n, k := dims[0], dims[1], dims[2]
						ar, ac := m, k
						if tA == blas.Trans {
							ar, ac = k, m
						}
						br, bc := k, n
						if tB == blas.Trans {
							br, bc = n, k
						}
						lda, ldb, ldc := ac+2, bc+1, n+3
						a, b := randomInput(rng, ar*lda), randomInput(rng, br*ldb)
						c0 := randomInput(rng, m*ldc)
						want, got := append([]float32(nil), c0...), append([]float32(nil), c0...)
						gonum.Implementation{}.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
						fastBLAS{}.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
						name := fmt.Sprintf("tA=%c tB=%c m=%d n=%d k=%d alpha=%v beta=%v", tA, tB, m, n, k, alpha, beta)
						for i := range want {
							if math.Abs(float64(got[i]-want[i])) > 1e-4*math.Max(1, math.Abs(float64(want[i]))) {
								t.Fatalf("%s: C[%d] = %v, want %v", name, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
}
