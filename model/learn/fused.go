package learn

import (
	"fmt"
	"hash"
	"hash/fnv"
	"math"

	"github.com/chewxy/hm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/sliderzero/sliderzero/model/internal/kernel"
)

// The training graph is built from fused operations: a layer's product,
// bias, residual add and ReLU are one Gorgonia op, and its backward pass
// three or four (the ReLU's mask, the two products, the bias's sum);
// each loss is one op that also works out its gradient. Gorgonia spends
// a fixed cost on every op it runs (about a microsecond, and a freshly
// allocated output that the garbage collector must then scan), and its
// built-in ops split a layer into a dozen with their gradients: at the
// default network's size that overhead, not the arithmetic, was most of
// a step. Each fused op writes into a buffer of its own, kept across
// steps, with the project's kernels; the graph, the symbolic gradients
// and the tape machine stay Gorgonia's.

// fusedOp is what every fused op shares: its output's shape and buffer
// (a matrix, or a scalar for a loss), and which inputs are scalars (a
// loss's incoming gradient).
type fusedOp struct {
	name  string
	arity int
	shape tensor.Shape
	// scalarIn marks the inputs that are scalars.
	scalarIn map[int]bool
	// out is a matrix output's buffer; loss a scalar output's (nil for a
	// matrix).
	out  *tensor.Dense
	loss *G.F32
}

func newFusedOp(name string, arity int, shape ...int) fusedOp {
	o := fusedOp{name: name, arity: arity}
	if len(shape) == 0 {
		o.shape = tensor.ScalarShape()
		o.loss = G.NewF32(0)
		return o
	}
	o.shape = tensor.Shape(shape)
	o.out = tensor.New(tensor.WithShape(shape...), tensor.Of(tensor.Float32))
	return o
}

func (o *fusedOp) Arity() int            { return o.arity }
func (o *fusedOp) ReturnsPtr() bool      { return false }
func (o *fusedOp) CallsExtern() bool     { return false }
func (o *fusedOp) OverwritesInput() int  { return -1 }
func (o *fusedOp) String() string        { return o.name }
func (o *fusedOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "%s@%p", o.name, o) }

// Hashcode is unique to the op: Gorgonia merges nodes of equal hashes
// and children, and no two fused ops compute the same thing.
func (o *fusedOp) Hashcode() uint32 {
	h := fnv.New32a()
	o.WriteHash(h)
	return h.Sum32()
}

func (o *fusedOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return o.shape.Clone(), nil }

func (o *fusedOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	matrix := G.TensorType{Dims: 2, Of: a}
	ts := make([]hm.Type, 0, o.arity+1)
	for i := 0; i < o.arity; i++ {
		if o.scalarIn[i] {
			ts = append(ts, a)
		} else {
			ts = append(ts, matrix)
		}
	}
	if o.loss != nil {
		ts = append(ts, a)
	} else {
		ts = append(ts, matrix)
	}
	return hm.NewFnType(ts...)
}

// data is a value's float32s.
func data(v G.Value) []float32 { return v.Data().([]float32) }

// scalarOf is a scalar value's float32.
func scalarOf(v G.Value) float32 {
	if f, ok := v.(*G.F32); ok {
		return float32(*f)
	}
	return v.Data().(float32)
}

// sgemm is C = op(A) op(B) (C m x n, op(A) m x k, row-major) on the
// kernels where they run, on gonum's exact pure-Go BLAS elsewhere.
func sgemm(tA, tB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	sgemmAdd(tA, tB, m, n, k, a, lda, b, ldb, c, ldc, false)
}

