package model

import (
	"fmt"
	"math/rand/v2"
)

// Widen returns the network with its trunk widened to width units (channels
// for a convolution) computing exactly the function w computes, so that a
// run can go on from a trained network with more capacity instead of from
// random weights (Net2Net's wider network, Chen, Goodfellow and Shlens,
// 2016). Each new unit copies an old one's incoming weights and bias; the
// layer after reads each old unit's outgoing weights split among its
// copies in random shares that sum to one. Unequal shares keep the copies
// from receiving equal gradients forever, which equal halves would.
//
// One map from new units to old serves every layer: residual trunks add
// layers' outputs unit by unit, so their units must be copied alike.
func (w *Weights) Widen(width int, rng *rand.Rand) (*Weights, error) {
	a := w.Arch
	if err := w.Check(); err != nil {
		return nil, err
	}
	if width < a.Width {
		return nil, fmt.Errorf("a network of width %d cannot be widened to %d: widening only adds units", a.Width, width)
	}
	b := a
	b.Width = width
	if err := b.Check(); err != nil {
		return nil, err
	}
	source, share := unitMap(a.Width, width, rng)
	out := &Weights{Arch: b}
	for i, l := range b.all() {
		ws, bs := l.Shapes()
		old := w.Tensors[2*i]
		oldOut := old.Shape[1]
		// The first trunk layer reads the game's input and the heads
		// write the actions and values: those sides keep their size.
		widenIn := ws[0] != old.Shape[0]
		widenOut := ws[1] != oldOut
		// A unit is a row of a dense layer's matrix, a channel's 9 kernel
		// cells of a convolution's, a channel's cells of a head that reads
		// a convolution's output.
		rowsPerUnit := old.Shape[0] / a.Width
		wt := Tensor{Name: old.Name, Shape: ws, Data: make([]float32, ws[0]*ws[1])}
		for r := 0; r < ws[0]; r++ {
			from, scale := r, float32(1)
			if widenIn {
				unit, k := r/rowsPerUnit, r%rowsPerUnit
				from, scale = source[unit]*rowsPerUnit+k, share[unit]
			}
			for c := 0; c < ws[1]; c++ {
				col := c
				if widenOut {
					col = source[c]
				}
				wt.Data[r*ws[1]+c] = scale * old.Data[from*oldOut+col]
			}
		}
		oldBias := w.Tensors[2*i+1]
		bt := Tensor{Name: oldBias.Name, Shape: bs, Data: make([]float32, bs[0])}
		for c := range bt.Data {
			col := c
			if widenOut {
				col = source[c]
			}
			bt.Data[c] = oldBias.Data[col]
		}
		out.Tensors = append(out.Tensors, wt, bt)
	}
	return out, out.Check()
}

// unitMap maps each of width new units to the old unit it copies (the
// first from old units to themselves, the rest drawn at random) and gives
// each new unit its share of the old unit's outgoing weights.
func unitMap(from, width int, rng *rand.Rand) (source []int, share []float32) {
	source = make([]int, width)
	copies := make([]int, from)
	for u := range source {
		source[u] = u
		if u >= from {
			source[u] = rng.IntN(from)
		}
		copies[source[u]]++
	}
	weight := make([]float64, width)
	total := make([]float64, from)
	for u, s := range source {
		weight[u] = 1
		if copies[s] > 1 {
			weight[u] = 0.5 + rng.Float64()
		}
		total[s] += weight[u]
	}
	share = make([]float32, width)
	for u, s := range source {
		share[u] = float32(weight[u] / total[s])
	}
	return source, share
}
