package player_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/traintest"
)

// A network trained with a game's input features plays that game's
// positions given without them (the same rules, games.SameRules): it
// reads each position in its own game and chooses as it would there.
func TestPlayerSeesPositionsThroughItsOwnInput(t *testing.T) {
	cfg := traintest.TinyConfig()
	cfg.Game = games.Spec{Name: "connect4"}.With("features", "1")
	cfg.Eval.Minutes = 0
	ck := filepath.Join(traintest.Run(t, cfg), train.CheckpointFile)
	plain, err := games.New(games.Spec{Name: "connect4"})
	if err != nil {
		t.Fatal(err)
	}
	featured, err := games.New(cfg.Game)
	if err != nil {
		t.Fatal(err)
	}
	spec := "net:" + ck + ",sims=40"
	s, f := plain.Start(nil), featured.Start(nil)
	for ply := 0; ply < 12 && !s.Outcome().Over; ply++ {
		moves := [2]int{}
		for i, st := range []env.State{s, f} {
			p, err := player.New(spec, st.Game(), player.Options{Seed: 3})
			if err != nil {
				t.Fatalf("%s on %s: %v", spec, st.Game().Describe(), err)
			}
			if moves[i], err = p.Move(context.Background(), st); err != nil {
				t.Fatal(err)
			}
		}
		if moves[0] != moves[1] {
			t.Fatalf("%s: move %d in the plain game, %d in its own", s, moves[0], moves[1])
		}
		s.Apply(moves[0])
		f.Apply(moves[0])
	}
	// So does an exported player, as the engine and the web app load it.
	out := filepath.Join(t.TempDir(), "c4.player")
	if _, err := player.Export(ck, out, mcts.DefaultParams(), nil); err != nil {
		t.Fatal(err)
	}
	agent, err := player.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := agent.Move(context.Background(), plain.Start(nil), player.Budget{Sims: 40}); err != nil {
		t.Errorf("the exported player on the plain game: %v", err)
	}
	if err := agent.CheckState(other(t).Start(nil)); err == nil {
		t.Error("the exported player takes a Cats & Dogs position")
	}
	// Other rules are still refused.
	if _, err := player.New(spec, other(t), player.Options{}); err == nil || !strings.Contains(err.Error(), "trained for") {
		t.Errorf("a Connect Four network on Cats & Dogs: %v", err)
	}
}

func other(t *testing.T) env.Game {
	g, err := games.New(games.Spec{Name: "catsdogs"})
	if err != nil {
		t.Fatal(err)
	}
	return g
}
