package mcts

import (
	"flag"
	"math"
	"slices"
	"testing"
)

var exp32All = flag.Bool("exp32-all", false, "TestExp32 checks every float32 input (about a minute), not a sample")

// exp32 is expShifted on one value (x - 0 is x, bit for bit): what the
// tests and benchmarks call.
func exp32(x float32) float32 {
	v := [1]float32{x}
	expShifted(v[:], 0)
	return v[0]
}

// exp32 must give math.Exp's float32 for every input the softmax can
// pass (logit minus the largest: zero or below), or seeded searches would
// change; -exp32-all checks all 1.1 billion of them.
func TestExp32(t *testing.T) {
	step := uint32(4999)
	if *exp32All {
		step = 1
	}
	checked, fallbacks := 0, 0
	check := func(x float32) {
		got, want := exp32(x), float32(math.Exp(float64(x)))
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("exp32(%v) = %v (%#x); float32(math.Exp) = %v (%#x)", x, got, math.Float32bits(got), want, math.Float32bits(want))
		}
		checked++
	}
	// Zero and every negative float32 down to -87, then beyond it.
	for b := uint32(0x80000000); b <= 0xc2ae0000; b += step {
		check(math.Float32frombits(b))
	}
	for _, x := range []float32{0, -87, -87.0001, -100, -104, -200, float32(math.Inf(-1)), float32(math.NaN()), 1e-30, 3} {
		check(x)
	}
	// The fallback to math.Exp near a float32 midpoint is taken and right.
	for b := uint32(0x80000000); b <= 0xc2ae0000 && fallbacks < 20; b += 7 {
		x := math.Float32frombits(b)
		if nearMidpoint(exp32Approx(float64(x))) {
			fallbacks++
			check(x)
		}
	}
	if fallbacks == 0 {
		t.Fatal("no input near a float32 midpoint was found: the fallback went unchecked")
	}
	t.Logf("%d inputs checked, %d of them by the fallback's path", checked, fallbacks)
}

func BenchmarkExp32(b *testing.B) {
	var sum float32
	x := float32(0)
	for i := 0; i < b.N; i++ {
		sum += exp32(x)
		if x -= 0.01; x < -20 {
			x = 0
		}
	}
	_ = sum
}

func BenchmarkMathExp(b *testing.B) {
	var sum float32
	x := float32(0)
	for i := 0; i < b.N; i++ {
		sum += float32(math.Exp(float64(x)))
		if x -= 0.01; x < -20 {
			x = 0
		}
	}
	_ = sum
}

// largest, the softmax's shift, gives the exponentials that the builtin
// max's shift gives, bit for bit: with a NaN (which must win), signed
// zeros, infinities, ties and no elements.
func TestLargestShiftsAsMax(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	negZero := float32(math.Copysign(0, -1))
	for _, xs := range [][]float32{
		nil,
		{0.5},
		{-1, 2, 2, -3},
		{negZero, 0, -0.25},
		{0, negZero},
		{negZero},
		{-inf, -inf},
		{1, nan, 3},
		{nan},
		{-2, inf, 1},
		{-100, -3.5, -7},
	} {
		want := float32(math.Inf(-1))
		for _, x := range xs {
			want = max(want, x)
		}
		a, b := slices.Clone(xs), slices.Clone(xs)
		sumA, sumB := expShifted(a, largest(xs)), expShifted(b, want)
		same := math.Float32bits(sumA) == math.Float32bits(sumB) || sumA != sumA && sumB != sumB
		for k := range a {
			same = same && (math.Float32bits(a[k]) == math.Float32bits(b[k]) || a[k] != a[k] && b[k] != b[k])
		}
		if !same {
			t.Errorf("%v: shifted by largest %v, sum %v; by max %v, sum %v", xs, a, sumA, b, sumB)
		}
	}
}
