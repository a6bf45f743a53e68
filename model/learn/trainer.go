// Package learn trains a network: the network's forward pass, losses and
// gradients as a Gorgonia graph (Trainer) built from fused operations of
// the package's own (a layer's product, bias, residual add and ReLU as
// one op, its backward pass as a few, each loss as one; fused.go) that
// compute with model's SIMD kernels into buffers kept across steps, the
// project's own Adam whose state a checkpoint keeps, and Gorgonia's own
// matrix products on the same kernels. It is the one package that links
// Gorgonia: what only plays evaluates positions with model's plain-Go
// pass over the same weights (GraphForward runs the graph's pass alone,
// for the tests that check the two agree and for sliderzero bench).
package learn

import (
	"errors"
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/sliderzero/sliderzero/model"
)

// MaskedLogit is added to the logits of illegal actions in training, so
// that the policy's softmax is (all but e^-30 of it) over the legal actions
// only, as in search.
//
// It must stay moderate: gorgonia.org/tensor v0.9.24's float32 softmax
// starts every row's maximum from the first element of the whole batch
// (xArr[0]) instead of the row's own, so its shift can be off by the mask.
// Log-softmax is exact for any shift as long as exp does not overflow; with
// a mask of -1e4 it did, and a row whose best legal action was action 0 got
// an infinite loss. TestMaskedRowsStayFinite holds the case. A three-way
// value head's log-softmax goes through the same code with no mask, as
// the unmasked policy logits do: a row's win logit about 88 above the
// batch's first one would overflow (and the step would fail as diverged,
// leaving the weights as they were). Trained logits stay far from that
// (a gap of 10 is already a certainty), so it is not guarded.
const MaskedLogit = -30

// Batch is a batch of samples (model.Batch: plain data, filled by the
// replay window, which needs no Gorgonia).
type Batch = model.Batch

// Losses are the measured losses of one training step (before the update).
type Losses struct {
	Policy float64 `json:"policy_loss"`
	// Value is the value head's squared error, or a three-way head's
	// cross-entropy.
	Value   float64 `json:"value_loss"`
	Entropy float64 `json:"policy_entropy"` // of the network's policy, in nats
	// Plies is the plies head's mean squared error, in model.PliesScale units,
	// over the positions whose plies are known.
	Plies float64 `json:"plies_loss,omitempty"`
}

// ErrDiverged is what a step whose loss is not a number (or infinite)
// returns, its update not applied: a learning rate far too high.
var ErrDiverged = errors.New("training diverged")

// Trainer trains a network with Gorgonia: policy cross-entropy against the
// search's visit distribution plus value mean squared error (or, for a
// three-way value head, cross-entropy), with L2 weight decay in the
// optimiser.
type Trainer struct {
	gn    *graphNet
	vm    G.VM
	pi    *G.Node
	z     *G.Node // the value target, batch x 1 (batch x 3 for a three-way head)
	mask  *G.Node
	ploss *G.Node
	vloss *G.Node
	logp  *G.Node
	vw    *G.Node // the value loss's weight
	// The plies head's target, mask of known targets, loss and weight.
	mt, known, mloss, mw *G.Node
	// policyLoss is the fused graph's policy loss op, which measures the
	// policy's entropy on its way (nil in Gorgonia's own graph: logp).
	policyLoss *lossOp
	// grads are the parameters' gradient nodes, in their order; params
	// and gradv their values in a step.
	grads          G.Nodes
	params, gradv  [][]float32
	opt            *Adam
	maskv, mtv, zv []float32
	// valueWeight multiplies the value loss in the total; 1 by default.
	valueWeight float32
	// pliesWeight multiplies the plies loss.
	pliesWeight float32
}

// SetValueWeight sets the weight of the value loss against the policy
// loss (1 by default): the value head's error is small in size next to the
// policy's cross-entropy, so its gradients can be outweighed.
func (tr *Trainer) SetValueWeight(w float64) { tr.valueWeight = float32(w) }

// SetPliesWeight sets the weight of the plies head's loss (DefaultPliesWeight
// unless set).
func (tr *Trainer) SetPliesWeight(w float64) { tr.pliesWeight = float32(w) }

// DefaultPliesWeight weighs the plies loss in the total. Small, as Leela
// Chess Zero's, so that the trunk serves the policy and the value first.
const DefaultPliesWeight = 0.25

// NewTrainer builds the training graph for a batch size, starting from w,
// with an optimiser (whose state may come from a checkpoint).
func NewTrainer(w *model.Weights, batch int, opt *Adam) (*Trainer, error) {
	return newTrainer(w, batch, opt, true)
}