// sgemmAdd is sgemm, adding to C when add is true.
func sgemmAdd(tA, tB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, add bool) {
	var beta float32
	if add {
		beta = 1
	}
	ta, tb := blas.NoTrans, blas.NoTrans
	if tA {
		ta = blas.Trans
	}
	if tB {
		tb = blas.Trans
	}
	if kernel.Available() {
		fastBLAS{}.Sgemm(ta, tb, m, n, k, 1, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gonum.Implementation{}.Sgemm(ta, tb, m, n, k, 1, a, lda, b, ldb, beta, c, ldc)
}

// layer is what a dense and a convolution layer's op share: its inputs
// h, W, b and, with skip, the residual added before the activation.
type layer struct {
	relu, skip bool
	// inputGrad is whether h's gradient is wanted: not for the network's
	// input.
	inputGrad bool
}

func (l layer) arity() int {
	if l.skip {
		return 4
	}
	return 3
}

func (l layer) DiffWRT(int) []bool {
	return []bool{l.inputGrad, true, true, true}[:l.arity()]
}

// grads are the gradients of h (nil without inputGrad), W, b and, with
// skip, the residual's: g, the gradient before the activation.
func (l layer) grads(dh, dw, db, g *G.Node) G.Nodes {
	return G.Nodes{dh, dw, db, g}[:l.arity()]
}

// denseOp is a dense layer: act(h W + b [+ skip]) for h m x k, W k x n.
type denseOp struct {
	fusedOp
	layer
	m, n, k int
}

func newDenseOp(name string, m, n, k int, l layer) *denseOp {
	return &denseOp{fusedOp: newFusedOp(name, l.arity(), m, n), layer: l, m: m, n: n, k: k}
}

func (o *denseOp) Do(in ...G.Value) (G.Value, error) {
	var add []float32
	if o.skip {
		add = data(in[3])
	}
	denseForward(o.m, o.n, o.k, data(in[0]), data(in[1]), data(in[2]), add, data(o.out), o.relu)
	return o.out, nil
}

// denseForward is act(h w + b + add) into out (add may be nil).
func denseForward(m, n, k int, h, w, b, add, out []float32, relu bool) {
	if kernel.Available() && n%kernel.Width == 0 {
		kernel.Dense(m, n, k, h, k, w, n, out, n, b, add, relu)
		return
	}
	sgemm(false, false, m, n, k, h, k, w, n, out, n)
	for r := 0; r < m; r++ {
		row := out[r*n : (r+1)*n]
		for j := range row {
			row[j] += b[j]
		}
		if add != nil {
			for j, x := range add[r*n : (r+1)*n] {
				row[j] += x
			}
		}
		if relu {
			rectify(row)
		}
	}
}

// rectify sets the negative entries of x (and -0) to +0, without a
// branch: about half are, in no order a predictor could learn.
func rectify(x []float32) {
	for i, v := range x {
		b := math.Float32bits(v)
		x[i] = math.Float32frombits(b &^ uint32(int32(b)>>31))
	}
}

// SymDiff gives the gradients of h, W, b (and skip): with g the incoming
// gradient masked by the ReLU, g W^T, h^T g, g's column sums (and g).
func (o *denseOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	g, db, err := biasGrad(o.name, o.m, o.n, 1, o.relu, output, grad)
	if err != nil {
		return nil, err
	}
	dw, err := G.ApplyOp(newProductOp(o.name+".dw", true, false, o.k, o.n, o.m), inputs[0], g)
	if err != nil {
		return nil, err
	}
	var dh *G.Node
	if o.inputGrad {
		if dh, err = G.ApplyOp(newProductOp(o.name+".dh", false, true, o.m, o.k, o.n), g, inputs[1]); err != nil {
			return nil, err
		}
	}
	return o.grads(dh, dw, db, g), nil
}

// biasGrad is, for a layer of m x n outputs y whose gradient is grad,
// the gradient before the activation (grad itself without a ReLU) and
// the bias's gradient: the sums of grad's columns, each run of group
// columns summed into one bias entry (a dense layer's group is 1, a
// convolution's its cells). With a ReLU, one pass masks the gradient
// and sums its columns.
func biasGrad(layer string, m, n, group int, relu bool, y, grad *G.Node) (g, db *G.Node, err error) {
	sums := &columnSumsOp{fusedOp: newFusedOp(layer+".db", 1, 1, n/group), m: m, n: n, group: group}
	if !relu {
		db, err = G.ApplyOp(sums, grad)
		return grad, db, err
	}
	op := newReluGradOp(layer, m, n)
	if g, err = G.ApplyOp(op, y, grad); err != nil {
		return nil, nil, err
	}
	sums.of = op
	db, err = G.ApplyOp(sums, g)
	return g, db, err
}

// reluGradOp is the incoming gradient where a ReLU's output is positive,
// 0 elsewhere: inputs the output and its gradient. On its way it sums
// each column (sums), the bias's gradient.
type reluGradOp struct {
	fusedOp
	m, n int
	sums []float32
}

func newReluGradOp(layer string, m, n int) *reluGradOp {
	return &reluGradOp{fusedOp: newFusedOp(layer+".relu'", 2, m, n), m: m, n: n, sums: make([]float32, n)}
}

func (o *reluGradOp) Do(in ...G.Value) (G.Value, error) {
	y, g, out, sums := data(in[0]), data(in[1]), data(o.out), o.sums
	clear(sums)
	for r := 0; r < o.m; r++ {
		yr, gr, dr := y[r*o.n:][:o.n], g[r*o.n:][:o.n], out[r*o.n:][:o.n]
		for j, v := range yr {
			// Without a branch (see rectify): off is all ones where v is
			// +0, -0 or negative (its bits less one, or its bits, have
			// the sign set).
			b := math.Float32bits(v)
			off := uint32((int32(b-1) | int32(b)) >> 31)
			x := math.Float32frombits(math.Float32bits(gr[j]) &^ off)
			dr[j] = x
			sums[j] += x
		}
	}
	return o.out, nil
}

// columnSumsOp is a bias's gradient, 1 x n/group: its input's column
// sums, each run of group columns added up. After a reluGradOp (of) it
// reads the sums that op made on its way (the op's output is its input,
// so that it runs after it).
type columnSumsOp struct {
	fusedOp
	m, n, group int
	of          *reluGradOp
}

func (o *columnSumsOp) Do(in ...G.Value) (G.Value, error) {
	out := data(o.out)
	clear(out)
	if o.of != nil {
		addGroups(out, o.of.sums, o.group)
		return o.out, nil
	}
	g := data(in[0])
	for r := 0; r < o.m; r++ {
		addGroups(out, g[r*o.n:(r+1)*o.n], o.group)
	}
	return o.out, nil
}

// addGroups adds each run of group values of x into one entry of out.
func addGroups(out, x []float32, group int) {
	if group == 1 {
		for j, v := range x[:len(out)] {
			out[j] += v
		}
		return
	}
	for j := range out {
		var sum float32
		for _, v := range x[j*group : (j+1)*group] {
			sum += v
		}
		out[j] += sum
	}
}

// productOp is op(A) op(B), m x n, op transposing when asked: A is stored
// k x m when transposed (m x k when not), B n x k (k x n).
type productOp struct {
	fusedOp
	tA, tB  bool
	m, n, k int
}

func newProductOp(name string, tA, tB bool, m, n, k int) *productOp {
	return &productOp{fusedOp: newFusedOp(name, 2, m, n), tA: tA, tB: tB, m: m, n: n, k: k}
}

func (o *productOp) Do(in ...G.Value) (G.Value, error) {
	lda, ldb := o.k, o.n
	if o.tA {
		lda = o.m
	}
	if o.tB {
		ldb = o.k
	}
	sgemm(o.tA, o.tB, o.m, o.n, o.k, data(in[0]), lda, data(in[1]), ldb, data(o.out), o.n)
	return o.out, nil
}
