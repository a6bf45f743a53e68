package solve

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
)

// bruteForce values every position of a board through env/slider's own
// rules (no code shared with the solver): all placements with either side
// to move, and every position reachable from them, the pass flag included.
// Values come from plain fixed-point iteration by distance.
func bruteForce(t *testing.T, n int, blocked []slider.Cell) map[bfKey]Value {
	t.Helper()
	g := slider.MustNew(slider.Config{Size: n, Blocked: blocked, PlyCap: 1 << 30})
	free := g.NewState(nil)
	var cells []uint64
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if bit := uint64(1) << (y*8 + x); free.Blocked()&bit == 0 {
				cells = append(cells, bit)
			}
		}
	}
	var states []*slider.State
	index := map[bfKey]int{}
	add := func(s *slider.State) int {
		k := keyOf(s)
		if i, ok := index[k]; ok {
			return i
		}
		index[k] = len(states)
		states = append(states, s)
		return len(states) - 1
	}
	var place func(i int, h, v uint64, nh, nv int)
	place = func(i int, h, v uint64, nh, nv int) {
		if i == len(cells) {
			if h == 0 && v == 0 {
				return
			}
			for _, side := range []env.Side{slider.H, slider.V} {
				s, err := g.Position(h, v, side)
				if err != nil {
					t.Fatal(err)
				}
				add(s)
			}
			return
		}
		place(i+1, h, v, nh, nv)
		if nh < n-1 {
			place(i+1, h|cells[i], v, nh+1, nv)
		}
		if nv < n-1 {
			place(i+1, h, v|cells[i], nh, nv+1)
		}
	}
	place(0, 0, 0, 0, 0)
	// Successors, adding the positions after a pass as they appear.
	succ := [][]int{}
	for i := 0; i < len(states); i++ {
		s := states[i]
		var next []int
		for _, a := range s.LegalActions(nil) {
			c := s.Clone().(*slider.State)
			c.Apply(a)
			next = append(next, add(c))
		}
		succ = append(succ, next)
	}
	vals := make([]Value, len(states))
	known := make([]bool, len(states))
	for i, s := range states {
		if o := s.Outcome(); o.Over {
			known[i] = true
			if o.Winner != env.NoSide {
				vals[i] = Value{Result: Loss} // the mover's opponent has won
			}
		}
	}
	for d := 1; ; d++ {
		var decided []int
		for i := range states {
			if known[i] {
				continue
			}
			win, allWins, longest := false, true, 0
			for _, j := range succ[i] {
				switch {
				case known[j] && vals[j].Result == Loss && vals[j].Plies == d-1:
					win = true
				case known[j] && vals[j].Result == Win:
					longest = max(longest, vals[j].Plies)
				default:
					allWins = false
				}
			}
			switch {
			case win:
				vals[i] = Value{Result: Win, Plies: d}
				decided = append(decided, i)
			case allWins && longest == d-1:
				vals[i] = Value{Result: Loss, Plies: d}
				decided = append(decided, i)
			}
		}
		// A distance at which nothing is decided ends the iteration: a
		// win in d+1 needs a loss in d, and a loss in d+1 a win in d.
		if len(decided) == 0 {
			break
		}
		for _, i := range decided {
			known[i] = true
		}
	}
	out := map[bfKey]Value{}
	for i, s := range states {
		out[keyOf(s)] = vals[i]
	}
	return out
}

type bfKey struct {
	h, v   uint64
	side   env.Side
	passed bool
}

func keyOf(s *slider.State) bfKey {
	return bfKey{s.Pieces(slider.H), s.Pieces(slider.V), s.ToMove(), s.Passed()}
}

