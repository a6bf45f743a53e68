package mcts

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/envtest"
	"github.com/sliderzero/sliderzero/env/slider"
)

// uniform is a network that knows nothing: equal logits, value 0. Search
// must then find wins from terminal values alone.
type uniform struct{ actions int }

func (u uniform) Run(batch int, input, logits, values, plies []float32) {
	clear(logits[:batch*u.actions])
	clear(values[:batch])
}

func TestSearchPlaysTakeAwayPerfectly(t *testing.T) {
	for _, gumbel := range []bool{false, true} {
		for _, double := range []bool{false, true} {
			g := &envtest.TakeAway{Stones: 10, Double: double}
			for stones := 1; stones <= 10; stones++ {
				s, _ := g.ParseState(fmt.Sprintf("%d 0 0", stones))
				if envtest.Solve(s) != s.ToMove() {
					continue
				}
				tree, err := NewTree(Params{Sims: 400, Gumbel: gumbel, GumbelM: 4}, rand.New(rand.NewPCG(1, 2)))
				if err != nil {
					t.Fatal(err)
				}
				tree.Reset(s)
				a, err := Search(context.Background(), tree, uniform{2}, 0)
				if err != nil {
					t.Fatal(err)
				}
				c := s.Clone()
				c.Apply(a)
				if envtest.Solve(c) != s.ToMove() {
					t.Errorf("gumbel=%v double=%v stones=%d: chose %s, a losing move", gumbel, double, stones, s.ActionString(a))
				}
			}
		}
	}
}

func TestSearchTakesAWinInSlider(t *testing.T) {
	s, _ := slider.ParsePosition("+++VH/+++++/+++++/+++++/+++++ H")
	for _, gumbel := range []bool{false, true} {
		tree, _ := NewTree(Params{Sims: 50, Gumbel: gumbel}, rand.New(rand.NewPCG(1, 2)))
		tree.Reset(s)
		a, err := Search(context.Background(), tree, uniform{s.Game().ActionSize()}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.ActionString(a); got != "e5R" {
			t.Errorf("gumbel=%v: played %s, want the winning e5R", gumbel, got)
		}
		if v := tree.Value(); v < 0.5 {
			t.Errorf("gumbel=%v: root value %.2f for a won position", gumbel, v)
		}
	}
}

func TestPolicyIsADistributionOverLegalMoves(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 5})
	s := g.NewState(nil)
	for _, gumbel := range []bool{false, true} {
		tree, _ := NewTree(Params{Sims: 64, Gumbel: gumbel}, rand.New(rand.NewPCG(3, 4)))
		tree.Reset(s)
		if _, err := Search(context.Background(), tree, uniform{g.ActionSize()}, 0); err != nil {
			t.Fatal(err)
		}
		if tree.Sims() != 64 {
			t.Errorf("gumbel=%v: %d simulations, want 64", gumbel, tree.Sims())
		}
		pi := make([]float32, g.ActionSize())
		tree.Policy(pi)
		legal := map[int]bool{}
		for _, a := range s.LegalActions(nil) {
			legal[a] = true
		}
		var sum float64
		for a, p := range pi {
			if p != 0 && !legal[a] {
				t.Errorf("gumbel=%v: mass %v on illegal action %d", gumbel, p, a)
			}
			sum += float64(p)
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Errorf("gumbel=%v: policy sums to %v", gumbel, sum)
		}
	}
}

func TestAdvanceKeepsTheSubtree(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 4})
	s := g.NewState(nil)
	tree, _ := NewTree(Params{Sims: 200}, rand.New(rand.NewPCG(5, 6)))
	tree.Reset(s)
	a, err := Search(context.Background(), tree, uniform{g.ActionSize()}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var childVisits int32
	r := tree.nodes[0]
	for c := r.firstChild; c < r.firstChild+r.numChild; c++ {
		if int(tree.nodes[c].action) == a {
			childVisits = tree.nodes[c].visits
		}
	}
	tree.Advance(a)
	if tree.nodes[0].visits != childVisits || childVisits < 2 {
		t.Errorf("after Advance the root has %d visits, the chosen child had %d", tree.nodes[0].visits, childVisits)
	}
	s.Apply(a)
	if tree.Root().String() != s.String() {
		t.Errorf("root %s, want %s", tree.Root(), s)
	}
	// The kept tree is consistent: every child's visits add up to at most
	// the parent's.
	for i, n := range tree.nodes {
		if n.firstChild < 0 {
			continue
		}
		var sum int32
		for c := n.firstChild; c < n.firstChild+n.numChild; c++ {
			sum += tree.nodes[c].visits
		}
		if sum > n.visits {
			t.Fatalf("node %d: children have %d visits, the node %d", i, sum, n.visits)
		}
	}
	if tree.Sims() != 0 {
		t.Errorf("the new move starts with %d simulations", tree.Sims())
	}
}

func TestDirichletNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var mean [5]float64
	for i := 0; i < 2000; i++ {
		d := dirichlet(rng, 0.3, 5, nil)
		var sum float64
		for k, x := range d {
			if x < 0 {
				t.Fatal("negative sample")
			}
			sum += x
			mean[k] += x / 2000
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("sums to %v", sum)
		}
	}
	for _, m := range mean {
		if math.Abs(m-0.2) > 0.03 {
			t.Errorf("mean of a component %.3f, want 0.2", m)
		}
	}
	// A small alpha (under gonum's 0.2 switch) still spreads its mass: the
	// largest component's mean share is near what Dirichlet(0.03 x 20) gives
	// (most mass on one or two moves), and no draw is all zeros.
	var top float64
	for i := 0; i < 2000; i++ {
		d := dirichlet(rng, 0.03, 20, nil)
		top += slices.Max(d) / 2000
	}
	if top < 0.6 || top > 0.95 {
		t.Errorf("alpha 0.03 over 20 moves: the largest share averages %.3f, want most of the mass on one move", top)
	}
	// Noise changes the root's priors in self-play.
	g := slider.MustNew(slider.Config{Size: 5})
	tree, _ := NewTree(Params{Sims: 2, NoiseAlpha: 0.3, NoiseFrac: 0.25}, rng)
	tree.Reset(g.NewState(nil))
	Search(context.Background(), tree, uniform{g.ActionSize()}, 0)
	r := tree.nodes[0]
	same := true
	for c := r.firstChild + 1; c < r.firstChild+r.numChild; c++ {
		same = same && tree.nodes[c].prior == tree.nodes[r.firstChild].prior
	}
	if same {
		t.Error("root priors are still uniform after noise")
	}
}

// Several trees driven in lock-step, as self-play does, reach their budgets.
func TestManyTreesInStep(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 5})
	var trees []*Tree
	for i := 0; i < 4; i++ {
		tr, _ := NewTree(Params{Sims: 30}, rand.New(rand.NewPCG(uint64(i), 1)))
		tr.Reset(g.NewState(nil))
		trees = append(trees, tr)
	}
	ev := uniform{g.ActionSize()}
	logits := make([]float32, g.ActionSize())
	values := []float32{0}
	input := make([]float32, g.InputShape().Size())
	for rounds := 0; rounds < 100; rounds++ {
		for _, tr := range trees {
			if tr.Done() {
				continue
			}
			if leaf := tr.SelectLeaf(); leaf != nil {
				leaf.Encode(input)
				ev.Run(1, input, logits, values, nil)
				tr.Expand(logits, values[0], -1)
			}
		}
	}
	for i, tr := range trees {
		if !tr.Done() || tr.Sims() != 30 {
			t.Errorf("tree %d: done=%v sims=%d", i, tr.Done(), tr.Sims())
		}
	}
}

// A search with a huge budget stops at the node limit with a legal move.
func TestNodeLimitBoundsTheSearch(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 5})
	tree, err := NewTree(Params{Sims: 1 << 30, MaxNodes: 2000}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	tree.Reset(g.Start(nil))
	a, err := Search(context.Background(), tree, uniform{g.ActionSize()}, 0)
	if err != nil || !env.IsLegal(g.Start(nil), a) {
		t.Fatalf("move %d, %v", a, err)
	}
	if tree.Sims() >= 1<<30 || len(tree.nodes) > 2000+g.ActionSize() {
		t.Errorf("%d simulations, %d nodes: the limit did not stop the search", tree.Sims(), len(tree.nodes))
	}
}

// Gumbel's completed Q gives unvisited children the mix of the node's own
// network value with its visited children's values (mctx stores the raw
// value per node): with the root valued 0.6 by the network and its one
// visited child at 0.2, unvisited children are worth (0.6+0.2)/2 = 0.4,
// more than the visited one. (Mixing the root's mean, or nothing, would
// put them below it.)
func TestCompletedQMixesTheRawValue(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 4})
	tree, _ := NewTree(Params{Sims: 10, Gumbel: true}, rand.New(rand.NewPCG(1, 2)))
	tree.Reset(g.NewState(nil))
	input := make([]float32, g.InputShape().Size())
	logits := make([]float32, g.ActionSize())
	root := tree.SelectLeaf()
	root.Encode(input)
	tree.Expand(logits, 0.6, -1)
	leaf := tree.SelectLeaf() // one child, valued -0.2 for its side to move
	leaf.Encode(input)
	tree.Expand(logits, -0.2, -1)
	pol := tree.pol.(*gumbel)
	qs := pol.completedQ(tree, 0)
	kids := tree.nodes.children(0)
	var visited, unvisited float64
	var raw float32
	for k := range kids {
		if kids[k].visits > 0 {
			visited, raw = qs[k], kids[k].raw
		} else {
			unvisited = qs[k]
		}
	}
	if raw != -0.2 || tree.nodes[0].raw != 0.6 || unvisited <= visited {
		t.Errorf("completed Q: visited child %.2f, unvisited %.2f (root raw %.2f)", visited, unvisited, tree.nodes[0].raw)
	}
}

// RawValue is the network's value of the root before any search, whatever
// the search backs up below it.
func TestRawValueIsTheNetworksOwn(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 4})
	tree, _ := NewTree(Params{Sims: 10}, rand.New(rand.NewPCG(1, 2)))
	tree.Reset(g.NewState(nil))
	if v := tree.Verdict().Raw; v != 0 {
		t.Errorf("before expansion: %v", v)
	}
	input := make([]float32, g.InputShape().Size())
	logits := make([]float32, g.ActionSize())
	tree.SelectLeaf().Encode(input)
	tree.Expand(logits, 0.6, -1)
	for range 5 {
		tree.SelectLeaf().Encode(input)
		tree.Expand(logits, 0.9, -1) // good for the child's mover: bad for the root
	}
	if v := tree.Verdict().Raw; v != 0.6 || tree.Value() == 0.6 {
		t.Errorf("raw %v, searched %v", v, tree.Value())
	}
}
