package learn

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/sliderzero/sliderzero/model"
)

// graphNet is a network built in a Gorgonia graph for a fixed batch size.
type graphNet struct {
	arch  model.Arch
	batch int
	// fused is whether the layers are the fused ops of fused.go (else
	// Gorgonia's own: the reference they are tested and timed against).
	fused  bool
	g      *G.ExprGraph
	x      *G.Node
	params []*G.Node
	logits *G.Node // batch x actions
	value  *G.Node // batch x 1, after tanh (or win less loss)
	// valueOut is the value head's layer output: before the tanh, or the
	// three-way head's logits.
	valueOut *G.Node
	// wdl is a three-way value head's log-probabilities of a win, a draw
	// and a loss (batch x 3); nil for a tanh head.
	wdl   *G.Node
	plies *G.Node // batch x 1, in model.PliesScale plies; nil without the head
	// inputs are the input nodes' tensors (let).
	inputs map[*G.Node]*tensor.Dense
}

// buildNet creates the parameters (from w) and the forward pass, with
// the value after the head's activation (value, and wdl for a three-way
// head) unless fused (then it is a training graph whose value loss reads
// the head's layer output, valueOut) and not forward.
func buildNet(w *model.Weights, batch int, fused, forward bool) (*graphNet, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	a := w.Arch
	gn := &graphNet{arch: a, batch: batch, fused: fused, g: G.NewGraph()}
	for _, t := range w.Tensors {
		shape := t.Shape
		if len(shape) == 1 {
			shape = []int{1, shape[0]} // biases broadcast over the batch
		}
		data := append([]float32(nil), t.Data...)
		n := G.NewMatrix(gn.g, tensor.Float32, G.WithShape(shape...), G.WithName(t.Name),
			G.WithValue(tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data))))
		gn.params = append(gn.params, n)
	}
	gn.x = G.NewMatrix(gn.g, tensor.Float32, G.WithShape(batch, a.Input), G.WithName("x"))
	trunk, policy, value := a.Layers()
	acts := make([]*G.Node, len(trunk))
	h := gn.x
	for i, l := range trunk {
		var skip *G.Node
		if l.Skip != model.NoSkip {
			skip = acts[l.Skip]
		}
		layer := gn.dense
		if l.Conv != nil {
			layer = gn.conv
		}
		out, err := layer(h, i, l, skip)
		if err != nil {
			return nil, err
		}
		acts[i], h = out, out
	}
	var err error
	if gn.logits, err = gn.dense(h, len(trunk), policy, nil); err != nil {
		return nil, err
	}
	v, err := gn.dense(h, len(trunk)+1, value, nil)
	if err != nil {
		return nil, err
	}
	gn.valueOut = v
	switch {
	case fused && !forward:
	case a.WDL:
		if err := gn.wdlValue(v); err != nil {
			return nil, err
		}
	default:
		if gn.value, err = G.Tanh(v); err != nil {
			return nil, err
		}
	}
	if l, ok := a.PliesHead(); ok {
		if gn.plies, err = gn.dense(h, len(trunk)+2, l, nil); err != nil {
			return nil, err
		}
	}
	return gn, nil
}

// wdlValue sets a three-way value head's log-probabilities from its
// logits v, and its value: the win's probability less the loss's.
func (gn *graphNet) wdlValue(v *G.Node) error {
	var err error
	if gn.wdl, err = G.LogSoftMax(v); err != nil {
		return err
	}
	probs, err := G.Exp(gn.wdl)
	if err != nil {
		return err
	}
	sign := G.NewMatrix(gn.g, tensor.Float32, G.WithShape(3, 1), G.WithName("wdl_sign"),
		G.WithValue(tensor.New(tensor.WithShape(3, 1), tensor.WithBacking([]float32{1, 0, -1}))))
	gn.value, err = G.Mul(probs, sign)
	return err
}

