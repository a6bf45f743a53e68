package slider

import (
	"math"
	"math/bits"
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

func TestParseBlocked(t *testing.T) {
	cells, random, err := ParseBlocked("c3,d4")
	if err != nil || random || !slices.Equal(cells, []Cell{{2, 2}, {3, 3}}) {
		t.Errorf("c3,d4: %v %v %v", cells, random, err)
	}
	if _, random, err := ParseBlocked("random"); err != nil || !random {
		t.Errorf("random: %v %v", random, err)
	}
	if cells, _, err := ParseBlocked("none"); err != nil || cells != nil {
		t.Errorf("none: %v %v", cells, err)
	}
	if _, _, err := ParseBlocked("c3,zz"); err == nil {
		t.Error("c3,zz accepted")
	}
}

func TestMalformedInput(t *testing.T) {
	for _, pos := range []string{
		"", "H+++/H+B+/HB++/+VVV", "H+++/H+B+/HB++/+VVV X", "H+++/H+B+/HB++ H",
		"H+++/H+B+/HB+/+VVV H", "H+++/H+X+/HB++/+VVV H", "HH/++ H",
		"HHHH/H+++/++++/++++ H", "++++/++++/++++/++++ H",
		"H++++++++/+++++++++/+++++++++/+++++++++/+++++++++/+++++++++/+++++++++/+++++++++/+VVVVVVVV H",
	} {
		if _, err := ParsePosition(pos); err == nil {
			t.Errorf("position %q accepted", pos)
		}
	}
	s := mustParse(t, "H+++/H+B+/HB++/+VVV H")
	for _, m := range []string{"", "a", "a2", "a2X", "z2R", "a9R", "a2RR", "22R", "e2R", "b2R", "a1R", "a4U"} {
		if _, err := s.ParseAction(m); err == nil {
			t.Errorf("move %q accepted", m)
		}
	}
}

func TestRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range randomPositions(rng, 300) {
		p, err := s.g.ParsePosition(s.String())
		if err != nil {
			t.Fatalf("reparse %s: %v", s, err)
		}
		if p.String() != s.String() || p.pieces != s.pieces || p.blocked != s.blocked {
			t.Fatalf("position round trip %s -> %s", s, p)
		}
		b, err := ParseBoard(s.Board(), s.ToMove())
		if err != nil || b.String() != s.String() {
			t.Fatalf("board round trip of %s: %v %v", s, b, err)
		}
		if s.Outcome().Over {
			continue
		}
		for _, a := range s.LegalActions(nil) {
			text := s.ActionString(a)
			back, err := s.ParseAction(text)
			if err != nil || back != a {
				t.Fatalf("%s: action %d -> %q -> %d, %v", s, a, text, back, err)
			}
		}
	}
	// The file format may start with the size.
	b, err := ParseBoard("4\nH + + +\nH + B +\nH B + +\n+ V V V\n", H)
	if err != nil || b.String() != "H+++/H+B+/HB++/+VVV H" {
		t.Errorf("board with a size line: %v %v", b, err)
	}
	if _, err := ParseBoard("5\nH + + +\nH + B +\nH B + +\n+ V V V\n", H); err == nil {
		t.Error("board whose size line disagrees accepted")
	}
}

// randomPositions plays random games on random sizes and returns the
// positions along the way.
func randomPositions(rng *rand.Rand, count int) []*State {
	var out []*State
	for len(out) < count {
		n := MinSize + rng.IntN(MaxSize-MinSize+1)
		g := MustNew(Config{Size: n, RandomBlocked: true, First: env.Side(rng.IntN(2))})
		s := g.NewState(rng)
		var buf []int
		for !s.Outcome().Over && len(out) < count {
			out = append(out, s.Clone().(*State))
			buf = s.LegalActions(buf[:0])
			s.Apply(buf[rng.IntN(len(buf))])
		}
		out = append(out, s)
	}
	return out
}

