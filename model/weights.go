// Package model defines the policy/value networks: their architecture,
// their weights, a plain-Go forward pass for search, and (in graph.go) the
// Gorgonia graph that trains them.
//
// Search evaluates positions with the plain-Go pass because a Gorgonia
// machine costs tens of microseconds per run before any arithmetic
// (docs/development.md, Gorgonia notes); both read the same Weights and a test keeps their
// outputs equal.
package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
)

// Trunk kinds.
const (
	KindMLP    = "mlp"    // Depth dense layers of Width, ReLU
	KindResMLP = "resmlp" // a dense layer of Width, then Depth residual blocks of two dense layers
	KindConv   = "conv"   // a 3x3 convolution to Width channels, then Depth residual blocks of two
)

// Arch is a network's architecture. The input is the game's encoding,
// flattened; the outputs are one logit per action and a value in [-1, 1]
// for the side to move.
type Arch struct {
	Kind    string `msgpack:"kind" json:"kind"`
	Width   int    `msgpack:"width" json:"width"`
	Depth   int    `msgpack:"depth" json:"depth"`
	Input   int    `msgpack:"input" json:"input"`
	Actions int    `msgpack:"actions" json:"actions"`
	// Shape is the game's encoding (planes, rows, columns) whose flattening
	// is the input; files written before it was kept leave it empty.
	Shape []int `msgpack:"shape,omitempty" json:"shape,omitempty"`
	// MovesLeft adds a head that predicts the plies to the game's end (as
	// Leela Chess Zero's moves-left head), which the search uses to
	// prefer quicker wins and slower losses once a result looks decided.
	MovesLeft bool `msgpack:"moves_left,omitempty" json:"moves_left,omitempty"`
	// WDL makes the value head three logits, for a win, a draw and a loss
	// of the side to move (KataGo's and Leela Chess Zero's value head):
	// the value is the win's probability less the loss's, and training
	// fits the three as classes. With undiscounted results for targets a
	// drawn position is then told apart from one won or lost with equal
	// odds; a discounted or bootstrapped target short of a result is
	// taught as part draw (WDLTarget), so there the draw's share also
	// means "far off" or "uncertain".
	WDL bool `msgpack:"wdl,omitempty" json:"wdl,omitempty"`
}

// Check reports a malformed architecture.
func (a Arch) Check() error {
	switch {
	case trunks[a.Kind] == nil:
		return fmt.Errorf("network kind %q: want %s", a.Kind, kindNames())
	case a.Width < 1 || a.Width > 4096:
		return fmt.Errorf("network width %d: want 1 to 4096", a.Width)
	case a.Depth < 1 || a.Depth > 64:
		return fmt.Errorf("network depth %d: want 1 to 64", a.Depth)
	case a.Input < 1 || a.Actions < 1:
		return fmt.Errorf("network input %d and actions %d must be positive", a.Input, a.Actions)
	case a.Shape != nil && (len(a.Shape) != 3 || a.Shape[0]*a.Shape[1]*a.Shape[2] != a.Input):
		return fmt.Errorf("network input shape %v does not make its %d inputs", a.Shape, a.Input)
	case a.Kind == KindConv && a.Shape == nil:
		return fmt.Errorf("a %s network needs its input's shape (planes, rows, columns)", KindConv)
	}
	if n := a.NumParams(); n > MaxParams {
		return fmt.Errorf("network %s has %d parameters, more than the %d that fit (training keeps about 16 bytes a parameter, several times over)", a, n, MaxParams)
	}
	return nil
}

// MaxParams bounds a network's size: training keeps the weights, their
// gradients, two Adam moments and Gorgonia's copies, a few gigabytes at
// this bound, and search would be far too slow long before it.
const MaxParams = 50_000_000

// NumParams counts the architecture's parameters.
func (a Arch) NumParams() int {
	n := 0
	for _, p := range a.Params() {
		n += p.Size()
	}
	return n
}

// Equal reports whether a and b are the same architecture.
func (a Arch) Equal(b Arch) bool {
	if !slices.Equal(a.Shape, b.Shape) {
		return false
	}
	a.Shape, b.Shape = nil, nil
	return reflect.DeepEqual(a, b)
}

