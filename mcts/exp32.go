package mcts

import "math"

// expShifted replaces each x of xs by float32(math.Exp(float64(x -
// shift))), bit for bit and faster (BenchmarkExp32 against
// BenchmarkMathExp), and returns their sum, added in order: the softmax's
// exponentials, so that the priors, and with them every seeded search,
// stay what they were. With no call in the loop, one exponential's chain
// of multiplications overlaps the next one's.
//
// It works out exp in float64 from a table of 2^(j/64) and a polynomial
// of degree 4 on the remainder (|r| <= ln2/128), with a relative error
// under 2^-44: at most 512 units in the last place of the float64 result.
// Rounding that to float32 drops 29 bits; it gives what rounding the
// exact value (or math.Exp's, within 1 unit of it) gives unless the
// result lies within those units of the midpoint between two float32s,
// which the test of the dropped bits catches (a margin of 4,096 units:
// about one call in 65,000), handing the call to math.Exp. Inputs outside
// (-87, 0], where float32 results get subnormal or where the softmax never
// asks, go to math.Exp too. TestExp32 checks every float32 input with
// -exp32-all, a sample of them otherwise.
func expShifted(xs []float32, shift float32) float32 {
	var sum float32
	for k, l := range xs {
		x := l - shift
		var p float32
		if x > -87 && x <= 0 {
			xd := float64(x)
			bits := exp32Approx(xd) // inlined
			p = float32(math.Float64frombits(bits))
			if nearMidpoint(bits) {
				p = float32(math.Exp(xd))
			}
		} else {
			p = float32(math.Exp(float64(x)))
		}
		sum += p
		xs[k] = p
	}
	return sum
}

// exp32Approx is exp(x) to within 2^-44, as float64 bits, for x in
// (-87, 0]. (Small enough for the compiler to inline into expShifted.)
func exp32Approx(x float64) uint64 {
	// j = round(x * 64/ln2), by the float64 rounding of a sum with a large
	// constant (math.Round is a call on plain amd64).
	t := x*exp32Scale + exp32Shifter
	// t's bits are the shifter's plus j, and the shifter's low 18 bits are
	// zero, so t's low bits are j's (in two's complement), all that the
	// table's index and the exponent below read.
	j := math.Float64bits(t)
	kf := t - exp32Shifter
	// r = x - j ln2/64, in two parts (Cody and Waite): kf*exp32Ln2Hi is
	// exact, as exp32Ln2Hi has 24 significant bits and |j| < 2^13.
	r := (x - kf*exp32Ln2Hi) - kf*exp32Ln2Lo
	y := (1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24))))) * exp32Table[j&63]
	// Times 2 to the integer part of j/64, on the exponent's bits (only
	// bits 6 to 17 of j reach it).
	return math.Float64bits(y) + j>>6<<52
}

// nearMidpoint reports whether the float64 bits lie within 4,096 units of
// a midpoint between two float32s, where an error of exp32Approx's size
// could round to the other one.
func nearMidpoint(bits uint64) bool {
	d := int64(bits&(1<<29-1)) - 1<<28
	return d > -4096 && d < 4096
}

const (
	exp32Scale   = 64 / math.Ln2
	exp32Shifter = 0x1.8p52
)

var (
	exp32Ln2Hi = float64(float32(math.Ln2 / 64))
	exp32Ln2Lo = math.Ln2/64 - exp32Ln2Hi
	exp32Table = func() (t [64]float64) {
		for j := range t {
			t[j] = math.Exp2(float64(j) / 64)
		}
		return t
	}()
)
