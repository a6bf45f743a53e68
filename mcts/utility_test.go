package mcts

import "testing"

// The moves-left utility takes the chooser's side: at a node its mover
// values at +0.9, the chooser (the other side, whose children these are)
// is losing and wants the game long, so a child that ends the game sooner
// is worth less to it; at a root, whose value is already its side to
// move's, a winning chooser wants it short.
func TestMovesLeftTakesTheChoosersSide(t *testing.T) {
	p := Params{MovesLeftEffect: 0.05, MovesLeftSlope: 0.004, MovesLeftThreshold: 0.5}
	a := arena{
		{firstChild: 1, numChild: 2, visits: 10, mean: 0.9, mover: 0, moves: 20}, // mover 0 values it +0.9
		{firstChild: -1, visits: 5, mover: 1, moves: 9},                          // ends sooner
		{firstChild: -1, visits: 5, mover: 1, moves: 29},                         // ends later
	}
	ml := p.movesLeft(a, 0, true)
	if ml.perPly >= 0 {
		t.Fatalf("a losing chooser values a ply sooner at %v, want a negative value", ml.perPly)
	}
	if sooner, later := ml.utility(&a[1]), ml.utility(&a[2]); !(sooner < 0 && later > 0) {
		t.Errorf("losing chooser: sooner child %v, later child %v; want the later one preferred", sooner, later)
	}
	// At the root (no mover) the mean is the chooser's own: winning.
	a[0].mover = -1
	ml = p.movesLeft(a, 0, true)
	if sooner, later := ml.utility(&a[1]), ml.utility(&a[2]); !(sooner > 0 && later < 0) {
		t.Errorf("winning chooser at the root: sooner child %v, later child %v; want the sooner one preferred", sooner, later)
	}
	// Without the plies head's estimates, nothing.
	if ml := p.movesLeft(a, 0, false); ml.perPly != 0 {
		t.Errorf("no estimates, yet a utility of %v a ply", ml.perPly)
	}
}

// A pending visit (virtual loss) counts as a loss for the node's mover
// and as a visit in the exploration weight; without one, the plain
// averages.
func TestVirtualLossFormulas(t *testing.T) {
	n := node{valueSum: 1, visits: 2, pending: 1}
	n.setPrior(0.6)
	if n.explore != 0.6/4 {
		t.Errorf("prior 0.6, 2 visits and 1 pending: explore %v, want 0.15", n.explore)
	}
	n.refresh()
	if n.mean != 0 || n.explore != 0.6/4 {
		t.Errorf("valueSum 1, 2 visits, 1 pending: mean %v explore %v, want 0 and 0.15", n.mean, n.explore)
	}
	n.pending = 0
	n.refresh()
	if n.mean != 0.5 || n.explore != 0.2 {
		t.Errorf("valueSum 1, 2 visits: mean %v explore %v, want 0.5 and 0.2", n.mean, n.explore)
	}
}
