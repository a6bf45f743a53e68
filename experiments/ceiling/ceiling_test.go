package main

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
	solver "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/experiments/ceiling/fitspec"
	"github.com/sliderzero/sliderzero/model"
)

// smallTable solves 4x4 (well under a second) and gives it two small
// held-out sets of critical positions.
func smallTable(t *testing.T) *solver.Table {
	t.Helper()
	tb, err := solver.Solve(context.Background(), 4, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range setNames {
		for len(tb.Sets[name]) < 20 {
			s := tb.RandomPosition(rng)
			if ok, _, _ := accuracy.Critical(tb, s); ok {
				tb.Sets[name] = append(tb.Sets[name], s.String())
			}
		}
	}
	return tb
}

func TestTargetsAndHeldOut(t *testing.T) {
	tb := smallTable(t)
	held, err := newHeldOut(tb)
	if err != nil {
		t.Fatal(err)
	}
	if len(held) < 20 {
		t.Fatalf("held out %d strings", len(held))
	}
	g := tb.Game()
	for _, tg := range []targets{{Value: ValueExact, Policy: PolicyKeep}, {Value: ValueDiscounted, Discount: 0.9, Policy: PolicyBest}} {
		smp := newSampler(tb, held, tg, 7)
		b := fitspec.NewBatch(512, g.InputShape().Size(), g.ActionSize())
		if err := smp.fill(b); err != nil {
			t.Fatal(err)
		}
		// Draw the batch's positions again from the same seed, to check
		// each row against the table.
		again := newSampler(tb, held, tg, 7)
		for i := 0; i < b.Size; i++ {
			p, v, acts, vals, err := again.next()
			if err != nil {
				t.Fatal(err)
			}
			if held[p.String()] || held[p.Transposed().String()] {
				t.Fatalf("held-out position %s drawn", p)
			}
			want := float64(v.Result)
			if tg.Value == ValueDiscounted && v.Result != solver.Draw {
				want *= math.Pow(0.9, float64(v.Plies-1))
			}
			if math.Abs(float64(b.Value[i])-want) > 1e-6 {
				t.Fatalf("%s (%v): value target %v, want %v", p, v, b.Value[i], want)
			}
			row := i * g.ActionSize()
			sum := 0.0
			for j, a := range acts {
				pi := b.Policy[row+a]
				sum += float64(pi)
				keeps := vals[j].Result == v.Result
				if tg.Policy == PolicyBest {
					keeps = vals[j] == v
				}
				if b.Legal[row+a] != 1 || (pi > 0) != keeps {
					t.Fatalf("%s (%v): move %s (%v) has target %v, legal %v", p, v, p.ActionString(a), vals[j], pi, b.Legal[row+a])
				}
			}
			if math.Abs(sum-1) > 1e-5 {
				t.Fatalf("%s: policy target sums to %v", p, sum)
			}
		}
		for smp.Drawn < 50000 {
			p, _, _, _, err := smp.next()
			if err != nil {
				t.Fatal(err)
			}
			if held[p.String()] {
				t.Fatalf("held-out position %s drawn", p)
			}
		}
		if smp.Skipped == 0 {
			t.Errorf("no held-out position came up in %d draws of a small board: the check is not exercised", smp.Drawn)
		}
	}
}

func TestTransposeIsTheSameInput(t *testing.T) {
	tb := smallTable(t)
	g := tb.Game()
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := make([]float32, g.InputShape().Size()), make([]float32, g.InputShape().Size())
	for i := 0; i < 100; i++ {
		s := tb.RandomPosition(rng)
		s.Encode(a)
		s.Transposed().Encode(b)
		for j := range a {
			if a[j] != b[j] {
				t.Fatalf("%s and its transposition encode differently: the held-out set need not hold both", s)
			}
		}
	}
}

func TestMeasureRaw(t *testing.T) {
	tb := smallTable(t)
	probes, err := probesOf(tb, accuracy.Random)
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(model.NewArch(model.KindMLP, 16, 1, tb.Game()), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := measureRaw(w, probes, thresholds{Nearest: 0.5, Discounted: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []split{r.ValueNearest, r.Policy, r.OnePly} {
		if s.All.Total != len(probes) || s.Won.Total+s.Drawn.Total+s.Lost.Total != len(probes) {
			t.Fatalf("tallies %+v for %d probes", s, len(probes))
		}
	}
	// A fresh network's values are near 0: every value read as a draw.
	if r.ValueNearest.Drawn.Kept != r.ValueNearest.Drawn.Total || r.ValueNearest.Won.Kept != 0 {
		t.Errorf("a fresh network's values read as %+v", r.ValueNearest)
	}
}

// The sampler must see exactly what env.State gives: a position that is
// not over, at ply 0.
func TestSampledPositionsAreLive(t *testing.T) {
	tb := smallTable(t)
	smp := newSampler(tb, heldOut{}, targets{Value: ValueExact, Policy: PolicyKeep}, 1)
	for i := 0; i < 200; i++ {
		p, _, acts, _, err := smp.next()
		if err != nil {
			t.Fatal(err)
		}
		var s env.State = p
		if s.Outcome().Over || p.Ply() != 0 || len(acts) == 0 {
			t.Fatalf("sampled %s: over %v, ply %d, %d moves", p, s.Outcome().Over, p.Ply(), len(acts))
		}
	}
}

func TestRefereeLayoutsCoverTheScheme(t *testing.T) {
	listed := map[uint64]bool{}
	for _, cells := range refereeLayouts(5) {
		listed[blockedKey(cells)] = true
	}
	if len(listed) != 16 {
		t.Fatalf("%d layouts listed, want 16 (open, 9 single cells, 6 pairs)", len(listed))
	}
	drawn := map[uint64]bool{}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 20000; i++ {
		k := blockedKey(slider.RandomBlockedCells(5, rng))
		if !listed[k] {
			t.Fatalf("the referee drew blocked cells %#x, not listed", k)
		}
		drawn[k] = true
	}
	if len(drawn) != len(listed) {
		t.Errorf("the referee drew %d of the %d listed layouts", len(drawn), len(listed))
	}
}
