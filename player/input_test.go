package player_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/traintest"
)

// A network trained with a game's input features plays that game's
// positions given without them (the same rules, games.SameRules): it
// reads each position in its own game and chooses as it would there.
func TestPlayerSeesPositionsThroughItsOwnInput(t *testing.T) {
	for _, name := range []string{"connect4", "catsdogs"} {
		t.Run(name, func(t *testing.T) { seesThroughOwnInput(t, name) })
	}
}

func seesThroughOwnInput(t *testing.T, name string) {
	cfg := traintest.TinyConfig()
	cfg.Game = registry.Spec{Name: name}.With("features", "1")
	cfg.Eval.Minutes = 0
	ck := filepath.Join(traintest.Run(t, cfg), train.CheckpointFile)
	plain, err := games.New(registry.Spec{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	featured, err := games.New(cfg.Game)
	if err != nil {
		t.Fatal(err)
	}
	spec := "net:" + ck + ",sims=40"
	// In each game, one player a side plays a whole game: the reading
	// must carry over between a player's moves as its tree does.
	var sides [2][2]player.Player
	for i, g := range []env.Game{plain, featured} {
		for side := range sides[i] {
			if sides[i][side], err = player.New(spec, g, player.Options{Seed: 3}); err != nil {
				t.Fatalf("%s on %s: %v", spec, g.Describe(), err)
			}
		}
	}
	s, f := plain.Start(nil), featured.Start(nil)
	for !s.Outcome().Over {
		moves := [2]int{}
		players := [2]player.Player{sides[0][s.ToMove()], sides[1][s.ToMove()]}
		for i, st := range []env.State{s, f} {
			if moves[i], err = players[i].Move(context.Background(), st); err != nil {
				t.Fatal(err)
			}
		}
		if moves[0] != moves[1] {
			t.Fatalf("%s: move %d in the plain game, %d in its own", s, moves[0], moves[1])
		}
		// The same root policy: the tree was reused alike (what the
		// text form leaves out, such as the ply, carried over).
		pi := [2][]float32{make([]float32, plain.ActionSize()), make([]float32, plain.ActionSize())}
		players[0].(*player.Net).Analysis(pi[0])
		players[1].(*player.Net).Analysis(pi[1])
		if !slices.Equal(pi[0], pi[1]) {
			t.Fatalf("%s: the root's policy differs between the plain game and its own", s)
		}
		s.Apply(moves[0])
		f.Apply(moves[0])
	}
	// So does an exported player, as the engine and the web app load it.
	out := filepath.Join(t.TempDir(), name+".player")
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
	if err := agent.CheckState(other(t, name).Start(nil)); err == nil {
		t.Error("the exported player takes another game's position")
	}
	// Other rules are still refused.
	if _, err := player.New(spec, other(t, name), player.Options{}); err == nil || !strings.Contains(err.Error(), "trained for") {
		t.Errorf("a %s network on another game: %v", name, err)
	}
}

// other is a game other than name's.
func other(t *testing.T, name string) env.Game {
	o := "catsdogs"
	if name == o {
		o = "connect4"
	}
	g, err := games.New(registry.Spec{Name: o})
	if err != nil {
		t.Fatal(err)
	}
	return g
}
