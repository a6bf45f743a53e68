package mcts

import (
	"context"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/sliderzero/sliderzero/env/connect4"
)

// Sequential halving on a made-up tree: with equal logits and values, the
// root's candidates are the GumbelM moves of largest Gumbel noise; the
// first phase gives each of them the same visits, the second only the
// better half, and no other move is visited.
func TestGumbelHalvesTheCandidates(t *testing.T) {
	s := connect4.New().Start(nil)
	tree, err := NewTree(Params{Sims: 65, Gumbel: true, GumbelM: 4, NoWinCheck: true}, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	tree.Reset(s)
	if _, err := Search(context.Background(), tree, uniform{7}, 0); err != nil {
		t.Fatal(err)
	}
	g := tree.pol.(*gumbel)
	kids := tree.nodes.children(0)
	// The four moves of largest noise (the logits are equal).
	order := []int{0, 1, 2, 3, 4, 5, 6}
	sort.Slice(order, func(a, b int) bool { return g.noise[order[a]] > g.noise[order[b]] })
	top := map[int]bool{order[0]: true, order[1]: true, order[2]: true, order[3]: true}
	var visits []int
	for k := range kids {
		v := int(kids[k].visits)
		if !top[k] && v > 0 {
			t.Errorf("move %d, not a candidate, has %d visits", k, v)
		}
		if top[k] {
			visits = append(visits, v)
		}
	}
	sort.Ints(visits)
	// 64 simulations below the root (the first expanded it) over two
	// phases: 8 each to the four, then 16 more to each of the better two.
	if want := []int{8, 8, 24, 24}; !equalInts(visits, want) {
		t.Errorf("the candidates' visits %v, want %v", visits, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
