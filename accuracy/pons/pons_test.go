package pons

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/player"
)

// The hand-made set: three positions whose every move's class is clear
// from the board.
//
//	152535717273, X to move:     4  . . . . . . .
//	  X has a, b, c on row 1     3  . . . . O . X
//	  (d1 wins) and g1-g3 (g4    2  O O O . O . X
//	  wins); O has e1-e3 (e4     1  X X X . O . X
//	  wins). d and g win at once; e blocks O and leaves X two wins,
//	  which O cannot both stop: a win; a, b, c and f let O win at e4.
//	  X wins with its 7th disc: 21-7+1 = 15.
//	1525357172735: the same after X's e4, O to move: X threatens d1 and
//	  g4 and O has no win at once, so every move loses, to X's 8th disc
//	  (-(21-8+1) = -14).
//	23163416124767223154467471272416755633, X to move, drawn:
//	  6  X X . O . O X   c6 (c the only other column with room than e)
//	  5  O X O O . O O   makes no four; O must answer e4, X e5, O e6,
//	  4  O O X X . O X   none of which makes four: a full board, a draw.
//	  3  X X X O X X X   e4 instead lets O play e5: d5-g5, four in a
//	  2  X O X X O O O   row, a loss.
//	  1  X X O O X O O
const handSet = "152535717273 15\n1525357172735 -14\n23163416124767223154467471272416755633 0\n"

var handRows = []string{"---++-+", "-------", "..=.-.."}

func parseHand(t *testing.T) *Set {
	t.Helper()
	s, err := ParseSet("Test_L9_R9", []byte(handSet))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func handLabels(t *testing.T, s *Set) *Labels {
	t.Helper()
	l := NewLabels(s)
	for i, text := range handRows {
		r, err := parseRow(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := check(s.Entries[i], r); err != nil {
			t.Fatalf("hand row %d: %v", i, err)
		}
		l.Rows[i] = r
	}
	return l
}

func TestParseSet(t *testing.T) {
	s := parseHand(t)
	if len(s.Entries) != 3 || s.Entries[1].Moves != "1525357172735" || s.Entries[1].Score != -14 || s.Entries[2].Line != 3 {
		t.Fatalf("entries %+v", s.Entries)
	}
	// Blank lines are skipped, tabs and a final line without a newline
	// are taken, and line numbers stay the file's.
	s2, err := ParseSet("x", []byte("\n4453\t-2\r\n\n44 1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s2.Entries) != 2 || s2.Entries[0].Line != 2 || s2.Entries[1].Line != 4 || s2.Entries[1].Score != 1 {
		t.Fatalf("entries %+v", s2.Entries)
	}
	if s2.Digest == s.Digest || len(s.Digest) != 64 {
		t.Errorf("digests %s and %s", s.Digest, s2.Digest)
	}
}

func TestParseSetRefusesMalformedLines(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"4453 -2\n4453\n", "line 2: \"4453\": want the moves and the score"},
		{"4453 -2 7\n", "line 1: \"4453 -2 7\": want the moves and the score"},
		{"4483 1\n", "line 1: moves \"4483\": \"8\" is not a column 1 to 7"},
		{"4403 1\n", "\"0\" is not a column"},
		{"d4 1\n", "\"d\" is not a column"},
		{"1111111 1\n", "move 7 plays column 1, which is full"},
		{"1212121 1\n", "the game is over after the last move"},
		{"12121213 1\n", "the game is over after move 7"},
		{"4453 x\n", "line 1: score \"x\" is not a whole number"},
		{"4453 20\n", "score 20 is outside -19 to 19, the scores a position after 4 moves can have"},
		{"4453 -20\n", "score -20 is outside -19 to 19"},
		{"", "no positions"},
		{"\n\n", "no positions"},
		{strings.Repeat("1", 300) + " 1\n", "line 1: a line longer than"},
	} {
		_, err := ParseSet("Test_L1_R1", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "Test_L1_R1") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line naming the set and containing %q", c.text, err, c.want)
		}
	}
}

// FuzzParseSet: the parser never panics, and what it reads is legal and
// reads again the same once written.
func FuzzParseSet(f *testing.F) {
	f.Add([]byte(handSet))
	f.Add([]byte("4453 -2\n"))
	f.Add([]byte("1111111 1\n"))
	f.Add([]byte("\n\t 44  3\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSet("f", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("a multi-line error: %q", err)
			}
			return
		}
		for _, e := range s.Entries {
			st, err := e.State()
			if err != nil || st.Outcome().Over || st.Ply() != len(e.Moves) {
				t.Fatalf("entry %+v read, but its position: %v", e, err)
			}
		}
		var b bytes.Buffer
		if err := s.Write(&b); err != nil {
			t.Fatal(err)
		}
		s2, err := ParseSet("f", b.Bytes())
		if err != nil || len(s2.Entries) != len(s.Entries) {
			t.Fatalf("written again: %v", err)
		}
		for i := range s.Entries {
			if s.Entries[i].Moves != s2.Entries[i].Moves || s.Entries[i].Score != s2.Entries[i].Score {
				t.Fatalf("entry %d: %+v, then %+v", i, s.Entries[i], s2.Entries[i])
			}
		}
	})
}

