package evaluate

import (
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
)

// The network is evaluated with the run's own search (a Gumbel run with
// Gumbel), at the evaluation's budget and without self-play's noise.
// Before the search's settings were one struct, the evaluation built its
// own and left Gumbel out.
func TestEvaluationSearchesAsTheRunDoes(t *testing.T) {
	spec := games.Spec{Name: "slider", Size: 4}
	g, err := games.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(model.NewArch(model.KindMLP, 8, 1, g), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, gumbel := range []bool{false, true} {
		run := mcts.Params{Sims: 64, CPUCT: 2.5, NoiseAlpha: 0.3, NoiseFrac: 0.25, Gumbel: gumbel, GumbelM: 4}
		e := &Evaluator{Game: spec, Config: Config{Sims: 12}, Search: run}
		p, err := e.NetPlayer("current", w, g, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := p.Params()
		if got.Gumbel != gumbel || got.GumbelM != 4 || got.CPUCT != 2.5 || got.Sims != 12 || got.NoiseFrac != 0 {
			t.Errorf("a run searching with %+v is evaluated with %+v", run, got)
		}
	}
}
