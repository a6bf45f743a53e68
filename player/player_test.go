package player

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/envtest"
	"github.com/sliderzero/sliderzero/env/slider"
)

func TestParseSpec(t *testing.T) {
	sp, err := ParseSpec("alphabeta:depth=4,time=1s")
	if err != nil || sp.Kind != "alphabeta" || sp.Options["depth"] != "4" || sp.Options["time"] != "1s" {
		t.Fatalf("%+v %v", sp, err)
	}
	if got := sp.String(); got != "alphabeta:depth=4,time=1s" {
		t.Errorf("String() = %q", got)
	}
	sp, err = ParseSpec("player:runs/x.player,sims=800")
	if err != nil || sp.Arg != "runs/x.player" || sp.Options["sims"] != "800" {
		t.Fatalf("positional: %+v %v", sp, err)
	}
	if got := sp.With("time", "5s").String(); got != "player:runs/x.player,sims=800,time=5s" {
		t.Errorf("With: %q", got)
	}
	for _, bad := range []string{"", ":x", "mcts:sims=1,sims=2", "mcts:sims=1,oops", "mcts:=3"} {
		if _, err := ParseSpec(bad); err == nil {
			t.Errorf("spec %q accepted", bad)
		}
	}
}

func TestNewRejectsBadSpecs(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 5})
	for _, bad := range []string{"nobody", "alphabeta:depht=3", "alphabeta:depth=x", "mcts:sims=-1", "mcts:time=soon", "human", "random:colour=red"} {
		if _, err := New(bad, g, Options{}); err == nil {
			t.Errorf("spec %q accepted", bad)
		}
	}
	for _, good := range []string{"random", "greedy", "alphabeta", "alphabeta:depth=3", "alphabeta:time=0.1", "mcts", "mcts:sims=10,c=2", "random:time=1s,visits=3"} {
		if _, err := New(good, g, Options{}); err != nil {
			t.Errorf("spec %q: %v", good, err)
		}
	}
	// Every count an option gives is bounded, and past its bound it is an
	// error of the spec as written, as every other (issue 65: mcts's
	// threads=99999999 exited 1, not 2; sims and depth had no bound).
	for _, bad := range []string{"mcts:threads=99999999", "mcts:sims=99999999999", "mcts:max_nodes=999999999999", "alphabeta:depth=101",
		"alphabeta:nodes=9999999999999", "random:visits=99999999999", "mcts:threads=0"} {
		if _, err := New(bad, g, Options{}); err == nil || !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), "want a whole number from") {
			t.Errorf("spec %q: %v, want a bad spec saying its range", bad, err)
		}
	}
}

// Every baseline must take the winning move when one is on the board: H's
// last piece can leave; its other move, e5D, lets V's d5 piece leave and win.
func TestEveryPlayerTakesAWin(t *testing.T) {
	for _, spec := range []string{"greedy", "alphabeta:depth=3", "mcts:sims=300"} {
		s, err := slider.ParsePosition("+++VH/+++++/+++++/+++++/+++++ H")
		if err != nil {
			t.Fatal(err)
		}
		p, err := New(spec, s.Game(), Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		a, err := p.Move(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.ActionString(a); got != "e5R" {
			t.Errorf("%s played %s, want the winning e5R", spec, got)
		}
	}
}

// On the take-away game, a full-depth alphabeta and a well-funded UCT must
// play perfectly, also when one side moves twice per turn.
func TestPerfectPlayOnTakeAway(t *testing.T) {
	for _, double := range []bool{false, true} {
		g := &envtest.TakeAway{Stones: 12, Double: double}
		for stones := 1; stones <= 12; stones++ {
			for step := 0; step < 2; step++ {
				for side := env.Side(0); side < 2; side++ {
					if step == 1 && (!double || side == 1) {
						continue
					}
					s, err := g.ParseState(fmt.Sprintf("%d %d %d", stones, side, step))
					if err != nil {
						t.Fatal(err)
					}
					if envtest.Solve(s) != s.ToMove() {
						continue // a lost position: every move is as good
					}
					for _, spec := range []string{"alphabeta:depth=30", "mcts:sims=3000"} {
						p, err := New(spec, g, Options{Seed: 3})
						if err != nil {
							t.Fatal(err)
						}
						a, err := p.Move(context.Background(), s)
						if err != nil {
							t.Fatal(err)
						}
						c := s.Clone()
						c.Apply(a)
						if envtest.Solve(c) != s.ToMove() {
							t.Errorf("double=%v %s: %s threw away the win with %s", double, s, spec, s.ActionString(a))
						}
					}
				}
			}
		}
	}
}

func TestSameSeedSameMoves(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 5})
	for _, spec := range []string{"random", "greedy", "mcts:sims=50", "alphabeta:depth=3"} {
		run := func() []int {
			p, err := New(spec, g, Options{Seed: 42})
			if err != nil {
				t.Fatal(err)
			}
			s := g.NewState(nil)
			var out []int
			for i := 0; i < 12 && !s.Outcome().Over; i++ {
				a, err := p.Move(context.Background(), s)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, a)
				s.Apply(a)
			}
			return out
		}
		a, b := run(), run()
		if len(a) != len(b) {
			t.Fatalf("%s: lengths differ", spec)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Errorf("%s: seed 42 gave different moves at ply %d", spec, i)
				break
			}
		}
	}
}

