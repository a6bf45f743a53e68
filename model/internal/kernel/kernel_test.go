package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// naive is the kernels' definition, in plain Go with float64 sums.
func naive(m, n, k int, a []float32, lda int, b []float32, ldb int, ldc int, bias, skip []float32, relu bool) []float64 {
	c := make([]float64, m*ldc)
	for r := 0; r < m; r++ {
		for j := 0; j < n; j++ {
			s := float64(bias[j])
			for p := 0; p < k; p++ {
				s += float64(a[r*lda+p]) * float64(b[p*ldb+j])
			}
			if skip != nil {
				s += float64(skip[r*ldc+j])
			}
			if relu && s < 0 {
				s = 0
			}
			c[r*ldc+j] = s
		}
	}
	return c
}

func randoms(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	return x
}

// close reports whether got is within 1e-5 of want, relative to the sum
// of the magnitudes that made it (a sum's rounding grows with its terms).
func closeTo(got float32, want, scale float64) bool {
	return math.Abs(float64(got)-want) <= 1e-5*math.Max(scale, 1)
}

// families lists the implementations this machine runs.
func families(t *testing.T) map[string]kernels {
	out := map[string]kernels{}
	for _, name := range []string{"avx512", "avx2"} {
		if k := choose(name); k.name != "" {
			out[k.name] = k
		}
	}
	if len(out) == 0 {
		t.Skip("no SIMD kernels on this machine")
	}
	return out
}

// Every block shape, with and without the residual add and the ReLU,
// computes the definition, whatever the strides (A transposed or not) and
// the rows and columns left over at the edges; nothing outside the block
// is written.
func TestDenseAgreesWithTheDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, impl := range families(t) {
		for _, m := range []int{1, 2, 3, 5, 6, 7, 8, 9, 16, 17} {
			for _, n := range []int{32, 64, 96, 128, 160} {
				for _, k := range []int{1, 3, 75, 128} {
					for _, fused := range []int{0, 1, 2, 3} {
						skipOn, relu := fused&1 != 0, fused&2 != 0
						lda, ldb, ldc := k+3, n+32, n+32
						a, b := randoms(rng, m*lda), randoms(rng, k*ldb)
						bias := randoms(rng, n)
						var skip []float32
						if skipOn {
							skip = randoms(rng, m*ldc)
						}
						c := make([]float32, m*ldc)
						for i := range c {
							c[i] = 42
						}
						want := naive(m, n, k, a, lda, b, ldb, ldc, bias, skip, relu)
						if (m+k)%2 == 0 {
							impl.dense(m, n, k, a, lda, 1, b, ldb, c, ldc, bias, skip, relu)
						} else {
							// A stored transposed, with a wider stride.
							ldt := m + 5
							at := make([]float32, k*ldt)
							for r := 0; r < m; r++ {
								for p := 0; p < k; p++ {
									at[p*ldt+r] = a[r*lda+p]
								}
							}
							impl.dense(m, n, k, at, 1, ldt, b, ldb, c, ldc, bias, skip, relu)
						}
						for r := 0; r < m; r++ {
							for j := 0; j < ldc; j++ {
								got := c[r*ldc+j]
								if j >= n {
									if got != 42 {
										t.Fatalf("%s m=%d n=%d k=%d: wrote column %d beyond the block", name, m, n, k, j)
									}
									continue
								}
								if !closeTo(got, want[r*ldc+j], float64(k)) {
									t.Fatalf("%s m=%d n=%d k=%d skip=%v relu=%v: c[%d][%d] = %v, want %v", name, m, n, k, skipOn, relu, r, j, got, want[r*ldc+j])
								}
							}
						}
					}
				}
			}
		}
	}
}

// The sparse kernel adds the rows of the non-zero entries: the same as
// the dense product of the whole input.
func TestSparseAgreesWithDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for name, impl := range families(t) {
		for _, n := range []int{32, 64, 96, 128, 160, 256} {
			for _, nnz := range []int{0, 1, 9, 40} {
				const k = 75
				x := make([]float32, k)
				var idx []int32
				var val []float32
				for _, j := range rng.Perm(k)[:nnz] {
					x[j] = 1
					if rng.IntN(3) == 0 {
						x[j] = float32(rng.NormFloat64())
					}
				}
				for j, v := range x {
					if v != 0 {
						idx, val = append(idx, int32(j)), append(val, v)
					}
				}
				b, bias := randoms(rng, k*n), randoms(rng, n)
				for _, relu := range []bool{false, true} {
					c := make([]float32, n)
					impl.sparse(n, idx, val, b, n, c, bias, relu)
					want := naive(1, n, k, x, k, b, n, n, bias, nil, relu)
					for j := range c {
						if !closeTo(c[j], want[j], float64(nnz)) {
							t.Fatalf("%s n=%d nnz=%d relu=%v: c[%d] = %v, want %v", name, n, nnz, relu, j, c[j], want[j])
						}
					}
				}
			}
		}
	}
}

