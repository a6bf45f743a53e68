package model

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/sliderzero/sliderzero/model/internal/kernel"
)

type dense struct {
	Layer
	w blas32.General // in x out
	b []float32
	// The same weights and bias for the fast kernels: columns padded with
	// zeros to outPad, a multiple of kernel.Width.
	wp     []float32
	bp     []float32
	outPad int
}

// Net is a network ready for plain-Go forward passes. It is read-only and
// may be shared by any number of goroutines, each with its own Forward.
type Net struct {
	arch   Arch
	trunk  []dense
	policy dense
	value  dense
	plies  *dense // the plies head, if the network has one
	// fast is set when the SIMD kernels run on this machine; otherwise the
	// pass is the exact gonum one. The fast pass runs the heads as one
	// layer: the policy's columns, then the value's (one, or three) and
	// the plies', the whole padded to the kernels' width.
	fast  bool
	heads dense
}

// NewNet checks the weights and copies them into a Net, denormal weights
// flushed to zero.
func NewNet(w *Weights) (*Net, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	layers := w.Arch.all()
	ds := make([]dense, len(layers))
	for i, l := range layers {
		t, b := w.Tensors[2*i], w.Tensors[2*i+1]
		rows, cols := t.Shape[0], t.Shape[1]
		d := dense{
			Layer: l,
			w:     blas32.General{Rows: rows, Cols: cols, Stride: cols, Data: flushed(t.Data)},
			b:     flushed(b.Data),
		}
		d.outPad = kernel.RoundUp(cols)
		d.wp = make([]float32, rows*d.outPad)
		for r := 0; r < rows; r++ {
			copy(d.wp[fastRow(l, r)*d.outPad:], d.w.Data[r*cols:(r+1)*cols])
		}
		d.bp = make([]float32, d.outPad)
		copy(d.bp, d.b)
		ds[i] = d
	}
	n := len(ds)
	vo := w.Arch.ValueOutputs()
	extra := vo // the value's columns, after the policy's
	if w.Arch.MovesLeft {
		extra, n = vo+1, n-1
	}
	net := &Net{arch: w.Arch, trunk: ds[:n-2], policy: ds[n-2], value: ds[n-1], fast: kernel.Available()}
	if w.Arch.MovesLeft {
		net.plies = &ds[n]
	}
	p, v := net.policy, net.value
	// The heads read the trunk's last layer as the fast pass lays it out:
	// a convolution's cell by cell, its channels padded (headRow).
	last := net.trunk[len(net.trunk)-1]
	in := p.In
	if c := last.Conv; c != nil {
		in = c.H * c.W * last.outPad
	}
	h := dense{Layer: Layer{Name: "heads", In: in, Out: p.Out + extra, Skip: NoSkip}, outPad: kernel.RoundUp(p.Out + extra)}
	h.wp = make([]float32, h.In*h.outPad)
	h.bp = make([]float32, h.outPad)
	for r := 0; r < p.In; r++ {
		row := h.wp[headRow(&last, r)*h.outPad:]
		copy(row, p.w.Data[r*p.Out:(r+1)*p.Out])
		copy(row[p.Out:], v.w.Data[r*vo:(r+1)*vo])
		if net.plies != nil {
			row[p.Out+vo] = net.plies.w.Data[r]
		}
	}
	copy(h.bp, p.b)
	copy(h.bp[p.Out:], v.b)
	if net.plies != nil {
		h.bp[p.Out+vo] = net.plies.b[0]
	}
	net.heads = h
	return net, nil
}

func flushed(src []float32) []float32 {
	out := make([]float32, len(src))
	for i, v := range src {
		out[i] = kernel.FlushDenormal(v)
	}
	return out
}

// Arch is the network's architecture.
func (n *Net) Arch() Arch { return n.arch }

// Forward holds one caller's buffers for forward passes through a Net.
type Forward struct {
	net  *Net
	acts [][]float32 // each trunk layer's output
	out  []float32
	// The fast pass's padded head outputs, and the sparse input's
	// non-zero entries.
	heads []float32
	idx   []int32
	ends  []int
	val   []float32
	// col is a convolution's input cells laid out for one matrix product
	// (im2col).
	col []float32
	// Exact forces the gonum pass (the reference) on this Forward.
	Exact bool
}

