package connect4

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/envtest"
)

func TestConformance(t *testing.T) { t.Log(envtest.Conformance(t, New(), envtest.Options{})) }

func FuzzConformance(f *testing.F) { envtest.FuzzParse(f, New()) }

// play makes the moves, given as a string of columns, from the start.
func play(t *testing.T, moves string) env.State {
	t.Helper()
	s := New().Start(nil)
	for _, m := range moves {
		envtest.Play(t, s, string(m))
	}
	return s
}

// Each direction of four wins; the rules' pieces fall to the lowest free
// cell.
func TestFourInARowWins(t *testing.T) {
	for _, tc := range []struct{ name, moves, board string }{
		{"across", "aabbccd", "......./......./......./......./OOO..../XXXX..."},
		{"up", "ababab" + "a", "......./......./X....../XO...../XO...../XO....."},
		{"diagonal up", "abbcdccdgdd", "......./......./...X.../..XO.../.XOO.../XOOX..X"},
		{"diagonal down", "gffedeedadd", "......./......./...X.../...OX../...OOX./X..XOOX"},
	} {
		s := play(t, tc.moves)
		if o := s.Outcome(); !o.Over || o.Winner != X {
			t.Errorf("%s: after %s the outcome is %+v, want X's win", tc.name, tc.moves, o)
		}
		if tc.board != "" && s.String() != tc.board+" O" {
			t.Errorf("%s: the board is %s, want %s O", tc.name, s.String(), tc.board)
		}
		if len(s.LegalActions(nil)) != 0 {
			t.Errorf("%s: moves after the win", tc.name)
		}
	}
	// Three in a row, or four broken by the other side, do not win.
	if s := play(t, "aabbcdc"); s.Outcome().Over {
		t.Errorf("a broken row ended the game: %s", s)
	}
}

// A full column takes no more pieces; a full board without four is a tie.
func TestFullColumnAndFullBoard(t *testing.T) {
	s := play(t, "aaaaaa")
	if _, err := s.ParseAction("a"); err == nil || !strings.Contains(err.Error(), "full") {
		t.Errorf("a seventh piece in column a: %v", err)
	}
	// A board of pairs, rows alternating, holds no line of four: its last
	// cell filled, the game is a tie.
	s, err := New().ParseState(".OXXOOX/XXOOXXO/OOXXOOX/XXOOXXO/OOXXOOX/XXOOXXO O")
	if err != nil {
		t.Fatal(err)
	}
	envtest.Play(t, s, "a")
	if o := s.Outcome(); !o.Over || o.Winner != env.NoSide {
		t.Fatalf("a full board: %+v\n%s", o, s.Display())
	}
}

// Positions are checked: floating pieces, wrong counts, a side to move
// that has already won.
func TestBadPositions(t *testing.T) {
	g := New()
	for text, want := range map[string]string{
		"......./......./......./......./X....../....... O": "floats",
		"......./......./......./......./......./XX..... O": "must have one more",
		"......./......./......./......./......./X...... X": "must be equal",
		"......./......./......./......./OOO..../XXXX... X": "must be equal",
		"......./......./......./......./OOO..../XXXX..O X": "X has four in a row and is to move",
		"......./......./......./......./......./...Z... O": `want X, O or "." (empty)`,
		"......./......./......./......./....... X":         "5 rows",
		"......./......./......./......./......./...X...":   "malformed position",
	} {
		if _, err := g.ParseState(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", text, err, want)
		}
	}
	s, err := g.ParseState("......./......./......./......./OOO..../XXXX... O")
	if err != nil || s.Outcome() != (env.Outcome{Over: true, Winner: X}) {
		t.Errorf("a won position: %v %+v", err, s)
	}
}

// Moves are columns a-g, or the solvers' 1-7.
func TestNotation(t *testing.T) {
	s := New().Start(nil)
	for _, text := range []string{"d", "D", "4"} {
		if a, err := s.ParseAction(text); err != nil || a != 3 {
			t.Errorf("%q: %d, %v", text, a, err)
		}
	}
	for _, text := range []string{"h", "0", "8", "dd", "", "pass"} {
		if _, err := s.ParseAction(text); err == nil {
			t.Errorf("%q accepted", text)
		}
	}
}

// The evaluation prefers the side with more open lines: the centre.
func TestEvaluate(t *testing.T) {
	g := New()
	centre, edge := play(t, "d"), play(t, "a")
	// O to move: X's centre piece is worth more to X than an edge piece.
	if g.Evaluate(centre) >= g.Evaluate(edge) {
		t.Errorf("O's view: after a centre opening %v, after an edge one %v", g.Evaluate(centre), g.Evaluate(edge))
	}
}

func BenchmarkPlayouts(b *testing.B) { envtest.BenchmarkPlayouts(b, New()) }

// WinningAction is the first column, a to g, whose disc wins at once: the
// search's win-in-one look-ahead proves that move, so which of several
// winning columns it gives decides seeded searches. Checked against
// playing each column, over the positions of random games.
func TestWinningActionIsTheFirstWinningColumn(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	checked, wins := 0, 0
	for game := 0; game < 2000; game++ {
		s := New().Start(nil).(*State)
		for !s.outcome.Over {
			want := -1
			for _, a := range s.LegalActions(nil) {
				next := *s
				next.Apply(a)
				if next.outcome.Over && next.outcome.Winner == s.toMove {
					want = a
					break
				}
			}
			if got := s.WinningAction(); got != want {
				t.Fatalf("WinningAction of %s is %d; the first winning column is %d", s, got, want)
			}
			checked++
			if want >= 0 {
				wins++
			}
			legal := s.LegalActions(nil)
			s.Apply(legal[rng.IntN(len(legal))])
		}
	}
	if wins < 1000 {
		t.Fatalf("only %d of %d positions had a winning column: the test saw too few", wins, checked)
	}
}
