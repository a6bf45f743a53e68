package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/blas32"
)

func testArchs() []Arch {
	return []Arch{
		{Kind: KindMLP, Width: 32, Depth: 2, Input: 20, Actions: 13},
		{Kind: KindResMLP, Width: 24, Depth: 2, Input: 20, Actions: 13},
		{Kind: KindMLP, Width: 32, Depth: 2, Input: 20, Actions: 13, MovesLeft: true},
		{Kind: KindMLP, Width: 32, Depth: 2, Input: 20, Actions: 13, WDL: true},
		{Kind: KindResMLP, Width: 24, Depth: 1, Input: 20, Actions: 13, WDL: true, MovesLeft: true},
		// A board of 3 rows and 4 columns, so that rows and columns
		// cannot be swapped unseen.
		{Kind: KindConv, Width: 5, Depth: 1, Input: 24, Shape: []int{2, 3, 4}, Actions: 13},
		{Kind: KindConv, Width: 4, Depth: 2, Input: 24, Shape: []int{2, 3, 4}, Actions: 13, WDL: true, MovesLeft: true},
	}
}

func randomInput(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.IntN(2))
	}
	return x
}

// The search's plain-Go pass must compute what Gorgonia computes.
func TestForwardMatchesGorgonia(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, a := range testArchs() {
		w, err := NewWeights(a, rng)
		if err != nil {
			t.Fatal(err)
		}
		// Initial heads are tiny; make the outputs carry real signal.
		for i := range w.Tensors {
			for j := range w.Tensors[i].Data {
				w.Tensors[i].Data[j] += float32(rng.NormFloat64() * 0.1)
			}
		}
		net, err := NewNet(w)
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
				if math.Abs(float64(gm[i]-pm[i])) > 1e-3 || (gm[i] == NoPlies) == a.MovesLeft {
					t.Fatalf("%s batch %d: plies %d Gorgonia %v, plain %v", a, batch, i, gm[i], pm[i])
				}
			}
		}
	}
}

