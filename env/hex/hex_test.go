package hex

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/envtest"
)

func newGame(t testing.TB, n int) *Game {
	t.Helper()
	g, err := New(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestConformance(t *testing.T) {
	for _, n := range []int{MinSize, DefaultSize, 8, MaxSize} {
		t.Log(n, envtest.Conformance(t, newGame(t, n), envtest.Options{Games: 100}))
	}
}

func FuzzConformance(f *testing.F) { envtest.FuzzParse(f, newGame(f, DefaultSize)) }

func BenchmarkPlayouts(b *testing.B) { envtest.BenchmarkPlayouts(b, newGame(b, DefaultSize)) }

// play makes the moves, separated by spaces, from the empty board.
func play(t *testing.T, g *Game, moves string) env.State {
	t.Helper()
	s := g.Start(nil)
	for _, m := range strings.Fields(moves) {
		envtest.Play(t, s, m)
	}
	return s
}

// position reads a position, failing the test if it is refused.
func position(t *testing.T, g *Game, text string) *State {
	t.Helper()
	s, err := g.ParseState(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return s.(*State)
}

// The board: the cells each cell touches, as docs/hex.md lists them.
func TestNeighbours(t *testing.T) {
	g := newGame(t, 5)
	for cell, want := range map[string]string{
		"c3": "b3 b4 c2 c4 d2 d3",
		"a1": "a2 b1",
		"e1": "d1 d2 e2",
		"a5": "a4 b4 b5",
		"e5": "d5 e4",
	} {
		i := g.parseCell(cell)
		var got []string
		for b := g.geo.Neighbours(Cell(i)); !b.Empty(); b = b.Rest() {
			got = append(got, g.cellName(b.First()))
		}
		sort.Strings(got)
		if strings.Join(got, " ") != want {
			t.Errorf("%s touches %v, want %s", cell, got, want)
		}
	}
}

// Rules 1, 4: a chain of touching stones between a side's own edges
// wins, with the stone that completes it; along a row, up a column, up
// the diagonal that touches ((c+1, r-1) and (c-1, r+1)), and through the
// corners, which belong to both edges that meet there. A line up the
// other diagonal is not a chain.
func TestChainsWin(t *testing.T) {
	g := newGame(t, 5)
	for _, tc := range []struct {
		name, moves string
		winner      env.Side
		over        bool
	}{
		{"Blue up a column", "c1 a1 c2 a2 c3 a3 c4 a4 c5", Blue, true},
		{"Red along a row", "a1 a3 b1 b3 c1 c3 d1 d3 a5 e3", Red, true},
		{"Blue up column a, through both corners", "a1 b1 a2 b2 a3 b3 a4 b4 a5", Blue, true},
		{"Red along row 1, through both corners", "a5 a1 b5 b1 c5 c1 d5 d1 c4 e1", Red, true},
		{"Blue along the touching diagonal", "a5 a1 b4 a2 c3 a3 d2 a4 e1", Blue, true},
		{"Red along the touching diagonal", "a1 a5 a2 b4 a3 c3 a4 d2 b1 e1", Red, true},
		{"Blue zigzag", "c1 a1 b2 a2 b3 a3 a4 e5 a5", Blue, true},
		{"no chain up the other diagonal", "a1 e1 b2 e2 c3 e3 d4 e4 e5", Blue, false},
		{"a row is not Blue's goal", "a3 a1 b3 a2 c3 b1 d3 b2 e3", Blue, false},
	} {
		s := play(t, g, tc.moves)
		o := s.Outcome()
		if o.Over != tc.over || tc.over && o.Winner != tc.winner {
			t.Errorf("%s: after %s the outcome is %+v\n%s", tc.name, tc.moves, o, s.Display())
		}
		if tc.over && (len(s.LegalActions(nil)) != 0 || s.Ply() != len(strings.Fields(tc.moves))) {
			t.Errorf("%s: moves after the win, or ply %d", tc.name, s.Ply())
		}
	}
	// The stone before the last does not win: the game ends with the
	// completing stone.
	if s := play(t, g, "c1 a1 c2 a2 c3 a3 c4 a4"); s.Outcome().Over {
		t.Errorf("four stones of five ended the game")
	}
}

// Rules 2, 3: Blue first, turns alternate, a stone on any empty cell, no
// pass, no swap.
func TestTurns(t *testing.T) {
	g := newGame(t, 5)
	s := g.Start(nil)
	if s.ToMove() != Blue || s.String() != "...../...../...../...../..... B" || len(s.LegalActions(nil)) != 25 {
		t.Fatalf("the start: %s, %d moves", s, len(s.LegalActions(nil)))
	}
	envtest.Play(t, s, "c3")
	envtest.Play(t, s, "D4")
	if s.ToMove() != Blue || s.String() != "...../...R./..B../...../..... B" || len(s.LegalActions(nil)) != 23 {
		t.Fatalf("after c3 d4: %s", s)
	}
	for _, m := range []string{"c3", "d4"} {
		if _, err := s.ParseAction(m); err == nil || !strings.Contains(err.Error(), "holds a stone") {
			t.Errorf("%s on a stone: %v", m, err)
		}
	}
	for _, m := range []string{"pass", "swap", "f1", "a6", "a0", "a01", "3c", "", "c", "a10"} {
		if _, err := s.ParseAction(m); err == nil || !strings.Contains(err.Error(), "malformed move") {
			t.Errorf("%q: %v", m, err)
		}
	}
}

// Rule 5: no draw. A full board holds a chain of exactly one side, and a
// random game ends, with a winner, within size x size plies.
func TestNoDraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{3, 5, 8, 11} {
		g := newGame(t, n)
		for k := 0; k < 200; k++ {
			var b, r Bits
			for i, p := range rng.Perm(n * n) {
				if i%2 == 0 {
					b = b.With(p)
				} else {
					r = r.With(p)
				}
			}
			if g.geo.Joins(b, int(Blue)) == g.geo.Joins(r, int(Red)) {
				t.Fatalf("%dx%d: a full board with chains of both sides or none: Blue %v, Red %v", n, n, b, r)
			}
			s := g.Start(nil)
			for !s.Outcome().Over {
				legal := s.LegalActions(nil)
				s.Apply(legal[rng.IntN(len(legal))])
			}
			if w := s.Outcome().Winner; w == env.NoSide || s.Ply() > n*n {
				t.Fatalf("%dx%d: a game ended after %d plies with winner %d", n, n, s.Ply(), w)
			}
		}
	}
}

// The notation's positions, as docs/hex.md writes them, and those it
// refuses.
func TestPositions(t *testing.T) {
	g := newGame(t, 5)
	s := position(t, g, "...../...R./..B../...../..... Blue")
	if s.String() != "...../...R./..B../...../..... B" || s.Ply() != 2 || s.ToMove() != Blue {
		t.Errorf("read %s, ply %d", s, s.Ply())
	}
	// A won game reads as over, for the side that moved last.
	s = position(t, g, "..B.R/..B.R/..B.R/..B../..B.R R")
	if o := s.Outcome(); !o.Over || o.Winner != Blue {
		t.Errorf("a chain up column c: %+v", o)
	}
	for text, want := range map[string]string{
		"...../...../...../...../..... X":         "unknown side",
		"...../...../...../..... B":               "4 rows, want 5",
		"...../...../....../...../..... B":        "row 3 has 6 cells",
		"...../...../..x../...../..... B":         `cell c3 is 'x', want B, R or "." (empty)`,
		"...../...../..B../...../..... B":         "Blue to move with 1 stones to Red's 0",
		"...../...../..R../...../..... R":         "Red to move with 1 stones to Blue's 0",
		"..B.R/..B.R/..B.R/..B../..B.R B":         "Blue to move with 5 stones",
		"RRRRR/BB.../BB.../..... ..... R":         "malformed position",
		"..B.R/..B.R/..B.R/..B.R/R.B.. B":         "Blue has joined its edges and is to move",
		"B.BR./B.BRR/B.BRR/B.BRR/B.BRR R":         "edges are joined even without any one of its stones",
		"...../...../...../...../..... B extra":   "malformed position",
		strings.Repeat("...../", 4) + "..... Blu": "unknown side",
		"R...R/R...R/R...R/R...R/.BBBB B":         "Blue to move with 4 stones to Red's 8",
	} {
		_, err := g.ParseState(text)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want %q", text, err, want)
		}
	}
	// A board of another size is refused, saying the size.
	if _, err := newGame(t, 3).ParseState("...../...../...../...../..... B"); err == nil || !strings.Contains(err.Error(), "3x3") {
		t.Errorf("a 5x5 position in a 3x3 game: %v", err)
	}
}

// Moves are numbered from the mover's point of view: Red's on the
// transposed board, where Red joins the bottom and top rows as Blue
// does; the encoding shows Red's position transposed the same way.
func TestPointOfView(t *testing.T) {
	g := newGame(t, 5)
	s := play(t, g, "b1")
	// Red's a2 is column 0, row 1, seen as column 1, row 0: action 1,
	// as Blue's b1 was.
	if a, _ := s.ParseAction("a2"); a != 1 || s.ActionString(1) != "a2" {
		t.Errorf("Red's a2 is action %d", a)
	}
	if a, _ := g.Start(nil).ParseAction("b1"); a != 1 {
		t.Errorf("Blue's b1 is action %d", a)
	}
	// Red sees Blue's stone on b1 at a2 (index 5) of the opponent's plane.
	red := make([]float32, 50)
	s.Encode(red)
	if slices.Index(red, 1) != 25+5 || slices.Index(red[31:], 1) != -1 {
		t.Errorf("Red's encoding after b1: %v", red)
	}
	// Blue sees its own b1 as it is, and Red's a2 as it is.
	envtest.Play(t, s, "a2")
	blue := make([]float32, 50)
	s.Encode(blue)
	if slices.Index(blue, 1) != 1 || slices.Index(blue[2:], 1) != 25+5-2 || slices.Index(blue[31:], 1) != -1 {
		t.Errorf("Blue's encoding after b1 a2: %v", blue)
	}
	// The shape of a move is its real cell, whoever plays it.
	if sh := s.(env.Shaped).MoveShape(g.ActionOf(Blue, 5+2)); sh.To == nil || *sh.To != (env.Cell{Col: 2, Row: 1}) {
		t.Errorf("Blue's c2 is drawn at %+v", sh.To)
	}
	envtest.Play(t, s, "c2")
	if sh := s.(env.Shaped).MoveShape(g.ActionOf(Red, 5+3)); sh.To == nil || *sh.To != (env.Cell{Col: 3, Row: 1}) {
		t.Errorf("Red's d2 is drawn at %+v", sh.To)
	}
}

// The half turn maps a position onto one of the same value: the
// winning moves of a position and of its image correspond.
func TestHalfTurn(t *testing.T) {
	g := newGame(t, 5)
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 300; k++ {
		s := g.Start(nil).(*State)
		for p := rng.IntN(15); p > 0 && !s.Outcome().Over; p-- {
			legal := s.LegalActions(nil)
			s.Apply(legal[rng.IntN(len(legal))])
		}
		if s.Outcome().Over {
			continue
		}
		img := &State{g: g, toMove: s.toMove, ply: s.ply}
		img.stones = [2]Bits{g.geo.Rotate(s.stones[Blue]), g.geo.Rotate(s.stones[Red])}
		a, b := make([]float32, 50), make([]float32, 50)
		s.Encode(a)
		img.Encode(b)
		rot := make([]float32, 50)
		g.TransformInput(1, a, rot)
		if !slices.Equal(rot, b) {
			t.Fatalf("the half turn of %s is %s, but the encodings do not match", s, img)
		}
		if w := s.WinningAction(); w >= 0 {
			c := img.Clone()
			c.Apply(g.TransformAction(1, w))
			if o := c.Outcome(); !o.Over || o.Winner != s.toMove {
				t.Fatalf("the image of winning move %s of %s does not win in %s", s.ActionString(w), s, img)
			}
		}
	}
}

// WinningAction finds a move that wins at once, and only such a move.
func TestWinningAction(t *testing.T) {
	g := newGame(t, 5)
	s := play(t, g, "c1 a1 c2 a2 c3 a3 c4 a4")
	w := s.(*State).WinningAction()
	if s.ActionString(w) != "b5" && s.ActionString(w) != "c5" {
		t.Errorf("the winning move is %s, want b5 or c5", s.ActionString(w))
	}
	if w := play(t, g, "c3").(*State).WinningAction(); w != -1 {
		t.Errorf("a winning move on a board of one stone: %d", w)
	}
}

// The evaluation counts the stones each side lacks, walls and all.
func TestEvaluate(t *testing.T) {
	g := newGame(t, 5)
	s := play(t, g, "c1 a1 c2 a2 c3 a3")
	// Blue needs two stones (c4 c5), Red five: it must cross column c
	// above Blue's wall (a4 b4 c4 d4 e4, say).
	if v := g.Evaluate(s); v != 3 {
		t.Errorf("Blue's evaluation of %s: %v", s, v)
	}
	envtest.Play(t, s, "c4")
	// Red to move needs five (a4 b5 c5 d4 e4, say), Blue one.
	if v := g.Evaluate(s); v != -4 {
		t.Errorf("Red's evaluation of %s: %v", s, v)
	}
	if d := g.geo.Distance(Bits{}, g.geo.All, int(Red)); d != 5 {
		t.Errorf("the empty board's distance: %d", d)
	}
	// Red's own stones shorten its way, Blue's wall lengthens it: from
	// e1 e2 e3, four more (a1 b1 c1 d1) below Blue's c2 to c5.
	walled := position(t, g, "..B../..B../..B.R/..B.R/....R R")
	if d := g.geo.Distance(walled.stones[Red], walled.empty(), int(Red)); d != 4 {
		t.Errorf("Red's distance behind four stones: %d", d)
	}
}

// Display draws the rhombus as docs/hex.md does.
func TestDisplay(t *testing.T) {
	want := `       a b c d e
 5     . . . . . 5
 4    . . . . . 4
 3   . . . . . 3
 2  . . . . . 2
 1 . . . . . 1
   a b c d e
`
	if got := newGame(t, 5).Start(nil).Display(); !strings.HasPrefix(got, want) {
		t.Errorf("the empty board:\n%s", got)
	}
	if _, err := New(12); err == nil {
		t.Errorf("a 12x12 board was built")
	}
}
