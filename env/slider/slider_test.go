package slider

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/envtest"
)

func mustParse(t testing.TB, pos string) *State {
	t.Helper()
	s, err := ParsePosition(pos)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", pos, err)
	}
	return s
}

func TestStartPosition(t *testing.T) {
	for n := MinSize; n <= MaxSize; n++ {
		g := MustNew(Config{Size: n})
		s := g.NewState(nil)
		// H on the left column without the corner, V on the bottom row
		// without the corner.
		want := "H" + strings.Repeat("+", n-1)
		rows := strings.Split(strings.Fields(s.String())[0], "/")
		for i := 0; i < n-1; i++ {
			if rows[i] != want {
				t.Errorf("size %d row %d = %q, want %q", n, i, rows[i], want)
			}
		}
		if last := "+" + strings.Repeat("V", n-1); rows[n-1] != last {
			t.Errorf("size %d bottom row = %q, want %q", n, rows[n-1], last)
		}
		if s.ToMove() != H {
			t.Errorf("size %d: %s moves first, want H by default", n, g.SideName(s.ToMove()))
		}
		// Every H piece can move right; only the lowest can also move down
		// into the empty corner.
		if got := s.NumLegal(); got != n {
			t.Errorf("size %d: %d legal moves at the start, want %d", n, got, n)
		}
	}
}

func TestFirstPlayerConfigurable(t *testing.T) {
	g := MustNew(Config{Size: 5, First: V})
	s := g.NewState(nil)
	if s.ToMove() != V {
		t.Fatalf("first player V: %s to move", g.SideName(s.ToMove()))
	}
	if got, want := envtest.Moves(s), []string{"b1L", "b1U", "c1U", "d1U", "e1U"}; !slices.Equal(got, want) {
		t.Errorf("V's opening moves %v, want %v", got, want)
	}
}

func TestRulesExamplePosition(t *testing.T) {
	s := mustParse(t, "H+++/H+B+/HB++/+VVV H")
	if got, want := envtest.Moves(s), []string{"a2D", "a3R", "a4R"}; !slices.Equal(got, want) {
		t.Errorf("H moves %v, want %v", got, want)
	}
	v := mustParse(t, "H+++/H+B+/HB++/+VVV V")
	// b1 cannot go up into the blocked b2; d1 cannot go right off the board.
	if got, want := envtest.Moves(v), []string{"b1L", "c1U", "d1U"}; !slices.Equal(got, want) {
		t.Errorf("V moves %v, want %v", got, want)
	}
}

func TestLegalMoveCounts(t *testing.T) {
	cases := []struct {
		pos  string
		want int
	}{
		{"H++/H++/+VV H", 3}, // 3x3 start
		{"+++/+H+/+V+ H", 2}, // H: R, U; D is blocked by V
		{"+++/+H+/+V+ V", 2}, // V: L, R (U blocked by H)
		{"++H/+++/V++ H", 2}, // H on last column: off-board R, D, and no U at the top
		{"++H/+++/V++ V", 2}, // V on first column: U, R, never L off the board
		{"H+++++/H+++++/H+++++/H+++++/H+++++/+VVVVV H", 6},
		{"HBBBB/HBBBB/HBBBB/HBBBB/BVVVV H", 0 + 1}, // walled in: the forced pass
		{"+++++++H/++++++++/++++++++/++++++++/++++++++/++++++++/++++++++/V+++++++ H", 2},
		{"+++++++V/++++++++/++++++++/++++++++/++++++++/++++++++/++++++++/H+++++++ V", 2},
	}
	for _, c := range cases {
		s := mustParse(t, c.pos)
		if got := len(s.LegalActions(nil)); got != c.want {
			t.Errorf("%s: %d legal moves %v, want %d", c.pos, got, envtest.Moves(s), c.want)
		}
		if got := s.NumLegal(); got != c.want {
			t.Errorf("%s: NumLegal %d, want %d", c.pos, got, c.want)
		}
	}
}

func TestMovingOffTheBoard(t *testing.T) {
	// H leaves by moving right from the last column; that is its only way
	// off the board.
	s := mustParse(t, "+++H/++++/++++/+V++ H")
	if !slices.Contains(envtest.Moves(s), "d4R") {
		t.Fatalf("H on d4 cannot leave: %v", envtest.Moves(s))
	}
	if _, err := s.ParseAction("d4U"); err == nil || !strings.Contains(err.Error(), "leave the board") {
		t.Errorf("H moving up off the top: err %v, want a leave-the-board error", err)
	}
	// V leaves by moving up from the top row, and not by moving right.
	v := mustParse(t, "+++V/++++/H+++/++++ V")
	if got, want := envtest.Moves(v), []string{"d4L", "d4U"}; !slices.Equal(got, want) {
		t.Errorf("V on d4: %v, want %v", got, want)
	}
	if _, err := v.ParseAction("d4R"); err == nil || !strings.Contains(err.Error(), "leave the board") {
		t.Errorf("V moving right off the board: err %v", err)
	}
	// Leaving removes the piece; taking the last piece off wins at once.
	envtest.Play(t, v, "d4U")
	if o := v.Outcome(); !o.Over || o.Winner != V {
		t.Errorf("V took its last piece off: outcome %+v, want V wins", o)
	}
	if v.Pieces(V) != 0 {
		t.Errorf("V's piece is still on the board: %s", v)
	}
}

