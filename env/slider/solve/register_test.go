package solve

import (
	"context"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/env/slider"
)

// The registered solver: tables of one layout, the board "auto" solves
// for a run, and which games a table plays and measures.
func TestRegisteredTables(t *testing.T) {
	s, ok := registry.SolverOf("slider")
	if !ok || s.Tables == nil || s.New != nil || s.Scale != Scale {
		t.Fatalf("the registration: %+v", s)
	}
	ctx := context.Background()
	if _, err := s.Tables.Solve(ctx, slider.MustNew(slider.Config{Size: 3, RandomBlocked: true}), nil); err == nil || !strings.Contains(err.Error(), "a table covers one layout") {
		t.Errorf("random layouts solved: %v", err)
	}
	tab, err := s.Tables.Solve(ctx, slider.MustNew(slider.Config{Size: 4, Blocked: []slider.Cell{{X: 1, Y: 2}}}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum := tab.Summary(); !strings.HasPrefix(sum, "slider 4x4, blocked b3: ") || strings.Count(sum, "\n") != 3 || !strings.Contains(sum, "the start with V to move:") {
		t.Errorf("the summary:\n%s", sum)
	}
	if st := tab.Starts(); len(st) != 2 || st[0].ToMove() != slider.H || st[1].ToMove() != slider.V || tab.Covers(st[1]) != nil {
		t.Errorf("the starts: %v", st)
	}
	for _, c := range []struct {
		cfg      slider.Config
		plays    bool
		measures string // "" when it measures
	}{
		{slider.Config{Size: 4, Blocked: []slider.Cell{{X: 1, Y: 2}}}, true, ""},
		{slider.Config{Size: 4, RandomBlocked: true}, false, ""},
		{slider.Config{Size: 4}, false, `the run's blocked cells are ""`},
		{slider.Config{Size: 5, RandomBlocked: true}, false, "the run plays 5x5"},
	} {
		g := slider.MustNew(c.cfg)
		err := tab.Measures(g)
		if tab.Plays(g) != c.plays || (err == nil) != (c.measures == "") || err != nil && !strings.Contains(err.Error(), c.measures) {
			t.Errorf("%s: plays %v, measures %v", g.Describe(), tab.Plays(g), err)
		}
	}
	for _, c := range []struct {
		cfg  slider.Config
		file string
	}{
		{slider.Config{Size: 4, RandomBlocked: true}, "slider-4x4"},
		{slider.Config{Size: 4, Blocked: []slider.Cell{{X: 2, Y: 1}}}, "slider-4x4-c2"},
		{slider.Config{Size: 6}, ""},
	} {
		a, err := s.Tables.Auto(slider.MustNew(c.cfg))
		if c.file == "" {
			if err == nil || !strings.Contains(err.Error(), "no exact table for 6x6") {
				t.Errorf("auto on 6x6: %v", err)
			}
			continue
		}
		if err != nil || a.File != c.file || a.Title != "the 4x4 board" {
			t.Fatalf("auto: %+v, %v", a, err)
		}
		if sg, _ := slider.Of(a.Game); sg.Config().RandomBlocked || len(sg.Config().Blocked) != len(c.cfg.Blocked) {
			t.Errorf("auto solves %s for %s", a.Game.Describe(), slider.MustNew(c.cfg).Describe())
		}
	}
}
