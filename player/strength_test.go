package player_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
)

// score plays games between a and b on random layouts, colours
// alternating, and returns a's score in [0, 1].
func score(t *testing.T, g env.Game, a, b string, games int) float64 {
	t.Helper()
	total := 0.0
	for i := 0; i < games; i++ {
		pa, err := player.New(a, g, player.Options{Seed: uint64(2 * i)})
		if err != nil {
			t.Fatal(err)
		}
		pb, err := player.New(b, g, player.Options{Seed: uint64(2*i + 1)})
		if err != nil {
			t.Fatal(err)
		}
		aSide := env.Side(i % 2)
		var ps [2]player.Player
		ps[aSide], ps[aSide.Other()] = pa, pb
		rec, err := match.Play(context.Background(), g.Start(rand.New(rand.NewPCG(uint64(i/2), 0))), ps, match.Options{})
		if err != nil {
			t.Fatal(err)
		}
		total += float64(rec.Outcome.Value(aSide)+1) / 2
	}
	return total / float64(games)
}

// Search must pay: each player beats the one below it in the order the
// baselines are meant to have, by a clear margin.
func TestBaselineOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 60 games")
	}
	g := slider.MustNew(slider.Config{Size: 5, RandomBlocked: true})
	for _, c := range []struct {
		a, b string
		min  float64
	}{
		{"greedy", "random", 0.9},
		{"mcts:sims=300", "random", 0.8},
		{"alphabeta:depth=4", "greedy", 0.75},
	} {
		if s := score(t, g, c.a, c.b, 20); s < c.min {
			t.Errorf("%s scored %.2f against %s, want at least %.2f", c.a, s, c.b, c.min)
		}
	}
}
