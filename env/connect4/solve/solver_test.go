package solve

import (
	"context"
	"errors"
	"flag"
	"math/rand/v2"
	"testing"
	"time"
)

// grid is a board for the reference search, written without bitboards:
// cells[c][r] is 0 (empty), 1 (first player) or 2 (second).
type grid struct {
	w, h   int
	cells  [][]int8
	height []int
	moves  int
}

func newGrid(w, h int) *grid {
	g := &grid{w: w, h: h, height: make([]int, w)}
	for c := 0; c < w; c++ {
		g.cells = append(g.cells, make([]int8, h))
	}
	return g
}

func (g *grid) toMove() int8 { return int8(1 + g.moves%2) }

func (g *grid) play(c int) {
	g.cells[c][g.height[c]] = g.toMove()
	g.height[c]++
	g.moves++
}

func (g *grid) undo(c int) {
	g.height[c]--
	g.cells[c][g.height[c]] = 0
	g.moves--
}

// fourThrough reports whether the disc at (c, r) lies in a line of four of
// its own colour, counting along each direction cell by cell.
func (g *grid) fourThrough(c, r int) bool {
	me := g.cells[c][r]
	for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		n := 1
		for _, sign := range []int{1, -1} {
			x, y := c+sign*d[0], r+sign*d[1]
			for x >= 0 && x < g.w && y >= 0 && y < g.h && g.cells[x][y] == me {
				n++
				x, y = x+sign*d[0], y+sign*d[1]
			}
		}
		if n >= 4 {
			return true
		}
	}
	return false
}

// code is the position as a number: each column is its discs' colours
// (1 for the first player) under a marker bit at its height.
func (g *grid) code() uint64 {
	var k uint64
	for c := g.w - 1; c >= 0; c-- {
		col := uint64(1) << g.height[c]
		for r := 0; r < g.height[c]; r++ {
			if g.cells[c][r] == 1 {
				col |= 1 << r
			}
		}
		k = k<<(g.h+1) | col
	}
	return k
}

// reference is exhaustive minimax: every move of every position searched
// to the end of the game, no cut-off, its exact values kept in memo. Its
// score is the convention's, from its definition: a move that makes four
// scores the mover's discs left after it plus one; otherwise a move scores
// the negative of the position it leads to; a full board is 0.
type reference struct {
	g    *grid
	memo map[uint64]int8
}

func (ref *reference) score() int {
	k := ref.g.code()
	if v, ok := ref.memo[k]; ok {
		return int(v)
	}
	best := -1 << 30
	for c := 0; c < ref.g.w; c++ {
		if s, ok := ref.move(c); ok && s > best {
			best = s
		}
	}
	ref.memo[k] = int8(best)
	return best
}

