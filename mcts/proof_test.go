package mcts

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
	solver "github.com/sliderzero/sliderzero/env/slider/solve"
)

// table4 is the exact table of the open 4x4 board.
func table4(t *testing.T) *solver.Table {
	t.Helper()
	tab, err := solver.Solve(context.Background(), 4, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// search runs a search of sims simulations with the uniform network.
func search(t *testing.T, s env.State, sims int, gumbel bool) *Tree {
	t.Helper()
	tree, err := NewTree(Params{Sims: sims, Gumbel: gumbel}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	tree.Reset(s)
	if _, err := Search(context.Background(), tree, uniform{s.Game().ActionSize()}, 0); err != nil {
		t.Fatal(err)
	}
	return tree
}

// searchPast runs sims simulations, or until the root is proven, even past
// the point where a search stops for a root with one legal move.
func searchPast(t *testing.T, s env.State, sims int) *Tree {
	t.Helper()
	tree, err := NewTree(Params{Sims: sims}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	tree.Reset(s)
	ev := uniform{s.Game().ActionSize()}
	input := make([]float32, s.Game().InputShape().Size())
	logits, values := make([]float32, s.Game().ActionSize()), make([]float32, 1)
	for i := 0; i < sims && tree.nodes[0].proof == Unproven; i++ {
		if leaf := tree.SelectLeaf(); leaf != nil {
			leaf.Encode(input)
			ev.Run(1, input, logits, values, nil)
			tree.Expand(logits, values[0], -1)
		}
	}
	return tree
}

// find returns positions of the table's board with the wanted value for
// the side to move, drawn by seed.
func find(tab *solver.Table, want solver.Value, n int, keep func(env.State) bool) []env.State {
	rng := rand.New(rand.NewPCG(11, uint64(want.Plies)))
	var out []env.State
	for tries := 0; tries < 2_000_000 && len(out) < n; tries++ {
		s := tab.RandomPosition(rng)
		if v, _ := tab.Value(s); v == want && (keep == nil || keep(s)) {
			out = append(out, s)
		}
	}
	return out
}

// Every proof the search claims is the truth: a proven result is the
// table's, and a proven line is no shorter than the table's perfect play
// (a win found may be longer than the shortest, never shorter), with the
// same parity. And proofs are found: the wins in 1, 3 and 5 below are
// proven, and the move played wins.
func TestProofsAreTheSolversTruth(t *testing.T) {
	tab := table4(t)
	rng := rand.New(rand.NewPCG(3, 4))
	proven := 0
	for _, gumbel := range []bool{false, true} {
		for i := 0; i < 150; i++ {
			s := tab.RandomPosition(rng)
			if s.Outcome().Over {
				continue
			}
			want, _ := tab.Value(s)
			tree := search(t, s, 2000, gumbel)
			p, plies := rootProof(tree)
			if p == Unproven {
				continue
			}
			proven++
			got := map[Proof]solver.Result{ProvenWin: solver.Win, ProvenLoss: solver.Loss, ProvenDraw: solver.Draw}[p]
			if got != want.Result || (p != ProvenDraw && (plies < want.Plies || (plies-want.Plies)%2 != 0)) {
				t.Fatalf("gumbel=%v: %s: proven %s, the table says %s", gumbel, s, Describe(p, plies), want)
			}
		}
	}
	if proven < 30 {
		t.Errorf("only %d of 300 random positions proven", proven)
	}
	for _, plies := range []int{1, 3, 5} {
		positions := find(tab, solver.Value{Result: solver.Win, Plies: plies}, 5, nil)
		if len(positions) == 0 {
			t.Fatalf("no win in %d found", plies)
		}
		for _, gumbel := range []bool{false, true} {
			for _, s := range positions {
				tree := search(t, s, 20000, gumbel)
				p, got := rootProof(tree)
				if p != ProvenWin || (plies < 5 && got != plies) {
					t.Errorf("gumbel=%v: %s, a win in %d: proven %s", gumbel, s, plies, Describe(p, got))
					continue
				}
				a, _ := tree.Choose(0)
				c := s.Clone()
				c.Apply(a)
				if v, _ := tab.Value(c); v.Result != solver.Loss {
					t.Errorf("gumbel=%v: %s: played %s, which does not win (%s for the opponent)", gumbel, s, s.ActionString(a), v)
				}
				if tree.Sims() >= 20000 {
					t.Errorf("gumbel=%v: %s: the proof did not end the search", gumbel, s)
				}
			}
		}
	}
}

// mustPass reports whether the side to move has only the pass.
func mustPass(s env.State) bool {
	legal := s.LegalActions(nil)
	return len(legal) == 1 && s.ActionString(legal[0]) == "pass"
}

// A forced pass is a ply like any other in a proof: positions where the
// side to move must pass are proven as the table says. (Two passes in a
// row cannot happen on an open board; TestProofOfADoublePassTie has
// them.)
func TestProofsThroughPasses(t *testing.T) {
	tab := table4(t)
	rng := rand.New(rand.NewPCG(5, 6))
	passes, proven := 0, 0
	for tries := 0; tries < 20_000_000 && passes < 40; tries++ {
		s := tab.RandomPosition(rng)
		if s.Outcome().Over || !mustPass(s) {
			continue
		}
		want, _ := tab.Value(s)
		if want.Result == solver.Draw || want.Plies > 6 {
			continue // too long a proof for a short search
		}
		passes++
		p, plies := rootProof(searchPast(t, s, 3000))
		if p == Unproven {
			continue
		}
		proven++
		got := map[Proof]solver.Result{ProvenWin: solver.Win, ProvenLoss: solver.Loss, ProvenDraw: solver.Draw}[p]
		if got != want.Result || (p != ProvenDraw && plies < want.Plies) {
			t.Errorf("%s (must pass): proven %s, the table says %s", s, Describe(p, plies), want)
		}
	}
	t.Logf("%d positions with a forced pass, %d of them proven", passes, proven)
	if passes == 0 || proven == 0 {
		t.Errorf("%d forced passes found, %d proven", passes, proven)
	}
}

// A tie by the ply cap proves nothing: with the cap three plies away, a
// win in 5 is not proven (in the capped game it is a tie, and in the game
// itself a win); with the cap far away it is.
func TestTheCapProvesNothing(t *testing.T) {
	tab := table4(t)
	positions := find(tab, solver.Value{Result: solver.Win, Plies: 5}, 3, nil)
	if len(positions) == 0 {
		t.Fatal("no win in 5 found")
	}
	capped := slider.MustNew(slider.Config{Size: 4, PlyCap: 3})
	for _, s := range positions {
		c, err := capped.ParseState(s.String())
		if err != nil {
			t.Fatal(err)
		}
		tree := search(t, c, 5000, false)
		if p, plies := rootProof(tree); p == ProvenWin || p == ProvenDraw {
			t.Errorf("%s with the cap 3 plies away: proven %s", s, Describe(p, plies))
		}
		if p, _ := rootProof(search(t, s, 20000, false)); p != ProvenWin {
			t.Errorf("%s without the cap near: not proven", s)
		}
	}
}

// explicit is a game given as its tree: each position names its side to
// move, its moves (by the positions they lead to) or its outcome. Under
// the referee's layouts Slider has no position where both sides must pass
// (a piece that cannot move needs a blocker beside it that the edges and
// two interior blocked cells cannot all supply), so two passes in a row are
// tested here.
type explicit struct{ pos map[string]explicitPos }

type explicitPos struct {
	toMove env.Side
	moves  []string
	over   bool
	winner env.Side
}

type explicitState struct {
	g   *explicit
	at  string
	ply int
}

func (g *explicit) Name() string                       { return "explicit" }
func (g *explicit) Describe() string                   { return "explicit" }
func (g *explicit) ActionSize() int                    { return 4 }
func (g *explicit) InputShape() env.Shape              { return env.Shape{C: 1, H: 1, W: 1} }
func (g *explicit) SideName(s env.Side) string         { return string(rune('A' + s)) }
func (g *explicit) ParseSide(string) (env.Side, error) { return 0, nil }
func (g *explicit) Start(*rand.Rand) env.State         { return &explicitState{g: g, at: "start"} }
func (g *explicit) ParseState(s string) (env.State, error) {
	return &explicitState{g: g, at: s}, nil
}

func (s *explicitState) Game() env.Game   { return s.g }
func (s *explicitState) ToMove() env.Side { return s.g.pos[s.at].toMove }
func (s *explicitState) Ply() int         { return s.ply }
func (s *explicitState) Outcome() env.Outcome {
	p := s.g.pos[s.at]
	return env.Outcome{Over: p.over, Winner: p.winner}
}
func (s *explicitState) LegalActions(dst []int) []int {
	for i := range s.g.pos[s.at].moves {
		dst = append(dst, i)
	}
	return dst
}
func (s *explicitState) Apply(a int)                     { s.at, s.ply = s.g.pos[s.at].moves[a], s.ply+1 }
func (s *explicitState) Clone() env.State                { c := *s; return &c }
func (s *explicitState) CopyFrom(o env.State)            { *s = *o.(*explicitState) }
func (s *explicitState) Hash() uint64                    { return uint64(len(s.at)) }
func (s *explicitState) Encode(dst []float32)            { dst[0] = 0 }
func (s *explicitState) ActionString(a int) string       { return s.g.pos[s.at].moves[a] }
func (s *explicitState) ParseAction(string) (int, error) { return 0, nil }
func (s *explicitState) String() string                  { return s.at }
func (s *explicitState) Board() string                   { return s.at }
func (s *explicitState) Display() string                 { return s.at }

// Two passes in a row end the game in a tie by the rules: a proven draw,
// and the move played when the only other move loses.
func TestProofOfADoublePassTie(t *testing.T) {
	g := &explicit{pos: map[string]explicitPos{
		"start":   {toMove: 0, moves: []string{"passed", "lost"}},
		"passed":  {toMove: 1, moves: []string{"tied"}}, // B must pass too
		"tied":    {over: true, winner: env.NoSide},
		"lost":    {toMove: 1, moves: []string{"b-wins", "passed2"}},
		"passed2": {toMove: 0, moves: []string{"tied"}},
		"b-wins":  {over: true, winner: 1},
	}}
	s := g.Start(nil)
	tree := searchPast(t, s, 100)
	if p, plies := rootProof(tree); p != ProvenDraw || plies != 2 {
		t.Errorf("proven %s, want a draw in 2", Describe(p, plies))
	}
	if a, _ := tree.Choose(0); s.ActionString(a) != "passed" {
		t.Errorf("played %s, want the pass that ties", s.ActionString(a))
	}
	if p, _ := tree.ChildProof(1); p != ProvenLoss {
		t.Errorf("the losing move: %s", p)
	}
}

// rootProof is the tree's proof of its root and the plies of its line.
func rootProof(t *Tree) (Proof, int) {
	v := t.Verdict()
	return v.Proof, v.ProofPlies
}
