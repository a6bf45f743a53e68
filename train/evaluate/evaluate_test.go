package evaluate

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/rating"
)

// The network is evaluated with the run's own search (a Gumbel run with
// Gumbel), at the evaluation's budget and without self-play's noise.
// Before the search's settings were one struct, the evaluation built its
// own and left Gumbel out.
func TestEvaluationSearchesAsTheRunDoes(t *testing.T) {
	spec := registry.Spec{Name: "slider"}.With("size", "4")
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
		e := &Referee{Game: spec, Config: Config{Sims: 12}, Search: run}
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

// Game i of a series has the network (A) as side i%2: seats count each
// game for that side, with the mean length of its wins and losses.
func TestSeatsSplitBySide(t *testing.T) {
	g, err := games.New(registry.Spec{Name: "catsdogs"})
	if err != nil {
		t.Fatal(err)
	}
	rec := func(winner env.Side, plies int) match.Record {
		return match.Record{Outcome: env.Outcome{Over: true, Winner: winner}, Moves: make([]string, plies)}
	}
	// A as C loses in 50 and 60; A as D wins in 80 and 90 (games 1, 3).
	got := seats(g, []match.Record{rec(1, 50), rec(1, 80), rec(1, 60), rec(1, 90)})
	want := []Seat{{Side: "C", Losses: 2, LossPlies: 55}, {Side: "D", Wins: 2, WinPlies: 85}}
	if got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("seats %+v, want %+v", got, want)
	}
	if line := SeatsLine(got); line != "as C 0-2, lost in 55.0; as D 2-0, won in 85.0 plies" {
		t.Errorf("SeatsLine: %q", line)
	}
}

// The ladder's Elo on results whose answer is known: 15-5, with the fit's
// virtual half-game tie, is a score of 15.25/20.5, 400 log10(15.25/5.25)
// = 185.2 Elo above the anchor; random is the anchor
// wherever it stands on the ladder, else the first baseline; calibration
// results of players not on the ladder change nothing.
func TestLadderEloOnKnownResults(t *testing.T) {
	won := rating.Result{Wins: 15, Losses: 5}
	even := rating.Result{Wins: 10, Losses: 10}
	lost := rating.Result{Wins: 5, Losses: 15}
	want := 400 * math.Log10(15.25/5.25)
	for _, c := range []struct {
		name        string
		ladder      []string
		results     []rating.Result
		calibration []LadderResult
		elo         float64
	}{
		{"against random alone", []string{"random"}, []rating.Result{won}, nil, want},
		{"random second, greedy as strong as the network", []string{"greedy", "random"}, []rating.Result{even, won},
			[]LadderResult{{A: "greedy", B: "random", Result: won}}, want},
		{"no random: the first baseline is the anchor", []string{"greedy"}, []rating.Result{lost}, nil, -want},
		{"a calibration result of a player gone from the ladder", []string{"random"}, []rating.Result{won},
			[]LadderResult{{A: "alphabeta", B: "random", Result: lost}}, want},
	} {
		elo, lo, hi, err := fitLadder(c.ladder, c.results, c.calibration)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(elo-c.elo) > 0.5 || !(lo < elo && elo < hi) {
			t.Errorf("%s: Elo %.1f [%.1f, %.1f], want %.1f inside its interval", c.name, elo, lo, hi, c.elo)
		}
	}
}
