// Tests that close the gaps the seeded mutation sample found in mcts's own
// tests (experiments/mutation/README.md, section "mcts"): Gumbel's final
// choice, its noise, its halving and its plan under a time budget; the
// proven-choice rule and its shortcut in Policy; Value; the budget NewTree
// asks for; the defaults WithDefaults fills in; the moves-left mean on the
// threaded path, and the backup's means past its table of reciprocals.

package mcts

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/env/slider"
)

// gumbelTree is a Gumbel tree on Connect Four's start with its root
// expanded by a network giving these logits and the value 0.
func gumbelTree(t *testing.T, p Params, rng *rand.Rand, logits []float32) (*Tree, *gumbel) {
	t.Helper()
	p.Gumbel, p.NoWinCheck = true, true
	tree, err := NewTree(p, rng)
	if err != nil {
		t.Fatal(err)
	}
	tree.Reset(connect4.New().Start(nil))
	if tree.SelectLeaf() == nil {
		t.Fatal("no leaf at the root")
	}
	tree.Expand(logits, 0, -1)
	return tree, tree.pol.(*gumbel)
}

// setStats gives a root child visits with the mean value m for its mover.
func setStats(n *node, visits int32, m float32) {
	n.visits, n.valueSum, n.mean = visits, m*float32(visits), m
}

// Gumbel plays the candidate with the best logit + sigma(completed Q) (no
// noise at temperature 0), which need not be the most visited; once the
// halving has dropped every candidate (all proven lost), the most visited
// of the other moves.
func TestGumbelChoosesTheBestScore(t *testing.T) {
	tree, g := gumbelTree(t, Params{Sims: 100, GumbelM: 4}, nil, make([]float32, 7))
	kids := tree.nodes.children(0)
	setStats(&kids[0], 10, 0)
	setStats(&kids[1], 6, 0.5)
	setStats(&kids[2], 2, -0.5)
	tree.nodes[0].visits = 19
	g.candidates = append(g.candidates[:0], 0, 1, 2)
	// sigma = (50 + 10) * 0.1 = 6; the completed Qs rescale to 0.5, 1 and
	// 0 (the unvisited moves' mix is 0): scores 3, 6 and 0.
	if a, _ := tree.Choose(0); a != 1 {
		t.Errorf("played %d, want 1: the best score, not the most visited 0", a)
	}
	kids[1].proof, kids[2].proof = ProvenLoss, ProvenLoss
	setStats(&kids[0], 1, 0)
	setStats(&kids[3], 9, 0.1)
	g.candidates = g.candidates[:0]
	if a, _ := tree.Choose(0); a != 3 {
		t.Errorf("no candidates left: played %d, want the most visited 3", a)
	}
}

// The root's Gumbel noise is a standard Gumbel sample per move (mean the
// Euler-Mascheroni constant, variance pi^2/6), so that the candidates
// differ from draw to draw; without a random source there is none, and the
// candidates are the moves of highest logit.
func TestGumbelNoiseIsDrawn(t *testing.T) {
	tree, g := gumbelTree(t, Params{Sims: 100, GumbelM: 2}, rand.New(rand.NewPCG(1, 2)), make([]float32, 7))
	var sum, sq float64
	n := 0
	pairs := map[[2]int32]bool{}
	for range 2000 {
		g.startMove(tree)
		for _, x := range g.noise {
			sum, sq, n = sum+x, sq+x*x, n+1
		}
		pairs[[2]int32{g.candidates[0], g.candidates[1]}] = true
	}
	mean := sum / float64(n)
	variance := sq/float64(n) - mean*mean
	if !(math.Abs(mean-0.5772) < 0.05 && math.Abs(variance-math.Pi*math.Pi/6) < 0.15) {
		t.Errorf("noise mean %.4f variance %.4f, want 0.5772 and %.4f", mean, variance, math.Pi*math.Pi/6)
	}
	if len(pairs) < 20 {
		t.Errorf("2000 draws chose %d pairs of candidates of the 42", len(pairs))
	}
	_, g = gumbelTree(t, Params{Sims: 100, GumbelM: 2}, nil, []float32{0, 0, 3, 0, 2, 0, 0})
	for k, x := range g.noise {
		if x != 0 {
			t.Errorf("no random source: move %d has noise %v", k, x)
		}
	}
	if len(g.candidates) != 2 || g.candidates[0] != 2 || g.candidates[1] != 4 {
		t.Errorf("no random source: candidates %v, want [2 4], the highest logits", g.candidates)
	}
}

