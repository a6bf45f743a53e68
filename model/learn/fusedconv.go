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

// chunkCells is about how many cells a convolution unrolls at a time: a
// few hundred keep a chunk's patches (and their gradient) in the core's
// cache, which the whole batch's (megabytes) did not, and still make
// products wide enough for the kernels.
const chunkCells = 256

// convOp is a ks x ks convolution layer (padding ks/2, stride 1) as packed
// matrix products, a chunk of the batch's images at a time: the chunk
// unrolled into a matrix of patches with a row an input channel's
// neighbourhood entry (in x ks x ks rows, as model orders the weights'
// rows) and a column a cell of an image, then the weights^T times it (a
// row an output channel: the images stay channel-major, as model's
// plain-Go pass reads them), the bias, the residual add and the ReLU.
// Each row of patches is a plane shifted, copied a board row at a time.
// The patches of every chunk stay for the backward pass (written once,
// read once: cheaper than unrolling again): the weights' gradient is the
// sum over chunks of patches times the output's gradient^T, and the
// input's folds back from the weights times that gradient.
type convOp struct {
	fusedOp
	batch      int
	c          model.Conv
	relu, skip bool
	inputGrad  bool
	// chunk is the images a chunk, stride a chunk's columns (its cells
	// rounded up to the kernels' width).
	chunk, stride int
	// cols is the chunks' patches, each in x kk rows of stride columns;
	// y a chunk's products (out rows).
	cols, y []float32
	planes  []float32 // an image's planes, each in its frame of zeros
}

func newConvOp(name string, batch int, c model.Conv, relu, skip, inputGrad bool) *convOp {
	arity := 3
	if skip {
		arity = 4
	}
	cells := c.H * c.W
	chunk := max(1, min(batch, chunkCells/cells))
	stride := kernel.RoundUp(chunk * cells)
	return &convOp{fusedOp: newFusedOp(name, arity, batch, c.Out*cells), batch: batch, c: c,
		relu: relu, skip: skip, inputGrad: inputGrad, chunk: chunk, stride: stride,
		cols: make([]float32, (batch+chunk-1)/chunk*c.In*kk*stride), y: make([]float32, c.Out*stride),
		planes: make([]float32, c.In*(c.W+2*pad)*(c.H+2*pad))}
}

// chunks calls f for each chunk of images: the first and the count.
func (o *convOp) chunks(f func(first, n int)) {
	for s := 0; s < o.batch; s += o.chunk {
		f(s, min(o.chunk, o.batch-s))
	}
}

// frame is the size of a plane in its frame of padding zeros: pw wide,
// fs in all.
func (o *convOp) frame() (pw, fs int) {
	pw = o.c.W + 2*pad
	return pw, pw * (o.c.H + 2*pad)
}

// patches is the chunk's patches that starts at image first.
func (o *convOp) patches(first int) []float32 {
	size := o.c.In * kk * o.stride
	return o.cols[first/o.chunk*size:][:size]
}

// unroll writes the patches of h's images first to first+n-1 into their
// chunk's (the columns past them left as they are: zero, which no product
// reads into a result that is kept).
func (o *convOp) unroll(h []float32, first, n int) {
	cols := o.patches(first)
	c := o.c
	cells := c.H * c.W
	pw, fs := o.frame()
	for s := 0; s < n; s++ {
		img := h[(first+s)*c.In*cells:][:c.In*cells]
		for ch := 0; ch < c.In; ch++ {
			for y := 0; y < c.H; y++ {
				copy(o.planes[ch*fs+(y+pad)*pw+pad:][:c.W], img[ch*cells+y*c.W:][:c.W])
			}
		}
		for ch := 0; ch < c.In; ch++ {
			for t := 0; t < kk; t++ {
				ky, kx := t/ks, t%ks
				dst := cols[(ch*kk+t)*o.stride+s*cells:][:cells]
				src := o.planes[ch*fs+ky*pw+kx:]
				for y := 0; y < c.H; y++ {
					d, v := dst[y*c.W:][:c.W], src[y*pw:][:c.W]
					for x := range d { // a board row: shorter than a call to copy is worth
						d[x] = v[x]
					}
				}
			}
		}
	}
}

// gather copies the gradient g (channel-major, batch x out x cells) of
// images first to first+n-1 into dst, a row an output channel of stride
// columns.
func (o *convOp) gather(dst, g []float32, first, n int) {
	c := o.c
	cells := c.H * c.W
	for s := 0; s < n; s++ {
		img := g[(first+s)*c.Out*cells:][:c.Out*cells]
		for ch := 0; ch < c.Out; ch++ {
			copy(dst[ch*o.stride+s*cells:][:cells], img[ch*cells:][:cells])
		}
	}
}