// The transpose with colours swapped maps the game onto itself: the
// mirrored position has the same encoding, the same action numbers, and
// moves to the mirror of every successor.
func TestTransposeSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, s := range randomPositions(rng, 2000) {
		m := s.Transposed()
		if back := m.Transposed(); back.String() != s.String() {
			t.Fatalf("transposing twice: %s -> %s", s, back)
		}
		// The mirror's outcome is the original's with the winner's colour
		// swapped.
		wantWinner := s.Outcome().Winner
		if wantWinner != env.NoSide {
			wantWinner = wantWinner.Other()
		}
		if m.Outcome().Over != s.Outcome().Over || m.Outcome().Winner != wantWinner {
			t.Fatalf("%s has outcome %+v, its mirror %s %+v", s, s.Outcome(), m, m.Outcome())
		}
		size := s.g.InputShape().Size()
		es, em := make([]float32, size), make([]float32, size)
		s.Encode(es)
		m.Encode(em)
		if !slices.Equal(es, em) {
			t.Fatalf("encodings of %s and its mirror %s differ", s, m)
		}
		as, am := s.LegalActions(nil), m.LegalActions(nil)
		slices.Sort(as)
		slices.Sort(am)
		if !slices.Equal(as, am) {
			t.Fatalf("%s: actions %v, mirror %s: %v", s, as, m, am)
		}
		for _, a := range as {
			cs, cm := s.Clone().(*State), m.Clone().(*State)
			cs.Apply(a)
			cm.Apply(a)
			if cs.Transposed().String() != cm.String() || cs.Transposed().Outcome() != cm.Outcome() {
				t.Fatalf("%s + %s = %s, mirror %s + %s = %s", s, s.ActionString(a), cs, m, m.ActionString(a), cm)
			}
		}
	}
}

func TestEncode(t *testing.T) {
	s := mustParse(t, "H+++/H+B+/HB++/+VVV V")
	n := 4
	buf := make([]float32, s.g.InputShape().Size())
	s.Encode(buf)
	// V to move: its piece on b1 = (1,0) appears transposed at (0,1).
	if buf[PlaneOwn*n*n+1*n+0] != 1 {
		t.Error("V's b1 piece is not at canonical (0,1)")
	}
	// H's piece on a4 = (0,3) appears at (3,0) on the opponent plane.
	if buf[PlaneOpp*n*n+0*n+3] != 1 {
		t.Error("H's a4 piece is not at canonical (3,0)")
	}
	if buf[PlaneBlocked*n*n+1*n+1] != 1 || buf[PlaneBlocked*n*n+2*n+2] != 1 {
		t.Error("blocked cells missing")
	}
	var own, opp float32
	for i := 0; i < n*n; i++ {
		own += buf[PlaneOwn*n*n+i]
		opp += buf[PlaneOpp*n*n+i]
	}
	if own != 3 || opp != 3 {
		t.Errorf("own %v opp %v pieces, want 3 and 3", own, opp)
	}
}

func TestHashDistinguishesTurnAndPass(t *testing.T) {
	a := mustParse(t, "H+++/H+B+/HB++/+VVV H")
	b := mustParse(t, "H+++/H+B+/HB++/+VVV V")
	if a.Hash() == b.Hash() {
		t.Error("side to move not in the hash")
	}
	w := mustParse(t, "HB++/HB++/HB++/BVVV H")
	before := w.Hash()
	c := w.Clone().(*State)
	c.passed = true
	if c.Hash() == before {
		t.Error("pass flag not in the hash")
	}
	var d State
	d.CopyFrom(a)
	if d.Hash() != a.Hash() || d.String() != a.String() {
		t.Error("CopyFrom differs")
	}
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{"H+++/H+B+/HB++/+VVV H", "H++/H++/+VV V", "HB++/HB++/HB++/BVVV H", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParsePosition(text)
		if err != nil {
			return
		}
		// Whatever parses must write itself back the same way and obey the
		// invariants the moves rely on.
		p, err := ParsePosition(s.String())
		if err != nil || p.String() != s.String() {
			t.Fatalf("%q parsed as %s, which reparses as %v, %v", text, s, p, err)
		}
		if s.pieces[H]&s.pieces[V] != 0 || (s.pieces[H]|s.pieces[V])&s.blocked != 0 || (s.pieces[H]|s.pieces[V]|s.blocked)&^s.g.board != 0 {
			t.Fatalf("%q: overlapping or off-board bitboards", text)
		}
		for _, a := range s.LegalActions(nil) {
			c := s.Clone()
			c.Apply(a)
		}
	})
}

func FuzzParseBoard(f *testing.F) {
	f.Add("4\nH + + +\nH + B +\nH B + +\n+ V V V\n")
	f.Add("H + +\nH + +\n+ V V")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseBoard(text, V)
		if err != nil {
			return
		}
		p, err := ParseBoard(s.Board(), V)
		if err != nil || p.String() != s.String() {
			t.Fatalf("%q parsed as %s, board reparses as %v, %v", text, s, p, err)
		}
	})
}