// newTrainer builds the training graph of fused ops, or (fused false) of
// Gorgonia's own, which the tests and benchmarks hold the fused one to.
func newTrainer(w *model.Weights, batch int, opt *Adam, fused bool) (*Trainer, error) {
	speedUpGorgonia()
	gn, err := buildNet(w, batch, fused, false)
	if err != nil {
		return nil, err
	}
	a := w.Arch
	tr := &Trainer{gn: gn, opt: opt, valueWeight: 1, pliesWeight: DefaultPliesWeight}
	tr.pi = G.NewMatrix(gn.g, tensor.Float32, G.WithShape(batch, a.Actions), G.WithName("pi"))
	tr.mask = G.NewMatrix(gn.g, tensor.Float32, G.WithShape(batch, a.Actions), G.WithName("mask"))
	tr.z = G.NewMatrix(gn.g, tensor.Float32, G.WithShape(batch, a.ValueOutputs()), G.WithName("z"))
	if fused {
		err = tr.fusedLosses()
	} else {
		err = tr.gorgoniaLosses()
	}
	if err != nil {
		return nil, err
	}
	tr.vw = G.NewScalar(gn.g, tensor.Float32, G.WithName("value_weight"))
	weighted, err := G.Mul(tr.vw, tr.vloss)
	if err != nil {
		return nil, err
	}
	loss, err := G.Add(tr.ploss, weighted)
	if err != nil {
		return nil, err
	}
	if gn.plies != nil {
		if loss, err = tr.pliesLoss(loss); err != nil {
			return nil, err
		}
	}
	if tr.grads, err = G.Grad(loss, gn.params...); err != nil {
		return nil, fmt.Errorf("gradients: %w", err)
	}
	// The gradients are read from their nodes: bound as the parameters'
	// dual values, the machine would add each into a buffer of its own
	// every step (a tenth of a default step), which the optimiser would
	// then have to clear.
	tr.vm = G.NewTapeMachine(gn.g)
	if err := opt.init(w); err != nil {
		return nil, err
	}
	return tr, nil
}

// fusedLosses sets the policy's and the value's losses as fused ops.
func (tr *Trainer) fusedLosses() error {
	gn, a := tr.gn, tr.gn.arch
	tr.policyLoss = crossEntropyLoss("policy_loss", gn.batch, a.Actions, true)
	var err error
	if tr.ploss, err = G.ApplyOp(tr.policyLoss, gn.logits, tr.pi, tr.mask); err != nil {
		return err
	}
	value := squaredErrorLoss("value_loss", gn.batch, true, false)
	if a.WDL {
		value = crossEntropyLoss("value_loss", gn.batch, 3, false)
	}
	tr.vloss, err = G.ApplyOp(value, gn.valueOut, tr.z)
	return err
}

// gorgoniaLosses sets the policy's and the value's losses with
// Gorgonia's own ops.
func (tr *Trainer) gorgoniaLosses() error {
	gn := tr.gn
	masked, err := G.Add(gn.logits, tr.mask)
	if err != nil {
		return err
	}
	if tr.logp, err = G.LogSoftMax(masked); err != nil {
		return err
	}
	if tr.ploss, err = crossEntropy(tr.pi, tr.logp); err != nil {
		return err
	}
	tr.vloss, err = tr.valueLoss()
	return err
}

// valueLoss is the value head's loss: the squared error of a tanh head,
// or a three-way head's cross-entropy against the win, draw and loss
// probabilities of model.WDLTarget.
func (tr *Trainer) valueLoss() (*G.Node, error) {
	gn := tr.gn
	if !gn.arch.WDL {
		diff, err := G.Sub(gn.value, tr.z)
		if err != nil {
			return nil, err
		}
		sq, err := G.Square(diff)
		if err != nil {
			return nil, err
		}
		return G.Mean(sq)
	}
	return crossEntropy(tr.z, gn.wdl)
}

// crossEntropy is the batch's mean cross-entropy of target distributions
// (one a row) against log-probabilities of the same shape.
func crossEntropy(target, logp *G.Node) (*G.Node, error) {
	prod, err := G.HadamardProd(target, logp)
	if err != nil {
		return nil, err
	}
	rows, err := G.Sum(prod, 1)
	if err != nil {
		return nil, err
	}
	mean, err := G.Mean(rows)
	if err != nil {
		return nil, err
	}
	return G.Neg(mean)
}

// pliesLoss adds to loss the plies head's weighted error: the mean, over
// the batch, of the squared error of the positions whose plies are known
// (the others are masked to 0).
func (tr *Trainer) pliesLoss(loss *G.Node) (*G.Node, error) {
	gn := tr.gn
	tr.mt = G.NewMatrix(gn.g, tensor.Float32, G.WithShape(gn.batch, 1), G.WithName("plies_target"))
	tr.known = G.NewMatrix(gn.g, tensor.Float32, G.WithShape(gn.batch, 1), G.WithName("plies_known"))
	var err error
	if gn.fused {
		tr.mloss, err = G.ApplyOp(squaredErrorLoss("plies_loss", gn.batch, false, true), gn.plies, tr.mt, tr.known)
	} else {
		tr.mloss, err = gorgoniaPliesLoss(gn.plies, tr.mt, tr.known)
	}
	if err != nil {
		return nil, err
	}
	tr.mw = G.NewScalar(gn.g, tensor.Float32, G.WithName("plies_weight"))
	weighted, err := G.Mul(tr.mw, tr.mloss)
	if err != nil {
		return nil, err
	}
	return G.Add(loss, weighted)
}