// dense applies layer l, whose parameters are 2i and 2i+1, adding skip
// (when not nil) before the activation.
func (gn *graphNet) dense(h *G.Node, i int, l model.Layer, skip *G.Node) (*G.Node, error) {
	if gn.fused {
		in := G.Nodes{h, gn.params[2*i], gn.params[2*i+1]}
		if skip != nil {
			in = append(in, skip)
		}
		op := newDenseOp(l.Name, gn.batch, l.Out, l.In, layer{relu: l.ReLU, skip: skip != nil, inputGrad: h != gn.x})
		return G.ApplyOp(op, in...)
	}
	xw, err := G.Mul(h, gn.params[2*i])
	if err != nil {
		return nil, fmt.Errorf("layer %s: %w", l.Name, err)
	}
	out, err := G.BroadcastAdd(xw, gn.params[2*i+1], nil, []byte{0})
	if err != nil {
		return nil, fmt.Errorf("layer %s: %w", l.Name, err)
	}
	if skip != nil {
		if out, err = G.Add(out, skip); err != nil {
			return nil, fmt.Errorf("layer %s: %w", l.Name, err)
		}
	}
	if l.ReLU {
		return G.Rectify(out)
	}
	return out, nil
}

// weights copies the parameters out of the graph.
func (gn *graphNet) weights() *model.Weights {
	w := &model.Weights{Arch: gn.arch}
	for i, p := range gn.arch.Params() {
		data := gn.params[i].Value().Data().([]float32)
		w.Tensors = append(w.Tensors, model.Tensor{Name: p.Name, Shape: append([]int(nil), p.Shape...), Data: append([]float32(nil), data...)})
	}
	return w
}

// let gives input node n the values data (copied: the tensor is the
// node's own, made at its first use and reused, so that a step
// allocates nothing for its inputs).
func (gn *graphNet) let(n *G.Node, data []float32, shape ...int) error {
	if gn.inputs == nil {
		gn.inputs = map[*G.Node]*tensor.Dense{}
	}
	t := gn.inputs[n]
	if t == nil {
		t = tensor.New(tensor.WithShape(shape...), tensor.Of(tensor.Float32))
		gn.inputs[n] = t
	}
	if got := t.Data().([]float32); len(got) == len(data) {
		copy(got, data)
	} else {
		return fmt.Errorf("input %s: %d values for a tensor of %d", n.Name(), len(data), len(got))
	}
	return G.Let(n, t)
}

// GraphForward runs forward passes through Gorgonia, for tests and
// benchmarks that compare it with the plain-Go pass.
type GraphForward struct {
	gn *graphNet
	vm G.VM
}

// NewGraphForward builds a forward-only graph for a batch size.
func NewGraphForward(w *model.Weights, batch int) (*GraphForward, error) {
	speedUpGorgonia()
	gn, err := buildNet(w, batch, true, true)
	if err != nil {
		return nil, err
	}
	return &GraphForward{gn: gn, vm: G.NewTapeMachine(gn.g)}, nil
}

// Run is Forward.Run through Gorgonia; batch must be the graph's.
func (f *GraphForward) Run(input, logits, values, plies []float32) error {
	gn := f.gn
	defer f.vm.Reset()
	if err := gn.let(gn.x, input[:gn.batch*gn.arch.Input], gn.batch, gn.arch.Input); err != nil {
		return err
	}
	if err := f.vm.RunAll(); err != nil {
		return err
	}
	copy(logits, gn.logits.Value().Data().([]float32))
	copy(values, gn.value.Value().Data().([]float32))
	if plies != nil {
		if gn.plies == nil {
			for i := range plies[:gn.batch] {
				plies[i] = model.NoPlies
			}
		} else {
			for i, v := range gn.plies.Value().Data().([]float32) {
				plies[i] = model.HeadPlies(v)
			}
		}
	}
	return nil
}

// grow is s resized to n values, reallocated only when too small.
func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}
