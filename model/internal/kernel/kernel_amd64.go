//go:build amd64

package kernel

import (
	"os"

	"golang.org/x/sys/cpu"
)

//go:generate go run gen.go

// impl is the widest instruction set the processor and the OS support.
// SLIDERZERO_KERNEL=avx2 or =none narrows it (to compare, or to rule the
// kernels out).
var impl = choose(os.Getenv("SLIDERZERO_KERNEL"))

func choose(want string) kernels {
	switch {
	case want == "none":
		return none
	case cpu.X86.HasAVX512F && cpu.X86.HasBMI1 && want != "avx2":
		return avx512Kernels
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasBMI1:
		return avx2Kernels
	}
	return none
}

// A block function computes rows x vecs vectors of columns (see gen.go).
type blockFunc func(k int, a *float32, arow, acol int, b *float32, ldb int, c *float32, ldc int, bias *float32, skip *float32, relu int)

type sparseFunc func(n int, idx *int32, cnt int, val *float32, b *float32, ldb int, c *float32, bias *float32, relu int)

// family is one instruction set's block functions: wide[v] for one row of
// v vectors, rows[r] for r rows of two vectors.
type family struct {
	lanes   int
	wide    map[int]blockFunc
	rows    []blockFunc // index r; 0 and 1 unused
	sparse2 sparseFunc  // two vectors a block
	sparse8 sparseFunc  // eight vectors a block
	peak    func(n int, out *float32)
	chains  int
	nonzero func(x *float32, n int, idx *int32) int
	adam    func(p, g, m, v *float32, n int, c *[7]float32)
}

var avx2Family = family{
	lanes:   8,
	wide:    map[int]blockFunc{2: denseAVX2_1x2, 4: denseAVX2_1x4, 8: denseAVX2_1x8},
	rows:    []blockFunc{nil, nil, denseAVX2_2x2, denseAVX2_3x2, denseAVX2_4x2, denseAVX2_5x2, denseAVX2_6x2},
	sparse2: sparseAVX2_2, sparse8: sparseAVX2_8,
	peak: peakAVX2, chains: 12, nonzero: nonzeroAVX2, adam: adamAVX2,
}

var avx512Family = family{
	lanes:   16,
	wide:    map[int]blockFunc{2: denseAVX512_1x2, 4: denseAVX512_1x4, 8: denseAVX512_1x8},
	rows:    []blockFunc{nil, nil, denseAVX512_2x2, denseAVX512_3x2, denseAVX512_4x2, denseAVX512_5x2, denseAVX512_6x2, denseAVX512_7x2, denseAVX512_8x2},
	sparse2: sparseAVX512_2, sparse8: sparseAVX512_8,
	peak: peakAVX512, chains: 24, nonzero: nonzeroAVX512, adam: adamAVX512,
}

var (
	avx2Kernels   = avx2Family.kernels("avx2")
	avx512Kernels = avx512Family.kernels("avx512")
)

func (f family) kernels(name string) kernels {
	return kernels{name: name, dense: f.dense, sparse: f.sparseRow,
		peak: func(n int) int64 {
			// The count is what the kernel computed: each lane of each
			// chain holds the multiply-adds it did (exact to 2^24).
			out := make([]float32, f.chains*f.lanes)
			f.peak(max(n, 1), &out[0])
			var sum int64
			for _, v := range out {
				sum += int64(v)
			}
			return sum
		},
		nonzero: func(x []float32, idx []int32) int {
			if len(x) == 0 {
				return 0
			}
			return f.nonzero(&x[0], len(x), &idx[0])
		},
		adam: func(p, g, m, v []float32, c *[7]float32) {
			f.adam(&p[0], &g[0], &m[0], &v[0], len(p), c)
		},
	}
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (f family) dense(m, n, k int, a []float32, arow, acol int, b []float32, ldb int, c []float32, ldc int, bias, skip []float32, relu bool) {
	r := flag(relu)
	maxRows := len(f.rows) - 1
	for row := 0; row < m; {
		rows := min(m-row, maxRows)
		var sk *float32
		for col := 0; col < n; {
			if skip != nil {
				sk = &skip[row*ldc+col]
			}
			if rows == 1 {
				// The widest block that fits what is left.
				v := 8
				for v > 2 && col+v*f.lanes > n {
					v /= 2
				}
				f.wide[v](k, &a[row*arow], arow, acol, &b[col], ldb, &c[row*ldc+col], ldc, &bias[col], sk, r)
				col += v * f.lanes
				continue
			}
			f.rows[rows](k, &a[row*arow], arow, acol, &b[col], ldb, &c[row*ldc+col], ldc, &bias[col], sk, r)
			col += 2 * f.lanes
		}
		row += rows
	}
}

func (f family) sparseRow(n int, idx []int32, val []float32, b []float32, ldb int, c, bias []float32, relu bool) {
	var ip *int32
	var vp *float32
	if len(idx) > 0 {
		ip, vp = &idx[0], &val[0]
	}
	r := flag(relu)
	wide := 8 * f.lanes
	head := n / wide * wide
	if head > 0 {
		f.sparse8(head, ip, len(idx), vp, &b[0], ldb, &c[0], &bias[0], r)
	}
	if head < n {
		f.sparse2(n-head, ip, len(idx), vp, &b[head], ldb, &c[head], &bias[head], r)
	}
}
