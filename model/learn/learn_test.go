package learn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/model"
)

// testArchs are the architectures of model's tests (a copy: model's
// internal tests cannot share a helper package with these): every trunk
// and head.
func testArchs() []model.Arch {
	return []model.Arch{
		{Kind: model.KindMLP, Width: 32, Depth: 2, Input: 20, Actions: 13},
		{Kind: model.KindResMLP, Width: 24, Depth: 2, Input: 20, Actions: 13},
		{Kind: model.KindMLP, Width: 32, Depth: 2, Input: 20, Actions: 13, MovesLeft: true},
		{Kind: model.KindMLP, Width: 32, Depth: 2, Input: 20, Actions: 13, WDL: true},
		{Kind: model.KindResMLP, Width: 24, Depth: 1, Input: 20, Actions: 13, WDL: true, MovesLeft: true},
		// A board of 3 rows and 4 columns, so that rows and columns
		// cannot be swapped unseen.
		{Kind: model.KindConv, Width: 5, Depth: 1, Input: 24, Shape: []int{2, 3, 4}, Actions: 13},
		{Kind: model.KindConv, Width: 4, Depth: 2, Input: 24, Shape: []int{2, 3, 4}, Actions: 13, WDL: true, MovesLeft: true},
	}
}

func randomInput(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.IntN(2))
	}
	return x
}

// signalWeights are new weights for a, moved at random so that the
// outputs carry real signal (initial heads are tiny).
func signalWeights(t *testing.T, a model.Arch, rng *rand.Rand) *model.Weights {
	t.Helper()
	w, err := model.NewWeights(a, rng)
	if err != nil {
		t.Fatal(err)
	}
	for i := range w.Tensors {
		for j := range w.Tensors[i].Data {
			w.Tensors[i].Data[j] += float32(rng.NormFloat64() * 0.1)
		}
	}
	return w
}

// The search's plain-Go pass must compute what Gorgonia computes.
func TestForwardMatchesGorgonia(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, a := range testArchs() {
		w := signalWeights(t, a, rng)
		net, err := model.NewNet(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, batch := range []int{1, 7} {
			gf, err := NewGraphForward(w, batch)
			if err != nil {
				t.Fatal(err)
			}
			x := randomInput(rng, batch*a.Input)
			gl, gv, gm := make([]float32, batch*a.Actions), make([]float32, batch), make([]float32, batch)
			pl, pv, pm := make([]float32, batch*a.Actions), make([]float32, batch), make([]float32, batch)
			if err := gf.Run(x, gl, gv, gm); err != nil {
				t.Fatal(err)
			}
			f := net.NewForward()
			f.Exact = true
			f.Run(batch, x, pl, pv, pm)
			for i := range gl {
				if math.Abs(float64(gl[i]-pl[i])) > 1e-4 {
					t.Fatalf("%s batch %d: logit %d Gorgonia %v, plain %v", a.Kind, batch, i, gl[i], pl[i])
				}
			}
			for i := range gv {
				if math.Abs(float64(gv[i]-pv[i])) > 1e-5 || gv[i] == 0 {
					t.Fatalf("%s batch %d: value %d Gorgonia %v, plain %v", a.Kind, batch, i, gv[i], pv[i])
				}
				if math.Abs(float64(gm[i]-pm[i])) > 1e-3 || (gm[i] == model.NoPlies) == a.MovesLeft {
					t.Fatalf("%s batch %d: plies %d Gorgonia %v, plain %v", a, batch, i, gm[i], pm[i])
				}
			}
		}
	}
}

// fixedBatch is a batch with a learnable target: the policy is one action
// chosen by the first input, the value the sign of the second, the plies
// 10 or 50 by the third (unknown for every fourth position).
func fixedBatch(rng *rand.Rand, a model.Arch, n int) *Batch {
	b := &Batch{Size: n, Input: randomInput(rng, n*a.Input), Policy: make([]float32, n*a.Actions),
		Legal: make([]float32, n*a.Actions), Value: make([]float32, n), Plies: make([]float32, n), Known: make([]float32, n)}
	for i := 0; i < n; i++ {
		for j := 0; j < a.Actions; j++ {
			b.Legal[i*a.Actions+j] = float32(j % 2) // odd actions are legal
		}
		target := 1 + 2*int(b.Input[i*a.Input])
		b.Policy[i*a.Actions+target] = 1
		b.Value[i] = 2*b.Input[i*a.Input+1] - 1
		if i%4 != 3 {
			b.Plies[i], b.Known[i] = 10+40*b.Input[i*a.Input+2], 1
		}
	}
	return b
}

func TestTrainingLowersTheLoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, a := range testArchs() {
		w, _ := model.NewWeights(a, rng)
		tr, err := NewTrainer(w, 16, NewAdam(1e-4))
		if err != nil {
			t.Fatal(err)
		}
		b := fixedBatch(rng, a, 16)
		first, err := tr.Step(b, 1e-2)
		if err != nil {
			t.Fatal(err)
		}
		// Six legal actions, near-uniform at the start.
		if math.Abs(first.Entropy-math.Log(6)) > 0.05 {
			t.Errorf("%s: initial entropy %.3f, want about ln 6 = %.3f", a.Kind, first.Entropy, math.Log(6))
		}
		var last Losses
		for i := 0; i < 200; i++ {
			if last, err = tr.Step(b, 1e-2); err != nil {
				t.Fatal(err)
			}
		}
		if last.Policy > first.Policy/10 || last.Value > first.Value/10 || last.Plies > first.Plies/10 || (first.Plies > 0) != a.MovesLeft {
			t.Errorf("%s: losses %+v after 200 steps, from %+v", a.Kind, last, first)
		}
		// The trained weights predict the targets in the plain-Go pass too.
		net, err := model.NewNet(tr.Weights())
		if err != nil {
			t.Fatal(err)
		}
		logits, values, plies := make([]float32, 16*a.Actions), make([]float32, 16), make([]float32, 16)
		net.NewForward().Run(16, b.Input, logits, values, plies)
		for i := 0; i < 16; i++ {
			target := 1 + 2*int(b.Input[i*a.Input])
			best := 1
			for j := 3; j < a.Actions; j += 2 {
				if logits[i*a.Actions+j] > logits[i*a.Actions+best] {
					best = j
				}
			}
			if best != target || values[i]*b.Value[i] < 0.5 {
				t.Errorf("%s: position %d predicts action %d value %.2f, want %d and %.0f", a.Kind, i, best, values[i], target, b.Value[i])
			}
			if a.MovesLeft && b.Known[i] == 1 && math.Abs(float64(plies[i]-b.Plies[i])) > 3 {
				t.Errorf("%s: position %d predicts %.1f plies, want %.0f", a, i, plies[i], b.Plies[i])
			}
		}
	}
}

