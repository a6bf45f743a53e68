package learn

import (
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
	layer
	batch int
	c     model.Conv
	// The layout: row stride, image stride, a chunk's images, the
	// columns a product computes (rounded up to the kernels' width) and
	// a plane's length with the room the largest offset reads past them.
	row, image, chunk, cols, length int
	// planes holds every chunk's planes (in x length each), kept for
	// the weights' gradient; y a chunk's sums (out x cols).
	planes, y []float32
}

func newConvOp(name string, batch int, c model.Conv, l layer) *convOp {
	row := c.W + pad
	image := (c.H + pad) * row
	chunk := max(1, min(batch, chunkCells/image))
	cols := kernel.RoundUp(chunk * image)
	length := cols + (ks-1)*row + ks - 1
	return &convOp{fusedOp: newFusedOp(name, l.arity(), batch, c.Out*c.H*c.W), layer: l, batch: batch, c: c,
		row: row, image: image, chunk: chunk, cols: cols, length: length,
		planes: make([]float32, chunkCount(batch, chunk)*c.In*length), y: make([]float32, c.Out*cols)}
}

// chunkCount is the number of chunks of a batch.
func chunkCount(batch, chunk int) int { return (batch + chunk - 1) / chunk }

// chunks calls f for each chunk of images: the first and the count.
func (o *convOp) chunks(f func(first, n int)) {
	for s := 0; s < o.batch; s += o.chunk {
		f(s, min(o.chunk, o.batch-s))
	}
}

// cellAt is where cell (y, 0) of a chunk's image s lies in a plane of
// the layout, and sumAt where the sums for it are (the position of its
// neighbourhood's first entry).
func (o *convOp) cellAt(s, y int) int { return s*o.image + (pad+y)*o.row + pad }
func (o *convOp) sumAt(s, y int) int  { return s*o.image + y*o.row }

// offset is where the kernel entry t's neighbour lies from sumAt(s, y).
func (o *convOp) offset(t int) int { return t/ks*o.row + t%ks }

// chunkSlot is the part of buf, made of one slot of size a chunk, that
// belongs to the chunk starting at image first.
func (o *convOp) chunkSlot(buf []float32, size, first int) []float32 {
	return buf[first/o.chunk*size:][:size]
}

// eachRow calls f for each board row y of each channel ch < channels of
// images first to first+n-1, with the row's place in a batch of
// channel-major images (its cells are at img, img+1, ...) and the image's
// index s in its chunk.
func (o *convOp) eachRow(first, n, channels int, f func(s, ch, y, img int)) {
	cells := o.c.H * o.c.W
	for s := 0; s < n; s++ {
		for ch := 0; ch < channels; ch++ {
			for y := 0; y < o.c.H; y++ {
				f(s, ch, y, ((first+s)*channels+ch)*cells+y*o.c.W)
			}
		}
	}
}

func (o *convOp) Do(in ...G.Value) (G.Value, error) {
	c := o.c
	h, w, b, out := data(in[0]), data(in[1]), data(in[2]), data(o.out)
	var skip []float32
	if o.skip {
		skip = data(in[3])
	}
	o.chunks(func(first, n int) {
		// The chunk's images into its planes: the padding is never
		// written and stays zero; in a short last chunk the places of
		// images past n stay zero too.
		planes := o.chunkSlot(o.planes, c.In*o.length, first)
		o.eachRow(first, n, c.In, func(s, ch, y, img int) {
			copy(planes[ch*o.length+o.cellAt(s, y):][:c.W], h[img:][:c.W])
		})
		for t := 0; t < kk; t++ {
			// y += w_t^T planes shifted: w_t is rows ch*kk+t of w (in x
			// out), read transposed.
			sgemmAdd(true, false, c.Out, o.cols, c.In, w[t*c.Out:], kk*c.Out, planes[o.offset(t):], o.length, o.y, o.cols, t > 0)
		}
		o.eachRow(first, n, c.Out, func(s, ch, y, img int) {
			dst, sums := out[img:][:c.W], o.y[ch*o.cols+o.sumAt(s, y):][:c.W]
			for x, v := range sums {
				dst[x] = v + b[ch]
			}
			if skip != nil {
				for x, v := range skip[img:][:c.W] {
					dst[x] += v
				}
			}
			if o.relu {
				rectify(dst)
			}
		})
	})
	return o.out, nil
}

