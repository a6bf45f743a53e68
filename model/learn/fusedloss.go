package learn

import (
	"math"

	G "gorgonia.org/gorgonia"
)

// lossOp is a loss over a batch of m rows of width n, as one op whose
// forward pass also works out the loss's gradient with respect to its
// first input (kept in d): lossGradOp then only scales it by the
// incoming gradient.
type lossOp struct {
	fusedOp
	m, n int
	d    []float32 // d loss / d input 0, for an incoming gradient of 1
	fn   func(o *lossOp, in []G.Value) float64
	// entropy is, for the policy's loss, the mean entropy of the
	// network's policy over the legal actions.
	entropy float64
}

func newLossOp(name string, arity, m, n int, fn func(*lossOp, []G.Value) float64) *lossOp {
	return &lossOp{fusedOp: newFusedOp(name, arity), m: m, n: n, d: make([]float32, m*n), fn: fn}
}

func (o *lossOp) Do(in ...G.Value) (G.Value, error) {
	*o.loss = G.F32(o.fn(o, in))
	return o.loss, nil
}

func (o *lossOp) DiffWRT(n int) []bool {
	d := make([]bool, n)
	d[0] = true
	return d
}

func (o *lossOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	dx, err := G.ApplyOp(newLossGradOp(o), output, grad)
	if err != nil {
		return nil, err
	}
	grads := make(G.Nodes, len(inputs))
	grads[0] = dx
	return grads, nil
}

// lossGradOp is a loss's gradient with respect to its first input: inputs
// the loss (so that it runs after the loss's forward pass) and the
// incoming gradient.
type lossGradOp struct {
	fusedOp
	of *lossOp
}

func newLossGradOp(of *lossOp) *lossGradOp {
	o := &lossGradOp{fusedOp: newFusedOp(of.name+"'", 2, of.m, of.n), of: of}
	o.scalarIn = map[int]bool{0: true, 1: true}
	return o
}

func (o *lossGradOp) Do(in ...G.Value) (G.Value, error) {
	g, out := scalarOf(in[1]), data(o.out)
	for i, x := range o.of.d {
		out[i] = g * x
	}
	return o.out, nil
}

// crossEntropyLoss is the batch's mean cross-entropy of target
// distributions (inputs[1]) against the log-softmax of logits
// (inputs[0]) plus, when masked, inputs[2] (MaskedLogit on illegal
// actions, 0 on legal ones). Each row is shifted by its own maximum.
func crossEntropyLoss(name string, m, n int, masked bool) *lossOp {
	arity := 2
	if masked {
		arity = 3
	}
	e, compact := make([]float32, n), make([]float32, 2*n)
	legal := make([]int, n)
	invM := 1 / float32(m)
	return newLossOp(name, arity, m, n, func(o *lossOp, in []G.Value) float64 {
		x, t := data(in[0]), data(in[1])
		var mask []float32
		if masked {
			mask = data(in[2])
		}
		var loss, entropy float64
		for r := 0; r < m; r++ {
			tr, d := t[r*n : (r+1)*n][:n], o.d[r*n : (r+1)*n][:n]
			var mk []float32
			if mask != nil {
				mk = mask[r*n : (r+1)*n][:n]
			}
			for j, v := range x[r*n : (r+1)*n][:n] {
				if mk != nil {
					v += mk[j]
				}
				d[j] = v // d holds the masked logits until it is the gradient
			}
			top := softmaxExps(e, d, mk, legal, compact)
			var sum, tsum float32
			for j, v := range e {
				sum += v
				tsum += tr[j]
			}
			lse := top + float32(math.Log(float64(sum)))
			inv := 1 / sum
			var rowLoss, rowEntropy float32
			for j, v := range d {
				p := e[j] * inv
				if tr[j] != 0 {
					rowLoss += tr[j] * (v - lse)
				}
				if mk == nil || mk[j] == 0 {
					rowEntropy += p * (v - lse)
				}
				// d/dx of -sum t log softmax(x) is softmax(x) sum t - t.
				d[j] = (p*tsum - tr[j]) * invM
			}
			loss -= float64(rowLoss)
			entropy -= float64(rowEntropy)
		}
		o.entropy = entropy / float64(m)
		return loss / float64(m)
	})
}

