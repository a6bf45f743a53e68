package mcts

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env/connect4"
)

// fixated is a network sure of one move everywhere (logit 30 for it, 0 for
// the rest) and of nothing else (value 0): the prior of every other move is
// about 1e-13, so PUCT never visits them unless something proves them.
type fixated struct{ actions, favourite int }

func (f fixated) Run(batch int, input, logits, values, plies []float32) {
	clear(logits[:batch*f.actions])
	for i := 0; i < batch; i++ {
		logits[i*f.actions+f.favourite] = 30
	}
	clear(values[:batch])
}

// The look one ply ahead at new leaves: a network blind to the opponent's
// winning reply still blocks it, and one blind to its own winning move
// still plays it; without the look (or without proofs), the blind network
// blunders, so the test can tell.
func TestWinCheckSeesWhatThePriorHides(t *testing.T) {
	g := connect4.New()
	for _, c := range []struct {
		name, position string
		favourite      int // the column the network insists on (0 = a)
		want           string
	}{
		{"block the open three", "......./......./......./......./....X../OOO.X.X X", 4, "d"},
		{"take the win", "......./......./......./......./O....../XXX.OO. X", 6, "d"},
	} {
		s, err := g.ParseState(c.position)
		if err != nil {
			t.Fatal(err)
		}
		for _, gumbel := range []bool{false, true} {
			for _, p := range []Params{{Sims: 200, Gumbel: gumbel}, {Sims: 200, Gumbel: gumbel, NoWinCheck: true}, {Sims: 200, Gumbel: gumbel, NoProofs: true}} {
				tree, err := NewTree(p, rand.New(rand.NewPCG(1, 2)))
				if err != nil {
					t.Fatal(err)
				}
				tree.Reset(s)
				a, err := Search(context.Background(), tree, fixated{g.ActionSize(), c.favourite}, 0)
				if err != nil {
					t.Fatal(err)
				}
				got := s.ActionString(a)
				checks := !p.NoWinCheck && !p.NoProofs
				if checks && got != c.want {
					t.Errorf("%s (gumbel=%v): played %s, want %s", c.name, gumbel, got, c.want)
				}
				if !checks && got == c.want && c.name == "block the open three" {
					t.Errorf("%s (gumbel=%v) without the look ahead: found %s anyway, so the test cannot tell", c.name, gumbel, got)
				}
				if checks && c.name == "take the win" && tree.Sims() > 1 {
					t.Errorf("%s (gumbel=%v): %d simulations for a win in one", c.name, gumbel, tree.Sims())
				}
			}
		}
	}
}

// The tree's memory holds to its node cap: its arena never grows past the
// cap and one node's children (append's own growth overshot by up to a
// half, and two arenas of that made 782 MB where 235 MB was promised).
func TestNodeCapBoundsTheArena(t *testing.T) {
	g := connect4.New()
	const maxNodes = 5000
	tree, err := NewTree(Params{Sims: 100_000, MaxNodes: maxNodes}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start(nil)
	tree.Reset(s)
	for i := 0; i < 3; i++ {
		a, err := Search(context.Background(), tree, uniform{g.ActionSize()}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if c := max(cap(tree.nodes), cap(tree.spare)); c > maxNodes+g.ActionSize() {
			t.Fatalf("move %d: the arena holds %d nodes, cap %d", i, c, maxNodes)
		}
		if len(tree.nodes) < maxNodes-g.ActionSize() {
			t.Fatalf("move %d: the search stopped at %d nodes, before the cap", i, len(tree.nodes))
		}
		tree.Advance(a)
	}
}