func (a Arch) String() string {
	s := fmt.Sprintf("%s width=%d depth=%d input=%d actions=%d", a.Kind, a.Width, a.Depth, a.Input, a.Actions)
	if a.MovesLeft {
		s += " moves_left"
	}
	if a.WDL {
		s += " wdl"
	}
	return s
}

// Param names a parameter and gives its shape: [in, out] for a weight
// matrix, [out] for a bias (Layer.Shapes).
type Param struct {
	Name  string
	Shape []int
}

// Size is the number of values in the parameter.
func (p Param) Size() int {
	n := 1
	for _, d := range p.Shape {
		n *= d
	}
	return n
}

// Params lists the parameters in their fixed order: each layer's weight
// matrix, then its bias.
func (a Arch) Params() []Param {
	var ps []Param
	for _, l := range a.all() {
		w, b := l.Shapes()
		ps = append(ps, Param{l.Name + ".w", w}, Param{l.Name + ".b", b})
	}
	return ps
}

// Tensor is one parameter's values, row-major.
type Tensor struct {
	Name  string    `msgpack:"name"`
	Shape []int     `msgpack:"shape"`
	Data  []float32 `msgpack:"data"`
}

// Weights are a network's architecture and parameter values.
type Weights struct {
	Arch    Arch     `msgpack:"arch"`
	Tensors []Tensor `msgpack:"tensors"`
}

// NewWeights initialises a network: each layer's weights normal with its
// InitStd, zero biases.
func NewWeights(a Arch, rng *rand.Rand) (*Weights, error) {
	if err := a.Check(); err != nil {
		return nil, err
	}
	w := &Weights{Arch: a}
	for _, l := range a.all() {
		std := l.InitStd
		if std == 0 {
			std = math.Sqrt(2 / float64(l.fanIn()))
		}
		ws, bs := l.Shapes()
		t := Tensor{Name: l.Name + ".w", Shape: ws, Data: make([]float32, ws[0]*ws[1])}
		for i := range t.Data {
			t.Data[i] = float32(rng.NormFloat64() * std)
		}
		w.Tensors = append(w.Tensors, t, Tensor{Name: l.Name + ".b", Shape: bs, Data: make([]float32, bs[0])})
	}
	return w, nil
}

// Check verifies that the tensors are those of the architecture, in order,
// with the right shapes and sizes.
func (w *Weights) Check() error {
	if err := w.Arch.Check(); err != nil {
		return err
	}
	ps := w.Arch.Params()
	if len(w.Tensors) != len(ps) {
		return fmt.Errorf("weights have %d tensors, the %s architecture %d", len(w.Tensors), w.Arch.Kind, len(ps))
	}
	for i, p := range ps {
		t := w.Tensors[i]
		if t.Name != p.Name || fmt.Sprint(t.Shape) != fmt.Sprint(p.Shape) || len(t.Data) != p.Size() {
			return fmt.Errorf("weight %d is %s %v with %d values, want %s %v", i, t.Name, t.Shape, len(t.Data), p.Name, p.Shape)
		}
		// A weight that is not a number makes every value and policy the
		// network gives NaN: a player that answers nothing (issue 65).
		for j, x := range t.Data {
			if x != x || math.IsInf(float64(x), 0) {
				return fmt.Errorf("weight %s holds %v at %d: the network is broken (a training step that diverged?)", t.Name, x, j)
			}
		}
	}
	return nil
}

// Clone returns a deep copy.
func (w *Weights) Clone() *Weights {
	c := &Weights{Arch: w.Arch, Tensors: make([]Tensor, len(w.Tensors))}
	for i, t := range w.Tensors {
		c.Tensors[i] = Tensor{Name: t.Name, Shape: append([]int(nil), t.Shape...), Data: append([]float32(nil), t.Data...)}
	}
	return c
}

// NumParams counts the parameters.
func (w *Weights) NumParams() int {
	n := 0
	for _, t := range w.Tensors {
		n += len(t.Data)
	}
	return n
}

// Blend moves w towards x, a network of the same architecture: each
// parameter becomes keep*w + (1-keep)*x. An exponential moving average of
// the trained weights is kept so.
func (w *Weights) Blend(x *Weights, keep float64) {
	k := float32(keep)
	for i := range w.Tensors {
		dst, src := w.Tensors[i].Data, x.Tensors[i].Data[:len(w.Tensors[i].Data)]
		for j := range dst {
			dst[j] = k*dst[j] + (1-k)*src[j]
		}
	}
}
