package model_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/model/internal/kernel"
	"github.com/sliderzero/sliderzero/player"
)

// agree runs batches of inputs through the fast pass and the exact gonum
// pass (the reference) and reports the first output that differs by more
// than 1e-5 relative (to the output's size, at least 1).
func agree(net *model.Net, inputs []float32, batch int) error {
	a := net.Arch()
	fast, exact := net.NewForward(), net.NewForward()
	exact.Exact = true
	n := len(inputs) / a.Input
	for start := 0; start < n; start += batch {
		b := min(batch, n-start)
		x := inputs[start*a.Input : (start+b)*a.Input]
		lf, le := make([]float32, b*a.Actions), make([]float32, b*a.Actions)
		vf, ve := make([]float32, b), make([]float32, b)
		mf, me := make([]float32, b), make([]float32, b)
		fast.Run(b, x, lf, vf, mf)
		exact.Run(b, x, le, ve, me)
		for i := range le {
			if math.Abs(float64(lf[i]-le[i])) > 1e-5*math.Max(1, math.Abs(float64(le[i]))) {
				return fmt.Errorf("position %d, logit %d: fast %v, exact %v", start+i/a.Actions, i%a.Actions, lf[i], le[i])
			}
		}
		for i := range ve {
			if math.Abs(float64(vf[i]-ve[i])) > 1e-5 {
				return fmt.Errorf("position %d: value fast %v, exact %v", start+i, vf[i], ve[i])
			}
			if math.Abs(float64(mf[i]-me[i])) > 1e-5*math.Max(1, math.Abs(float64(me[i]))) || (me[i] < 0) != !a.MovesLeft {
				return fmt.Errorf("position %d: plies fast %v, exact %v (network with the plies head: %v)", start+i, mf[i], me[i], a.MovesLeft)
			}
		}
	}
	return nil
}

// The fast pass (SIMD kernels, sparse first layer, heads as one layer)
// gives the exact pass's outputs within 1e-5 relative: on random inputs,
// dense and sparse, for every trunk and batch size; and on real
// positions of every shipped player's game with its own weights.
func TestFastPassAgreesWithExact(t *testing.T) {
	if !kernel.Available() {
		t.Skip("no SIMD kernels on this machine: the exact pass is the only one")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, a := range []model.Arch{
		{Kind: model.KindMLP, Width: 128, Depth: 2, Input: 75, Actions: 76},
		{Kind: model.KindResMLP, Width: 96, Depth: 2, Input: 100, Actions: 145},
		{Kind: model.KindMLP, Width: 20, Depth: 3, Input: 7, Actions: 3},
		// The plies head's column past the policy's padding.
		{Kind: model.KindMLP, Width: 20, Depth: 2, Input: 30, Actions: 15, MovesLeft: true},
		// A three-way value head across the padding, then the plies.
		{Kind: model.KindMLP, Width: 20, Depth: 2, Input: 30, Actions: 14, WDL: true, MovesLeft: true},
		{Kind: model.KindResMLP, Width: 24, Depth: 1, Input: 30, Actions: 16, WDL: true},
		// Convolutions on a board of 3 rows and 5 columns: channels past
		// one kernel width, and under it with the heads after them.
		{Kind: model.KindConv, Width: 40, Depth: 1, Input: 30, Shape: []int{2, 3, 5}, Actions: 16},
		{Kind: model.KindConv, Width: 6, Depth: 2, Input: 45, Shape: []int{3, 3, 5}, Actions: 16, WDL: true, MovesLeft: true},
	} {
		w, err := model.NewWeights(a, rng)
		if err != nil {
			t.Fatal(err)
		}
		// Trained networks have larger weights than fresh ones.
		for _, tensor := range w.Tensors {
			for i := range tensor.Data {
				tensor.Data[i] *= 3
			}
		}
		net, err := model.NewNet(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, density := range []float64{0.1, 1} {
			x := make([]float32, 40*a.Input)
			for i := range x {
				if rng.Float64() < density {
					x[i] = float32(rng.NormFloat64())
					if density < 1 {
						x[i] = 1
					}
				}
			}
			for _, batch := range []int{1, 2, 3, 7, 8, 9, 16, 40} {
				if err := agree(net, x, batch); err != nil {
					t.Errorf("%s, density %.1f, batch %d: %v", a, density, batch, err)
				}
			}
		}
	}
	// Weight decay shrinks dead units' weights into float32's denormals;
	// the kernels treat them as zero, which moves no output measurably.
	w, _ := model.NewWeights(model.Arch{Kind: model.KindMLP, Width: 64, Depth: 2, Input: 75, Actions: 76}, rng)
	for _, tensor := range w.Tensors {
		for i := range tensor.Data {
			if rng.IntN(10) == 0 {
				tensor.Data[i] = float32(rng.NormFloat64()) * 1e-39
			}
		}
	}
	net, _ := model.NewNet(w)
	x := make([]float32, 16*75)
	for i := range x {
		if rng.IntN(8) == 0 {
			x[i] = 1
		}
	}
	if err := agree(net, x, 8); err != nil {
		t.Errorf("denormal weights: %v", err)
	}
	files, _ := filepath.Glob("../checkpoints/*.player")
	if len(files) == 0 {
		t.Fatal("no shipped player found")
	}
	for _, file := range files {
		pf, err := player.LoadPlayerFile(file)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := games.New(pf.Game)
		net, err := model.NewNet(pf.Weights)
		if err != nil {
			t.Fatal(err)
		}
		size := g.InputShape().Size()
		positions := envtest.RandomPositions(g, rand.New(rand.NewPCG(7, 8)), 400)
		x := make([]float32, len(positions)*size)
		for i, s := range positions {
			s.Encode(x[i*size : (i+1)*size])
		}
		for _, batch := range []int{1, 8} {
			if err := agree(net, x, batch); err != nil {
				t.Errorf("%s, batch %d: %v", filepath.Base(file), batch, err)
			}
		}
	}
}