func FuzzParseAction(f *testing.F) {
	for _, m := range []string{"a2R", "pass", "b1U", "d4R", "a2L", "z9Q", ""} {
		f.Add(m)
	}
	start := mustParse(f, "H+++/H+B+/HB++/+VVV H")
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range []*State{start, start.Transposed()} {
			a, err := s.ParseAction(text)
			if err != nil {
				continue
			}
			if !env.IsLegal(s, a) {
				t.Fatalf("%q parsed to illegal action %d in %s", text, a, s)
			}
		}
	})
}

// Random starts are positions the rules allow, on the game's layouts,
// with 1 to N-1 pieces a side, not over, at ply 0, either side to move;
// crowded boards, which have more placements, come up more than sparse
// ones, and the same seed draws the same positions.
func TestRandomStart(t *testing.T) {
	g := MustNew(Config{Size: 5, RandomBlocked: true, RandomFirst: true})
	rng := rand.New(rand.NewPCG(1, 2))
	var pieces [2][5]int
	sides := [2]int{}
	blockedSeen := 0
	for i := 0; i < 2000; i++ {
		s := g.RandomStart(rng).(*State)
		h, v := bits.OnesCount64(s.Pieces(H)), bits.OnesCount64(s.Pieces(V))
		if h < 1 || h > 4 || v < 1 || v > 4 || s.Outcome().Over || s.Ply() != 0 {
			t.Fatalf("start %s: %d and %d pieces, over %v, ply %d", s, h, v, s.Outcome().Over, s.Ply())
		}
		if (s.Pieces(H)|s.Pieces(V))&s.Blocked() != 0 || s.Pieces(H)&s.Pieces(V) != 0 {
			t.Fatalf("start %s: pieces on each other or on a blocked cell", s)
		}
		if _, err := g.ParseState(s.String()); err != nil {
			t.Fatalf("start %s does not read back: %v", s, err)
		}
		pieces[H][h]++
		pieces[V][v]++
		sides[s.ToMove()]++
		if s.Blocked() != 0 {
			blockedSeen++
		}
	}
	if pieces[H][4] <= pieces[H][1] || pieces[V][4] <= pieces[V][1] || sides[H] < 900 || sides[V] < 900 || blockedSeen < 1000 {
		t.Errorf("pieces a side %v, sides to move %v, blocked layouts %d of 2000", pieces, sides, blockedSeen)
	}
	a, b := g.RandomStart(rand.New(rand.NewPCG(5, 6))), g.RandomStart(rand.New(rand.NewPCG(5, 6)))
	if a.String() != b.String() {
		t.Errorf("one seed, two starts: %s and %s", a, b)
	}
}

// A random start draws its piece counts in proportion to their
// placements: on the open 4x4 board (16 free cells), h pieces of H and v
// of V, each 1 to 3, come up in proportion to C(16,h) C(16-h,v), within
// five standard deviations over 30,000 draws.
func TestRandomStartCountsFollowPlacements(t *testing.T) {
	g := MustNew(Config{Size: 4})
	rng := rand.New(rand.NewPCG(3, 4))
	const draws = 30000
	var seen [5][5]int
	for i := 0; i < draws; i++ {
		s := g.RandomStart(rng).(*State)
		seen[bits.OnesCount64(s.Pieces(H))][bits.OnesCount64(s.Pieces(V))]++
	}
	var weight [5][5]float64
	total := 0.0
	for h := 1; h <= 3; h++ {
		for v := 1; v <= 3; v++ {
			weight[h][v] = binomial(16, h) * binomial(16-h, v)
			total += weight[h][v]
		}
	}
	for h := 0; h <= 4; h++ {
		for v := 0; v <= 4; v++ {
			p := weight[h][v] / total
			want := p * draws
			sd := math.Sqrt(draws * p * (1 - p))
			if math.Abs(float64(seen[h][v])-want) > 5*sd+0.5 {
				t.Errorf("%d H and %d V pieces: %d of %d draws, want about %.0f", h, v, seen[h][v], draws, want)
			}
		}
	}
	if binomial(16, 3) != 560 || binomial(13, 3) != 286 || binomial(5, 0) != 1 {
		t.Errorf("binomial: C(16,3) %v, C(13,3) %v, C(5,0) %v", binomial(16, 3), binomial(13, 3), binomial(5, 0))
	}
}
