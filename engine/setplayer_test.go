package engine

import (
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/player"
)

// set changes a file player's budget, threads and search settings on the
// setup read at start: the file is loaded once, however often they change.
func TestSetLoadsNothing(t *testing.T) {
	f, err := player.NewFactory()
	if err != nil {
		t.Fatal(err)
	}
	game := registry.Spec{Name: "slider"}.With("size", "5")
	g, err := games.New(game)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Read("player:../player/testdata/slider-5x5-ship5.player,sims=8", g, player.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Name: "test", Version: "0", Game: game, Player: s, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := session(t, e, "set visits 16", "set c_puct 2.5", "set no_proofs true", "set threads 2", "set movetime 1", "genmove H", "set cpuct 200", "set c_puct x", "set depth 3")
	for i, a := range got[:6] {
		if !strings.HasPrefix(a, "=") {
			t.Errorf("answer %d: %q", i+1, a)
		}
	}
	for i, want := range []string{"c_puct=200 (given as cpuct)", "c_puct=x", "unknown option depth"} {
		if a := got[6+i]; !strings.HasPrefix(a, "?") || !strings.Contains(a, want) {
			t.Errorf("answer %d: %q, want an error with %q", 7+i, a, want)
		}
	}
	if n := f.Files().Loads(); n != 1 {
		t.Errorf("the player file was loaded %d times, want once", n)
	}
	spec := e.setup.String()
	for _, want := range []string{"sims=16", "c_puct=2.5", "no_proofs=true", "time=1"} {
		if !strings.Contains(spec, want) {
			t.Errorf("the player's spec %s lacks %s", spec, want)
		}
	}
	if e.setup.Threads() != 2 {
		t.Errorf("threads %d, want 2", e.setup.Threads())
	}
	// A kind without the network search refuses a search setting.
	ab := engineWith(t, game, "alphabeta:depth=2")
	if a := session(t, ab, "set c_puct 2")[0]; !strings.Contains(a, "no search setting c_puct") {
		t.Errorf("alphabeta took c_puct: %q", a)
	}
}
