package accuracy

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/catsdogs"
	"github.com/sliderzero/sliderzero/env/slider"
	slidersolve "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
)

// The examiner of a run: "auto" finds a small board's table (solving it
// when missing is the command's test: cmd/sliderzero's
// TestTrainMeasuresAccuracy) and measures on its two sets; a table of
// another board is refused; a game without a solver, or a board out of
// reach, is not measured.
func TestExaminer(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cd, err := catsdogs.New(0)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	o := ExaminerOptions{Source: "auto", Positions: 30, Seed: 1, Workers: 2, Dir: dir, Log: &log}
	tab, err := slidersolve.Solve(ctx, 3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Build(ctx, tab, BuildOptions{Count: 30, GamesPerPair: 1, Seed: 1, Parallel: 2}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "slider-3x3.table")
	if err := tab.Write(path); err != nil {
		t.Fatal(err)
	}
	g3 := slider.MustNew(slider.Config{Size: 3, RandomBlocked: true})
	x, err := NewExaminer(ctx, g3, o)
	if err != nil || x == nil || strings.Contains(log.String(), "solving") || !strings.Contains(log.String(), "measured at every evaluation against "+path) {
		t.Fatalf("%v\n%s", err, log.String())
	}
	perfect := func(seed uint64) (player.Player, error) {
		return solver.NewTablePlayer(tab, "solver", rand.New(rand.NewPCG(seed, 0))), nil
	}
	acc, err := x.Examine(ctx, perfect)
	if err != nil {
		t.Fatal(err)
	}
	if len(acc) != 2 || acc[0].Set != RealGames || acc[1].Set != Random {
		t.Fatalf("accuracy %+v", acc)
	}
	for _, a := range acc {
		if a.Total == 0 || a.Kept != a.Total || a.Converted != a.Played {
			t.Errorf("perfect play on %s: %+v", a.Set, a)
		}
	}
	for _, c := range []struct {
		g      env.Game
		source string
		want   string
	}{
		{slider.MustNew(slider.Config{Size: 4}), path, "the table is for slider 3x3, blocked none; the run plays 4x4"},
		{cd, path, "solver tables are for Slider, and the run plays catsdogs"},
	} {
		if _, err := NewExaminer(ctx, c.g, ExaminerOptions{Source: c.source, Files: []string{c.source}, Dir: dir}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s on %s: %v, want an error with %q", c.source, c.g.Describe(), err, c.want)
		}
	}
	log.Reset()
	for _, g := range []env.Game{cd, slider.MustNew(slider.Config{Size: 6})} {
		if x, err := NewExaminer(ctx, g, o); x != nil || err != nil {
			t.Errorf("auto on %s: %v, %v", g.Describe(), x, err)
		}
	}
	if !strings.Contains(log.String(), "no exact table for 6x6 boards") {
		t.Errorf("no note of the board out of reach:\n%s", log.String())
	}
}
