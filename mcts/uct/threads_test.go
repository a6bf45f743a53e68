package uct

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env/slider"
)

// A search on several trees makes exactly its budget of simulations, its
// root moves' visits add up to them, and, the budget being shared out in
// simulations, the same seed gives the same move and statistics however
// the threads are timed.
func TestThreadsShareTheBudget(t *testing.T) {
	s := slider.MustNew(slider.Config{Size: 5}).NewState(nil)
	for _, threads := range []int{2, 3, 8} {
		var first []Child
		var firstMove int
		for run := range 3 {
			u := New(Config{Sims: 1001, Threads: threads}, rand.New(rand.NewPCG(3, 4)))
			a, err := u.Search(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if u.LastSims != 1001 {
				t.Fatalf("threads=%d: %d simulations, want 1001", threads, u.LastSims)
			}
			kids := u.RootChildren()
			total, best := 0, kids[0]
			for _, k := range kids {
				total += k.Visits
				if k.Visits > best.Visits {
					best = k
				}
			}
			if total != 1001 {
				t.Errorf("threads=%d: the root moves' visits add up to %d, want 1001", threads, total)
			}
			if a != best.Action || u.LastValue != best.Value {
				t.Errorf("threads=%d: played %d (value %.3f), the most visited is %d (%.3f)", threads, a, u.LastValue, best.Action, best.Value)
			}
			if run == 0 {
				first, firstMove = kids, a
			} else if a != firstMove || !slices.Equal(kids, first) {
				t.Errorf("threads=%d: run %d differs from the first with the same seed", threads, run)
			}
		}
	}
}

// The trees of a threaded search each hold a share of the node bound, so
// that its memory is that of one tree.
func TestThreadsShareTheNodeBound(t *testing.T) {
	s := slider.MustNew(slider.Config{Size: 5}).NewState(nil)
	u := New(Config{Time: time.Minute, MaxNodes: 8000, Threads: 4}, rand.New(rand.NewPCG(1, 2)))
	if _, err := u.Search(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	for i, tree := range append([]*Searcher{u}, u.helpers...) {
		if len(tree.nodes) > 2000+20 {
			t.Errorf("tree %d holds %d nodes; the bound of 8000 over 4 trees is 2000", i, len(tree.nodes))
		}
	}
}

// The progress report of a threaded search counts every tree's
// simulations and shows their added-up root moves; a report that asks to
// stop stops all the trees.
func TestThreadsReportAndStop(t *testing.T) {
	s := slider.MustNew(slider.Config{Size: 5}).NewState(nil)
	u := New(Config{Threads: 2}, rand.New(rand.NewPCG(1, 2)))
	reports := 0
	u.OnProgress = func(sims int) bool {
		reports++
		total := 0
		for _, k := range u.RootChildren() {
			total += k.Visits
		}
		if total > sims {
			t.Errorf("the root moves show %d visits of %d simulations", total, sims)
		}
		return sims < 20000
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := u.Search(context.Background(), s); err != nil {
			t.Error(err)
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("a search with no budget did not stop when its report asked")
	}
	if reports == 0 || u.LastSims < 20000 || u.LastSims > 100000 {
		t.Errorf("%d reports, %d simulations: want reports up to 20,000 simulations, and the other tree stopped with them", reports, u.LastSims)
	}
}