// Saving weights and optimiser state and building a new trainer from them
// continues exactly as if nothing had happened.
func TestResumeIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a := testArchs()[1]
	w, _ := model.NewWeights(a, rng)
	batches := []*Batch{fixedBatch(rng, a, 8), fixedBatch(rng, a, 8), fixedBatch(rng, a, 8)}
	run := func(tr *Trainer, from, to int) {
		for i := from; i < to; i++ {
			if _, err := tr.Step(batches[i%3], 1e-3); err != nil {
				t.Fatal(err)
			}
		}
	}
	whole, _ := NewTrainer(w, 8, NewAdam(1e-4))
	run(whole, 0, 10)

	first, _ := NewTrainer(w, 8, NewAdam(1e-4))
	run(first, 0, 4)
	saved, opt := first.Weights(), *first.opt
	second, err := NewTrainer(saved, 8, &opt)
	if err != nil {
		t.Fatal(err)
	}
	run(second, 4, 10)
	a1, a2 := whole.Weights(), second.Weights()
	for i := range a1.Tensors {
		for j := range a1.Tensors[i].Data {
			if a1.Tensors[i].Data[j] != a2.Tensors[i].Data[j] {
				t.Fatalf("%s[%d] differs after resuming: %v vs %v", a1.Tensors[i].Name, j, a1.Tensors[i].Data[j], a2.Tensors[i].Data[j])
			}
		}
	}
	if _, err := NewTrainer(saved, 8, &Adam{M: [][]float32{{1}}, V: [][]float32{{1}}}); err == nil {
		t.Error("mismatched optimiser state accepted")
	}
}

// BenchmarkTrainStep times a training step of each benchArchs network,
// with Gorgonia's own ops (the graph before the fused ops) and with the
// fused graph, at the default configuration's batch of 128 and around
// it: samples a second, and the share of the one-core multiply-add peak
// measured in the same run (StepMACs). sliderzero bench --learn prints
// the same table.
func BenchmarkTrainStep(b *testing.B) {
	peak := model.PeakMACs(200 * time.Millisecond)
	for _, a := range benchArchs {
		for _, graph := range []string{"gorgonia", "fused"} {
			for _, batch := range []int{64, 128, 256} {
				if graph == "gorgonia" && batch != 128 {
					continue
				}
				b.Run(fmt.Sprintf("%s/%s/batch%d", a.Kind, graph, batch), func(b *testing.B) {
					rng := rand.New(rand.NewPCG(1, 1))
					w, _ := model.NewWeights(a, rng)
					tr, err := newTrainer(w, batch, NewAdam(1e-4), graph == "fused")
					if err != nil {
						b.Fatal(err)
					}
					data := fixedBatch(rng, a, batch)
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if _, err := tr.Step(data, 1e-3); err != nil {
							b.Fatal(err)
						}
					}
					rate := float64(b.N*batch) / b.Elapsed().Seconds()
					b.ReportMetric(rate, "samples/s")
					if peak > 0 {
						b.ReportMetric(100*rate*float64(StepMACs(a))/peak, "%peak")
					}
				})
			}
		}
	}
}

