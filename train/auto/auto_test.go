package auto

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
)

// The measurements are of the rules alone: one seed gives the same on
// every run, and they say what the games are.
func TestMeasureIsSeededAndSaysWhatTheGameIs(t *testing.T) {
	g, err := games.New(registry.Spec{Name: "connect4"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Measure(context.Background(), g, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Measure(context.Background(), g, 1)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("one seed measured twice differently:\n%+v\n%+v", a, b)
	}
	// Connect Four: 7 columns, 7 to 42 plies, one start, no random
	// positions, an evaluation function.
	if a.Games != probeGames || a.Starts != 1 || a.RandomStarter || !a.Evaluator ||
		a.Branching < 5 || a.Branching > 7 || a.Length.P10 < 7 || a.Length.P10 > a.Length.P50 || a.Length.P50 > 42 {
		t.Errorf("connect4 measured as %+v", a)
	}
	if len(a.AlphaBetaNodes) == 0 || a.AlphaBetaNodes[4] <= a.AlphaBetaNodes[2] {
		t.Errorf("alpha-beta's nodes by depth: %v", a.AlphaBetaNodes)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Measure(ctx, g, 1); err == nil {
		t.Error("a cancelled measurement reported no error")
	}
}

// Each rule, on statistics made up to sit either side of its bounds.
func TestChooseRules(t *testing.T) {
	st := Stats{Games: 100, Length: Lengths{P10: 30, P50: 50, Mean: 52}, Branching: 20, RandomStarter: true, Evaluator: true,
		AlphaBetaNodes: map[int]int{2: 100, 4: 1000, 8: 20000, 10: 90000}}
	c := Choose(st)
	if c.RandomPlies != 30 || c.RandomStarts != randomStartShare || c.Sims != 224 {
		t.Errorf("chose %+v", c)
	}
	if want := []string{"random", "greedy", "alphabeta:depth=2", "alphabeta:depth=4", "alphabeta:depth=8"}; !reflect.DeepEqual(c.Ladder, want) {
		t.Errorf("ladder %v, want %v", c.Ladder, want)
	}
	// Few moves: the least self-play budget; shallow alpha-beta only:
	// plain MCTS joins the ladder; no random positions.
	st.Branching, st.RandomStarter, st.AlphaBetaNodes = 3, false, map[int]int{2: 100, 4: 30000}
	c = Choose(st)
	if c.Sims != minSims || c.RandomStarts != 0 {
		t.Errorf("chose %+v", c)
	}
	if want := []string{"random", "greedy", "mcts:sims=200", "alphabeta:depth=2"}; !reflect.DeepEqual(c.Ladder, want) {
		t.Errorf("ladder %v, want %v", c.Ladder, want)
	}
	st.Evaluator = false
	if c = Choose(st); !reflect.DeepEqual(c.Ladder, []string{"random", "mcts:sims=200", "mcts:sims=1000"}) {
		t.Errorf("ladder without an evaluation function: %v", c.Ladder)
	}
	// Every setting chosen has its reason, naming it and its value.
	for _, prefix := range []string{"search.random_plies 30:", "search.random_starts 0:", "search.sims 64:", "eval.ladder "} {
		found := false
		for _, r := range c.Reasons {
			found = found || strings.HasPrefix(r, prefix)
		}
		if !found {
			t.Errorf("no reason starting %q in %q", prefix, c.Reasons)
		}
	}
}