// When a phase is over, the halving keeps the better half of the
// candidates by noise + logit + sigma(completed Q): with no noise and equal
// logits, the two of higher value.
func TestGumbelHalvingKeepsTheBetterHalf(t *testing.T) {
	tree, g := gumbelTree(t, Params{Sims: 100, GumbelM: 4}, nil, make([]float32, 7))
	kids := tree.nodes.children(0)
	v := g.phaseVisit
	for k, m := range []float32{-0.5, 0.5, 0.1, -0.2} {
		setStats(&kids[k], v, m)
	}
	tree.nodes[0].visits, tree.sims = 1+4*v, int(1+4*v)
	c := g.selectRoot(tree) - tree.nodes[0].firstChild
	if len(g.candidates) != 2 || g.candidates[0] != 1 || g.candidates[1] != 2 {
		t.Errorf("after the phase the candidates are %v, want [1 2], the two best values", g.candidates)
	}
	if c != 1 && c != 2 {
		t.Errorf("the next visit goes to move %d, not a candidate", c)
	}
}

// Under a time budget (no simulations given) the halving plans for
// GumbelTimedVisits visits a candidate: 8 for 4 candidates over two phases
// is 4 each in the first.
func TestTimedGumbelPlansItsVisits(t *testing.T) {
	tree, _ := gumbelTree(t, Params{Time: time.Hour, GumbelM: 4, GumbelTimedVisits: 8}, nil, make([]float32, 7))
	logits := make([]float32, 7)
	for range 16 {
		if tree.SelectLeaf() == nil {
			t.Fatal("a terminal so near the start")
		}
		tree.Expand(logits, 0, -1)
	}
	for k, c := range tree.nodes.children(0) {
		want := int32(0)
		if k < 4 {
			want = 4 // the candidates: the first four, with no noise
		}
		if c.visits != want {
			t.Errorf("move %d has %d visits after 16 simulations, want %d", k, c.visits, want)
		}
	}
}

// provenChoice is the shortest proven win (of equally short ones the first,
// as mostVisited breaks its ties); when every move is proven, a draw, else
// the longest loss; and no move (-1) while an unproven move could still be
// better, or when the root has no children.
func TestProvenChoice(t *testing.T) {
	kid := func(p Proof, plies int16) node { return node{firstChild: -1, proof: p, plies: plies} }
	u, w, d, l := Unproven, ProvenWin, ProvenDraw, ProvenLoss
	for _, c := range []struct {
		name string
		kids []node
		want int
	}{
		{"the shortest win", []node{kid(w, 3), kid(l, 5), kid(w, 1), kid(w, 1), kid(u, 0)}, 2},
		{"a win among unproven moves", []node{kid(u, 0), kid(w, 7)}, 1},
		{"an unproven move left", []node{kid(l, 2), kid(u, 0), kid(d, 4)}, -1},
		{"all proven: the draw", []node{kid(l, 2), kid(d, 4), kid(l, 6)}, 1},
		{"all lost: the longest", []node{kid(l, 2), kid(l, 6), kid(l, 4)}, 1},
		{"no children", nil, -1},
	} {
		a := arena{{action: -1, firstChild: -1, mover: env.NoSide}}
		if c.kids != nil {
			a[0].firstChild, a[0].numChild = 1, int32(len(c.kids))
			a = append(a, c.kids...)
		}
		if got := a.provenChoice(0); got != c.want {
			t.Errorf("%s: child %d, want %d", c.name, got, c.want)
		}
	}
	// A child's proof is its mover's: the other side's loss is a win.
	a := arena{{action: -1, firstChild: 1, numChild: 2, mover: env.NoSide}, {firstChild: -1}, {firstChild: -1, mover: 1, proof: l, plies: 2}}
	if got := a.provenChoice(0); got != 1 {
		t.Errorf("the opponent's proven loss: child %d, want 1", got)
	}
}