// A row whose only legal action is action 0, after a row whose action 0 is
// illegal: the case that Gorgonia's softmax shift got wrong with a large
// mask (see MaskedLogit).
func TestMaskedRowsStayFinite(t *testing.T) {
	a := model.Arch{Kind: model.KindMLP, Width: 8, Depth: 1, Input: 4, Actions: 6}
	w, _ := model.NewWeights(a, rand.New(rand.NewPCG(1, 1)))
	w.Tensors[len(w.Tensors)-4].Data[0] = 3 // bias of logit 0 (policy.b)
	tr, err := NewTrainer(w, 2, NewAdam(0))
	if err != nil {
		t.Fatal(err)
	}
	b := &Batch{Size: 2, Input: []float32{1, 0, 1, 0, 0, 1, 0, 1},
		Policy: []float32{0, 0.5, 0.5, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		Legal:  []float32{0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		Value:  []float32{1, -1}}
	for i := 0; i < 50; i++ {
		l, err := tr.Step(b, 0.05)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if math.IsNaN(l.Entropy) || math.IsInf(l.Entropy, 0) {
			t.Fatalf("step %d: entropy %v", i, l.Entropy)
		}
	}
}

// With the value loss weighed 0, the value head's last layer learns
// nothing; with weight 1 it does.
func TestValueWeight(t *testing.T) {
	a := model.Arch{Kind: model.KindMLP, Width: 8, Depth: 1, Input: 4, Actions: 6}
	b := &Batch{Size: 2, Input: []float32{1, 0, 1, 0, 0, 1, 0, 1},
		Policy: []float32{0, 0.5, 0.5, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		Legal:  []float32{0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		Value:  []float32{1, -1}}
	for _, weight := range []float64{0, 1} {
		w, _ := model.NewWeights(a, rand.New(rand.NewPCG(1, 1)))
		tr, err := NewTrainer(w, 2, NewAdam(0))
		if err != nil {
			t.Fatal(err)
		}
		tr.SetValueWeight(weight)
		if _, err := tr.Step(b, 0.05); err != nil {
			t.Fatal(err)
		}
		after := tr.Weights()
		last := len(w.Tensors) - 1 // the value head's bias
		moved := after.Tensors[last].Data[0] != w.Tensors[last].Data[0]
		if name := w.Tensors[last].Name; moved != (weight > 0) {
			t.Errorf("value weight %v: %s moved %v", weight, name, moved)
		}
	}
}

// A three-way head taught a value between a win and a draw settles on
// it: the soft targets fit the same z a tanh head does.
func TestWDLFitsSoftTargets(t *testing.T) {
	a := model.Arch{Kind: model.KindMLP, Width: 8, Depth: 1, Input: 4, Actions: 6, WDL: true}
	b := &Batch{Size: 2, Input: []float32{1, 0, 1, 0, 0, 1, 0, 1},
		Policy: []float32{0, 0.5, 0.5, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		Legal:  []float32{0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		Value:  []float32{0.6, -0.3}}
	w, _ := model.NewWeights(a, rand.New(rand.NewPCG(1, 1)))
	tr, err := NewTrainer(w, 2, NewAdam(0))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 400; i++ {
		if _, err := tr.Step(b, 0.02); err != nil {
			t.Fatal(err)
		}
	}
	net, err := model.NewNet(tr.Weights())
	if err != nil {
		t.Fatal(err)
	}
	logits, values := make([]float32, 2*a.Actions), make([]float32, 2)
	net.NewForward().Run(2, b.Input, logits, values, nil)
	for i, z := range b.Value {
		if math.Abs(float64(values[i]-z)) > 0.05 {
			t.Errorf("position %d: value %.3f after training, taught %.2f", i, values[i], z)
		}
	}
}

// benchArchs are the built-in configuration's network (Slider 5x5's MLP
// of three layers of 128: 4 planes of 5x5 in, 76 actions), its residual
// form, and a convolutional trunk.
var benchArchs = []model.Arch{
	{Kind: model.KindMLP, Width: 128, Depth: 3, Input: 100, Actions: 76},
	{Kind: model.KindResMLP, Width: 128, Depth: 3, Input: 100, Actions: 76},
	// Slider 5x5's three planes.
	{Kind: model.KindConv, Width: 32, Depth: 2, Input: 75, Shape: []int{3, 5, 5}, Actions: 76},
}

// BenchmarkGraphForward is BenchmarkForward of package model through
// Gorgonia: go test -bench Forward ./model/... runs both.
func BenchmarkGraphForward(b *testing.B) {
	for _, a := range benchArchs {
		for _, batch := range []int{1, 16} {
			b.Run(fmt.Sprintf("%s/gorgonia/batch%d", a.Kind, batch), func(b *testing.B) {
				w, _ := model.NewWeights(a, rand.New(rand.NewPCG(1, 1)))
				gf, err := NewGraphForward(w, batch)
				if err != nil {
					b.Fatal(err)
				}
				x := randomInput(rand.New(rand.NewPCG(1, 1)), batch*a.Input)
				l, v := make([]float32, batch*a.Actions), make([]float32, batch)
				for i := 0; i < b.N; i++ {
					if err := gf.Run(x, l, v, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "evals/s")
			})
		}
	}
}
