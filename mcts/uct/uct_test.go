package uct

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env/slider"
)

func TestBudgets(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 5})
	s := g.NewState(nil)
	u := New(Config{Sims: 77}, rand.New(rand.NewPCG(1, 1)))
	if _, err := u.Search(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if u.LastSims != 77 {
		t.Errorf("ran %d simulations, want 77", u.LastSims)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	timed := New(Config{Time: time.Hour}, rand.New(rand.NewPCG(1, 1)))
	if _, err := timed.Search(ctx, s); err != nil {
		t.Fatal(err)
	}
	if timed.LastSims > 64 {
		t.Errorf("cancelled search ran %d simulations", timed.LastSims)
	}
}

func TestNoMoveAfterTheEnd(t *testing.T) {
	s, _ := slider.ParsePosition("++++/++++/++++/+V++ H")
	u := New(Config{Sims: 10}, rand.New(rand.NewPCG(1, 1)))
	if _, err := u.Search(context.Background(), s); err == nil {
		t.Error("a finished game got a move")
	}
}

// BenchmarkSearch5x5 times searches of 1,000 simulations from the 5x5
// start on one tree and on two (root parallelisation): sims/s is the
// speed, which two trees should nearly double on two free cores.
func BenchmarkSearch5x5(b *testing.B) {
	g := slider.MustNew(slider.Config{Size: 5})
	s := g.NewState(nil)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			u := New(Config{Sims: 1000, Threads: threads}, rand.New(rand.NewPCG(1, 1)))
			for i := 0; i < b.N; i++ {
				if _, err := u.Search(context.Background(), s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*1000)/b.Elapsed().Seconds(), "sims/s")
		})
	}
}

// A forced move is played without a search, and the tree then shows
// nothing rather than the last position's moves.
func TestForcedMoveEmptiesTheTree(t *testing.T) {
	u := New(Config{Sims: 200}, rand.New(rand.NewPCG(1, 1)))
	if _, err := u.Search(context.Background(), slider.MustNew(slider.Config{Size: 4}).NewState(nil)); err != nil {
		t.Fatal(err)
	}
	if len(u.RootChildren()) == 0 {
		t.Fatal("no root children after a search")
	}
	forced, err := slider.ParsePosition("++++/V+++/HV++/V+++ H") // H's only piece is boxed in: a pass
	if err != nil {
		t.Fatal(err)
	}
	if n := len(forced.LegalActions(nil)); n != 1 {
		t.Fatalf("%d legal moves, want the one pass", n)
	}
	if _, err := u.Search(context.Background(), forced); err != nil {
		t.Fatal(err)
	}
	if kids := u.RootChildren(); kids != nil || u.PV(0, 5) != nil {
		t.Errorf("after a forced move the tree shows %v", kids)
	}
}