// The peak kernel's count is what its chains computed: 10 rounds of 24
// chains of 16 lanes (AVX-512) or 12 of 8 (AVX2); a kernel that drops a
// chain or a round counts less.
func TestPeakCounts(t *testing.T) {
	want := map[string]int64{"avx512": 10 * 24 * 16, "avx2": 10 * 12 * 8}
	for name, impl := range families(t) {
		if got := impl.peak(10); got != want[name] {
			t.Errorf("%s: peak counts %d multiply-adds in 10 rounds, want %d", name, got, want[name])
		}
	}
}

// BenchmarkDense measures the kernels on the default networks' layer
// shapes (128 wide) at the batch sizes self-play and players use, in
// multiply-adds a second, beside the one-core peak (BenchmarkPeak).
func BenchmarkDense(b *testing.B) {
	if !Available() {
		b.Skip("no SIMD kernels on this machine")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, batch := range []int{1, 8, 16, 64} {
		const k, n = 128, 128
		a, w, bias := randoms(rng, batch*k), randoms(rng, k*n), randoms(rng, n)
		c := make([]float32, batch*n)
		b.Run(fmt.Sprintf("%s/128x128/batch%d", Name(), batch), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Dense(batch, n, k, a, k, w, n, c, n, bias, nil, true)
			}
			b.ReportMetric(float64(b.N)*float64(batch*k*n)/b.Elapsed().Seconds()/1e9, "GMAC/s")
		})
	}
}

func BenchmarkPeak(b *testing.B) {
	if !Available() {
		b.Skip("no SIMD kernels on this machine")
	}
	var macs int64
	for i := 0; i < b.N; i++ {
		macs += Peak(1000)
	}
	b.ReportMetric(float64(macs)/b.Elapsed().Seconds()/1e9, "GMAC/s")
}

// Nonzeros finds every non-zero entry, in order, whatever the length:
// NaN counts, -0 does not.
func TestNonzeros(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for name, impl := range families(t) {
		saved := impl
		for n := 0; n <= 70; n++ {
			x := make([]float32, n)
			for i := range x {
				switch rng.IntN(5) {
				case 0:
					x[i] = 1
				case 1:
					x[i] = float32(math.Copysign(0, -1))
				case 2:
					x[i] = float32(math.NaN())
				}
			}
			var want []int32
			for i, v := range x {
				if v != 0 {
					want = append(want, int32(i))
				}
			}
			idx := make([]int32, n)
			got := idx[:saved.nonzero(x[:n/16*16], idx)]
			for i, v := range x[n/16*16:] {
				if v != 0 {
					got = append(got, int32(n/16*16+i))
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s n=%d: %v, want %v", name, n, got, want)
			}
		}
	}
}

// The Adam step on the kernels gives the plain Go loop's bits.
func TestAdamStepIsBitExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for name, impl := range families(t) {
		saved := impl
		for _, n := range []int{0, 5, 16, 17, 100, 1000} {
			p, g := randoms(rng, n), randoms(rng, n)
			m, v := randoms(rng, n), randoms(rng, n)
			for i := range v {
				v[i] *= v[i]
			}
			pw, mw, vw := append([]float32(nil), p...), append([]float32(nil), m...), append([]float32(nil), v...)
			var wd, b1, b2, step, eps float32 = 1e-4, 0.9, 0.999, 1.3e-3, 1e-8
			for j := range pw {
				gj := g[j] + wd*pw[j]
				mw[j] = b1*mw[j] + (1-b1)*gj
				vw[j] = b2*vw[j] + (1-b2)*gj*gj
				pw[j] -= step * mw[j] / (float32(math.Sqrt(float64(vw[j]))) + eps)
			}
			prev := globalImpl()
			setImpl(saved)
			if !AdamStep(p, g, m, v, wd, b1, b2, step, eps) {
				t.Fatal("no Adam kernel")
			}
			setImpl(prev)
			for j := range p {
				if p[j] != pw[j] || m[j] != mw[j] || v[j] != vw[j] {
					t.Fatalf("%s n=%d: entry %d: p %v m %v v %v, want %v %v %v", name, n, j, p[j], m[j], v[j], pw[j], mw[j], vw[j])
				}
			}
		}
	}
}

func globalImpl() kernels { return impl }
func setImpl(k kernels)   { impl = k }