func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"Test_L2_R1", "Test_L1_R1", "README.md"} {
		os.WriteFile(filepath.Join(dir, n), []byte("4453 -2\n"), 0o644)
	}
	sets, err := ReadDir(dir)
	if err != nil || len(sets) != 2 || sets[0].Name != "Test_L1_R1" || sets[1].Name != "Test_L2_R1" {
		t.Fatalf("%v, %v", sets, err)
	}
	if _, err := ReadDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no set file") {
		t.Errorf("an empty folder: %v", err)
	}
	if Describe("Test_L1_R3") != "beginning, hard" || Describe("Test_L3_R1") != "end, easy" || Describe("x") != "" {
		t.Errorf("Describe: %q", Describe("Test_L1_R3"))
	}
}

// The project's solver labels the hand-made set as the board says; the
// lost position is labelled without a search.
func TestLabelHandSet(t *testing.T) {
	s := parseHand(t)
	l := NewLabels(s)
	saves := 0
	st, err := Label(context.Background(), s, l, LabelOptions{Parallel: 2, TableMB: 1, SaveEvery: time.Hour, Save: func(*Labels) error { saves++; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Solved != 2 || st.Deduced != 1 || saves != 1 {
		t.Errorf("stats %+v, %d saves", st, saves)
	}
	for i, want := range handRows {
		if got := l.Rows[i].String(); got != want {
			t.Errorf("position %d (%s): labels %s, want %s", i, s.Entries[i].Moves, got, want)
		}
	}
	// Nothing is left to label: a second run solves nothing.
	st, err = Label(context.Background(), s, l, LabelOptions{Parallel: 2, TableMB: 1})
	if err != nil || st.Solved+st.Deduced != 0 {
		t.Errorf("again: %+v, %v", st, err)
	}
}

// A set whose score the solver contradicts is refused, and the rows
// solved before are kept.
func TestLabelRefusesAWrongScore(t *testing.T) {
	s, err := ParseSet("x", []byte("23163416124767223154467471272416755633 0\n23163416124767223154467471272416755633 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	l := NewLabels(s)
	_, err = Label(context.Background(), s, l, LabelOptions{Parallel: 1, TableMB: 1})
	if err == nil || !strings.Contains(err.Error(), "x line 2:") || !strings.Contains(err.Error(), "best move is a draw, but the set scores the position 2 (a win)") {
		t.Fatalf("error %v", err)
	}
	if len(l.Rows) != 1 {
		t.Errorf("rows %v", l.Rows)
	}
}

// An interrupted run keeps nothing unfinished, saves, and says why.
func TestLabelInterrupted(t *testing.T) {
	s := parseHand(t)
	l := NewLabels(s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	saved := false
	st, err := Label(ctx, s, l, LabelOptions{Parallel: 2, TableMB: 1, Save: func(*Labels) error { saved = true; return nil }})
	if err != context.Canceled || !saved || st.Solved != 0 || len(l.Rows) != st.Deduced {
		t.Errorf("%+v, %v, saved %v, rows %v", st, err, saved, l.Rows)
	}
}

func TestLabelsFileRoundTrip(t *testing.T) {
	s := parseHand(t)
	l := handLabels(t, s)
	delete(l.Rows, 1) // a partial file is fine
	path := filepath.Join(t.TempDir(), "Test_L9_R9.labels")
	if l2, err := ReadLabels(path, s); err != nil || len(l2.Rows) != 0 {
		t.Fatalf("no file: %v, %v", l2, err)
	}
	if err := l.WriteFile(path, s); err != nil {
		t.Fatal(err)
	}
	l2, err := ReadLabels(path, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(l2.Rows) != 2 || l2.Rows[0] != l.Rows[0] || l2.Rows[2] != l.Rows[2] {
		t.Errorf("read back %v, wrote %v", l2.Rows, l.Rows)
	}
	if miss := l2.Missing(s, 0); len(miss) != 1 || miss[0] != 1 {
		t.Errorf("missing %v", miss)
	}
	if miss := l2.Missing(s, 1); len(miss) != 0 {
		t.Errorf("missing of the first one %v", miss)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "\n1\t152535717273\t---++-+\n3\t23163416124767223154467471272416755633\t..=.-..\n") {
		t.Errorf("file:\n%s", data)
	}
}

// A labels file that does not fit its set is refused, saying why.
func TestLabelsFileMismatch(t *testing.T) {
	s := parseHand(t)
	good := string(handLabels(t, s).Bytes(s))
	other, err := ParseSet("Test_L9_R9", []byte(handSet+"4453 -2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseLabels([]byte(good), other); err == nil || !strings.Contains(err.Error(), "delete the file to label the set again") {
		t.Errorf("another set's labels: %v", err)
	}
	renamed := *s
	renamed.Name = "Test_L1_R1"
	if _, err := ParseLabels([]byte(good), &renamed); err == nil || !strings.Contains(err.Error(), "labels of set Test_L9_R9") {
		t.Errorf("another name: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"# sliderzero pons labels 1", "# sliderzero labels 2", "not a labels file"},
		{"1\t152535717273", "1\t152535717274", "but the set's line 1 is 152535717273"},
		{"1\t152535717273", "4\t152535717273", "no position on line 4"},
		{"---++-+", "---+--+", "x"},
		{"---++-+", "-------", "the labels' best move is a loss, but the set scores the position 15 (a win)"},
		{"..=.-..", "-.=.-..", "column 1 has room, but the labels call it full, or the reverse"},
		{"..=.-..", "..=.-.", "want 7 characters"},
		{"..=.-..", "..=.-.?", "\"?\" is not one of"},
		{"1\t152535717273\t---++-+", "1 152535717273 ---++-+", "separated by tabs"},
		{"3\t23163416124767223154467471272416755633\t..=.-..", "1\t152535717273\t---++-+", "line 7: the set's line 1 is labelled twice"},
	} {
		bad := strings.Replace(good, c.from, c.to, 1)
		if bad == good {
			t.Fatalf("%q is not in the file", c.from)
		}
		_, err := ParseLabels([]byte(bad), s)
		if c.want == "x" {
			if err != nil {
				t.Errorf("%s: a win that stays a win is a fine row: %v", c.to, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s -> %s: error %v, want %q", c.from, c.to, err, c.want)
		}
	}
}

// column plays a fixed column, or the leftmost with room.
type column int

func (c column) Move(_ context.Context, s env.State) (int, error) {
	if env.IsLegal(s, int(c)-1) {
		return int(c) - 1, nil
	}
	return s.LegalActions(nil)[0], nil
}

func (c column) String() string { return fmt.Sprintf("column %d", int(c)) }

// The errors on the hand-made set, counted by hand: a move is an error
// when its class is worse than the best's, in every position counted.
func TestJudgeCountsErrors(t *testing.T) {
	s := parseHand(t)
	l := handLabels(t, s)
	g := Game()
	for _, c := range []struct {
		col    int
		errors int
		misses string
	}{
		// column 1: a loss in the won position (an error), a loss in the
		// lost one (no error), full in the drawn one, so column 3: a draw.
		{1, 1, "152535717273:1:loss"},
		{4, 0, ""}, // d1 wins; d in the drawn position is full: c, a draw
		{5, 1, "23163416124767223154467471272416755633:5:loss"}, // e4 loses the draw
		{6, 1, "152535717273:6:loss"},                           // f lets O win; the draw's f is full: c
		{7, 0, ""},
	} {
		newPlayer := func(uint64) (player.Player, error) { return column(c.col), nil }
		r, err := Judge(context.Background(), g, s, l, newPlayer, accuracy.Options{Parallel: 2})
		if err != nil {
			t.Fatal(err)
		}
		var misses []string
		for _, m := range r.Misses {
			misses = append(misses, fmt.Sprintf("%s:%d:%s", m.Moves, m.Column, m.Played))
		}
		if r.Positions != 3 || r.Errors != c.errors || strings.Join(misses, " ") != c.misses {
			t.Errorf("column %d: %d errors of %d (misses %v), want %d (%s)", c.col, r.Errors, r.Positions, misses, c.errors, c.misses)
		}
	}
	// The first position alone.
	newPlayer := func(uint64) (player.Player, error) { return column(1), nil }
	r, err := Judge(context.Background(), g, s, l, newPlayer, accuracy.Options{Limit: 1})
	if err != nil || r.Positions != 1 || r.Errors != 1 {
		t.Errorf("first position: %+v, %v", r, err)
	}
	lo, hi := r.Interval()
	if r.Rate() != 1 || hi != 1 || lo < 0.2 || lo > 0.21 || r.String() != "1 of 1: 100.0% [20.7, 100.0]" {
		t.Errorf("rate %v [%v, %v]: %s", r.Rate(), lo, hi, r)
	}
	// Positions not labelled are refused.
	delete(l.Rows, 2)
	if _, err := Judge(context.Background(), g, s, l, newPlayer, accuracy.Options{}); err == nil || !strings.Contains(err.Error(), "1 positions are not labelled yet (the first on line 3)") {
		t.Errorf("unlabelled: %v", err)
	}
	if r := (Result{}); r.Rate() != 0 || math.IsNaN(r.Rate()) {
		t.Errorf("empty result rate %v", r.Rate())
	}
}
