package solve

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/env/kalah"
)

// minimax is the final store difference for the side to move of s with
// perfect play, by plain minimax over the game's own rules: no table, no
// pruning, nothing of the solver's.
func minimax(s env.State) int {
	if s.Outcome().Over {
		_, _, _, my, their, _ := kalah.SeedsOf(s)
		return my - their
	}
	best := -1 << 20
	for _, a := range s.LegalActions(nil) {
		best = max(best, moveValue(s, a))
	}
	return best
}

// moveValue is minimax's value of playing a in s, for s's mover.
func moveValue(s env.State, a int) int {
	c := s.Clone()
	c.Apply(a)
	v := minimax(c)
	if c.ToMove() != s.ToMove() {
		v = -v
	}
	return v
}

func newGame(t testing.TB, m, n int) *kalah.Game {
	t.Helper()
	g, err := kalah.New(m, n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// positions are the start of g and every position of some random games,
// the finished ones left out.
func positions(g *kalah.Game, games int, seed uint64) []env.State {
	rng := rand.New(rand.NewPCG(seed, 3))
	out := []env.State{g.Start(nil)}
	for i := 0; i < games; i++ {
		s := g.Start(nil)
		for !s.Outcome().Over {
			out = append(out, s.Clone())
			legal := s.LegalActions(nil)
			s.Apply(legal[rng.IntN(len(legal))])
		}
	}
	return out
}

// The solver's score of every move, strong and weak, is minimax's, on
// positions of small games, with a roomy table and with a table of one
// entry (every result from the search itself).
func TestAgainstMinimax(t *testing.T) {
	for _, c := range [][2]int{{3, 1}, {3, 2}, {4, 1}} {
		g := newGame(t, c[0], c[1])
		for _, entries := range []int{1 << 16, 1} {
			x := &Exact{s: New(entries)}
			checked := 0
			for _, s := range positions(g, 30, uint64(c[0]*10+c[1])) {
				for _, a := range s.LegalActions(nil) {
					want := moveValue(s, a)
					got, err := x.ScoreMove(context.Background(), s, a, false)
					if err != nil || got != (env.Bounds{Lo: want, Hi: want}) {
						t.Fatalf("%s: %s move %s scores %v (%v), minimax %d", g.Describe(), s, s.ActionString(a), got, err, want)
					}
					weak, err := x.ScoreMove(context.Background(), s, a, true)
					if c := max(-1, min(want, 1)); err != nil || weak != (env.Bounds{Lo: c, Hi: c}) {
						t.Fatalf("%s: %s move %s weakly %v (%v), want %d", g.Describe(), s, s.ActionString(a), weak, err, c)
					}
					checked++
				}
			}
			t.Logf("%s, %d entries: %d moves as minimax scores them", g.Describe(), entries, checked)
		}
	}
}

// The starts of small games score as minimax scores them.
func TestSmallStarts(t *testing.T) {
	for _, c := range [][2]int{{3, 1}, {3, 2}, {4, 1}} {
		g := newGame(t, c[0], c[1])
		moves, err := env.ScoreMoves(context.Background(), NewExact(1, 0), g.Start(nil), nil, false)
		if err != nil {
			t.Fatal(err)
		}
		got, want := env.PositionBounds(moves).Lo, minimax(g.Start(nil))
		if got != want {
			t.Errorf("%s: the start scores %d, minimax %d", g.Describe(), got, want)
		}
		t.Logf("%s: the start scores %d", g.Describe(), got)
	}
}

// A solve cut short by its context or its node budget returns bounds
// that hold the true score, with the reason; an exact answer needs no
// more than it is given.
func TestCutShort(t *testing.T) {
	g := newGame(t, 4, 3)
	s := g.Start(nil)
	truth := NewExact(8, 0)
	for _, a := range s.LegalActions(nil) {
		want, err := truth.ScoreMove(context.Background(), s, a, false)
		if err != nil || !want.Exact() {
			t.Fatalf("move %d: %v %v", a+1, want, err)
		}
		x := NewExact(8, 200)
		b, err := x.ScoreMove(context.Background(), s, a, false)
		if !errors.Is(err, env.ErrBudget) || b.Lo > want.Lo || b.Hi < want.Lo || b.Exact() {
			t.Errorf("move %d with 200 nodes: %v (%v), truth %v", a+1, b, err, want)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		b, err = NewExact(8, 0).ScoreMove(ctx, s, a, true)
		if !errors.Is(err, context.Canceled) || b.Lo > -1 || b.Hi < 1 {
			t.Errorf("move %d cancelled: %v (%v)", a+1, b, err)
		}
		ctx, cancel = context.WithTimeout(context.Background(), time.Nanosecond)
		time.Sleep(time.Millisecond)
		b, err = NewExact(8, 0).ScoreMove(ctx, s, a, false)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || b.Lo > want.Lo || b.Hi < want.Lo {
			t.Errorf("move %d past its deadline: %v (%v)", a+1, b, err)
		}
	}
}

// Positions of other games, illegal moves and finished games are refused.
func TestRefuses(t *testing.T) {
	x := NewExact(1, 0)
	if _, err := x.ScoreMove(context.Background(), connect4.New().Start(nil), 0, false); err == nil || !strings.Contains(err.Error(), "needs a Kalah position") {
		t.Errorf("a Connect Four position: %v", err)
	}
	g := kalah.Default()
	s, _ := g.ParseState("0,2,5,0/8/2,2,3,2/0 S")
	if _, err := x.ScoreMove(context.Background(), s, 0, false); err == nil || !strings.Contains(err.Error(), "pit 1 is not a legal move") {
		t.Errorf("an empty pit: %v", err)
	}
	over, _ := g.ParseState("0,0,0,0/12/0,0,0,0/12 N")
	if _, err := x.ScoreMove(context.Background(), over, 0, false); err == nil {
		t.Errorf("a finished game scored")
	}
}

// solve reads positions of any pits and seeds, and - for the start.
func TestReadPosition(t *testing.T) {
	for text, want := range map[string]string{
		"-":                             "kalah pits=4 seeds=3",
		"3,3,3,3/0/3,3,3,3/0 S":         "kalah pits=4 seeds=3",
		"4,4,4,4,4,4/0/4,4,4,4,4,4/0 N": "kalah pits=6 seeds=4",
		"1,0,0/4/0,1,0/0 S":             "kalah pits=3 seeds=1",
	} {
		s, err := ReadPosition(text)
		if err != nil || s.Game().Describe() != want {
			t.Errorf("%q: %v, want a position of %s", text, err, want)
		}
	}
	for text, want := range map[string]string{
		"0,0,0,0/12/0,0,0,0/12 N": "the game is over",
		"3,3,3,3/0/3,3,3,3/1 S":   "25 seeds",
		"3,3/0/3,3/0 S":           "2 pits, want 4",
		"banana":                  "malformed position",
	} {
		if _, err := ReadPosition(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}
