package pns

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/docs/example/tictactoe"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/catsdogs"
	"github.com/sliderzero/sliderzero/env/slider"
)

// minimax is the exact value of s for the side to move (+1 win, 0 tie, -1
// loss) by plain memoised search: the reference the prover must agree with.
func minimax(s env.State, memo map[uint64]int) int {
	if o := s.Outcome(); o.Over {
		return int(o.Value(s.ToMove()))
	}
	key := s.Hash() ^ env.Mix64(uint64(s.Ply())+1)
	if v, ok := memo[key]; ok {
		return v
	}
	best := -2
	for _, a := range s.LegalActions(nil) {
		c := s.Clone()
		c.Apply(a)
		v := minimax(c, memo)
		if c.Outcome().Over {
			v = int(c.Outcome().Value(s.ToMove()))
		} else if c.ToMove() != s.ToMove() {
			v = -v
		}
		best = max(best, v)
	}
	memo[key] = best
	return best
}

// check proves s for both sides and compares with minimax.
func check(t *testing.T, p *Prover, s env.State, memo map[uint64]int) {
	t.Helper()
	v := minimax(s, memo)
	for _, attacker := range []env.Side{0, 1} {
		r, _, err := p.Prove(context.Background(), s, attacker, 0)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		want := NotWon
		if (attacker == s.ToMove() && v == 1) || (attacker != s.ToMove() && v == -1) {
			want = Won
		}
		if r != want {
			t.Fatalf("%s, %s attacking: prover says %v, minimax %d for the side to move", s, s.Game().SideName(attacker), r, v)
		}
	}
}

// Every position of tic-tac-toe reachable from the start, both attackers,
// with a table small enough that positions keep evicting each other.
func TestTicTacToeAgreesWithMinimax(t *testing.T) {
	g := &tictactoe.Game{}
	p := New(10)
	memo := map[uint64]int{}
	seen := map[uint64]bool{}
	var walk func(s env.State)
	walk = func(s env.State) {
		if seen[s.Hash()] {
			return
		}
		seen[s.Hash()] = true
		check(t, p, s, memo)
		for _, a := range s.LegalActions(nil) {
			c := s.Clone()
			c.Apply(a)
			if !c.Outcome().Over {
				walk(c)
			}
		}
	}
	walk(g.Start(nil))
	if len(seen) < 4000 {
		t.Fatalf("walked %d positions, want all of them", len(seen))
	}
	// The start is a tie: neither side can win.
	for _, side := range []env.Side{0, 1} {
		if r, _, _ := p.Prove(context.Background(), g.Start(nil), side, 0); r != NotWon {
			t.Errorf("%s at the start: %v, want not won", g.SideName(side), r)
		}
	}
}

// Cats & Dogs endgames (random games played down to a few Dogs), where a
// side moves twice in a row, against minimax.
func TestCatsDogsEndgamesAgreeWithMinimax(t *testing.T) {
	g, _ := catsdogs.New(0)
	rng := rand.New(rand.NewPCG(1, 2))
	p := New(16)
	won := [2]int{}
	for n, found := 0, 0; n < 5000 && found < 30; n++ {
		s := endgame(g, rng, 5)
		if s == nil {
			continue
		}
		found++
		check(t, p, s, map[uint64]int{})
		if r, _, _ := p.Prove(context.Background(), s, 0, 0); r == Won {
			won[0]++
		} else {
			won[1]++
		}
	}
	if won[0] == 0 || won[1] == 0 {
		t.Fatalf("endgames won by the Cats and the Dogs: %v; the test wants both kinds", won)
	}
}

// endgame plays a random game down to the Cats' turn with at most dogs
// Dogs left, or nil if it ends before.
func endgame(g env.Game, rng *rand.Rand, dogs int) env.State {
	s := g.Start(rng)
	for !s.Outcome().Over {
		if cd := s.(*catsdogs.State); s.ToMove() == 0 && countBits(cd.DogsBits()) <= dogs {
			return s
		}
		moves := s.LegalActions(nil)
		s.Apply(moves[rng.IntN(len(moves))])
	}
	return nil
}

func countBits(b uint64) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// A ply cap that the game reaches: a tie on the cap is not a win, and a
// position near the cap is not confused with the same one far from it.
// Endgames are read into games whose cap falls a few plies ahead (a
// position read from text starts at ply 0).
func TestPlyCapTiesAreNotWins(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g, _ := catsdogs.New(0)
	cut := 0
	for n := 0; n < 20; n++ {
		s := endgame(g, rng, 4)
		if s == nil {
			continue
		}
		for _, capAt := range []int{2, 5, 8} {
			capped, _ := catsdogs.New(capAt)
			c, err := capped.ParseState(s.String())
			if err != nil {
				t.Fatal(err)
			}
			check(t, New(12), c, map[uint64]int{})
			uncapped := minimax(s, map[uint64]int{})
			if minimax(c, map[uint64]int{}) != uncapped {
				cut++
			}
		}
	}
	if cut == 0 {
		t.Fatal("no cap changed a result; the test needs some that do")
	}
}

// Slider's pieces step sideways, so positions repeat: the prover says so
// rather than answer.
func TestRepeatsAreRefused(t *testing.T) {
	g, err := slider.New(slider.Config{Size: 4})
	if err != nil {
		t.Fatal(err)
	}
	p := New(16)
	_, _, err = p.Prove(context.Background(), g.Start(nil), 0, 0)
	if !errors.Is(err, ErrRepeats) {
		t.Fatalf("Slider 4x4: %v, want ErrRepeats", err)
	}
}

// The budget and the context stop a search with an unknown result.
func TestBudgetAndCancel(t *testing.T) {
	g, _ := catsdogs.New(0)
	p := New(16)
	r, st, err := p.Prove(context.Background(), g.Start(nil), 0, 1000)
	if err != nil || r != Unknown || st.Nodes > 1001 {
		t.Fatalf("budget 1000: %v, %d nodes, %v", r, st.Nodes, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, _, err = p.Prove(ctx, g.Start(nil), 0, 0)
	if r != Unknown || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v, %v", r, err)
	}
}

// After a proof, the winning move keeps the win: the position it leads to
// is proven won too (or the game is won).
func TestWinningMoveKeepsTheWin(t *testing.T) {
	g := &tictactoe.Game{}
	p := New(16)
	checked := 0
	var walk func(s env.State)
	walk = func(s env.State) {
		if s.Outcome().Over {
			return
		}
		if r, _, _ := p.Prove(context.Background(), s, s.ToMove(), 0); r == Won {
			a, ok := p.WinningMove(context.Background(), s, s.ToMove(), 0)
			if !ok {
				t.Fatalf("%s: won, but no winning move", s)
			}
			c := s.Clone()
			c.Apply(a)
			if o := c.Outcome(); !(o.Over && o.Winner == s.ToMove()) {
				if r, _, _ := New(16).Prove(context.Background(), c, s.ToMove(), 0); r != Won {
					t.Fatalf("%s: %s throws the win away", s, s.ActionString(a))
				}
			}
			checked++
		}
		if s.Ply() < 4 {
			for _, a := range s.LegalActions(nil) {
				c := s.Clone()
				c.Apply(a)
				walk(c)
			}
		}
	}
	walk(g.Start(nil))
	if checked < 50 {
		t.Fatalf("only %d won positions checked", checked)
	}
}
