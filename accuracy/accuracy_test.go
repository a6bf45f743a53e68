package accuracy

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	slidersolve "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
)

func table4(t *testing.T) *slidersolve.Table {
	t.Helper()
	tab, err := slidersolve.Solve(context.Background(), 4, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Build(context.Background(), tab, BuildOptions{Count: 150, GamesPerPair: 2, Seed: 3, Parallel: 2}); err != nil {
		t.Fatal(err)
	}
	return tab
}

// worst plays the move the table likes least.
type worst struct{ t *slidersolve.Table }

func (w worst) String() string { return "worst" }
func (w worst) Move(_ context.Context, s env.State) (int, error) {
	actions, values, err := w.t.Moves(s)
	if err != nil {
		return 0, err
	}
	best := 0
	for i, v := range values {
		if values[best].Better(v) {
			best = i
		}
	}
	return actions[best], nil
}

func TestSetsHoldDistinctCriticalPositions(t *testing.T) {
	tab := table4(t)
	g := tab.Game()
	for _, name := range SetNames {
		set := tab.Sets[name]
		if len(set) != 150 {
			t.Fatalf("set %s has %d positions, want 150", name, len(set))
		}
		seen := map[string]bool{}
		won := 0
		for _, p := range set {
			if seen[p] {
				t.Errorf("set %s holds %s twice", name, p)
			}
			seen[p] = true
			s, err := g.ParseState(p)
			if err != nil {
				t.Fatal(err)
			}
			ok, v, err := Critical(tab, s)
			if err != nil || !ok {
				t.Errorf("set %s: %s is not critical (%v)", name, p, err)
			}
			if v < 0 {
				t.Errorf("set %s: lost position %s counted as critical", name, p)
			}
			if v > 0 {
				won++
			}
		}
		if won == 0 || won == len(set) {
			t.Errorf("set %s: %d of %d positions won; want both won and drawn ones", name, won, len(set))
		}
	}
	// The same seed builds the same sets.
	again := table4(t)
	for _, name := range SetNames {
		for i := range tab.Sets[name] {
			if tab.Sets[name][i] != again.Sets[name][i] {
				t.Fatalf("set %s differs between two builds with one seed at %d", name, i)
			}
		}
	}
}

func TestMeasureCountsKeptValues(t *testing.T) {
	tab := table4(t)
	perfect := func(seed uint64) (player.Player, error) {
		return solver.NewTablePlayer(tab, "solver", rand.New(rand.NewPCG(seed, 0))), nil
	}
	bad := func(uint64) (player.Player, error) { return worst{tab}, nil }
	for _, name := range SetNames {
		r, err := Measure(context.Background(), tab, name, perfect, Options{Parallel: 2})
		if err != nil {
			t.Fatal(err)
		}
		if r.All.Kept != r.All.Total || r.All.Total != 150 || r.Won.Total+r.Drawn.Total != 150 {
			t.Errorf("perfect play on %s: %+v", name, r)
		}
		r, err = Measure(context.Background(), tab, name, bad, Options{Parallel: 2, Limit: 40})
		if err != nil {
			t.Fatal(err)
		}
		if r.All.Kept != 0 || r.All.Total != 40 {
			t.Errorf("the worst moves on %s: %+v", name, r)
		}
		if lo, hi := r.All.Interval(); lo != 0 || hi < 0.05 || hi > 0.15 {
			t.Errorf("interval of 0 of 40: [%v, %v]", lo, hi)
		}
	}
	if _, err := Measure(context.Background(), tab, "nope", perfect, Options{}); err == nil {
		t.Error("an unknown set was measured")
	}
}

func TestCriticalOnHandMadePositions(t *testing.T) {
	tab, err := slidersolve.Solve(context.Background(), 3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := tab.Game()
	for _, c := range []struct {
		pos      string
		critical bool
		class    int
	}{
		// H's last piece can leave at once and win; moving it up or down
		// instead lets V's last piece, on the top row, leave and win.
		{"+V+/++H/+++ H", true, 1},
		// H needs two plies to finish; V leaves with its next move
		// whatever H does: lost, and a lost position is never critical.
		{"HV+/H++/+++ H", false, -1},
	} {
		s, err := g.ParseState(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		ok, v, err := Critical(tab, s)
		if err != nil {
			t.Fatal(err)
		}
		if ok != c.critical || v != c.class {
			t.Errorf("%s: critical %v, class %v; want %v, %v", c.pos, ok, v, c.critical, c.class)
		}
	}
}

func TestConvert(t *testing.T) {
	tab := table4(t)
	perfect := func(seed uint64) (player.Player, error) {
		return solver.NewTablePlayer(tab, "solver", rand.New(rand.NewPCG(seed, 0))), nil
	}
	bad := func(uint64) (player.Player, error) { return worst{tab}, nil }
	c, err := Convert(context.Background(), tab, RealGames, perfect, perfect, Options{Limit: 30, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c.Total != 30 || c.Kept != 30 {
		t.Errorf("perfect play converted %v", c)
	}
	c, err = Convert(context.Background(), tab, RealGames, bad, perfect, Options{Limit: 30, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c.Total != 30 || c.Kept != 0 {
		t.Errorf("the worst moves converted %v", c)
	}
}
