package mcts

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sliderzero/sliderzero/env/slider"
)

// An analysis's lines are the root's visited moves, most visited first,
// each with a principal variation of legal moves, as long as the tree and
// the depth asked allow, that follows the most visited reply.
func TestLinesFollowTheTree(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 4})
	s := g.NewState(nil)
	tree, _ := NewTree(Params{Sims: 400}, rand.New(rand.NewPCG(3, 4)))
	tree.Reset(s)
	if _, err := Search(context.Background(), tree, uniform{g.ActionSize()}, 0); err != nil {
		t.Fatal(err)
	}
	legal := s.LegalActions(nil)
	lines := tree.Lines(len(legal)+5, 4)
	if len(lines) == 0 || len(lines) > len(legal) {
		t.Fatalf("%d lines from a root with %d legal moves", len(lines), len(legal))
	}
	total := 0
	for i, l := range lines {
		total += l.Visits
		if !slices.Contains(legal, l.Action) || l.Visits < 1 {
			t.Errorf("line %d: action %d with %d visits is not a visited legal move", i, l.Action, l.Visits)
		}
		if i > 0 && l.Visits > lines[i-1].Visits {
			t.Errorf("line %d has more visits (%d) than the one before it (%d)", i, l.Visits, lines[i-1].Visits)
		}
		if len(l.PV) == 0 || len(l.PV) > 4 || l.PV[0] != l.Action {
			t.Fatalf("line %d: PV %v for action %d at depth 4", i, l.PV, l.Action)
		}
		p := s.Clone()
		for _, a := range l.PV {
			if !slices.Contains(p.LegalActions(nil), a) {
				t.Fatalf("line %d: PV %v has an illegal move %d at %s", i, l.PV, a, p)
			}
			p.Apply(a)
		}
	}
	if total != tree.Sims()-1 && total != tree.Sims() {
		t.Errorf("the lines have %d visits in all, the search made %d simulations", total, tree.Sims())
	}
	// 400 simulations over a few moves: the best line is seen deeper
	// than its first move.
	if len(lines[0].PV) < 3 {
		t.Errorf("the most visited line's PV %v is shorter than 3 plies after 400 simulations", lines[0].PV)
	}
}
