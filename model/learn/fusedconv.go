package learn

import (
	"math"

	G "gorgonia.org/gorgonia"

	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/model/internal/kernel"
)

// The convolutions' kernel: ks x ks, padded to keep the board's size.
const (
	ks  = model.ConvKernel
	kk  = ks * ks
	pad = ks / 2
)

// chunkCells is about how many cells a convolution computes at a time: a
// few hundred keep a chunk's planes in the core's cache and still make
// products wide enough for the kernels.
const chunkCells = 256

// convOp is a ks x ks convolution layer (padding ks/2, stride 1) as sums
// of matrix products over shifted planes, with no unrolled patches. A
// chunk of the batch's images is laid out as one long plane a channel,
// image after image, each board row after pad zeros and each image after
// pad rows of zeros (the zeros shared between neighbours): the board
// with its padding, in a row stride of width+pad. In that layout a cell's
// neighbour at (ky, kx) is the cell's own position shifted by a fixed
// offset, so the layer is, for each of the ks x ks kernel entries, the
// entry's weights^T (out x in) times the planes shifted by its offset,
// added up: ks x ks products that read the planes where they lie. The
// positions between boards (about a third more than the cells on a 5x5
// board) are computed and thrown away. The backward pass is the same sums
// the other way round: each entry's weights times the output's gradient
// added into the input's gradient at the entry's offset, and the
// planes times the gradient^T for the entry's weights. The images are
// channel-major, as model's plain-Go pass reads them.
type convOp struct {
	fusedOp
	batch      int
	c          model.Conv
	relu, skip bool
	inputGrad  bool
	// The layout: row stride, image stride, a chunk's images, the
	// columns a product computes (rounded up to the kernels' width) and
	// a plane's length with the room the largest offset reads past them.
	row, image, chunk, cols, length int
	// planes holds every chunk's planes (in x length each), kept for
	// the weights' gradient; y a chunk's sums (out x cols).
	planes, y []float32
	zeros     []float32
}

func newConvOp(name string, batch int, c model.Conv, relu, skip, inputGrad bool) *convOp {
	arity := 3
	if skip {
		arity = 4
	}
	row := c.W + pad
	image := (c.H + pad) * row
	chunk := max(1, min(batch, chunkCells/image))
	cols := kernel.RoundUp(chunk * image)
	length := cols + (ks-1)*row + ks - 1
	chunks := (batch + chunk - 1) / chunk
	return &convOp{fusedOp: newFusedOp(name, arity, batch, c.Out*c.H*c.W), batch: batch, c: c,
		relu: relu, skip: skip, inputGrad: inputGrad,
		row: row, image: image, chunk: chunk, cols: cols, length: length,
		planes: make([]float32, chunks*c.In*length), y: make([]float32, c.Out*cols), zeros: make([]float32, c.Out)}
}

// chunks calls f for each chunk of images: the first and the count.
func (o *convOp) chunks(f func(first, n int)) {
	for s := 0; s < o.batch; s += o.chunk {
		f(s, min(o.chunk, o.batch-s))
	}
}

// cellAt is where cell (y, x) of a chunk's image s lies in a plane of
// the layout, and sumAt where the sums for it are (the position of its
// neighbourhood's first entry).
func (o *convOp) cellAt(s, y, x int) int { return s*o.image + (pad+y)*o.row + pad + x }
func (o *convOp) sumAt(s, y, x int) int  { return s*o.image + y*o.row + x }

// offset is where the kernel entry t's neighbour lies from sumAt(s, y, x).
func (o *convOp) offset(t int) int { return t/ks*o.row + t%ks }

// chunkPlanes is the chunk's planes that starts at image first.
func (o *convOp) chunkPlanes(first int) []float32 {
	size := o.c.In * o.length
	return o.planes[first/o.chunk*size:][:size]
}