func TestBudgetsStopTheSearch(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 6})
	s := g.NewState(nil)
	ab := NewAlphaBeta("alphabeta", g, g, AlphaBetaConfig{Nodes: 5000}, nil)
	if _, err := ab.Move(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	// The node count is checked at every node; a little slack for the node
	// that trips the limit.
	if ab.LastNodes > 5001 {
		t.Errorf("node budget 5000, searched %d", ab.LastNodes)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	timed := NewAlphaBeta("alphabeta", g, g, AlphaBetaConfig{Time: time.Hour}, nil)
	if _, err := timed.Move(ctx, s); err != nil {
		t.Fatalf("a cancelled search must still answer: %v", err)
	}
	if timed.LastDepth > 3 {
		t.Errorf("a cancelled search went on to depth %d", timed.LastDepth)
	}
}

func TestHumanAsksAgainAfterABadMove(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 4})
	s := g.NewState(nil)
	var out strings.Builder
	h := NewHuman(strings.NewReader("a2L\nzz\nmoves\n\na2R\n"), &out)
	a, err := h.Move(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.ActionString(a); got != "a2R" {
		t.Errorf("got %s, want a2R", got)
	}
	text := out.String()
	for _, want := range []string{"never moves left", "malformed move", "legal moves: "} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if _, err := NewHuman(strings.NewReader("quit\n"), &out).Move(context.Background(), s); err != ErrQuit {
		t.Errorf("quit: %v", err)
	}
	// The end of the input is a person leaving, not a move lost.
	if _, err := NewHuman(strings.NewReader(""), &out).Move(context.Background(), s); !errors.Is(err, ErrQuit) {
		t.Errorf("end of input: %v, want a quit", err)
	}
}

func BenchmarkAlphaBeta6x6(b *testing.B) {
	g := slider.MustNew(slider.Config{Size: 6})
	s := g.NewState(nil)
	nodes := 0
	for i := 0; i < b.N; i++ {
		ab := NewAlphaBeta("alphabeta", g, g, AlphaBetaConfig{Depth: 8}, nil)
		if _, err := ab.Move(context.Background(), s); err != nil {
			b.Fatal(err)
		}
		nodes += ab.LastNodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// Whatever the text, ParseSpec returns a spec or an error, and a spec it
// returns writes back to a text that parses to the same spec.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"random", "alphabeta:depth=4", "net:checkpoint=x,sims=100", "engine:cmd=prog a b,name=x", "a:b,c=d,e=", ":", "x:,,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sp, err := ParseSpec(text)
		if err != nil {
			return
		}
		back, err := ParseSpec(sp.String())
		if err != nil {
			t.Fatalf("%q parsed to %+v, whose text %q does not parse: %v", text, sp, sp.String(), err)
		}
		if back.String() != sp.String() {
			t.Fatalf("%q: %q then %q", text, sp.String(), back.String())
		}
	})
}

func TestParseSecondsBounds(t *testing.T) {
	for _, bad := range []string{"NaN", "inf", "-inf", "1e300", "-1", "1e9h", "soon"} {
		if d, err := ParseSeconds(bad); err == nil {
			t.Errorf("%q accepted as %v", bad, d)
		}
	}
	if d, err := ParseSeconds("1.5"); err != nil || d != 1500*time.Millisecond {
		t.Errorf("1.5: %v, %v", d, err)
	}
}
