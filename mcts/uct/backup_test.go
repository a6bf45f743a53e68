// Tests of UCT's backup and of what it reports from it (RootChildren,
// LastValue): a playout's reward is in [0, 1] for the side that moved, a
// reported value is 2*wins/visits - 1, from -1 to 1, and a search whose
// every root move has one visit still plays one of them.

package uct

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/env/envtest"
)

// In take-away with side 0 taking two moves a turn, side 0 wins from two
// stones whatever is played, and side 1 loses from three: every root move
// then reports 1 (or -1), and so does the search.
func TestDecidedPositionsReportTheirResult(t *testing.T) {
	g := &envtest.TakeAway{Stones: 3, Double: true}
	for _, c := range []struct {
		position string
		want     float64
	}{{"2 0 0", 1}, {"3 1 0", -1}} {
		s, err := g.ParseState(c.position)
		if err != nil {
			t.Fatal(err)
		}
		u := New(Config{Sims: 50}, rand.New(rand.NewPCG(1, 2)))
		if _, err := u.Search(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		kids, visits := u.RootChildren(), 0
		for _, k := range kids {
			visits += k.Visits
			if k.Value != c.want || k.Visits < 2 {
				t.Errorf("%s: move %d reports %v after %d visits, want %v", c.position, k.Action, k.Value, k.Visits, c.want)
			}
		}
		if len(kids) != 2 || visits != 50 || u.LastValue != c.want {
			t.Errorf("%s: %d moves, %d visits, value %v; want 2, 50 and %v", c.position, len(kids), visits, u.LastValue, c.want)
		}
	}
}

// On an open position the reported values are mean results, from -1 to 1,
// and the search's value is its chosen move's.
func TestValuesAreMeanResults(t *testing.T) {
	s := connect4.New().Start(nil)
	u := New(Config{Sims: 500}, rand.New(rand.NewPCG(3, 4)))
	a, err := u.Search(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, k := range u.RootChildren() {
		if k.Value < -1 || k.Value > 1 {
			t.Errorf("move %d: value %v after %d visits", k.Action, k.Value, k.Visits)
		}
		if k.Action == a {
			found = true
			if k.Value != u.LastValue {
				t.Errorf("the search's value %v, its move's %v", u.LastValue, k.Value)
			}
		}
	}
	if !found {
		t.Errorf("move %d is not a root move", a)
	}
}

// With as many simulations as root moves, each move has one visit, and the
// search plays one of them.
func TestOneVisitEach(t *testing.T) {
	s := connect4.New().Start(nil)
	u := New(Config{Sims: 7}, rand.New(rand.NewPCG(5, 6)))
	a, err := u.Search(context.Background(), s)
	if err != nil || a < 0 || a >= 7 {
		t.Fatalf("move %d, %v", a, err)
	}
	for _, k := range u.RootChildren() {
		if k.Visits != 1 {
			t.Errorf("move %d has %d visits, want 1", k.Action, k.Visits)
		}
	}
	if u.LastValue != -1 && u.LastValue != 0 && u.LastValue != 1 {
		t.Errorf("one playout's value is %v", u.LastValue)
	}
}
