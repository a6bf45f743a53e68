package model

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

type dense struct {
	w blas32.General // in x out
	b []float32
}

// Net is a network ready for plain-Go forward passes. It is read-only and
// may be shared by any number of goroutines, each with its own Forward.
type Net struct {
	arch   Arch
	trunk  []dense
	policy dense
	value  dense
}

// NewNet checks the weights and copies them into a Net.
func NewNet(w *Weights) (*Net, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	layers := make([]dense, 0, len(w.Tensors)/2)
	for i := 0; i < len(w.Tensors); i += 2 {
		t, b := w.Tensors[i], w.Tensors[i+1]
		layers = append(layers, dense{
			w: blas32.General{Rows: t.Shape[0], Cols: t.Shape[1], Stride: t.Shape[1], Data: append([]float32(nil), t.Data...)},
			b: append([]float32(nil), b.Data...),
		})
	}
	n := len(layers)
	return &Net{arch: w.Arch, trunk: layers[:n-2], policy: layers[n-2], value: layers[n-1]}, nil
}

// Arch is the network's architecture.
func (n *Net) Arch() Arch { return n.arch }

// Forward holds one caller's buffers for forward passes through a Net.
type Forward struct {
	net          *Net
	h, t, u, out []float32
}

// NewForward returns buffers for forward passes through n.
func (n *Net) NewForward() *Forward { return &Forward{net: n} }

// Net is the network this Forward runs.
func (f *Forward) Net() *Net { return f.net }

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// apply computes out = in * d.w + d.b for a batch of rows, then ReLU when
// relu is set.
func apply(d *dense, batch int, in, out []float32, relu bool) {
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
			if relu && v < 0 {
				v = 0
			}
			row[i] = v
		}
	}
}

// Run evaluates batch positions: input holds batch encodings of Arch.Input
// values; logits receives batch x Arch.Actions raw policy logits (softmax
// over the legal actions gives the policy) and values batch values in
// [-1, 1] for the side to move.
func (f *Forward) Run(batch int, input, logits, values []float32) {
	a := f.net.arch
	w := a.Width
	f.h = grow(f.h, batch*w)
	f.t = grow(f.t, batch*w)
	f.u = grow(f.u, batch*w)
	f.out = grow(f.out, batch)
	trunk := f.net.trunk
	apply(&trunk[0], batch, input[:batch*a.Input], f.h, true)
	switch a.Kind {
	case KindMLP:
		for i := 1; i < len(trunk); i++ {
			apply(&trunk[i], batch, f.h, f.t, true)
			f.h, f.t = f.t, f.h
		}
	case KindResMLP:
		for i := 1; i+1 < len(trunk); i += 2 {
			apply(&trunk[i], batch, f.h, f.t, true)
			apply(&trunk[i+1], batch, f.t, f.u, false)
			for j, v := range f.u {
				v += f.h[j]
				if v < 0 {
					v = 0
				}
				f.h[j] = v
			}
		}
	}
	apply(&f.net.policy, batch, f.h, logits[:batch*a.Actions], false)
	apply(&f.net.value, batch, f.h, f.out, false)
	for i := 0; i < batch; i++ {
		values[i] = float32(math.Tanh(float64(f.out[i])))
	}
}
