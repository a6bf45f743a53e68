package solver

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/env/slider"
	slidersolve "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/player"
)

// The solver player kind: on a table's board it plays the table's best
// moves, elsewhere it is refused; a game solved when asked takes the
// search's options and no table. Each table is read once.
func TestSolverPlayerKind(t *testing.T) {
	tab, err := slidersolve.Solve(context.Background(), 3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t3.table")
	if err := tab.Write(path); err != nil {
		t.Fatal(err)
	}
	var ps Players
	build := func(spec string, g env.Game) (player.Player, error) {
		sp, err := player.ParseSpec(spec)
		if err != nil {
			return nil, err
		}
		return ps.Player(sp, g, 1)
	}
	g3 := slider.MustNew(slider.Config{Size: 3})
	p, err := build("solver:table="+path, g3)
	if err != nil {
		t.Fatal(err)
	}
	s := g3.Start(nil)
	for !s.Outcome().Over {
		a, err := p.Move(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		_, values, _ := tab.Moves(s)
		actions := s.LegalActions(nil)
		for i, v := range values {
			if actions[i] != a && v.Better(values[indexOf(actions, a)]) {
				t.Fatalf("%s: played %s, and %s is better", s, s.ActionString(a), s.ActionString(actions[i]))
			}
		}
		s.Apply(a)
	}
	if a, b := mustTable(t, &ps, path), mustTable(t, &ps, path); a != b {
		t.Error("a table was read twice")
	}
	for _, c := range []struct {
		spec string
		game env.Game
		want string
	}{
		{"solver:table=" + path, slider.MustNew(slider.Config{Size: 4}), "the table is for slider 3x3, blocked none; the game is slider size=4"},
		{"solver", g3, "needs a table on slider"},
		{"solver:table=" + path + ",depth=3", g3, "unknown option depth"},
		{"solver:" + path, connect4.New(), "takes no table"},
		{"solver:mb=0", connect4.New(), "mb=0: want megabytes"},
		{"solver:nodes=x", connect4.New(), "nodes=x: want a whole number"},
	} {
		if _, err := build(c.spec, c.game); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s on %s: %v, want an error with %q", c.spec, c.game.Describe(), err, c.want)
		}
	}
	if p, err := build("solver:nodes=1000", connect4.New()); err != nil || p.String() != "solver:nodes=1000" {
		t.Errorf("the searching player: %v, %v", p, err)
	}
}

func indexOf(list []int, x int) int {
	for i, v := range list {
		if v == x {
			return i
		}
	}
	return -1
}

func mustTable(t *testing.T, ps *Players, path string) any {
	t.Helper()
	tab, err := ps.Table(path)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// Every memory setting shares one bound, a quarter of the machine's
// memory, and an option out of its range is an error about the spec as
// written (issue 65: solver:mb=65536 passed its own range check and died
// out of memory; its option errors exited 1, not 2).
func TestSolverOptionsAreBoundedSpecErrors(t *testing.T) {
	g := connect4.New()
	var p Players
	over := strconv.Itoa(MaxTableMB() + 1)
	for _, spec := range []string{"solver:mb=" + over, "solver:mb=0", "solver:mb=-1", "solver:nodes=0", "solver:nodes=1000000000001",
		"solver:time=-1", "solver:tablez=3", "solver:x.table"} {
		sp, err := player.ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Player(sp, g, 1); err == nil || !errors.Is(err, player.ErrBadSpec) {
			t.Errorf("%s: %v, want a bad spec", spec, err)
		}
	}
	if _, _, err := ExactWithBudget(g, MaxTableMB()+1, 0); err == nil || !strings.Contains(err.Error(), "a quarter of this machine's memory") {
		t.Errorf("a table past the bound: %v", err)
	}
	if mb := MaxTableMB(); mb < 64 || uint64(mb)<<20 > physicalMemory()/4+1<<20 && physicalMemory() > 0 {
		t.Errorf("MaxTableMB %d for %d bytes of memory", mb, physicalMemory())
	}
}
