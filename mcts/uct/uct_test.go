package uct

import (
	"context"
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

func BenchmarkSearch5x5(b *testing.B) {
	g := slider.MustNew(slider.Config{Size: 5})
	s := g.NewState(nil)
	u := New(Config{Sims: 1000}, rand.New(rand.NewPCG(1, 1)))
	for i := 0; i < b.N; i++ {
		if _, err := u.Search(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*1000)/b.Elapsed().Seconds(), "sims/s")
}