// move is column c's score, false if it is full.
func (ref *reference) move(c int) (int, bool) {
	g := ref.g
	if g.height[c] == g.h {
		return 0, false
	}
	cells := g.w * g.h
	win := (cells + 1 - g.moves) / 2
	g.play(c)
	defer g.undo(c)
	switch {
	case g.fourThrough(c, g.height[c]-1):
		return win, true
	case g.moves == cells:
		return 0, true
	}
	return -ref.score(), true
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// checkAgainst compares every answer of the solvers on the grid's position
// with the reference.
func checkAgainst(t *testing.T, ref *reference, b *Board, p Position, solvers []*Solver) {
	t.Helper()
	ctx := context.Background()
	want := ref.score()
	for _, s := range solvers {
		got, err := s.Solve(ctx, p, Strong)
		if err != nil || !got.Exact() || got.Lo != want {
			t.Fatalf("%s table %d, position\n%sscore %v (%v), want %d", b, len(s.tt.keys), b.Grid(p), got, err, want)
		}
		weak, err := s.Solve(ctx, p, Weak)
		if err != nil || !weak.Exact() || weak.Lo != sign(want) {
			t.Fatalf("%s table %d, position\n%sweak score %v (%v), want %d", b, len(s.tt.keys), b.Grid(p), weak, err, sign(want))
		}
		for _, mode := range []Mode{Strong, Weak} {
			moves, err := s.Analyze(ctx, p, mode)
			if err != nil {
				t.Fatal(err)
			}
			i := 0
			for c := 0; c < b.W; c++ {
				ws, ok := ref.move(c)
				if !ok {
					continue
				}
				if mode == Weak {
					ws = sign(ws)
				}
				if i >= len(moves) || moves[i].Column != c || moves[i].Score != (Bounds{ws, ws}) {
					t.Fatalf("%s mode %d, position\n%smoves %v, want column %d to score %d", b, mode, b.Grid(p), moves, c+1, ws)
				}
				i++
			}
			if i != len(moves) {
				t.Fatalf("%s: moves %v for %d playable columns", b, moves, i)
			}
			if best, _ := Best(moves); best.Lo != want && mode == Strong {
				t.Fatalf("%s: best move %v, position score %d", b, best, want)
			}
		}
	}
}

var smallGames = flag.Int("games", 200, "random games a small board is checked on")

// Every position of random games on small boards, solved with a large
// table and (every fifth game, as it is slow) a tiny one that keeps
// evicting, each solver kept across the positions, agrees with exhaustive
// minimax.
func TestSmallBoardsAgreeWithExhaustiveMinimax(t *testing.T) {
	games := *smallGames
	if testing.Short() {
		games = 40
	}
	for _, size := range [][2]int{{4, 4}, {5, 4}, {4, 5}} {
		b, err := NewBoard(size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		ref := &reference{g: newGrid(b.W, b.H), memo: map[uint64]int8{}}
		tiny, large := New(b, 7), New(b, 1<<16)
		rng := rand.New(rand.NewPCG(uint64(b.W), uint64(b.H)))
		positions := 0
		for game := 0; game < games; game++ {
			ref.g = newGrid(b.W, b.H)
			var p Position
			solvers := []*Solver{large}
			if game%5 == 0 {
				solvers = append(solvers, tiny)
			}
			for !b.Over(p) {
				checkAgainst(t, ref, b, p, solvers)
				positions++
				var open []int
				for c := 0; c < b.W; c++ {
					if b.CanPlay(p, c) {
						open = append(open, c)
					}
				}
				c := open[rng.IntN(len(open))]
				p = b.Play(p, c)
				ref.g.play(c)
			}
		}
		t.Logf("%s: %d positions of %d games, %d positions in the reference's memo", b, positions, games, len(ref.memo))
	}
}

// 7x6 positions with 26 discs or more agree with the reference search.
func TestLateStandardPositionsAgreeWithExhaustiveMinimax(t *testing.T) {
	b, _ := NewBoard(7, 6)
	solvers := []*Solver{New(b, 101), New(b, 1<<18)}
	rng := rand.New(rand.NewPCG(7, 6))
	n := 0
	for n < 200 {
		g := newGrid(7, 6)
		var p Position
		target := 26 + rng.IntN(8)
		for p.moves < target && !b.Over(p) {
			var open []int
			for c := 0; c < b.W; c++ {
				if b.CanPlay(p, c) {
					open = append(open, c)
				}
			}
			c := open[rng.IntN(len(open))]
			p = b.Play(p, c)
			g.play(c)
		}
		if b.Over(p) {
			continue
		}
		checkAgainst(t, &reference{g: g, memo: map[uint64]int8{}}, b, p, solvers)
		n++
	}
}

// The field's known answers: the fastest win scores 18 on 7x6, the
// slowest 1, and a known position's score.
func TestScoreConvention(t *testing.T) {
	b, _ := NewBoard(7, 6)
	s := New(b, 1<<16)
	ctx := context.Background()
	// X has three in the bottom row and wins with its 4th disc.
	p, err := b.ParseMoves("112233")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Solve(ctx, p, Strong); got != (Bounds{18, 18}) {
		t.Errorf("X to win with its 4th disc: %v, want 18", got)
	}
	// O to move there loses however it plays (it cannot block both ends
	// when they are open); the score is X's win negated.
	q, _ := b.ParseMoves("22334")
	if got, _ := s.Solve(ctx, q, Strong); got != (Bounds{-18, -18}) {
		t.Errorf("O facing an open three: %v, want -18", got)
	}
	if _, err := s.Solve(ctx, b.Play(p, 3), Strong); err != ErrOver {
		t.Errorf("a won game: %v, want ErrOver", err)
	}
}

// A solve cut off by its context returns true bounds, and the next solve
// of the same position (whose table keeps only complete results) is exact.
func TestInterruptedSolveGivesBounds(t *testing.T) {
	b, _ := NewBoard(7, 6)
	s := New(b, 1<<18)
	// an 8-disc position that takes about a second
	p, _ := b.ParseMoves("44444453")
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	got, err := s.Solve(ctx, p, Strong)
	if err == nil {
		t.Skip("solved within a millisecond: nothing to interrupt")
	}
	if r := s.scoreRange(p); got.Lo > got.Hi || got.Lo < r.Lo || got.Hi > r.Hi {
		t.Fatalf("bounds %v, want within the position's range %v", got, r)
	}
	s2 := New(b, 1<<20)
	want, err := s2.Solve(context.Background(), p, Weak)
	if err != nil {
		t.Fatal(err)
	}
	if sign(got.Lo) > want.Lo || sign(got.Hi) < want.Lo {
		t.Errorf("interrupted bounds %v exclude the weak score %v", got, want)
	}
}

func TestParseMoves(t *testing.T) {
	b, _ := NewBoard(7, 6)
	for _, bad := range []string{"8", "0", "a", "1111111", "1122334"} {
		if _, err := b.ParseMoves(bad + "1"); err == nil {
			t.Errorf("%q: no error", bad+"1")
		}
	}
	p, err := b.ParseMoves("4455")
	if err != nil || p.Moves() != 4 {
		t.Fatalf("4455: %v %v", p, err)
	}
	if g := b.Grid(p); g != ".......\n.......\n.......\n.......\n...OO..\n...XX..\n" {
		t.Errorf("grid:\n%s", g)
	}
}

func TestNewBoard(t *testing.T) {
	for _, bad := range [][2]int{{8, 8}, {0, 6}, {3, 3}, {9, 7}} {
		if _, err := NewBoard(bad[0], bad[1]); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	b, err := NewBoard(8, 7)
	if err != nil {
		t.Fatal(err)
	}
	if b.order[0] != 4 || len(b.order) != 8 {
		t.Errorf("order %v", b.order)
	}
}

// A node budget stops a solve with ErrBudget and the same bounds each
// time; a budget large enough gives the exact score.
func TestBudget(t *testing.T) {
	b, _ := NewBoard(7, 6)
	p, _ := b.ParseMoves("44444453")
	var first Bounds
	for i := 0; i < 2; i++ {
		s := New(b, 1<<16)
		s.SetBudget(20000)
		r, err := s.Solve(context.Background(), p, Weak)
		if !errors.Is(err, ErrBudget) {
			t.Fatalf("a 20000-node budget: %v %v", r, err)
		}
		if i == 0 {
			first = r
		} else if r != first {
			t.Errorf("budgeted bounds %v, then %v", first, r)
		}
		if n := s.Nodes(); n < 20000 || n > 20000+checkEvery {
			t.Errorf("searched %d nodes on a budget of 20000", n)
		}
	}
	s := New(b, 1<<20)
	s.SetBudget(1 << 40)
	if r, err := s.Solve(context.Background(), p, Weak); err != nil || !r.Exact() {
		t.Errorf("a large budget: %v %v", r, err)
	}
}

// The widest bounds told of a position are the scores it can have at all:
// 18 to -18 on the empty 7x6 board (a win with the fourth disc is the
// fastest), and every exact score lies within its position's range.
func TestScoreRange(t *testing.T) {
	b, _ := NewBoard(7, 6)
	s := New(b, 1<<18)
	if got := s.scoreRange(Position{}); got != (Bounds{-18, 18}) {
		t.Errorf("empty board: %v, want -18..18", got)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for n := 0; n < 5000 && checked < 100; n++ {
		var p Position
		target := 22 + rng.IntN(20)
		for p.moves < target && !b.Over(p) {
			c := rng.IntN(b.W)
			if b.CanPlay(p, c) {
				p = b.Play(p, c)
			}
		}
		if b.Over(p) || p.moves < 22 {
			continue
		}
		got, err := s.Solve(context.Background(), p, Strong)
		if err != nil {
			t.Fatal(err)
		}
		if r := s.scoreRange(p); got.Lo < r.Lo || got.Lo > r.Hi {
			t.Fatalf("a position of %d discs scores %v, outside its range %v", p.moves, got, r)
		}
		checked++
	}
	if checked < 100 {
		t.Errorf("only %d positions checked", checked)
	}
}