func TestWinNeedsAllPiecesOff(t *testing.T) {
	s := mustParse(t, "+++H/+++H/++++/+V++ H")
	envtest.Play(t, s, "d4R")
	if s.Outcome().Over {
		t.Fatalf("H still has a piece but the game ended: %s", s)
	}
	if got := s.String(); got != "++++/+++H/++++/+V++ V" {
		t.Errorf("after d4R: %s", got)
	}
	envtest.Play(t, s, "b1U")
	envtest.Play(t, s, "d3R")
	if o := s.Outcome(); !o.Over || o.Winner != H {
		t.Errorf("outcome %+v, want H wins", o)
	}
	if got := s.LegalActions(nil); len(got) != 0 {
		t.Errorf("moves after the end: %v", got)
	}
}

func TestNeverLeftForHNeverDownForV(t *testing.T) {
	s := mustParse(t, "++++/++++/+H++/++V+ H")
	if _, err := s.ParseAction("b2L"); err == nil || !strings.Contains(err.Error(), "never moves left") {
		t.Errorf("H moving left: err %v", err)
	}
	for _, m := range envtest.Moves(s) {
		if strings.HasSuffix(m, "L") {
			t.Errorf("H has a left move %s", m)
		}
	}
	v := mustParse(t, "++++/++V+/+H++/++++ V")
	if _, err := v.ParseAction("c3D"); err == nil || !strings.Contains(err.Error(), "never moves down") {
		t.Errorf("V moving down: err %v", err)
	}
	for _, m := range envtest.Moves(v) {
		if strings.HasSuffix(m, "D") {
			t.Errorf("V has a down move %s", m)
		}
	}
}

func TestPassOnlyWhenForced(t *testing.T) {
	s := mustParse(t, "H+++/H+B+/HB++/+VVV H")
	if _, err := s.ParseAction("pass"); err == nil {
		t.Error("H passed while it had moves")
	}
	// H is walled in: its only legal action is the pass.
	w := mustParse(t, "HB++/HB++/HB++/BVVV H")
	if got := envtest.Moves(w); !slices.Equal(got, []string{"pass"}) {
		t.Fatalf("walled-in H: %v, want [pass]", got)
	}
	a, err := w.ParseAction("pass")
	if err != nil {
		t.Fatalf("forced pass refused: %v", err)
	}
	w.Apply(a)
	if w.Outcome().Over || w.ToMove() != V || !w.Passed() {
		t.Errorf("after one pass: over=%v to move %v passed=%v", w.Outcome().Over, w.ToMove(), w.Passed())
	}
	// V moving after H's pass clears it: a later pass by H is not a double pass.
	envtest.Play(t, w, "d1U")
	envtest.Play(t, w, "pass")
	if w.Outcome().Over {
		t.Errorf("a pass after a move ended the game: %s", w)
	}
}

func TestTieOnTwoConsecutivePasses(t *testing.T) {
	// Both sides are walled in.
	s := mustParse(t, "HB++/BB++/++BB/++BV H")
	envtest.Play(t, s, "pass")
	if s.Outcome().Over {
		t.Fatal("one pass ended the game")
	}
	envtest.Play(t, s, "pass")
	if o := s.Outcome(); !o.Over || o.Winner != env.NoSide {
		t.Errorf("two passes: outcome %+v, want a tie", o)
	}
	if s.Ply() != 2 {
		t.Errorf("passes count as plies: ply %d, want 2", s.Ply())
	}
}

func TestPlyCap(t *testing.T) {
	g := MustNew(Config{Size: 4, PlyCap: 3})
	s := g.NewState(nil)
	envtest.Play(t, s, "a2D")
	envtest.Play(t, s, "b1U")
	if s.Outcome().Over {
		t.Fatal("ended before the cap")
	}
	envtest.Play(t, s, "a1R")
	if o := s.Outcome(); !o.Over || o.Winner != env.NoSide {
		t.Errorf("at the ply cap: %+v, want a tie", o)
	}
	// Passes count towards the cap.
	pg := MustNew(Config{Size: 4, PlyCap: 1})
	p, _ := pg.ParsePosition("HB++/HB++/HB++/BVVV H")
	envtest.Play(t, p, "pass")
	if o := p.Outcome(); !o.Over || o.Winner != env.NoSide {
		t.Errorf("a pass at the cap: %+v, want a tie", o)
	}
	// A win on the last ply is still a win.
	wg := MustNew(Config{Size: 4, PlyCap: 1})
	w, _ := wg.ParsePosition("+++H/++++/++++/+V++ H")
	envtest.Play(t, w, "d4R")
	if o := w.Outcome(); !o.Over || o.Winner != H {
		t.Errorf("win on the capped ply: %+v, want H wins", o)
	}
	if DefaultPlyCap(5) != 100 || MustNew(Config{Size: 5}).PlyCap() != 100 {
		t.Errorf("default ply cap for 5x5 is %d, want 4*N*N = 100", MustNew(Config{Size: 5}).PlyCap())
	}
}