// A move that wins at once proves the root when it is expanded: the search
// stops after that one simulation, plays the win, and teaches it alone,
// wherever it stands among the moves.
func TestTheProvenWinIsPlayedAndTaught(t *testing.T) {
	for _, at := range []int{0, 2} {
		moves := []string{"on", "on", "on"}
		moves[at] = "won"
		g := &explicit{pos: map[string]explicitPos{
			"start":  {toMove: 0, moves: moves},
			"won":    {over: true, winner: 0},
			"on":     {toMove: 1, moves: []string{"b-wins"}},
			"b-wins": {over: true, winner: 1},
		}}
		tree, err := NewTree(Params{Sims: 50}, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		tree.Reset(g.Start(nil))
		a, err := Search(context.Background(), tree, uniform{4}, 0)
		if err != nil || a != at || tree.Sims() != 1 {
			t.Errorf("win at %d: played %d (%v) after %d simulations, want %d after 1", at, a, err, tree.Sims(), at)
		}
		pi := make([]float32, 4)
		tree.Policy(pi)
		for k, p := range pi {
			if (k == at) != (p == 1) || (k != at && p != 0) {
				t.Errorf("win at %d: policy %v, want all of it on the win", at, pi)
				break
			}
		}
	}
}

// Value is the chosen move's mean value for the root's side to move: one
// simulation below the root, valued 0.9 by the network for the opponent,
// makes it -0.9.
func TestValueIsTheChosenMovesMean(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 4})
	tree, _ := NewTree(Params{Sims: 10}, rand.New(rand.NewPCG(1, 2)))
	tree.Reset(g.NewState(nil))
	logits := make([]float32, g.ActionSize())
	tree.SelectLeaf()
	tree.Expand(logits, 0.6, -1)
	if v := tree.Value(); v != 0 {
		t.Errorf("no move visited: value %v, want 0", v)
	}
	tree.SelectLeaf()
	tree.Expand(logits, 0.9, -1)
	if v := tree.Value(); v != -0.9 {
		t.Errorf("value %v, want -0.9", v)
	}
}

// A search needs a budget: NewTree refuses settings with neither
// simulations nor time.
func TestNewTreeNeedsABudget(t *testing.T) {
	if _, err := NewTree(Params{}, nil); err == nil {
		t.Error("a tree with no budget was made")
	}
	for _, p := range []Params{{Sims: 1}, {Time: time.Millisecond}} {
		if _, err := NewTree(p, nil); err != nil {
			t.Errorf("%+v refused: %v", p, err)
		}
	}
}

// WithDefaults fills every zero field that has a default and keeps every
// field that is set.
func TestWithDefaultsKeepsWhatIsSet(t *testing.T) {
	want := DefaultParams()
	want.Sims = 1 // the budget has no default
	if got := (Params{Sims: 1}).WithDefaults(); got != want {
		t.Errorf("defaults\n%+v, want\n%+v", got, want)
	}
	set := Params{Sims: 1, CPUCT: 2, FPUReduction: 0.5, GumbelM: 8, GumbelVisitInit: 20, GumbelValueScale: 0.3,
		GumbelTimedVisits: 5, MaxNodes: 1000, MovesLeftEffect: 0.3, MovesLeftSlope: 0.01, MovesLeftThreshold: 0.7}
	if got := set.WithDefaults(); got != set {
		t.Errorf("set fields changed\n%+v, want\n%+v", got, set)
	}
}

// march is a game of fixed length: the sides take turns, either of the two
// moves takes the counter one step down, and the game is a tie at 0; so
// every line from counter n lasts exactly n plies.
type march struct{}

type marchState struct {
	n, ply int
	toMove env.Side
}

