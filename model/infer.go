package model

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

type dense struct {
	Layer
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
	layers := w.Arch.all()
	ds := make([]dense, len(layers))
	for i, l := range layers {
		t, b := w.Tensors[2*i], w.Tensors[2*i+1]
		ds[i] = dense{
			Layer: l,
			w:     blas32.General{Rows: l.In, Cols: l.Out, Stride: l.Out, Data: append([]float32(nil), t.Data...)},
			b:     append([]float32(nil), b.Data...),
		}
	}
	n := len(ds)
	return &Net{arch: w.Arch, trunk: ds[:n-2], policy: ds[n-2], value: ds[n-1]}, nil
}

// Arch is the network's architecture.
func (n *Net) Arch() Arch { return n.arch }

// Forward holds one caller's buffers for forward passes through a Net.
type Forward struct {
	net  *Net
	acts [][]float32 // each trunk layer's output
	out  []float32
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

// apply computes out = act(in * d.w + d.b + skip) for a batch of rows; skip
// is nil or a batch of rows of d.Out values.
func apply(d *dense, batch int, in, skip, out []float32) {
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

// Run evaluates batch positions: input holds batch encodings of Arch.Input
// values; logits receives batch x Arch.Actions raw policy logits (softmax
// over the legal actions gives the policy) and values batch values in
// [-1, 1] for the side to move.
func (f *Forward) Run(batch int, input, logits, values []float32) {
	a := f.net.arch
	h := input[:batch*a.Input]
	for i := range f.net.trunk {
		d := &f.net.trunk[i]
		f.acts[i] = grow(f.acts[i], batch*d.Out)
		var skip []float32
		if d.Skip != NoSkip {
			skip = f.acts[d.Skip]
		}
		apply(d, batch, h, skip, f.acts[i])
		h = f.acts[i]
	}
	f.out = grow(f.out, batch)
	apply(&f.net.policy, batch, h, nil, logits[:batch*a.Actions])
	apply(&f.net.value, batch, h, nil, f.out)
	for i := 0; i < batch; i++ {
		values[i] = float32(math.Tanh(float64(f.out[i])))
	}
}