func (o *convOp) Do(in ...G.Value) (G.Value, error) {
	c := o.c
	cells, k := c.H*c.W, c.In*kk
	h, w, b, out := data(in[0]), data(in[1]), data(in[2]), data(o.out)
	var skip []float32
	if o.skip {
		skip = data(in[3])
	}
	o.chunks(func(first, n int) {
		o.unroll(h, first, n)
		// y = w^T cols: w is stored k x out, read transposed.
		sgemm(true, false, c.Out, o.stride, k, w, c.Out, o.patches(first), o.stride, o.y, o.stride)
		for s := 0; s < n; s++ {
			for ch := 0; ch < c.Out; ch++ {
				i := ((first+s)*c.Out + ch) * cells
				dst, src := out[i:][:cells], o.y[ch*o.stride+s*cells:][:cells]
				var add []float32
				if skip != nil {
					add = skip[i:][:cells]
				}
				for j, v := range src {
					v += b[ch]
					if add != nil {
						v += add[j]
					}
					if o.relu && v < 0 {
						v = 0
					}
					dst[j] = v
				}
			}
		}
	})
	return o.out, nil
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
	dw, err := G.ApplyOp(&convWeightGradOp{fusedOp: newFusedOp(o.name+".dw", 2, c.In*kk, c.Out), of: o,
		g: make([]float32, c.Out*o.stride)}, g, output)
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
			g: make([]float32, c.Out*o.stride), dcols: make([]float32, c.In*kk*o.stride), sum: make([]float32, len(o.planes))}
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

// convWeightGradOp is the weights' gradient, the sum over chunks of the
// chunk's patches times its output gradient^T: inputs the output's
// gradient and the layer's output (so that it runs after the forward
// pass that unrolled the patches).
type convWeightGradOp struct {
	fusedOp
	of *convOp
	g  []float32 // a chunk's output gradient, a row a channel
}

func (o *convWeightGradOp) Do(in ...G.Value) (G.Value, error) {
	c := o.of.c
	k := c.In * kk
	g, out := data(in[0]), data(o.out)
	o.of.chunks(func(first, n int) {
		if n < o.of.chunk {
			clear(o.g) // the short last chunk: no stale columns
		}
		o.of.gather(o.g, g, first, n)
		sgemmAdd(false, true, k, c.Out, o.of.stride, o.of.patches(first), o.of.stride, o.g, o.of.stride, out, c.Out, first > 0)
	})
	return o.out, nil
}

// convInputGradOp is the input's gradient: a chunk at a time, the
// weights times the output's gradient, each patch entry added back
// where it was read from.
type convInputGradOp struct {
	fusedOp
	of       *convOp
	g, dcols []float32
	// sum is an image's gradient, each plane in its frame (the frame's,
	// thrown away).
	sum []float32
}

func (o *convInputGradOp) Do(in ...G.Value) (G.Value, error) {
	c := o.of.c
	cells, k := c.H*c.W, c.In*kk
	g, w, out := data(in[0]), data(in[1]), data(o.out)
	pw, fs := o.of.frame()
	o.of.chunks(func(first, n int) {
		o.of.gather(o.g, g, first, n)
		sgemm(false, false, k, o.of.stride, c.Out, w, c.Out, o.g, o.of.stride, o.dcols, o.of.stride)
		for s := 0; s < n; s++ {
			clear(o.sum)
			for ch := 0; ch < c.In; ch++ {
				for t := 0; t < kk; t++ {
					ky, kx := t/ks, t%ks
					src := o.dcols[(ch*kk+t)*o.of.stride+s*cells:][:cells]
					dst := o.sum[ch*fs+ky*pw+kx:]
					for y := 0; y < c.H; y++ {
						d, v := dst[y*pw:][:c.W], src[y*c.W:][:c.W]
						for x := range d {
							d[x] += v[x]
						}
					}
				}
			}
			img := out[(first+s)*c.In*cells:][:c.In*cells]
			for ch := 0; ch < c.In; ch++ {
				for y := 0; y < c.H; y++ {
					copy(img[ch*cells+y*c.W:][:c.W], o.sum[ch*fs+(y+pad)*pw+pad:][:c.W])
				}
			}
		}
	})
	return o.out, nil
}