func (march) Name() string                            { return "march" }
func (march) Describe() string                        { return "march" }
func (march) ActionSize() int                         { return 2 }
func (march) InputShape() env.Shape                   { return env.Shape{C: 2, H: 1, W: 1} }
func (march) SideName(s env.Side) string              { return fmt.Sprint(int(s)) }
func (march) ParseSide(string) (env.Side, error)      { return 0, nil }
func (march) Start(*rand.Rand) env.State              { return &marchState{n: 30} }
func (march) ParseState(string) (env.State, error)    { return nil, fmt.Errorf("not parsed") }
func (s *marchState) Game() env.Game                  { return march{} }
func (s *marchState) ToMove() env.Side                { return s.toMove }
func (s *marchState) Ply() int                        { return s.ply }
func (s *marchState) Outcome() env.Outcome            { return env.Outcome{Over: s.n == 0, Winner: env.NoSide} }
func (s *marchState) Apply(int)                       { s.n, s.ply, s.toMove = s.n-1, s.ply+1, s.toMove.Other() }
func (s *marchState) Clone() env.State                { c := *s; return &c }
func (s *marchState) CopyFrom(src env.State)          { *s = *src.(*marchState) }
func (s *marchState) Hash() uint64                    { return uint64(s.n)<<1 | uint64(s.toMove) }
func (s *marchState) Encode(dst []float32)            { dst[0], dst[1] = float32(s.n), float32(s.toMove) }
func (s *marchState) ActionString(a int) string       { return fmt.Sprint(a) }
func (s *marchState) ParseAction(string) (int, error) { return 0, fmt.Errorf("not parsed") }
func (s *marchState) String() string                  { return fmt.Sprintf("%d %d", s.n, s.toMove) }
func (s *marchState) Board() string                   { return s.String() }
func (s *marchState) Display() string                 { return s.String() }
func (s *marchState) LegalActions(dst []int) []int {
	if s.n == 0 {
		return dst
	}
	return append(dst, 0, 1)
}

// marchNet knows march exactly: the plies left are the counter; its value
// is +value for side 0 wherever it is, and its policy uniform.
type marchNet struct{ value float32 }

func (m marchNet) Run(batch int, input, logits, values, plies []float32) {
	for i := 0; i < batch; i++ {
		logits[2*i], logits[2*i+1] = 0, 0
		values[i] = m.value
		if input[2*i+1] == 1 {
			values[i] = -m.value
		}
		if plies != nil {
			plies[i] = input[2*i]
		}
	}
}

// checkMarch checks that every visited node's moves-left mean is its
// counter, the plies every simulation through it saw to the end.
func checkMarch(t *testing.T, what string, tree *Tree, n int) {
	t.Helper()
	if got := tree.Verdict().Plies; got != float32(n) {
		t.Errorf("%s: root plies %v, want %d", what, got, n)
	}
	depth := make([]int, len(tree.nodes))
	for i := range tree.nodes {
		nd := &tree.nodes[i]
		if nd.visits > 0 && nd.moves != float32(n-depth[i]) {
			t.Fatalf("%s: node %d at depth %d, %d visits, expects %v plies, want %d", what, i, depth[i], nd.visits, nd.moves, n-depth[i])
		}
		for c := nd.firstChild; nd.firstChild >= 0 && c < nd.firstChild+nd.numChild; c++ {
			depth[c] = depth[i] + 1
		}
	}
}

// With threads, each node's plies estimate is still the mean over the
// simulations through it of the leaf's estimate plus the plies down to it:
// in march, its counter exactly, whatever the simulations were.
func TestThreadedPliesMean(t *testing.T) {
	tree, err := NewTree(Params{Sims: 400, Threads: 2}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	tree.Reset(&marchState{n: 30})
	st := Drive(context.Background(), tree, evaluators(2, marchNet{0.5}), func() bool { return true })
	if st.MeanBatch() <= 1 {
		t.Fatalf("mean batch %.2f: no leaves were in flight together", st.MeanBatch())
	}
	checkMarch(t, "2 threads", tree, 30)
}

// Past the small visit counts backup looks its reciprocals up for, a mean
// is still the sum over the visits: in march with a network that values
// every position +0.5 for side 0, the chosen move's value is 0.5 after
// more than a thousand visits.
func TestMeansPastTheReciprocalTable(t *testing.T) {
	tree, err := NewTree(Params{Sims: 2200}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	tree.Reset(&marchState{n: 60})
	if _, err := Search(context.Background(), tree, marchNet{0.5}, 0); err != nil {
		t.Fatal(err)
	}
	kids := tree.nodes.children(0)
	if k := kids[mostVisited(kids)]; k.visits < int32(len(smallRecip)) {
		t.Fatalf("the chosen move has %d visits, want at least %d", k.visits, len(smallRecip))
	}
	if v := tree.Value(); math.Abs(float64(v)-0.5) > 1e-5 {
		t.Errorf("value %v, want 0.5", v)
	}
	checkMarch(t, "one thread", tree, 60)
}