// lay copies images first to first+n-1 of h into their chunk's planes
// (the padding is never written: it stays zero; cells of images past n
// in a short last chunk are another batch's, read only into sums that
// are thrown away).
func (o *convOp) lay(h []float32, first, n int) {
	c := o.c
	cells := c.H * c.W
	planes := o.chunkPlanes(first)
	for s := 0; s < n; s++ {
		img := h[(first+s)*c.In*cells:][:c.In*cells]
		for ch := 0; ch < c.In; ch++ {
			plane := planes[ch*o.length:][:o.length]
			for y := 0; y < c.H; y++ {
				copy(plane[o.cellAt(s, y, 0):][:c.W], img[ch*cells+y*c.W:][:c.W])
			}
		}
	}
}

func (o *convOp) Do(in ...G.Value) (G.Value, error) {
	c := o.c
	cells := c.H * c.W
	h, w, b, out := data(in[0]), data(in[1]), data(in[2]), data(o.out)
	var skip []float32
	if o.skip {
		skip = data(in[3])
	}
	o.chunks(func(first, n int) {
		o.lay(h, first, n)
		planes := o.chunkPlanes(first)
		for t := 0; t < kk; t++ {
			// y += w_t^T planes shifted: w_t is rows ch*kk+t of w (in x
			// out), read transposed.
			sgemmAdd(true, false, c.Out, o.cols, c.In, w[t*c.Out:], kk*c.Out, planes[o.offset(t):], o.length, o.y, o.cols, t > 0)
		}
		for s := 0; s < n; s++ {
			for ch := 0; ch < c.Out; ch++ {
				img := ((first+s)*c.Out + ch) * cells
				sums := o.y[ch*o.cols:][:o.cols]
				for y := 0; y < c.H; y++ {
					dst, src := out[img+y*c.W:][:c.W], sums[o.sumAt(s, y, 0):][:c.W]
					bias := b[ch]
					for x, v := range src {
						dst[x] = v + bias
					}
					if skip != nil {
						for x, v := range skip[img+y*c.W:][:c.W] {
							dst[x] += v
						}
					}
					if o.relu {
						relu(dst)
					}
				}
			}
		}
	})
	return o.out, nil
}

// relu sets the negative entries of x to 0, without a branch (half are,
// in no order a predictor could learn).
func relu(x []float32) {
	for i, v := range x {
		b := math.Float32bits(v)
		x[i] = math.Float32frombits(b &^ uint32(int32(b)>>31))
	}
}

func (o *convOp) DiffWRT(int) []bool {
	d := []bool{o.inputGrad, true, true}
	if o.skip {
		d = append(d, true)
	}
	return d
}

func (o *convOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	c := o.c
	cells := c.H * c.W
	g := grad
	var err error
	if o.relu {
		if g, err = G.ApplyOp(newReluGradOp(o.name, o.batch, c.Out*cells), output, grad); err != nil {
			return nil, err
		}
	}
	// The weights' gradient takes the layer's output as well, so that it
	// runs after the forward pass that laid out the planes.
	dw, err := G.ApplyOp(&convWeightGradOp{fusedOp: newFusedOp(o.name+".dw", 2, c.In*kk, c.Out), of: o,
		g: make([]float32, c.Out*o.cols), gt: make([]float32, o.cols*c.Out)}, g, output)
	if err != nil {
		return nil, err
	}
	db, err := G.ApplyOp(&channelSumOp{newFusedOp(o.name+".db", 1, 1, c.Out), o}, g)
	if err != nil {
		return nil, err
	}
	var dh *G.Node
	if o.inputGrad {
		op := &convInputGradOp{fusedOp: newFusedOp(o.name+".dh", 2, o.batch, c.In*cells), of: o,
			g: make([]float32, c.Out*o.cols), dplanes: make([]float32, c.In*o.length)}
		if dh, err = G.ApplyOp(op, g, inputs[1]); err != nil {
			return nil, err
		}
	}
	grads := G.Nodes{dh, dw, db}
	if o.skip {
		grads = append(grads, g)
	}
	return grads, nil
}