func TestSolverAgreesWithBruteForce(t *testing.T) {
	boards := []struct {
		n       int
		blocked string
	}{
		{3, ""}, {3, "b2"}, {4, ""}, {4, "b3"}, {4, "b2,c3"},
	}
	for _, b := range boards {
		cells, _, err := slider.ParseBlocked(b.blocked)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := Solve(context.Background(), b.n, cells, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tab.Verify(context.Background()); err != nil {
			t.Errorf("%dx%d %q: %v", b.n, b.n, b.blocked, err)
		}
		truth := bruteForce(t, b.n, cells)
		g := slider.MustNew(slider.Config{Size: b.n, Blocked: cells, PlyCap: 1 << 30})
		bad := 0
		counts := map[Result]int{}
		for k, want := range truth {
			s, err := g.Position(k.h, k.v, k.side)
			if err != nil {
				t.Fatal(err)
			}
			if k.passed {
				// Reach the same position through a pass.
				s, err = g.Position(k.h, k.v, k.side.Other())
				if err != nil {
					t.Fatal(err)
				}
				s.Apply(g.PassAction())
			}
			got, err := tab.Value(s)
			if err != nil {
				t.Fatal(err)
			}
			counts[want.Result]++
			if got != want {
				if bad++; bad < 5 {
					t.Errorf("%dx%d %q: %s (passed %v) is %v, brute force says %v", b.n, b.n, b.blocked, s, k.passed, got, want)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%dx%d %q: %d of %d positions differ", b.n, b.n, b.blocked, bad, len(truth))
		}
		// On the open 3x3 board every position is decided; elsewhere
		// pieces can block each other for good.
		needDraws := b.n > 3 || b.blocked != ""
		if counts[Win] == 0 || counts[Loss] == 0 || (needDraws && counts[Draw] == 0) {
			t.Errorf("%dx%d %q: results %v: every kind should occur", b.n, b.n, b.blocked, counts)
		}
		t.Logf("%dx%d blocked %q: %d positions, %v, solved in %.3fs", b.n, b.n, b.blocked, len(truth), counts, tab.Seconds)
	}
}

func TestVerifyCatchesAWrongEntry(t *testing.T) {
	tab, err := Solve(context.Background(), 4, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20; i++ {
		k := rng.IntN(len(tab.vals))
		old := tab.vals[k]
		tab.vals[k] = old + 2 // same result, another distance
		if old == 0 {
			tab.vals[k] = 1
		}
		if _, err := tab.Verify(context.Background()); err == nil {
			// An entry of a position that cannot occur (a side with no
			// pieces to move) is checked too, so every change shows.
			t.Errorf("changing entry %d from %d to %d went unnoticed", k, old, tab.vals[k])
		}
		tab.vals[k] = old
	}
	if _, err := tab.Verify(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestIndexRoundTrip(t *testing.T) {
	for _, n := range []int{3, 4, 5} {
		ix, err := newIndex(n, 0)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		for i := 0; i < 5000; i++ {
			p := rng.Int64N(ix.total)
			c := ix.classAt(p)
			hb, vb := ix.pieces(c, p)
			if hb&vb != 0 || bitsOn(hb) != c.h || bitsOn(vb) != c.v {
				t.Fatalf("%dx%d: placement %d gives H=%#x V=%#x, class (%d,%d)", n, n, p, hb, vb, c.h, c.v)
			}
			if q := ix.placement(hb, vb); q != p {
				t.Fatalf("%dx%d: placement %d round-trips to %d", n, n, p, q)
			}
		}
	}
}

func bitsOn(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func TestTableFile(t *testing.T) {
	tab, err := Solve(context.Background(), 4, []slider.Cell{{X: 1, Y: 2}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab.Sets["x"] = []string{"H+++/H+++/HB++/+VVV H"}
	path := filepath.Join(t.TempDir(), "t.table")
	if err := tab.Write(path); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Size() != 4 || slider.FormatCells(back.Blocked()) != "b3" || len(back.vals) != len(tab.vals) || back.Sets["x"][0] != tab.Sets["x"][0] {
		t.Fatalf("read back %s with %d values, sets %v", back.Describe(), len(back.vals), back.Sets)
	}
	for i := range tab.vals {
		if back.vals[i] != tab.vals[i] {
			t.Fatalf("value %d differs after reading back", i)
		}
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing file was read")
	}
}

func TestValueRefusesAnotherBoard(t *testing.T) {
	tab, err := Solve(context.Background(), 4, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s5, _ := slider.ParsePosition("H++++/H++++/H++++/H++++/+VVVV H")
	if _, err := tab.Value(s5); err == nil || !strings.Contains(err.Error(), "4x4") {
		t.Errorf("a 5x5 position: %v", err)
	}
	s4, _ := slider.ParsePosition("H+++/H+B+/H+++/+VVV H")
	if _, err := tab.Value(s4); err == nil || !strings.Contains(err.Error(), "c3") {
		t.Errorf("a position with a blocked cell on an open-board table: %v", err)
	}
}
