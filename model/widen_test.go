package model

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// A widened network computes what the narrow one did, on every kind of
// trunk and head, and its copies of a unit are not all alike.
func TestWidenKeepsTheFunction(t *testing.T) {
	for _, a := range testArchs() {
		w, _ := NewWeights(a, rand.New(rand.NewPCG(1, 1)))
		// Biases trained away from zero, so that copying them is tested.
		rng := rand.New(rand.NewPCG(2, 2))
		for i := 1; i < len(w.Tensors); i += 2 {
			for j := range w.Tensors[i].Data {
				w.Tensors[i].Data[j] = float32(rng.NormFloat64() * 0.1)
			}
		}
		wide, err := w.Widen(2*a.Width+3, rand.New(rand.NewPCG(3, 3)))
		if err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		if wide.Arch.Width != 2*a.Width+3 || wide.NumParams() <= w.NumParams() {
			t.Fatalf("%v: widened to %v with %d parameters (from %d)", a, wide.Arch, wide.NumParams(), w.NumParams())
		}
		const batch = 5
		x := randomInput(rand.New(rand.NewPCG(4, 4)), batch*a.Input)
		l0, v0, p0 := outputs(t, w, batch, x)
		l1, v1, p1 := outputs(t, wide, batch, x)
		for _, pair := range [][2][]float32{{l0, l1}, {v0, v1}, {p0, p1}} {
			for i := range pair[0] {
				if d := math.Abs(float64(pair[0][i] - pair[1][i])); d > 1e-4*(1+math.Abs(float64(pair[0][i]))) {
					t.Fatalf("%v: output %d is %v widened, %v before", a, i, pair[1][i], pair[0][i])
				}
			}
		}
	}
}

// Each old unit's copies share its outgoing weights in parts that sum to
// one, and not in equal parts: equal ones would give the copies equal
// gradients for ever.
func TestWidenSplitsUnequally(t *testing.T) {
	source, share := unitMap(5, 23, rand.New(rand.NewPCG(1, 1)))
	total := make([]float64, 5)
	first := map[int]float32{}
	unequal := false
	for u, s := range source {
		if u < 5 && s != u {
			t.Fatalf("old unit %d maps to %d", u, s)
		}
		total[s] += float64(share[u])
		if f, ok := first[s]; !ok {
			first[s] = share[u]
		} else if f != share[u] {
			unequal = true
		}
	}
	for s, sum := range total {
		if math.Abs(sum-1) > 1e-6 {
			t.Errorf("unit %d's shares sum to %v", s, sum)
		}
	}
	if !unequal {
		t.Error("every unit's copies share its weights equally")
	}
}

func outputs(t *testing.T, w *Weights, batch int, x []float32) (logits, values, plies []float32) {
	t.Helper()
	net, err := NewNet(w)
	if err != nil {
		t.Fatal(err)
	}
	f := net.NewForward()
	f.Exact = true
	logits, values = make([]float32, batch*w.Arch.Actions), make([]float32, batch)
	if w.Arch.MovesLeft {
		plies = make([]float32, batch)
	}
	f.Run(batch, x, logits, values, plies)
	return logits, values, plies
}

func TestWidenRefusesNarrowing(t *testing.T) {
	a := testArchs()[0]
	w, _ := NewWeights(a, rand.New(rand.NewPCG(1, 1)))
	if _, err := w.Widen(a.Width-1, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), "only adds") {
		t.Errorf("narrowing: %v", err)
	}
	same, err := w.Widen(a.Width, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range same.Tensors {
		for j, x := range same.Tensors[i].Data {
			if x != w.Tensors[i].Data[j] {
				t.Fatalf("the same width changed %s[%d]", w.Tensors[i].Name, j)
			}
		}
	}
}
