// Package model defines the policy/value networks: their architecture,
// their weights, a plain-Go forward pass for search, and (in graph.go) the
// Gorgonia graph that trains them.
//
// Search evaluates positions with the plain-Go pass because a Gorgonia
// machine costs tens of microseconds per run before any arithmetic
// (see README, Gorgonia notes); both read the same Weights and a test keeps their
// outputs equal.
package model

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Trunk kinds.
const (
	KindMLP    = "mlp"    // Depth dense layers of Width, ReLU
	KindResMLP = "resmlp" // a dense layer of Width, then Depth residual blocks of two dense layers
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
}

// Check reports a malformed architecture.
func (a Arch) Check() error {
	switch {
	case a.Kind != KindMLP && a.Kind != KindResMLP:
		return fmt.Errorf("network kind %q: want %s or %s", a.Kind, KindMLP, KindResMLP)
	case a.Width < 1 || a.Width > 4096:
		return fmt.Errorf("network width %d: want 1 to 4096", a.Width)
	case a.Depth < 1 || a.Depth > 64:
		return fmt.Errorf("network depth %d: want 1 to 64", a.Depth)
	case a.Input < 1 || a.Actions < 1:
		return fmt.Errorf("network input %d and actions %d must be positive", a.Input, a.Actions)
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

func (a Arch) String() string {
	return fmt.Sprintf("%s width=%d depth=%d input=%d actions=%d", a.Kind, a.Width, a.Depth, a.Input, a.Actions)
}

// Param names a parameter and gives its shape: [in, out] for a weight
// matrix, [out] for a bias.
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

// layer is a dense layer's weight and bias parameters.
func layer(name string, in, out int) []Param {
	return []Param{{name + ".w", []int{in, out}}, {name + ".b", []int{out}}}
}

// Params lists the parameters in their fixed order.
func (a Arch) Params() []Param {
	var ps []Param
	switch a.Kind {
	case KindMLP:
		in := a.Input
		for i := 0; i < a.Depth; i++ {
			ps = append(ps, layer(fmt.Sprintf("h%d", i), in, a.Width)...)
			in = a.Width
		}
	case KindResMLP:
		ps = append(ps, layer("in", a.Input, a.Width)...)
		for i := 0; i < a.Depth; i++ {
			ps = append(ps, layer(fmt.Sprintf("b%d.1", i), a.Width, a.Width)...)
			ps = append(ps, layer(fmt.Sprintf("b%d.2", i), a.Width, a.Width)...)
		}
	}
	ps = append(ps, layer("policy", a.Width, a.Actions)...)
	ps = append(ps, layer("value", a.Width, 1)...)
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

// NewWeights initialises a network: He-normal weights for the ReLU layers,
// small weights for the heads (so the first policy is near uniform and
// the first values near 0), zero biases. The residual blocks' second layers
// start small so that each block starts near the identity.
func NewWeights(a Arch, rng *rand.Rand) (*Weights, error) {
	if err := a.Check(); err != nil {
		return nil, err
	}
	w := &Weights{Arch: a}
	for _, p := range a.Params() {
		t := Tensor{Name: p.Name, Shape: append([]int(nil), p.Shape...), Data: make([]float32, p.Size())}
		if len(p.Shape) == 2 {
			std := math.Sqrt(2 / float64(p.Shape[0]))
			switch {
			case p.Name == "policy.w" || p.Name == "value.w":
				std = 0.01
			case len(p.Name) > 3 && p.Name[len(p.Name)-4:] == ".2.w":
				std *= 0.1
			}
			for i := range t.Data {
				t.Data[i] = float32(rng.NormFloat64() * std)
			}
		}
		w.Tensors = append(w.Tensors, t)
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
