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