// softmaxExps sets e to the exponentials of the logits x shifted by
// their maximum, top, which it returns. With a mask (0 on legal
// actions), only the legal actions' are worked out and the others are 0: an illegal action's
// share is e^MaskedLogit of a legal one's, below float32's precision
// beside it, and most actions are illegal in most positions. legal and
// compact are scratch of x's length and twice it.
func softmaxExps(e, x, mask []float32, legal []int, compact []float32) (top float32) {
	n := 0
	for j, v := range mask {
		if v == 0 {
			legal[n] = j
			n++
		}
	}
	top = float32(math.Inf(-1))
	if n == 0 { // no mask, or no legal action: every action
		for _, v := range x {
			if v > top {
				top = v
			}
		}
		exps(e, x, top)
		return top
	}
	vals, out := compact[:n], compact[n:2*n]
	for i, j := range legal[:n] {
		vals[i] = x[j]
		if x[j] > top {
			top = x[j]
		}
	}
	exps(out, vals, top)
	clear(e)
	for i, j := range legal[:n] {
		e[j] = out[i]
	}
	return top
}

// squaredErrorLoss is the batch's mean squared error of inputs[0]
// (through tanh when asked) against inputs[1], each row (of width 1)
// weighed by inputs[2] when masked (the known plies).
func squaredErrorLoss(name string, m int, tanh, masked bool) *lossOp {
	arity := 2
	if masked {
		arity = 3
	}
	return newLossOp(name, arity, m, 1, func(o *lossOp, in []G.Value) float64 {
		x, z := data(in[0]), data(in[1])
		var known []float32
		if masked {
			known = data(in[2])
		}
		var loss float64
		for i, v := range x {
			slope := float32(1)
			if tanh {
				v = float32(math.Tanh(float64(v)))
				slope = 1 - v*v
			}
			e := v - z[i]
			if known != nil {
				e *= known[i]
				slope *= known[i]
			}
			loss += float64(e * e)
			o.d[i] = 2 * e * slope / float32(m)
		}
		return loss / float64(m)
	})
}

// exps sets dst[i] = e^(src[i]-shift) (shift at least src's largest,
// so that no result overflows), to a few units in float32's last place:
// range reduction to x = n ln 2 + r, |r| <= ln2/2, and a degree-6
// polynomial for e^r (Cephes' expf). One loop without calls, so that the
// processor overlaps the polynomials of neighbouring entries: math.Exp
// on float64 was a tenth of a default training step, a call of a float32
// polynomial an entry still about a twentieth.
func exps(dst, src []float32, shift float32) {
	const (
		ln2Hi = 0.693359375
		ln2Lo = -2.12194440e-4
		log2e = 1.44269504088896341
		// Adding 1.5 x 2^23 leaves no bits below the point (Go rounds
		// every float32 operation): n is log2e x rounded to an integer.
		round = 0x1.8p23
	)
	dst = dst[:len(src)]
	for i, x := range src {
		x -= shift
		if x < -80 {
			dst[i] = 0 // never a denormal: beside the largest entry's 1, nothing
			continue
		}
		n := (log2e*x + round) - round
		r := x - n*ln2Hi - n*ln2Lo
		p := float32(1.9875691500e-4)
		p = p*r + 1.3981999507e-3
		p = p*r + 8.3334519073e-3
		p = p*r + 4.1665795894e-2
		p = p*r + 1.6666665459e-1
		p = p*r + 5.0000001201e-1
		y := p*r*r + r + 1
		dst[i] = math.Float32frombits(math.Float32bits(y) + uint32(int32(n))<<23)
	}
}
