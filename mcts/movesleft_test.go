package mcts

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env"
)

// countdown is a race whose winner is settled from the start: the sides
// take turns removing 1 or 2 from a counter, and side 0 wins when it
// reaches 0, whoever moves. Side 0 wants the game short, side 1 long.
type countdown struct{}

type countdownState struct {
	n, ply int
	toMove env.Side
}

func (countdown) Name() string                       { return "countdown" }
func (countdown) Describe() string                   { return "countdown" }
func (countdown) ActionSize() int                    { return 2 }
func (countdown) InputShape() env.Shape              { return env.Shape{C: 2, H: 1, W: 1} }
func (countdown) SideName(s env.Side) string         { return fmt.Sprint(int(s)) }
func (countdown) ParseSide(string) (env.Side, error) { return 0, nil }
func (countdown) Start(*rand.Rand) env.State         { return &countdownState{n: 12} }
func (countdown) ParseState(string) (env.State, error) {
	return nil, fmt.Errorf("not parsed")
}

func (s *countdownState) Game() env.Game   { return countdown{} }
func (s *countdownState) ToMove() env.Side { return s.toMove }
func (s *countdownState) Ply() int         { return s.ply }
func (s *countdownState) Outcome() env.Outcome {
	if s.n == 0 {
		return env.Outcome{Over: true, Winner: 0}
	}
	return env.Outcome{}
}
func (s *countdownState) LegalActions(dst []int) []int {
	if s.n == 0 {
		return dst
	}
	dst = append(dst, 0)
	if s.n >= 2 {
		dst = append(dst, 1)
	}
	return dst
}
func (s *countdownState) Apply(a int) {
	s.n -= a + 1
	s.ply++
	s.toMove = s.toMove.Other()
}
func (s *countdownState) Clone() env.State          { c := *s; return &c }
func (s *countdownState) CopyFrom(src env.State)    { *s = *src.(*countdownState) }
func (s *countdownState) Hash() uint64              { return uint64(s.n)<<1 | uint64(s.toMove) }
func (s *countdownState) Encode(dst []float32)      { dst[0], dst[1] = float32(s.n), float32(s.toMove) }
func (s *countdownState) ActionString(a int) string { return fmt.Sprint(a + 1) }
func (s *countdownState) ParseAction(string) (int, error) {
	return 0, fmt.Errorf("not parsed")
}
func (s *countdownState) String() string  { return fmt.Sprintf("%d %d", s.n, s.toMove) }
func (s *countdownState) Board() string   { return s.String() }
func (s *countdownState) Display() string { return s.String() }

// oracle knows who wins countdown and how long it lasts when the winner
// takes two and the loser one; with counts false it is a network without
// the plies head. Its policy is uniform.
type oracle struct{ counts bool }

func (o oracle) Run(batch int, input, logits, values, plies []float32) {
	for i := 0; i < batch; i++ {
		n, side := input[2*i], input[2*i+1]
		logits[2*i], logits[2*i+1] = 0, 0
		values[i] = 0.95
		if side == 1 {
			values[i] = -0.95
		}
		if plies != nil {
			plies[i] = -1
			if o.counts {
				plies[i] = float32(raceLength(int(n), env.Side(side)))
			}
		}
	}
}

// raceLength is the plies countdown lasts from counter n, side to move,
// when side 0 takes two and side 1 one.
func raceLength(n int, side env.Side) int {
	plies := 0
	for ; n > 0; plies++ {
		n -= 1 + min(n-1, int(1-side))
		side = side.Other()
	}
	return plies
}

// With the result decided, the plies estimates steer the search: the
// winner's quicker move (take two) and the loser's slower one (take one)
// gain visits and are played. Without the estimates, or with the utility
// off, the search is exactly what it was (terminal wins, reached sooner
// down the quick lines, already favour them a little).
func TestMovesLeftPrefersQuickWinsAndSlowLosses(t *testing.T) {
	search := func(side env.Side, counts, off bool) (share float64, move int) {
		// A strong utility, so that 400 simulations show it: a ply is
		// worth 0.1 of value.
		p := Params{Sims: 400, NoProofs: true, NoMovesLeft: off, MovesLeftSlope: 0.1, MovesLeftEffect: 0.3}
		tree, err := NewTree(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		// From 12 for side 0 and 13 for side 1, the quick move saves a
		// ply.
		tree.Reset(&countdownState{n: 12 + int(side), toMove: side})
		if move, err = Search(t.Context(), tree, oracle{counts: counts}, 0); err != nil {
			t.Fatal(err)
		}
		visits := map[int]int{}
		for _, l := range tree.Lines(2, 1) {
			visits[l.Action] = l.Visits
			if (l.Plies < 0) == (counts) {
				t.Errorf("side %d, estimates %v: line %d has plies %v", side, counts, l.Action, l.Plies)
			}
		}
		return float64(visits[1]) / float64(visits[0]+visits[1]), move
	}
	for _, side := range []env.Side{0, 1} {
		want := 1 // the winner takes two
		if side == 1 {
			want = 0
		}
		on, move := search(side, true, false)
		without, _ := search(side, false, false)
		off, _ := search(side, true, true)
		if off != without {
			t.Errorf("side %d: the quick move's share %.3f with the utility off, %.3f without estimates", side, off, without)
		}
		gain := on - without
		if want == 0 {
			gain = -gain
		}
		if move != want || gain < 0.1 {
			t.Errorf("side %d plays %d (want %d); the quick move's share %.2f with the utility, %.2f without", side, move, want, on, without)
		}
	}
}

// Each node's plies estimate is the mean, over the simulations through
// it, of the leaf's estimate plus the plies down to the leaf.
func TestPliesAreBackedUp(t *testing.T) {
	tree, err := NewTree(Params{Sims: 10, NoProofs: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tree.Reset(&countdownState{n: 12})
	logits := []float32{0, 5} // the second simulation goes to "take two"
	if tree.SelectLeaf() == nil {
		t.Fatal("no leaf at the root")
	}
	tree.Expand(logits, 0.9, 10)
	if got := tree.Verdict().Plies; got != 10 {
		t.Fatalf("root plies %v after its own estimate of 10", got)
	}
	if tree.SelectLeaf() == nil {
		t.Fatal("no leaf below the root")
	}
	tree.Expand(logits, -0.9, 7)
	if got := tree.Verdict().Plies; got != 9 {
		t.Errorf("root plies %v, want the mean of 10 and 7+1", got)
	}
	lines := tree.Lines(2, 1)
	if len(lines) != 1 || lines[0].Action != 1 || lines[0].Plies != 8 {
		t.Errorf("lines %+v, want take-two expecting 8 plies from the root", lines)
	}
}