func TestBlockedCells(t *testing.T) {
	g, err := New(Config{Size: 5, Blocked: []Cell{{1, 1}, {2, 3}}})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewState(nil)
	if got := s.String(); got != "H++++/H+B++/H++++/HB+++/+VVVV H" {
		t.Errorf("start with blocks: %s", got)
	}
	// a2 cannot move right into b2; b1 cannot move up into it.
	if _, err := s.ParseAction("a2R"); err == nil || !strings.Contains(err.Error(), "blocked") {
		t.Errorf("H into a blocked cell: %v", err)
	}
	envtest.Play(t, s, "a3R")
	if _, err := s.ParseAction("b1U"); err == nil || !strings.Contains(err.Error(), "blocked") {
		t.Errorf("V into a blocked cell: %v", err)
	}
	for _, bad := range []Config{
		{Size: 5, Blocked: []Cell{{5, 2}}},
		{Size: 5, Blocked: []Cell{{0, 2}}}, // H's starting piece
		{Size: 5, Blocked: []Cell{{3, 0}}}, // V's starting piece
	} {
		if _, err := New(bad); err == nil {
			t.Errorf("config %+v accepted", bad)
		}
	}
}

// TestRandomBlockedScheme checks the referee's layouts (rules.md): an open
// board, one interior cell anywhere, or a pair symmetric about the diagonal,
// each a third of the time; one cell when the pair's two cells coincide.
func TestRandomBlockedScheme(t *testing.T) {
	const draws = 30000
	for n := MinSize; n <= MaxSize; n++ {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		counts := map[int]int{}
		singles := map[Cell]int{}
		for i := 0; i < draws; i++ {
			cells := RandomBlockedCells(n, rng)
			counts[len(cells)]++
			set := map[Cell]bool{}
			for _, c := range cells {
				if c.X < 1 || c.Y < 1 || c.X > n-2 || c.Y > n-2 {
					t.Fatalf("size %d: blocked %s on an edge", n, c)
				}
				set[c] = true
			}
			if len(set) != len(cells) {
				t.Fatalf("size %d: a cell blocked twice in %v", n, cells)
			}
			switch len(cells) {
			case 1:
				singles[cells[0]]++
			case 2:
				for c := range set {
					if !set[Cell{c.Y, c.X}] && c.X != c.Y {
						t.Fatalf("size %d: pair %v not symmetric about the diagonal", n, cells)
					}
				}
				if a, b := cells[0], cells[1]; !(a.X == a.Y && b.X == b.Y) && !(a.X == b.Y && a.Y == b.X) {
					t.Fatalf("size %d: pair %v is neither (i,i),(j,j) nor (i,j),(j,i)", n, cells)
				}
			default:
				if len(cells) != 0 {
					t.Fatalf("size %d: %d cells blocked", n, len(cells))
				}
			}
		}
		// k is uniform in {0,1,2}; k = 2 gives one cell when i = j, which
		// happens with chance 1/(n-2).
		inner := float64(n - 2)
		want := map[int]float64{
			0: 1.0 / 3,
			1: 1.0/3 + 1.0/3/inner,
			2: 1.0 / 3 * (1 - 1/inner),
		}
		for k, p := range want {
			got := float64(counts[k])
			mean, sd := p*draws, math.Sqrt(p*(1-p)*draws)
			if math.Abs(got-mean) > 5*sd+0.5 {
				t.Errorf("size %d: %d layouts with %d blocked cells, want about %.0f", n, counts[k], k, mean)
			}
		}
		for x := 1; x <= n-2; x++ {
			for y := 1; y <= n-2; y++ {
				if singles[Cell{x, y}] == 0 {
					t.Errorf("size %d: %s never blocked on its own", n, Cell{x, y})
				}
			}
		}
	}
	g := MustNew(Config{Size: 6, RandomBlocked: true})
	var layouts []string
	for seed := uint64(0); seed < 20; seed++ {
		a := g.NewState(rand.New(rand.NewPCG(seed, 2)))
		b := g.NewState(rand.New(rand.NewPCG(seed, 2)))
		if a.String() != b.String() {
			t.Errorf("seed %d gave two layouts: %s vs %s", seed, a, b)
		}
		layouts = append(layouts, a.String())
	}
	distinct := map[string]bool{}
	for _, l := range layouts {
		distinct[l] = true
	}
	if len(distinct) < 5 {
		t.Errorf("20 seeds gave only %d layouts", len(distinct))
	}
}