// NewForward returns buffers for forward passes through n.
func (n *Net) NewForward() *Forward {
	return &Forward{net: n, acts: make([][]float32, len(n.trunk))}
}

// Net is the network this Forward runs.
func (f *Forward) Net() *Net { return f.net }

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// apply computes out = act(in * d.w + d.b + skip) for a batch of rows,
// or d's convolution of them (with col for scratch); skip is nil or a
// batch of rows of d.Out values.
func apply(d *dense, batch int, in, skip, out []float32, col *[]float32) {
	if d.Conv != nil {
		convolve(d, batch, in, skip, out, col)
		return
	}
	cols := d.w.Cols
	if batch == 1 {
		blas32.Gemv(blas.Trans, 1, d.w, blas32.Vector{N: d.w.Rows, Inc: 1, Data: in}, 0, blas32.Vector{N: cols, Inc: 1, Data: out})
	} else {
		blas32.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas32.General{Rows: batch, Cols: d.w.Rows, Stride: d.w.Rows, Data: in},
			d.w, 0,
			blas32.General{Rows: batch, Cols: cols, Stride: cols, Data: out})
	}
	for r := 0; r < batch; r++ {
		row := out[r*cols : (r+1)*cols]
		for i, b := range d.b {
			v := row[i] + b
			if skip != nil {
				v += skip[r*cols+i]
			}
			if d.ReLU && v < 0 {
				v = 0
			}
			row[i] = v
		}
	}
}

// convolve is apply for a convolution: each position's cells are laid out
// as a matrix of a row per input channel and kernel cell and a column per
// board cell (im2col, with zeros where the kernel leaves the board), so
// that the whole convolution is one matrix product with the weights.
func convolve(d *dense, batch int, in, skip, out []float32, colBuf *[]float32) {
	c := d.Conv
	cells := c.H * c.W
	rows := c.In * ConvKernel * ConvKernel
	*colBuf = grow(*colBuf, rows*cells)
	col := *colBuf
	for r := 0; r < batch; r++ {
		im2col(c, in[r*d.In:(r+1)*d.In], col, cells)
		o := out[r*d.Out : (r+1)*d.Out]
		// (out channels x cells) = weightsᵀ (out x rows) (rows x cells)
		blas32.Gemm(blas.Trans, blas.NoTrans, 1, d.w,
			blas32.General{Rows: rows, Cols: cells, Stride: cells, Data: col}, 0,
			blas32.General{Rows: c.Out, Cols: cells, Stride: cells, Data: o})
		for co, b := range d.b {
			ch := o[co*cells : (co+1)*cells]
			for i := range ch {
				v := ch[i] + b
				if skip != nil {
					v += skip[r*d.Out+co*cells+i]
				}
				if d.ReLU && v < 0 {
					v = 0
				}
				ch[i] = v
			}
		}
	}
}

// im2col lays one position's channel-major planes out for a
// convolution's matrix product: a row per input channel and kernel
// cell, holding that cell's input under each board cell (0 off the
// board), the rows ld floats apart.
func im2col(c *Conv, x, col []float32, ld int) {
	cells := c.H * c.W
	half := ConvKernel / 2
	for ci := 0; ci < c.In; ci++ {
		plane := x[ci*cells : (ci+1)*cells]
		for ky := 0; ky < ConvKernel; ky++ {
			for kx := 0; kx < ConvKernel; kx++ {
				dst := col[((ci*ConvKernel+ky)*ConvKernel+kx)*ld:][:cells]
				for y := 0; y < c.H; y++ {
					sy := y + ky - half
					row := dst[y*c.W : (y+1)*c.W]
					if sy < 0 || sy >= c.H {
						clear(row)
						continue
					}
					src := plane[sy*c.W : (sy+1)*c.W]
					for xx := range row {
						sx := xx + kx - half
						v := float32(0)
						if sx >= 0 && sx < c.W {
							v = src[sx]
						}
						row[xx] = v
					}
				}
			}
		}
	}
}

// The fast pass keeps a convolution's output cell by cell (a row of
// channels a board cell, padded to the kernels' width), so that its
// im2col copies whole rows and its product needs no transposing, and
// orders a convolution's weight rows kernel cell first, as that im2col
// does.

