package solve

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/hex"
)

func game(t testing.TB, n int) *hex.Game {
	t.Helper()
	g, err := hex.New(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// bruteForce scores positions by full minimax, remembering each
// position's score by its one-line form and nothing else: no bounds, no
// pruning, no move order, none of the solver's code.
type bruteForce struct{ memo map[string]int }

// move is the score of action a in s for its mover, on Scale.
func (b *bruteForce) move(s env.State, a int) int {
	c := s.Clone()
	c.Apply(a)
	if c.Outcome().Over {
		return c.Game().ActionSize() + 1 - c.Ply()
	}
	return -b.value(c)
}

func (b *bruteForce) value(s env.State) int {
	k := s.String()
	if v, ok := b.memo[k]; ok {
		return v
	}
	best := -1 << 30
	for _, a := range s.LegalActions(nil) {
		best = max(best, b.move(s, a))
	}
	b.memo[k] = best
	return best
}

func sign(x int) int {
	if x > 0 {
		return 1
	}
	return -1
}

// check compares every move's strong and weak scores with brute force.
func check(t *testing.T, x *Exact, b *bruteForce, s env.State) {
	t.Helper()
	ctx := context.Background()
	for _, a := range s.LegalActions(nil) {
		want := b.move(s, a)
		got, err := x.ScoreMove(ctx, s, a, false)
		if err != nil || got.Lo != want || got.Hi != want {
			t.Fatalf("%s, move %s: %v %v, want %d", s, s.ActionString(a), got, err, want)
		}
		weak, err := x.ScoreMove(ctx, s, a, true)
		if err != nil || weak.Lo != sign(want) || weak.Hi != sign(want) {
			t.Fatalf("%s, move %s weakly: %v %v, want %d", s, s.ActionString(a), weak, err, sign(want))
		}
	}
}

// Every position of random games on 3x3 and 4x4 boards, the empty 3x3
// one included, scored as full minimax scores them, by solvers with a
// table of 1 MB and of two entries.
func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{3, 4} {
		g := game(t, n)
		b := &bruteForce{memo: map[string]int{}}
		for k := 0; k < 30; k++ {
			x := NewExact(g, 1, 0)
			if k%2 == 0 {
				x = &Exact{g: g, s: New(g.Geometry(), 2)}
			}
			s := g.Start(nil)
			if n == 4 {
				// the 4x4 brute force from a few stones on
				for p := 0; p < 5+k%3; p++ {
					legal := s.LegalActions(nil)
					s.Apply(legal[rng.IntN(len(legal))])
				}
			}
			for !s.Outcome().Over {
				check(t, x, b, s)
				legal := s.LegalActions(nil)
				s.Apply(legal[rng.IntN(len(legal))])
			}
		}
	}
}

// Every position of the 3x3 board, each move scored as full minimax
// scores it.
func TestAllOf3x3(t *testing.T) {
	g := game(t, 3)
	b := &bruteForce{memo: map[string]int{}}
	x := NewExact(g, 1, 0)
	seen := map[string]bool{}
	var walk func(s env.State)
	walk = func(s env.State) {
		if s.Outcome().Over || seen[s.String()] {
			return
		}
		seen[s.String()] = true
		check(t, x, b, s)
		for _, a := range s.LegalActions(nil) {
			c := s.Clone()
			c.Apply(a)
			walk(c)
		}
	}
	walk(g.Start(nil))
	t.Logf("%d positions", len(seen))
}

// Known facts: the first player wins the empty board (the
// strategy-stealing argument), in the centre on odd boards; on 3x3 the
// centre wins by the fifth stone, Blue's third.
func TestKnownFacts(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{3, 4, 5} {
		g := game(t, n)
		x := NewExact(g, 16, 0)
		s := g.Start(nil)
		var wins []string
		for _, a := range s.LegalActions(nil) {
			r, err := x.ScoreMove(ctx, s, a, true)
			if err != nil {
				t.Fatal(err)
			}
			if r.Lo > 0 {
				wins = append(wins, s.ActionString(a))
			}
		}
		if len(wins) == 0 {
			t.Errorf("%dx%d: Blue has no winning first move", n, n)
		}
		t.Logf("%dx%d: the winning first moves are %v (%d nodes)", n, n, wins, x.Nodes())
		if n%2 == 1 {
			centre, _ := s.ParseAction(string(rune('a'+n/2)) + string(rune('1'+n/2)))
			if r, _ := x.ScoreMove(ctx, s, centre, true); r.Lo != 1 {
				t.Errorf("%dx%d: the centre does not win: %v", n, n, r)
			}
		}
	}
	g := game(t, 3)
	s := g.Start(nil)
	b2, _ := s.ParseAction("b2")
	r, _ := NewExact(g, 1, 0).ScoreMove(ctx, s, b2, false)
	if n, ok := pliesToEnd(s, r.Lo); r.Lo != 5 || !ok || n != 5 {
		t.Errorf("3x3, b2: %v, %d plies", r, n)
	}
}

// A node budget or a cancelled context ends a solve with the bounds
// proven so far, which hold the true score.
func TestBudgetAndContext(t *testing.T) {
	g := game(t, 6)
	s := g.Start(nil)
	x := NewExact(g, 1, 1000)
	r, err := x.ScoreMove(context.Background(), s, 0, false)
	if err != env.ErrBudget || r.Lo > r.Hi || r.Lo == r.Hi {
		t.Errorf("a budget of 1000 nodes on the empty 6x6 board: %v, %v", r, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	r, err = NewExact(g, 1, 0).ScoreMove(ctx, s, 0, true)
	if err == nil || r.Lo != -1 || r.Hi != 1 {
		t.Errorf("20 ms on the empty 6x6 board: %v, %v", r, err)
	}
	// Refused: another board's position, an occupied cell.
	if _, err := NewExact(game(t, 5), 1, 0).ScoreMove(context.Background(), s, 0, true); err == nil {
		t.Errorf("a 6x6 position scored by the 5x5 solver")
	}
	s.Apply(0)
	s.Apply(1)
	if _, err := x.ScoreMove(context.Background(), s, 0, true); err == nil {
		t.Errorf("a move on a stone scored")
	}
}

// A table reset forgets what it held, also when its generations wrap.
func TestReset(t *testing.T) {
	g := game(t, 4)
	x := NewExact(g, 1, 0)
	s := g.Start(nil)
	want, _ := x.ScoreMove(context.Background(), s, 5, false)
	for k := 0; k < 300; k++ {
		x.Reset()
	}
	n := x.Nodes()
	again, _ := x.ScoreMove(context.Background(), s, 5, false)
	if again != want || x.Nodes() == n {
		t.Errorf("after resets: %v (was %v), %d nodes", again, want, x.Nodes()-n)
	}
	if n, ok := pliesToEnd(s, want.Lo); !ok || n < 1 {
		t.Errorf("plies to the end of %v: %d", want, n)
	}
}
