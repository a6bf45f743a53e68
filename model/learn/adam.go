package learn

import (
	"fmt"
	"math"

	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/model/internal/kernel"
)

// Adam is the Adam optimiser with L2 weight decay added to the gradient
// (as Gorgonia's WithL2Reg does). Unlike Gorgonia's solver its moments are
// exported, so a checkpoint can save them and a resumed run continues the
// very same optimisation.
type Adam struct {
	Beta1       float64     `msgpack:"beta1"`
	Beta2       float64     `msgpack:"beta2"`
	Epsilon     float64     `msgpack:"epsilon"`
	WeightDecay float64     `msgpack:"weight_decay"`
	Steps       int64       `msgpack:"steps"`
	M           [][]float32 `msgpack:"m"`
	V           [][]float32 `msgpack:"v"`
}

// NewAdam returns an optimiser with the usual moment rates.
func NewAdam(weightDecay float64) *Adam {
	return &Adam{Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8, WeightDecay: weightDecay}
}

// init sizes the moments for w, or checks that saved moments fit it.
func (o *Adam) init(w *model.Weights) error {
	if o.M == nil && o.V == nil {
		for _, t := range w.Tensors {
			o.M = append(o.M, make([]float32, len(t.Data)))
			o.V = append(o.V, make([]float32, len(t.Data)))
		}
		return nil
	}
	if len(o.M) != len(w.Tensors) || len(o.V) != len(w.Tensors) {
		return fmt.Errorf("optimiser state has %d/%d tensors, the network %d", len(o.M), len(o.V), len(w.Tensors))
	}
	for i, t := range w.Tensors {
		if len(o.M[i]) != len(t.Data) || len(o.V[i]) != len(t.Data) {
			return fmt.Errorf("optimiser state for %s has %d values, the network %d", t.Name, len(o.M[i]), len(t.Data))
		}
	}
	return nil
}

func (o *Adam) update(params, grads [][]float32, lr float64) {
	o.Steps++
	b1, b2 := o.Beta1, o.Beta2
	// Bias corrections folded into the step size.
	step := float32(lr * math.Sqrt(1-math.Pow(b2, float64(o.Steps))) / (1 - math.Pow(b1, float64(o.Steps))))
	fb1, fb2, eps, wd := float32(b1), float32(b2), float32(o.Epsilon), float32(o.WeightDecay)
	for i, p := range params {
		g, m, v := grads[i], o.M[i], o.V[i]
		// The same operations on the SIMD kernels, to the bit.
		if kernel.AdamStep(p, g, m, v, wd, fb1, fb2, step, eps) {
			continue
		}
		// Each product is rounded on its own (an explicit conversion keeps
		// the compiler from fusing it with the sum into one multiply-add,
		// which Go allows and does on arm64, ppc64le and s390x): so the
		// loop gives the kernels' bits, and the same bits on every
		// architecture.
		for j := range p {
			gj := g[j] + float32(wd*p[j])
			m[j] = float32(fb1*m[j]) + float32((1-fb1)*gj)
			v[j] = float32(fb2*v[j]) + float32((1-fb2)*gj*gj)
			p[j] = kernel.FlushDenormal(p[j] - step*m[j]/(float32(math.Sqrt(float64(v[j])))+eps))
		}
	}
}