func (o *convOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	c := o.c
	cells := c.H * c.W
	g, db, err := biasGrad(o.name, o.batch, c.Out*cells, cells, o.relu, output, grad)
	if err != nil {
		return nil, err
	}
	// The weights' gradient takes the layer's output as well, so that it
	// runs after the forward pass that laid out the planes.
	wop := &convWeightGradOp{fusedOp: newFusedOp(o.name+".dw", 2, c.In*kk, c.Out), of: o,
		g: make([]float32, chunkCount(o.batch, o.chunk)*c.Out*o.cols), gt: make([]float32, o.cols*c.Out)}
	dw, err := G.ApplyOp(wop, g, output)
	if err != nil {
		return nil, err
	}
	var dh *G.Node
	if o.inputGrad {
		// It reads the gradient as the weights' op laid it out: the
		// weights' gradient is its input, so that it runs after.
		op := &convInputGradOp{fusedOp: newFusedOp(o.name+".dh", 2, o.batch, c.In*cells), of: wop,
			dplanes: make([]float32, c.In*o.length)}
		if dh, err = G.ApplyOp(op, dw, inputs[1]); err != nil {
			return nil, err
		}
	}
	return o.grads(dh, dw, db, g), nil
}

// convWeightGradOp is the weights' gradient: for each kernel entry t, the
// sum over chunks of the planes shifted by its offset times the output's
// gradient^T, into the rows ch*kk+t. On its way it lays the output's
// gradient out as the sums lie (g, a slot a chunk: out rows of cols, zero
// between the boards and past a short chunk's images), for the input's
// gradient.
type convWeightGradOp struct {
	fusedOp
	of    *convOp
	g, gt []float32 // the gradient as the sums lie, and a chunk's transposed
}

func (o *convWeightGradOp) Do(in ...G.Value) (G.Value, error) {
	op, c := o.of, o.of.c
	grad, out := data(in[0]), data(o.out)
	op.chunks(func(first, n int) {
		g := o.gradSlot(first)
		op.eachRow(first, n, c.Out, func(s, ch, y, img int) {
			copy(g[ch*op.cols+op.sumAt(s, y):][:c.W], grad[img:][:c.W])
		})
		transpose(o.gt, c.Out, g, op.cols, c.Out, op.cols)
		planes := op.chunkSlot(op.planes, c.In*op.length, first)
		for t := 0; t < kk; t++ {
			sgemmAdd(false, false, c.In, c.Out, op.cols, planes[op.offset(t):], op.length, o.gt, c.Out, out[t*c.Out:], kk*c.Out, first > 0)
		}
	})
	return o.out, nil
}

// gradSlot is the laid-out gradient of the chunk starting at image first.
func (o *convWeightGradOp) gradSlot(first int) []float32 {
	return o.of.chunkSlot(o.g, o.of.c.Out*o.of.cols, first)
}

// convInputGradOp is the input's gradient: a chunk at a time, each kernel
// entry's weights times the output's gradient (as the weights' op laid
// it out) added into the planes' gradient at the entry's offset, the
// cells then read out.
type convInputGradOp struct {
	fusedOp
	of      *convWeightGradOp
	dplanes []float32
}

func (o *convInputGradOp) Do(in ...G.Value) (G.Value, error) {
	op, c := o.of.of, o.of.of.c
	w, out := data(in[1]), data(o.out)
	op.chunks(func(first, n int) {
		g := o.of.gradSlot(first)
		clear(o.dplanes)
		for t := 0; t < kk; t++ {
			sgemmAdd(false, false, c.In, op.cols, c.Out, w[t*c.Out:], kk*c.Out, g, op.cols, o.dplanes[op.offset(t):], op.length, true)
		}
		op.eachRow(first, n, c.In, func(s, ch, y, img int) {
			copy(out[img:][:c.W], o.dplanes[ch*op.length+op.cellAt(s, y):][:c.W])
		})
	})
	return o.out, nil
}
