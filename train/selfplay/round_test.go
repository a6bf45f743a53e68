// What a round's shard records: each position's policy over the moves the
// search visited, and the simulations counted with those that ended on a
// known position (no network call).

package selfplay

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
)

func TestRoundRecordsPoliciesAndSims(t *testing.T) {
	spec := registry.Spec{Name: "slider"}.With("size", "4")
	g, _ := games.New(spec)
	w, _ := model.NewWeights(model.NewArch(model.KindMLP, 16, 1, g), rand.New(rand.NewPCG(1, 2)))
	net, _ := model.NewNet(w)
	job := Job{Game: spec, Search: Settings{Params: mcts.Params{Sims: 16, CPUCT: 1.5}}, GamesInFlight: 2, GamesPerRound: 4}
	s, err := PlayRound(context.Background(), g, job, net, 1, func(i int) *rand.Rand { return rand.New(rand.NewPCG(3, uint64(i))) }, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Samples) == 0 {
		t.Fatal("no samples")
	}
	for _, x := range s.Samples {
		pos, err := g.ParseState(x.State)
		if err != nil {
			t.Fatal(err)
		}
		legal := map[int32]bool{}
		for _, a := range pos.LegalActions(nil) {
			legal[int32(a)] = true
		}
		var sum float64
		for k, p := range x.Policy {
			if p <= 0 || !legal[x.Actions[k]] {
				t.Fatalf("%s: action %d with policy %v (legal %v): the policy lists only legal moves the search visited", x.State, x.Actions[k], p, legal[x.Actions[k]])
			}
			sum += float64(p)
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Fatalf("%s: policy sums to %v", x.State, sum)
		}
	}
	// Games that end by the rules reach finished positions in the search,
	// simulations with no network call: counted, so more than the calls.
	if s.Evals == 0 || s.Sims <= s.Evals {
		t.Errorf("%d simulations for %d network calls: the simulations that end on a known position are not counted", s.Sims, s.Evals)
	}
}