// fixedBatch is a batch with a learnable target: the policy is one action
// chosen by the first input, the value the sign of the second, the plies
// 10 or 50 by the third (unknown for every fourth position).
func fixedBatch(rng *rand.Rand, a Arch, n int) *Batch {
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
		w, _ := NewWeights(a, rng)
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
		net, err := NewNet(tr.Weights())
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
	w, _ := NewWeights(a, rng)
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

func TestWeightsCheck(t *testing.T) {
	w, _ := NewWeights(testArchs()[0], rand.New(rand.NewPCG(1, 1)))
	bad := w.Clone()
	bad.Tensors[1].Data = bad.Tensors[1].Data[:3]
	if _, err := NewNet(bad); err == nil {
		t.Error("truncated tensor accepted")
	}
	bad = w.Clone()
	bad.Arch.Width++
	if _, err := NewNet(bad); err == nil {
		t.Error("weights of another architecture accepted")
	}
	if _, err := NewWeights(Arch{Kind: "cnn", Width: 1, Depth: 1, Input: 1, Actions: 1}, nil); err == nil {
		t.Error("unknown kind accepted")
	}
}

// benchArch is the default Slider 5x5 network: 4 planes of 5x5 in, 76 actions.
var benchArchs = []Arch{
	{Kind: KindMLP, Width: 128, Depth: 2, Input: 100, Actions: 76},
	{Kind: KindResMLP, Width: 128, Depth: 2, Input: 100, Actions: 76},
	// Slider 5x5's three planes.
	{Kind: KindConv, Width: 32, Depth: 2, Input: 75, Shape: []int{3, 5, 5}, Actions: 76},
}

func BenchmarkForward(b *testing.B) {
	for _, a := range benchArchs {
		for _, batch := range []int{1, 16} {
			b.Run(fmt.Sprintf("%s/plain/batch%d", a.Kind, batch), func(b *testing.B) {
				w, _ := NewWeights(a, rand.New(rand.NewPCG(1, 1)))
				net, _ := NewNet(w)
				f := net.NewForward()
				x := randomInput(rand.New(rand.NewPCG(1, 1)), batch*a.Input)
				l, v := make([]float32, batch*a.Actions), make([]float32, batch)
				for i := 0; i < b.N; i++ {
					f.Run(batch, x, l, v, nil)
				}
				b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "evals/s")
			})
			// A tenth of the weights decayed into float32's denormals, as
			// a trained network's dead units' do: without flush-to-zero
			// the kernels ran ten times slower.
			b.Run(fmt.Sprintf("%s/denormal/batch%d", a.Kind, batch), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 1))
				w, _ := NewWeights(a, rng)
				for _, t := range w.Tensors {
					for i := range t.Data {
						if rng.IntN(10) == 0 {
							t.Data[i] = 1e-39
						}
					}
				}
				net, _ := NewNet(w)
				f := net.NewForward()
				x := randomInput(rand.New(rand.NewPCG(1, 1)), batch*a.Input)
				l, v := make([]float32, batch*a.Actions), make([]float32, batch)
				for i := 0; i < b.N; i++ {
					f.Run(batch, x, l, v, nil)
				}
				b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "evals/s")
			})
			b.Run(fmt.Sprintf("%s/gorgonia/batch%d", a.Kind, batch), func(b *testing.B) {
				w, _ := NewWeights(a, rand.New(rand.NewPCG(1, 1)))
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

func BenchmarkTrainStep(b *testing.B) {
	for _, a := range benchArchs {
		b.Run(a.Kind, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			w, _ := NewWeights(a, rng)
			tr, err := NewTrainer(w, 64, NewAdam(1e-4))
			if err != nil {
				b.Fatal(err)
			}
			batch := fixedBatch(rng, a, 64)
			for i := 0; i < b.N; i++ {
				if _, err := tr.Step(batch, 1e-3); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*64)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}

// A row whose only legal action is action 0, after a row whose action 0 is
// illegal: the case that Gorgonia's softmax shift got wrong with a large
// mask (see MaskedLogit).
func TestMaskedRowsStayFinite(t *testing.T) {
	a := Arch{Kind: KindMLP, Width: 8, Depth: 1, Input: 4, Actions: 6}
	w, _ := NewWeights(a, rand.New(rand.NewPCG(1, 1)))
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
	a := Arch{Kind: KindMLP, Width: 8, Depth: 1, Input: 4, Actions: 6}
	b := &Batch{Size: 2, Input: []float32{1, 0, 1, 0, 0, 1, 0, 1},
		Policy: []float32{0, 0.5, 0.5, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		Legal:  []float32{0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		Value:  []float32{1, -1}}
	for _, weight := range []float64{0, 1} {
		w, _ := NewWeights(a, rand.New(rand.NewPCG(1, 1)))
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

// The layers are the one description of a network: the parameters follow
// them in order, names and shapes, and the game's input shape is kept and
// checked.
func TestLayersDescribeTheNetwork(t *testing.T) {
	for _, a := range testArchs() {
		trunk, policy, value := a.Layers()
		layers := append(trunk, policy, value)
		if plies, ok := a.PliesHead(); ok != a.MovesLeft {
			t.Fatalf("%s: plies head %v", a, ok)
		} else if ok {
			layers = append(layers, plies)
		}
		ps := a.Params()
		if len(ps) != 2*len(layers) {
			t.Fatalf("%s: %d parameters for %d layers", a, len(ps), len(layers))
		}
		for i, l := range layers {
			w, b := ps[2*i], ps[2*i+1]
			rows, cols := l.In, l.Out
			if c := l.Conv; c != nil {
				// A 3x3 kernel a pair of channels, shared by every cell of
				// the encoding's board.
				rows, cols = 9*c.In, c.Out
				if c.H != a.Shape[1] || c.W != a.Shape[2] || l.In != c.In*c.H*c.W || l.Out != c.Out*c.H*c.W {
					t.Errorf("%s: convolution %s %+v reads %d and writes %d on a %v board", a.Kind, l.Name, *c, l.In, l.Out, a.Shape)
				}
			}
			if w.Name != l.Name+".w" || len(w.Shape) != 2 || w.Shape[0] != rows || w.Shape[1] != cols || b.Name != l.Name+".b" || len(b.Shape) != 1 || b.Shape[0] != cols {
				t.Errorf("%s: parameters %d are %s %v and %s %v for layer %+v", a.Kind, 2*i, w.Name, w.Shape, b.Name, b.Shape, l)
			}
			if i > 0 && i < len(trunk) && l.In != trunk[i-1].Out {
				t.Errorf("%s: layer %s reads %d values, the one before writes %d", a.Kind, l.Name, l.In, trunk[i-1].Out)
			}
			if l.Skip != NoSkip && (l.Skip >= i || trunk[l.Skip].Out != l.Out) {
				t.Errorf("%s: layer %s skips from %d", a.Kind, l.Name, l.Skip)
			}
		}
		if trunk[0].In != a.Input || policy.Out != a.Actions || value.Out != a.ValueOutputs() || (value.Out == 3) != a.WDL {
			t.Errorf("%s: the layers do not join input %d to %d actions", a.Kind, a.Input, a.Actions)
		}
	}
	a := testArchs()[0]
	a.Shape = []int{5, 2, 2}
	if err := a.Check(); err != nil {
		t.Errorf("a shape of the input's size refused: %v", err)
	}
	a.Shape = []int{5, 2, 3}
	if err := a.Check(); err == nil {
		t.Error("a shape of 30 values accepted for 20 inputs")
	}
}

// A three-way value head's value is its win's probability less its
// loss's, and the probabilities it is taught for a value target have that
// expectation: a result is its class, a value between is a mix with a
// draw.
func TestWDL(t *testing.T) {
	for _, c := range []struct{ w, d, l, want float32 }{
		{0, 0, 0, 0},
		{50, 0, 0, 1},
		{0, 0, 50, -1},
		{0, 50, 0, 0},
		{float32(math.Log(3)), 0, 0, 0.4}, // 3/5 - 1/5
		{100, 100, -1000, 0.5},            // no overflow: the largest logit is the shift
	} {
		if got := WDLValue(c.w, c.d, c.l); math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("WDLValue(%v, %v, %v) = %v, want %v", c.w, c.d, c.l, got, c.want)
		}
	}
	for _, c := range []struct{ z, w, d, l float32 }{
		{1, 1, 0, 0}, {-1, 0, 0, 1}, {0, 0, 1, 0}, {0.25, 0.25, 0.75, 0}, {-0.5, 0, 0.5, 0.5}, {1.5, 1, 0, 0},
	} {
		w, d, l := WDLTarget(c.z)
		if w != c.w || d != c.d || l != c.l {
			t.Errorf("WDLTarget(%v) = %v, %v, %v; want %v, %v, %v", c.z, w, d, l, c.w, c.d, c.l)
		}
		if z := max(-1, min(1, c.z)); w-l != z || w+d+l != 1 {
			t.Errorf("WDLTarget(%v): expectation %v, total %v", c.z, w-l, w+d+l)
		}
	}
}

// A three-way head taught a value between a win and a draw settles on
// it: the soft targets fit the same z a tanh head does.
func TestWDLFitsSoftTargets(t *testing.T) {
	a := Arch{Kind: KindMLP, Width: 8, Depth: 1, Input: 4, Actions: 6, WDL: true}
	b := &Batch{Size: 2, Input: []float32{1, 0, 1, 0, 0, 1, 0, 1},
		Policy: []float32{0, 0.5, 0.5, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		Legal:  []float32{0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		Value:  []float32{0.6, -0.3}}
	w, _ := NewWeights(a, rand.New(rand.NewPCG(1, 1)))
	tr, err := NewTrainer(w, 2, NewAdam(0))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 400; i++ {
		if _, err := tr.Step(b, 0.02); err != nil {
			t.Fatal(err)
		}
	}
	net, err := NewNet(tr.Weights())
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

// A convolution computed by hand: one channel on a board of 3 rows and 4
// columns holding 1 to 12, a kernel of 1 to 9 (row by row), bias 0.5.
func TestConvolutionByHand(t *testing.T) {
	c := &Conv{In: 1, Out: 1, H: 3, W: 4}
	d := dense{
		Layer: Layer{Name: "c", In: 12, Out: 12, Conv: c, Skip: NoSkip},
		w:     blas32.General{Rows: 9, Cols: 1, Stride: 1, Data: []float32{1, 2, 3, 4, 5, 6, 7, 8, 9}},
		b:     []float32{0.5},
	}
	in := make([]float32, 24) // two positions, the second all zeros
	for i := 0; i < 12; i++ {
		in[i] = float32(i + 1)
	}
	out := make([]float32, 24)
	var col []float32
	apply(&d, 2, in, nil, out, &col)
	// At row 0, column 0 the kernel's centre (5) reads 1, its right (6)
	// reads 2, below (8) reads 5 and below right (9) reads 6; at row 1,
	// column 3 its left column and centre column read 3, 4, 7, 8, 11, 12.
	for _, want := range []struct {
		at int
		v  float32
	}{{0, 5*1 + 6*2 + 8*5 + 9*6 + 0.5}, {7, 1*3 + 2*4 + 4*7 + 5*8 + 7*11 + 8*12 + 0.5}, {12, 0.5}, {23, 0.5}} {
		if out[want.at] != want.v {
			t.Errorf("output %d is %v, want %v", want.at, out[want.at], want.v)
		}
	}
}