// gorgoniaPliesLoss is the mean over the batch of ((plies - target) known)^2
// with Gorgonia's own ops.
func gorgoniaPliesLoss(plies, target, known *G.Node) (*G.Node, error) {
	diff, err := G.Sub(plies, target)
	if err != nil {
		return nil, err
	}
	masked, err := G.HadamardProd(diff, known)
	if err != nil {
		return nil, err
	}
	sq, err := G.Square(masked)
	if err != nil {
		return nil, err
	}
	return G.Mean(sq)
}

// BatchSize is the batch size the graph was built for.
func (tr *Trainer) BatchSize() int { return tr.gn.batch }

// Step runs one optimisation step on a batch of the trainer's size.
func (tr *Trainer) Step(b *Batch, lr float64) (Losses, error) {
	defer tr.vm.Reset()
	l, err := tr.run(b)
	if err != nil {
		return l, err
	}
	gn := tr.gn
	if tr.params == nil {
		tr.params, tr.gradv = make([][]float32, len(gn.params)), make([][]float32, len(gn.params))
	}
	for i, p := range gn.params {
		tr.params[i] = p.Value().Data().([]float32)
		tr.gradv[i] = tr.grads[i].Value().Data().([]float32)
	}
	tr.opt.update(tr.params, tr.gradv, lr)
	return l, nil
}

// run sets the batch as the graph's inputs and runs the graph: the
// losses, and the gradients in their nodes (the caller resets the
// machine). A step whose loss is not finite returns ErrDiverged.
func (tr *Trainer) run(b *Batch) (Losses, error) {
	gn := tr.gn
	a := gn.arch
	n := gn.batch
	if b.Size != n {
		return Losses{}, fmt.Errorf("batch of %d positions for a graph of %d", b.Size, n)
	}
	tr.maskv = grow(tr.maskv, n*a.Actions)
	for i, l := range b.Legal[:n*a.Actions] {
		tr.maskv[i] = (1 - l) * MaskedLogit
	}
	for _, in := range []struct {
		node  *G.Node
		data  []float32
		shape []int
	}{
		{gn.x, b.Input[:n*a.Input], []int{n, a.Input}},
		{tr.pi, b.Policy[:n*a.Actions], []int{n, a.Actions}},
		{tr.mask, tr.maskv, []int{n, a.Actions}},
		{tr.z, tr.valueTargets(b.Value[:n]), []int{n, a.ValueOutputs()}},
	} {
		if err := gn.let(in.node, in.data, in.shape...); err != nil {
			return Losses{}, err
		}
	}
	if err := G.Let(tr.vw, tr.valueWeight); err != nil {
		return Losses{}, err
	}
	if tr.mloss != nil {
		if len(b.Plies) < n || len(b.Known) < n {
			return Losses{}, fmt.Errorf("a batch without plies targets for a network with the plies head")
		}
		tr.mtv = grow(tr.mtv, n)
		for i, p := range b.Plies[:n] {
			tr.mtv[i] = p / model.PliesScale
		}
		if err := gn.let(tr.mt, tr.mtv, n, 1); err != nil {
			return Losses{}, err
		}
		if err := gn.let(tr.known, b.Known[:n], n, 1); err != nil {
			return Losses{}, err
		}
		if err := G.Let(tr.mw, tr.pliesWeight); err != nil {
			return Losses{}, err
		}
	}
	if err := tr.vm.RunAll(); err != nil {
		return Losses{}, err
	}
	var l Losses
	l.Policy = float64(scalarOf(tr.ploss.Value()))
	l.Value = float64(scalarOf(tr.vloss.Value()))
	if tr.mloss != nil {
		l.Plies = float64(scalarOf(tr.mloss.Value()))
	}
	if math.IsNaN(l.Policy+l.Value+l.Plies) || math.IsInf(l.Policy+l.Value+l.Plies, 0) {
		return l, fmt.Errorf("%w: policy loss %v, value loss %v, plies loss %v (weights left as they were)", ErrDiverged, l.Policy, l.Value, l.Plies)
	}
	l.Entropy = tr.entropy(b.Legal)
	return l, nil
}

// entropy is the mean entropy of the policy the step's network gave
// over the legal actions.
func (tr *Trainer) entropy(legal []float32) float64 {
	if tr.policyLoss != nil {
		return tr.policyLoss.entropy
	}
	var e float64
	for i, lp := range tr.logp.Value().Data().([]float32) {
		if legal[i] > 0 {
			e -= math.Exp(float64(lp)) * float64(lp)
		}
	}
	return e / float64(tr.gn.batch)
}

// valueTargets is what the value head is taught for the values z: z
// itself, or a three-way head's win, draw and loss probabilities.
func (tr *Trainer) valueTargets(z []float32) []float32 {
	if !tr.gn.arch.WDL {
		return z
	}
	tr.zv = grow(tr.zv, 3*len(z))
	for i, v := range z {
		tr.zv[3*i], tr.zv[3*i+1], tr.zv[3*i+2] = model.WDLTarget(v)
	}
	return tr.zv
}

// Weights copies the current weights out of the graph.
func (tr *Trainer) Weights() *model.Weights { return tr.gn.weights() }
