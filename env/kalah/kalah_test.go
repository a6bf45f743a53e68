package kalah

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/envtest"
	"github.com/sliderzero/sliderzero/env/registry"
)

// game is Kalah(m, n), failing the test when it cannot be built.
func game(t testing.TB, m, n int) *Game {
	t.Helper()
	g, err := New(m, n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// position reads a position of g, failing the test when it does not read.
func position(t testing.TB, g *Game, text string) env.State {
	t.Helper()
	s, err := g.ParseState(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return s
}

// after plays moves from a position and checks the one-line form reached.
func after(t *testing.T, g *Game, from string, moves []string, want string) env.State {
	t.Helper()
	s := position(t, g, from)
	for _, m := range moves {
		envtest.Play(t, s, m)
	}
	if s.String() != want {
		t.Errorf("%s then %v: %s, want %s", from, moves, s, want)
	}
	return s
}

// The start: every pit with its seeds, empty stores, South to move, every
// pit a move.
func TestStart(t *testing.T) {
	s := Default().Start(nil)
	if s.String() != "3,3,3,3/0/3,3,3,3/0 S" || s.ToMove() != South || s.Outcome().Over {
		t.Errorf("start %s, to move %d, outcome %+v", s, s.ToMove(), s.Outcome())
	}
	if got := strings.Join(envtest.Moves(s), " "); got != "1 2 3 4" {
		t.Errorf("moves at the start: %s", got)
	}
	if d := game(t, 6, 4).Describe(); d != "kalah pits=6 seeds=4" {
		t.Errorf("Describe: %s", d)
	}
}

// "When the last seed falls into the mover's own store, the same side
// moves again": at the start, the pit whose seeds reach exactly to the
// store (m+1-k places from pit k) is the opening move that moves again.
func TestExtraTurn(t *testing.T) {
	for _, c := range [][2]int{{4, 3}, {6, 3}, {6, 4}, {3, 2}} {
		g := game(t, c[0], c[1])
		for k := 1; k <= g.pits; k++ {
			s := g.Start(nil)
			envtest.Play(t, s, string(rune('0'+k)))
			reaches := g.pits+1-k == g.seeds
			if again := s.ToMove() == South; again != reaches {
				t.Errorf("%s: pit %d (%d places from the store): South moves again %v, want %v (%s)", g.Describe(), k, g.pits+1-k, again, reaches, s)
			}
		}
	}
	// Kalah(4,3): pit 2 sows 3 and 4 and the store; then pit 4 (now 4
	// seeds) sows the store and North's pits 1 to 3: North's turn.
	s := after(t, Default(), "3,3,3,3/0/3,3,3,3/0 S", []string{"2"}, "3,0,4,4/1/3,3,3,3/0 S")
	envtest.Play(t, s, "4")
	if s.String() != "3,0,4,0/2/4,4,4,3/0 N" {
		t.Errorf("after 2 4: %s", s)
	}
	if s.Ply() != 2 {
		t.Errorf("ply %d after two moves of one side", s.Ply())
	}
}

// "When the last seed falls into a pit of the mover's own that was empty
// ... and the opponent's pit opposite it holds seeds, that last seed and
// every seed opposite go into the mover's store." South's pit 2 is
// opposite North's pit 3 (m+1-k).
func TestCapture(t *testing.T) {
	g := Default()
	after(t, g, "1,0,5,0/0/2,2,7,2/5 S", []string{"1"}, "0,0,5,0/8/2,2,0,2/5 N")
	// North captures the same way: its pit 1 into its empty pit 2,
	// opposite South's pit 3.
	after(t, g, "0,0,5,2/5/1,0,2,2/7 N", []string{"1"}, "0,0,0,2/5/0,0,2,2/13 S")
}

// "When the opposite pit is empty, nothing is captured: the last seed
// stays where it fell."
func TestNoCaptureOppositeAnEmptyPit(t *testing.T) {
	after(t, Default(), "1,0,5,0/0/2,2,0,2/12 S", []string{"1"}, "0,1,5,0/0/2,2,0,2/12 N")
}

// A last seed into a pit of one's own that held seeds captures nothing.
func TestNoCaptureIntoAFullPit(t *testing.T) {
	after(t, Default(), "1,2,5,0/0/2,2,7,2/3 S", []string{"1"}, "0,3,5,0/0/2,2,7,2/3 N")
}

// "The opponent's store is skipped. A pit with 2m+1 seeds or more goes
// round the whole board: the emptied pit is not skipped and gets a seed
// on each lap."
func TestLappingSkipsTheOpponentsStore(t *testing.T) {
	g := Default()
	// 10 seeds from South's pit 1: pits 2 to 4, the store, North's four
	// pits, not North's store, pit 1 again, and the last into pit 2 (which
	// held seeds: no capture).
	after(t, g, "10,1,0,0/0/1,1,1,1/9 S", []string{"1"}, "1,3,1,1/1/2,2,2,2/9 N")
	// 9 seeds (one lap, 2m+1) from pit 1 end in the emptied pit 1 itself,
	// empty just before the last seed fell, opposite North's pit 4, which
	// the lap filled: a capture.
	after(t, g, "9,0,0,0/3/1,1,1,1/8 S", []string{"1"}, "0,1,1,1/7/2,2,2,0/8 N")
	// North laps the same way, skipping South's store.
	after(t, g, "1,1,1,1/4/11,0,0,0/5 N", []string{"1"}, "2,2,2,2/4/1,2,2,1/6 S")
	// Pit 2 was empty when the move began but a lap filled it before the
	// last seed fell: not empty then, no capture.
	after(t, g, "1,1,1,1/4/10,0,0,0/6 N", []string{"1"}, "2,2,2,2/4/1,2,1,1/7 S")
}

// "The game ends when the side to move has no seeds in its pits. The
// other side then puts all the seeds left in its own pits into its own
// store."
func TestEndSweepsTheOtherSidesSeeds(t *testing.T) {
	g := Default()
	// South's last seed ends in its store: South moves again with none,
	// and North's 20 seeds go to North.
	s := after(t, g, "0,0,0,1/1/5,5,5,5/2 S", []string{"4"}, "0,0,0,0/2/0,0,0,0/22 S")
	if o := s.Outcome(); !o.Over || o.Winner != North {
		t.Errorf("%s: outcome %+v, want North's win", s, o)
	}
	if len(s.LegalActions(nil)) != 0 {
		t.Errorf("moves after the end: %v", s.LegalActions(nil))
	}
	// South's move leaves North, to move, with none: South's seeds go to
	// South.
	s = after(t, g, "0,0,1,4/10/0,0,0,0/9 S", []string{"3"}, "0,0,0,0/15/0,0,0,0/9 N")
	if o := s.Outcome(); !o.Over || o.Winner != South {
		t.Errorf("%s: outcome %+v, want South's win", s, o)
	}
	// Equal stores are a draw.
	s = after(t, g, "0,0,0,1/11/0,1,0,0/11 S", []string{"4"}, "0,0,0,0/12/0,0,0,0/12 S")
	if o := s.Outcome(); !o.Over || o.Winner != env.NoSide {
		t.Errorf("%s: outcome %+v, want a draw", s, o)
	}
}

// A side that empties its own row with a move not ending in its store
// has not ended the game: the opponent moves, and may feed it.
func TestEmptyingOnesOwnRowDoesNotEndTheGame(t *testing.T) {
	g := Default()
	s := after(t, g, "0,0,0,2/8/3,3,3,3/2 S", []string{"4"}, "0,0,0,0/9/4,3,3,3/2 N")
	if s.Outcome().Over {
		t.Fatalf("%s is over", s)
	}
	// North's pit 1 (4 seeds) sows its pits 2 to 4 and its store: North
	// moves again; its pit 2 (now 4) sows pits 3 and 4, its store and
	// South's pit 1.
	envtest.Play(t, s, "1")
	envtest.Play(t, s, "2")
	if s.String() != "1,0,0,0/9/0,0,5,5/4 S" || s.Outcome().Over {
		t.Errorf("after 1 2: %s, over %v", s, s.Outcome().Over)
	}
}

// Moves are pits 1 to m with seeds; the rest are refused with a reason.
func TestMoveNotation(t *testing.T) {
	s := position(t, Default(), "0,2,5,0/8/2,2,3,2/0 S")
	if got := strings.Join(envtest.Moves(s), " "); got != "2 3" {
		t.Errorf("moves %s, want 2 3", got)
	}
	for text, want := range map[string]string{
		"1":  "illegal move 1: S's pit 1 is empty",
		"5":  `malformed move "5": want a pit, 1 to 4`,
		"0":  "malformed move",
		"a":  "malformed move",
		"12": "malformed move",
		"":   "malformed move",
	} {
		if _, err := s.ParseAction(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("move %q: %v, want %q", text, err, want)
		}
	}
	// North's pit 1 is the top right cell of the board; South's the
	// bottom left.
	n := position(t, Default(), "0,2,5,0/8/2,2,3,2/0 N")
	if sh := n.(*State).MoveShape(0); sh.To == nil || *sh.To != (env.Cell{Col: 4, Row: 2}) {
		t.Errorf("North's pit 1 at %+v", sh.To)
	}
	if sh := s.(*State).MoveShape(1); sh.To == nil || *sh.To != (env.Cell{Col: 2, Row: 0}) {
		t.Errorf("South's pit 2 at %+v", sh.To)
	}
}

// Bad positions are refused, each with a one-line reason.
func TestParseStateRefuses(t *testing.T) {
	g := Default()
	for text, want := range map[string]string{
		"":                        "malformed position",
		"3,3,3,3/0/3,3,3,3/0":     "malformed position",
		"3,3,3,3/0/3,3,3,3/0 X":   "unknown side",
		"3,3,3,3/0/3,3,3,3 S":     "3 parts",
		"3,3,3/0/3,3,3,3/3 S":     "S has 3 pits, want 4",
		"3,3,3,3/0/3,3,3,3,0/0 N": "N has 5 pits",
		"3,3,x,3/0/3,3,3,3/0 S":   `S's pit 3: "x" is not a count`,
		"3,3,-3,3/6/3,3,3,3/0 S":  "not a count",
		"3,3,3,3/0/3,3,3,3/+0 S":  "N's store",
		"3,3,3,3/1/3,3,3,3/0 S":   "25 seeds, but kalah pits=4 seeds=3 has 24",
		"3,3,3,3/0/3,3,3,3/99 S":  "99 seeds, more than the game's 24",
		"0,0,0,0/10/3,3,3,2/3 S":  "S is to move with no seeds in its pits",
	} {
		_, err := g.ParseState(text)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	// A finished game reads, and is over.
	if s := position(t, g, "0,0,0,0/12/0,0,0,0/12 N"); !s.Outcome().Over || s.Outcome().Winner != env.NoSide {
		t.Errorf("a finished draw reads as %+v", s.Outcome())
	}
}

// The board for front ends: North's pits on top from its pit m, the
// stores at the ends of the middle row, South's pits below; each store
// token is drawn as a disc of its side.
func TestBoard(t *testing.T) {
	g := Default()
	s := position(t, g, "1,2,3,4/5/0,1,2,3/3 N")
	want := ". 3 2 1 0 .\nN3 . . . . S5\n. 1 2 3 4 .\n"
	if s.Board() != want {
		t.Errorf("board\n%s\nwant\n%s", s.Board(), want)
	}
	looks := g.Looks()
	if l := looks["S5"]; l.Side != South || l.Label != "5" {
		t.Errorf("S5 looks like %+v", l)
	}
	if l := looks["N24"]; l.Side != North || l.Label != "24" {
		t.Errorf("N24 looks like %+v", l)
	}
	if !strings.Contains(s.Display(), "N to move.") {
		t.Errorf("display:\n%s", s.Display())
	}
}

// The encoding is from the side to move: the same board with the sides
// swapped encodes the same.
func TestEncodingFromTheMover(t *testing.T) {
	g := Default()
	a := position(t, g, "1,0,2,9/3/0,4,0,1/4 S")
	b := position(t, g, "0,4,0,1/4/1,0,2,9/3 N")
	x, y := make([]float32, g.InputShape().Size()), make([]float32, g.InputShape().Size())
	a.Encode(x)
	b.Encode(y)
	for i := range x {
		if x[i] != y[i] {
			t.Fatalf("input %d: %v and %v", i, x[i], y[i])
		}
	}
	// South's pit 4 (9 seeds, a whole lap) fills the thermometer's 9
	// planes in row 0, column 3; North's pit 2 (4 seeds), opposite
	// South's pit 3, fills 4 planes in row 1, column 2.
	m, cells := g.pits, 2*g.pits
	for k := 0; k < 2*m+1; k++ {
		if x[k*cells+3] != 1 || (x[k*cells+m+2] == 1) != (k < 4) {
			t.Errorf("plane %d: pit 4 %v, the pit opposite pit 3 %v", k, x[k*cells+3], x[k*cells+m+2])
		}
	}
}

// Every random game ends, and within the bound docs/kalah.md proves.
func TestGamesEnd(t *testing.T) {
	g := game(t, 6, 6)
	longest := 0
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		s := g.Start(nil)
		for !s.Outcome().Over {
			legal := s.LegalActions(nil)
			s.Apply(legal[rng.IntN(len(legal))])
		}
		longest = max(longest, s.Ply())
	}
	m, n := g.pits, g.seeds
	if bound := (2*m*n + 1) * (2*m*m*n + 1); longest > bound {
		t.Errorf("a game of %d plies, over the bound %d", longest, bound)
	}
	t.Logf("longest of 200 random games of %s: %d plies", g.Describe(), longest)
}

// A position carries its pits and seeds: it is read in the game they
// make (the web app's and the engine's set-ups, and solve).
func TestPositionsCarryTheirSettings(t *testing.T) {
	for text, want := range map[string][2]int{
		"3,3,3,3/0/3,3,3,3/0 S":         {4, 3},
		"4,4,4,4,4,4/0/4,4,4,4,4,4/0 N": {6, 4},
		"0,1,0/4/1,0,0/0 S":             {3, 1},
		"3,3,3,3/0/3,3,3,3/1 S":         {4, 0}, // 25 seeds: no game
		"3,3/0/3,3/0 S":                 {0, 0},
		"":                              {0, 0},
		"x/y":                           {0, 0},
	} {
		if p, n := ConfigOf(text); p != want[0] || n != want[1] {
			t.Errorf("%q: pits %d seeds %d, want %v", text, p, n, want)
		}
	}
	reg, err := registry.Lookup("kalah")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := reg.SpecOf("2,2,2,2,2/0/2,2,2,2,2/0 S", registry.Spec{Name: "kalah"})
	if err != nil || spec.String() != "kalah pits=5 seeds=2" {
		t.Errorf("SpecOf: %v %v", spec, err)
	}
	g, err := GameOf("2,2,2,2,2/0/2,2,2,2,2/0 S")
	if err != nil || g.Describe() != "kalah pits=5 seeds=2" {
		t.Errorf("GameOf: %v %v", g, err)
	}
}
