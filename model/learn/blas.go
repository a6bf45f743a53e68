package learn

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/tensor"

	"github.com/sliderzero/sliderzero/model/internal/kernel"
)

// fastBLAS is gonum's BLAS with float32 matrix products on the SIMD
// kernels: Gorgonia spends most of a training step in Sgemm (forward,
// and the two products of each layer's backward pass), and gonum's runs
// on 128-bit vectors without FMA. Whatever the kernels do not cover
// (alpha other than 1, beta other than 0 and 1) goes to gonum.
type fastBLAS struct{ gonum.Implementation }

var useFastBLAS sync.Once

// speedUpGorgonia makes Gorgonia's tensors multiply on the kernels, when
// they run on this machine. Gorgonia's BLAS is one setting for the whole
// process (tensor.Use); ours is safe for concurrent use.
func speedUpGorgonia() {
	useFastBLAS.Do(func() {
		if kernel.Available() {
			tensor.Use(fastBLAS{})
		}
	})
}

// scratch is a Sgemm's temporary copies.
type scratch struct{ b, c, zeros, col []float32 }

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func sized(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// Sgemm computes C = alpha op(A) op(B) + beta C for row-major matrices, op
// transposing or not: A is m x k after op, B k x n, C m x n.
func (f fastBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if alpha != 1 || (beta != 0 && beta != 1) || m == 0 || n == 0 || k == 0 {
		f.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	if n < kernel.Width/2 {
		narrowProduct(s, tA, tB, m, n, k, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// The kernels read A as it lies, transposed or not.
	product := kernel.Dense
	if tA != blas.NoTrans {
		product = kernel.DenseTransA
	}
	// B with its columns padded to the kernels' width.
	np := kernel.RoundUp(n)
	if tB != blas.NoTrans || np != n || ldb < np {
		s.b = sized(s.b, k*np)
		if tB == blas.NoTrans {
			for p := 0; p < k; p++ {
				row := s.b[p*np : (p+1)*np]
				copy(row, b[p*ldb:p*ldb+n])
				clear(row[n:])
			}
		} else {
			transpose(s.b, np, b, ldb, n, k)
		}
		b, ldb = s.b, np
	}
	s.zeros = sized(s.zeros, np)
	clear(s.zeros)
	if np == n {
		var add []float32
		if beta == 1 {
			add = c
		}
		product(m, n, k, a, lda, b, ldb, c, ldc, s.zeros, add, false)
		return
	}
	// Columns that do not fill the kernels' width: through a padded copy.
	s.c = sized(s.c, m*np)
	product(m, np, k, a, lda, b, ldb, s.c, np, s.zeros, nil, false)
	for r := 0; r < m; r++ {
		dst, src := c[r*ldc:r*ldc+n], s.c[r*np:r*np+n]
		if beta == 0 {
			copy(dst, src)
			continue
		}
		for j, x := range src {
			dst[j] += x
		}
	}
}

// transpose writes the transpose of src (rows x cols, row stride lds)
// into dst (cols x rows, row stride ldd, columns from rows on zeroed), in
// strips of eight of src's columns: each of src's rows is read eight
// values at a time, into eight of dst's rows.
func transpose(dst []float32, ldd int, src []float32, lds, rows, cols int) {
	j := 0
	for ; j+8 <= cols; j += 8 {
		d0, d1 := dst[j*ldd:][:rows], dst[(j+1)*ldd:][:rows]
		d2, d3 := dst[(j+2)*ldd:][:rows], dst[(j+3)*ldd:][:rows]
		d4, d5 := dst[(j+4)*ldd:][:rows], dst[(j+5)*ldd:][:rows]
		d6, d7 := dst[(j+6)*ldd:][:rows], dst[(j+7)*ldd:][:rows]
		for i := range d0 {
			s := (*[8]float32)(src[i*lds+j:])
			d0[i], d1[i], d2[i], d3[i] = s[0], s[1], s[2], s[3]
			d4[i], d5[i], d6[i], d7[i] = s[4], s[5], s[6], s[7]
		}
	}
	for ; j < cols; j++ {
		d := dst[j*ldd:][:rows]
		for i := range d {
			d[i] = src[i*lds+j]
		}
	}
	for j := 0; j < cols; j++ {
		clear(dst[j*ldd+rows : (j+1)*ldd])
	}
}

// narrowProduct is Sgemm (alpha 1, beta 0 or 1) for a product of a few
// columns, such as a value head's: padding it to the kernels' width would
// waste most of their work, and gonum's Sgemm is slowest there. B's
// columns are packed as rows; then each column of C is k dot products of
// rows (A as it is) or an accumulation of A's rows (A transposed).
func narrowProduct(s *scratch, tA, tB blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	s.b = sized(s.b, n*k)
	for j := 0; j < n; j++ {
		col := s.b[j*k : (j+1)*k]
		if tB == blas.NoTrans {
			for p := range col {
				col[p] = b[p*ldb+j]
			}
		} else {
			copy(col, b[j*ldb:j*ldb+k])
		}
	}
	s.col = sized(s.col, m)
	for j := 0; j < n; j++ {
		bj := s.b[j*k : (j+1)*k]
		out := s.col
		if tA == blas.NoTrans {
			for r := range out {
				out[r] = dot(a[r*lda:r*lda+k], bj)
			}
		} else {
			clear(out)
			for p, x := range bj {
				axpy(out, x, a[p*lda:p*lda+m])
			}
		}
		for r, x := range out {
			if beta == 0 {
				c[r*ldc+j] = x
			} else {
				c[r*ldc+j] += x
			}
		}
	}
}

// dot is the dot product of x and y (of equal length), on four sums.
func dot(x, y []float32) float32 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy adds alpha x to y.
func axpy(y []float32, alpha float32, x []float32) {
	x = x[:len(y)]
	for i := range y {
		y[i] += alpha * x[i]
	}
}
