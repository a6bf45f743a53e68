package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/model"
)

// softBatch is fixedBatch with targets spread over several actions and
// values between -1 and 1, so that every term of the losses counts.
func softBatch(rng *rand.Rand, a model.Arch, n int) *Batch {
	b := fixedBatch(rng, a, n)
	for i := 0; i < n; i++ {
		row := b.Policy[i*a.Actions : (i+1)*a.Actions]
		clear(row)
		var sum float32
		for j := range row {
			if b.Legal[i*a.Actions+j] > 0 && rng.IntN(3) > 0 {
				row[j] = rng.Float32()
				sum += row[j]
			}
		}
		for j := range row {
			row[j] /= max(sum, 1e-6)
		}
		b.Value[i] = 2*rng.Float32() - 1
	}
	return b
}

// gradients runs tr on b and returns its losses and a copy of every
// parameter's gradient.
func gradients(t *testing.T, tr *Trainer, b *Batch) (Losses, [][]float32) {
	t.Helper()
	defer tr.vm.Reset()
	l, err := tr.run(b)
	if err != nil {
		t.Fatal(err)
	}
	var gs [][]float32
	for _, g := range tr.grads {
		gs = append(gs, append([]float32(nil), g.Value().Data().([]float32)...))
	}
	return l, gs
}

// The fused graph computes the losses and the gradients Gorgonia's own
// ops compute, for every trunk and head, twice in a row (its buffers are
// reused), and its steps follow the same path.
func TestFusedMatchesGorgonia(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, a := range testArchs() {
		w := signalWeights(t, a, rng)
		n := 9
		if a.Kind == model.KindConv {
			// Three chunks, the last short (newConvOp's layout).
			n = 2*(chunkCells/((a.Shape[1]+pad)*(a.Shape[2]+pad))) + 3
		}
		ref, err := newTrainer(w, n, NewAdam(1e-4), false)
		if err != nil {
			t.Fatal(err)
		}
		fused, err := newTrainer(w, n, NewAdam(1e-4), true)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range []*Trainer{ref, fused} {
			tr.SetValueWeight(2.5)
			tr.SetPliesWeight(0.5)
		}
		for round := 0; round < 2; round++ {
			b := softBatch(rng, a, n)
			lr, gr := gradients(t, ref, b)
			lf, gf := gradients(t, fused, b)
			for _, c := range []struct {
				name     string
				ref, got float64
			}{{"policy loss", lr.Policy, lf.Policy}, {"value loss", lr.Value, lf.Value}, {"plies loss", lr.Plies, lf.Plies}, {"entropy", lr.Entropy, lf.Entropy}} {
				if math.Abs(c.ref-c.got) > 1e-5*(1+math.Abs(c.ref)) {
					t.Errorf("%s round %d: %s %v, Gorgonia's %v", a.Kind, round, c.name, c.got, c.ref)
				}
			}
			for i, g := range gr {
				var scale float64
				for _, x := range g {
					scale = max(scale, math.Abs(float64(x)))
				}
				for j := range g {
					if d := math.Abs(float64(gf[i][j] - g[j])); d > 1e-4*scale+1e-7 {
						t.Fatalf("%v round %d: gradient of %s[%d] %v, Gorgonia's %v", a, round, ref.gn.params[i].Name(), j, gf[i][j], g[j])
					}
				}
			}
		}
		b := softBatch(rng, a, n)
		for i := 0; i < 3; i++ {
			lr, err := ref.Step(b, 1e-3)
			if err != nil {
				t.Fatal(err)
			}
			lf, err := fused.Step(b, 1e-3)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(lr.Policy-lf.Policy) > 1e-4 || math.Abs(lr.Value-lf.Value) > 1e-4 {
				t.Errorf("%s step %d: losses %+v, Gorgonia's %+v", a.Kind, i, lf, lr)
			}
		}
	}
}

// exps agrees with math.Exp to a few units in float32's last place over
// the range a softmax uses (shifted by its largest entry), and is 0 below
// it.
func TestExps(t *testing.T) {
	var src []float32
	for x := float32(-80); x <= 0; x += 0.0137 {
		src = append(src, x+3)
	}
	src = append(src, 3, -78, -1e30)
	dst := make([]float32, len(src))
	exps(dst, src, 3)
	for i, x := range src[:len(src)-2] {
		want := math.Exp(float64(x - 3))
		if got := float64(dst[i]); math.Abs(got-want) > 4e-7*want {
			t.Fatalf("e^%v = %v, want %v", x-3, got, want)
		}
	}
	if dst[len(dst)-2] != 0 || dst[len(dst)-1] != 0 {
		t.Errorf("e^-81 and e^-1e30 give %v, %v; want 0", dst[len(dst)-2], dst[len(dst)-1])
	}
}
