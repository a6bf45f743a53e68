// First-play urgency: what an unvisited move is worth to selection.

package mcts

import (
	"testing"

	"github.com/sliderzero/sliderzero/env/connect4"
)

// At the root an unvisited move is worth -fpu_reduction, whatever the
// root's value: nobody chose the root, so it has no mover's value to
// start from (below it, selection starts from the parent's).
func TestFirstPlayUrgency(t *testing.T) {
	tree, err := NewTree(Params{Sims: 100, CPUCT: 1.5, FPUReduction: 0.2, NoWinCheck: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tree.Reset(connect4.New().Start(nil))
	if tree.SelectLeaf() == nil {
		t.Fatal("no leaf at the root")
	}
	tree.Expand(make([]float32, 7), 0, -1)
	kids := tree.nodes.children(0)
	// The root: well ahead for its side to move, two visits, one of them
	// to move 0, which scored -0.1 for its mover (the root's side).
	tree.nodes[0].visits, tree.nodes[0].valueSum, tree.nodes[0].mean = 2, 1.8, 0.9
	setStats(&kids[0], 1, -0.1)
	kids[0].explore = kids[0].prior / 2
	// u = 1.5 sqrt(2) = 2.12; move 0 scores -0.1 + 2.12/14 = 0.05, an
	// unvisited move -0.2 + 2.12/7 = 0.10. Taken from the root's value
	// (0.9, -0.9 for the movers of its children), an unvisited move would
	// score -1.1 + 0.30 and lose to move 0.
	if got := (puct{}).selectChild(tree, 0); got == tree.nodes[0].firstChild {
		t.Errorf("selected move 0: want an unvisited move, worth -0.2 at the root")
	}
}