// fastRow is where row r of layer l's weight matrix goes in the fast
// pass's: a convolution's (channel, kernel cell) row becomes (kernel cell,
// channel).
func fastRow(l Layer, r int) int {
	c := l.Conv
	if c == nil {
		return r
	}
	kk := ConvKernel * ConvKernel
	return (r%kk)*c.In + r/kk
}

// headRow is where a head's weight row r, which reads value r of the
// trunk's last layer channel-major, goes when that layer is last, a
// convolution, laid out cell by cell.
func headRow(last *dense, r int) int {
	c := last.Conv
	if c == nil {
		return r
	}
	cells := c.H * c.W
	return (r%cells)*last.outPad + r/cells
}

// convolveFast is convolve on the SIMD kernels, for a batch of positions
// laid out channel-major (the game's encoding, chw set) or cell by cell
// (an earlier convolution's, ld floats a cell), into out, cell by cell
// (d.outPad floats a cell). The im2col rows of all positions' cells make
// one product with the weights, bias, residual and ReLU fused.
func (f *Forward) convolveFast(d *dense, batch int, in []float32, ldin int, chw bool, ld int, skip, out []float32) {
	c := d.Conv
	cells := c.H * c.W
	k := c.In * ConvKernel * ConvKernel
	f.col = grow(f.col, batch*cells*k)
	half := ConvKernel / 2
	for r := 0; r < batch; r++ {
		x := in[r*ldin:]
		for y := 0; y < c.H; y++ {
			for xx := 0; xx < c.W; xx++ {
				row := f.col[(r*cells+y*c.W+xx)*k:][:k]
				for ky := 0; ky < ConvKernel; ky++ {
					sy := y + ky - half
					for kx := 0; kx < ConvKernel; kx++ {
						sx := xx + kx - half
						dst := row[(ky*ConvKernel+kx)*c.In:][:c.In]
						switch {
						case sy < 0 || sy >= c.H || sx < 0 || sx >= c.W:
							clear(dst)
						case chw:
							for ci := range dst {
								dst[ci] = x[ci*cells+sy*c.W+sx]
							}
						default:
							copy(dst, x[(sy*c.W+sx)*ld:])
						}
					}
				}
			}
		}
	}
	kernel.Dense(batch*cells, d.outPad, k, f.col, k, d.wp, d.outPad, out, d.outPad, d.bp, skip, d.ReLU)
}

// Run evaluates batch positions: input holds batch encodings of Arch.Input
// values; logits receives batch x Arch.Actions raw policy logits (softmax
// over the legal actions gives the policy) and values batch values in
// [-1, 1] for the side to move. plies, when not nil, receives each
// position's predicted plies to the end, or NoPlies from a network without
// the head.
func (f *Forward) Run(batch int, input, logits, values, plies []float32) {
	if f.net.fast && !f.Exact {
		f.runFast(batch, input, logits, values, plies)
		return
	}
	a := f.net.arch
	h := input[:batch*a.Input]
	for i := range f.net.trunk {
		d := &f.net.trunk[i]
		f.acts[i] = grow(f.acts[i], batch*d.Out)
		var skip []float32
		if d.Skip != NoSkip {
			skip = f.acts[d.Skip]
		}
		apply(d, batch, h, skip, f.acts[i], &f.col)
		h = f.acts[i]
	}
	vo := a.ValueOutputs()
	f.out = grow(f.out, batch*vo)
	apply(&f.net.policy, batch, h, nil, logits[:batch*a.Actions], nil)
	apply(&f.net.value, batch, h, nil, f.out, nil)
	for i := 0; i < batch; i++ {
		values[i] = headValue(f.out[i*vo : (i+1)*vo])
	}
	if plies == nil {
		return
	}
	if f.net.plies == nil {
		fillNoPlies(plies[:batch])
		return
	}
	apply(f.net.plies, batch, h, nil, f.out[:batch], nil)
	for i := 0; i < batch; i++ {
		plies[i] = HeadPlies(f.out[i])
	}
}

// headValue is the value a value head's outputs give: tanh of one, or a
// three-way head's win less loss.
func headValue(out []float32) float32 {
	if len(out) == 3 {
		return WDLValue(out[0], out[1], out[2])
	}
	return float32(math.Tanh(float64(out[0])))
}

// NoPlies is the plies estimate of a network without the plies head.
const NoPlies = -1