// gather lays the gradient g (channel-major, batch x out x cells) of
// images first to first+n-1 out as the sums lie (out rows of cols), zero
// between the boards.
func (o *convOp) gather(dst, g []float32, first, n int) {
	c := o.c
	cells := c.H * c.W
	if n < o.chunk {
		clear(dst) // the images past n hold another chunk's
	}
	for s := 0; s < n; s++ {
		img := g[(first+s)*c.Out*cells:][:c.Out*cells]
		for ch := 0; ch < c.Out; ch++ {
			row := dst[ch*o.cols:][:o.cols]
			for y := 0; y < c.H; y++ {
				copy(row[o.sumAt(s, y, 0):][:c.W], img[ch*cells+y*c.W:][:c.W])
			}
		}
	}
}

// channelSumOp is the bias's gradient: each output channel's sum of the
// output's gradient over the batch and the cells.
type channelSumOp struct {
	fusedOp
	of *convOp
}

func (o *channelSumOp) Do(in ...G.Value) (G.Value, error) {
	c := o.of.c
	cells := c.H * c.W
	g, out := data(in[0]), data(o.out)
	clear(out)
	for s := 0; s < o.of.batch; s++ {
		for ch := 0; ch < c.Out; ch++ {
			var sum float32
			for _, v := range g[(s*c.Out+ch)*cells:][:cells] {
				sum += v
			}
			out[ch] += sum
		}
	}
	return o.out, nil
}

// convWeightGradOp is the weights' gradient: for each kernel entry t, the
// sum over chunks of the planes shifted by its offset times the output's
// gradient^T, into the rows ch*kk+t.
type convWeightGradOp struct {
	fusedOp
	of    *convOp
	g, gt []float32 // a chunk's gradient as the sums lie, and transposed
}

func (o *convWeightGradOp) Do(in ...G.Value) (G.Value, error) {
	op, c := o.of, o.of.c
	g, out := data(in[0]), data(o.out)
	op.chunks(func(first, n int) {
		op.gather(o.g, g, first, n)
		transpose(o.gt, c.Out, o.g, op.cols, c.Out, op.cols)
		planes := op.chunkPlanes(first)
		for t := 0; t < kk; t++ {
			sgemmAdd(false, false, c.In, c.Out, op.cols, planes[op.offset(t):], op.length, o.gt, c.Out, out[t*c.Out:], kk*c.Out, first > 0)
		}
	})
	return o.out, nil
}

// convInputGradOp is the input's gradient: a chunk at a time, each kernel
// entry's weights times the output's gradient added into the planes'
// gradient at the entry's offset, the cells then read out.
type convInputGradOp struct {
	fusedOp
	of         *convOp
	g, dplanes []float32
}

func (o *convInputGradOp) Do(in ...G.Value) (G.Value, error) {
	op, c := o.of, o.of.c
	cells := c.H * c.W
	g, w, out := data(in[0]), data(in[1]), data(o.out)
	op.chunks(func(first, n int) {
		op.gather(o.g, g, first, n)
		clear(o.dplanes)
		for t := 0; t < kk; t++ {
			sgemmAdd(false, false, c.In, op.cols, c.Out, w[t*c.Out:], kk*c.Out, o.g, op.cols, o.dplanes[op.offset(t):], op.length, true)
		}
		for s := 0; s < n; s++ {
			img := out[(first+s)*c.In*cells:][:c.In*cells]
			for ch := 0; ch < c.In; ch++ {
				plane := o.dplanes[ch*op.length:][:op.length]
				for y := 0; y < c.H; y++ {
					copy(img[ch*cells+y*c.W:][:c.W], plane[op.cellAt(s, y, 0):][:c.W])
				}
			}
		}
	})
	return o.out, nil
}
