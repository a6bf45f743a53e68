package selfplay

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/train/replay"
)

// ExploreStarts keeps the quarter of a round's positions whose search
// value was furthest from their result, most surprising first.
func TestExploreStartsKeepsTheMostSurprising(t *testing.T) {
	var samples []replay.Sample
	for i := 0; i < 8; i++ {
		samples = append(samples, replay.Sample{State: string(rune('a' + i)), Surprise: float32(i%4) / 2})
	}
	got := ExploreStarts(samples)
	if len(got) != 2 || got[0] != "d" || got[1] != "h" {
		t.Errorf("starts %q, want the two of surprise 1.5 in order: d, h", got)
	}
}

// With explore_share, games of a round start from the starts given (the
// first position of a game is then one of them); without it, a round's
// games are the same whatever starts the job holds.
func TestExploringGamesStartFromTheStarts(t *testing.T) {
	spec := registry.Spec{Name: "connect4"}
	g, err := games.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := model.NewWeights(model.NewArch(model.KindMLP, 8, 1, g), rand.New(rand.NewPCG(1, 1)))
	net, err := model.NewNet(w)
	if err != nil {
		t.Fatal(err)
	}
	starts := []string{"......./......./......./...X.../...O.../..XXO.. O", "......./......./......./......./...O.../..XXO.X O"}
	round := func(share float64, starts []string) *replay.Shard {
		job := Job{Game: spec, Search: Settings{Params: mcts.Params{Sims: 4}, ExploreShare: share}, GamesInFlight: 2, GamesPerRound: 16, Starts: starts}
		sh, err := PlayRound(context.Background(), g, job, net, 1, func(i int) *rand.Rand { return rand.New(rand.NewPCG(3, uint64(i))) }, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sh
	}
	firsts := func(sh *replay.Shard) map[string]int {
		m := map[string]int{}
		for _, s := range sh.Samples {
			if s.State == starts[0] || s.State == starts[1] || s.State == g.Start(nil).String() {
				m[s.State]++
			}
		}
		return m
	}
	explored := firsts(round(0.5, starts))
	if explored[starts[0]]+explored[starts[1]] == 0 || explored[g.Start(nil).String()] == 0 {
		t.Errorf("with a share of 0.5, the games' first positions: %v", explored)
	}
	plain, with := round(0, nil), round(0, starts)
	if len(plain.Samples) != len(with.Samples) || firsts(with)[starts[0]] != 0 {
		t.Errorf("without a share, the starts changed the games")
	}
	for i := range plain.Samples {
		if plain.Samples[i].State != with.Samples[i].State {
			t.Fatalf("without a share, the starts changed the games at sample %d", i)
		}
	}
}