func fillNoPlies(dst []float32) {
	for i := range dst {
		dst[i] = NoPlies
	}
}

// HeadPlies turns the plies head's output into plies: a game does not
// end sooner than now.
func HeadPlies(out float32) float32 { return max(0, out*PliesScale) }

// runFast is Run on the SIMD kernels, over padded weights and buffers.
// The first layer reads a sparse input (the board planes are almost all
// zeros and ones) by adding the weight rows of its non-zero entries.
func (f *Forward) runFast(batch int, input, logits, values, plies []float32) {
	a := f.net.arch
	h, ldh := input[:batch*a.Input], a.Input
	for i := range f.net.trunk {
		d := &f.net.trunk[i]
		f.acts[i] = grow(f.acts[i], batch*d.outPad)
		var skip []float32
		if d.Skip != NoSkip {
			skip = f.acts[d.Skip]
		}
		if c := d.Conv; c != nil {
			// The input is the encoding (channel-major) for the first
			// layer, an earlier convolution's cells after it.
			cellsOut := c.H * c.W * d.outPad
			f.acts[i] = grow(f.acts[i], batch*cellsOut)
			ld := 0
			if i > 0 {
				ld = f.net.trunk[i-1].outPad
			}
			f.convolveFast(d, batch, h, ldh, i == 0, ld, skip, f.acts[i])
			h, ldh = f.acts[i], cellsOut
			continue
		}
		if i == 0 && f.sparseRows(d, batch, h, ldh) {
			h, ldh = f.acts[i], d.outPad
			continue
		}
		kernel.Dense(batch, d.outPad, d.In, h, ldh, d.wp, d.outPad, f.acts[i], d.outPad, d.bp, skip, d.ReLU)
		h, ldh = f.acts[i], d.outPad
	}
	hd := &f.net.heads
	f.heads = grow(f.heads, batch*hd.outPad)
	kernel.Dense(batch, hd.outPad, hd.In, h, ldh, hd.wp, hd.outPad, f.heads, hd.outPad, hd.bp, nil, false)
	vo := a.ValueOutputs()
	for r := 0; r < batch; r++ {
		row := f.heads[r*hd.outPad:]
		copy(logits[r*a.Actions:(r+1)*a.Actions], row[:a.Actions])
		values[r] = headValue(row[a.Actions : a.Actions+vo])
		if plies != nil {
			plies[r] = NoPlies
			if f.net.plies != nil {
				plies[r] = HeadPlies(row[a.Actions+vo])
			}
		}
	}
}

// sparseRows computes the first layer from the inputs' non-zero entries,
// for the rows where they are few (under a quarter of the inputs), and
// reports whether it computed the layer. The choice is made row by row,
// and a row's outputs are the same whatever rows share its batch, so that
// a position's evaluation does not depend on what it was batched with.
func (f *Forward) sparseRows(d *dense, batch int, in []float32, ldin int) bool {
	if d.Skip != NoSkip {
		return false
	}
	// Every row's non-zero entries, found by a vector compare, row r's at
	// ends[r-1]:ends[r].
	if cap(f.idx) < batch*d.In {
		f.idx = make([]int32, batch*d.In)
	}
	f.idx = f.idx[:batch*d.In]
	f.ends = f.ends[:0]
	total, sparse := 0, 0
	for r := 0; r < batch; r++ {
		n := kernel.Nonzeros(in[r*ldin:r*ldin+d.In], f.idx[total:])
		if 4*n <= d.In {
			sparse++
		}
		total += n
		f.ends = append(f.ends, total)
	}
	if sparse == 0 {
		return false
	}
	out := f.acts[0]
	start := 0
	for r, end := range f.ends {
		idx := f.idx[start:end]
		row := out[r*d.outPad : (r+1)*d.outPad]
		if 4*len(idx) > d.In {
			kernel.Dense(1, d.outPad, d.In, in[r*ldin:], ldin, d.wp, d.outPad, row, d.outPad, d.bp, nil, d.ReLU)
			start = end
			continue
		}
		f.val = f.val[:0]
		for _, j := range idx {
			f.val = append(f.val, in[r*ldin+int(j)])
		}
		kernel.Sparse(d.outPad, idx, f.val, d.wp, d.outPad, row, d.bp, d.ReLU)
		start = end
	}
	return true
}
