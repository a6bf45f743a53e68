package accuracy

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	c4solve "github.com/sliderzero/sliderzero/env/connect4/solve"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
)

// connect4Set builds a small set of critical Connect Four positions from
// random playouts, late enough to solve at once.
func connect4Set(t *testing.T, count int) *Set {
	t.Helper()
	g := connect4.New()
	set, st, err := BuildSet(context.Background(), g, BuildSetOptions{Name: "random", From: FromRandom, Count: count,
		MinPly: 20, Seed: 5, Parallel: 2, Scale: c4solve.Scale,
		NewSolver: func() env.ExactSolver { return c4solve.NewExact(8, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Entries) != count || st.Critical < count || st.Candidates < st.Critical {
		t.Fatalf("%d entries, stats %+v", len(set.Entries), st)
	}
	return set
}

// A Connect Four set holds distinct critical positions whose scores are
// the solver's, and survives its file format unchanged.
func TestBuildSetAndItsFile(t *testing.T) {
	set := connect4Set(t, 40)
	g := connect4.New()
	if err := set.Check(g); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	x := c4solve.NewExact(8, 0)
	for _, e := range set.Entries {
		if seen[e.Position] || !e.Critical() {
			t.Fatalf("%s: repeated or not critical (%+v)", e.Position, e)
		}
		seen[e.Position] = true
		s, _ := g.ParseState(e.Position)
		if s.Ply() < 20 {
			t.Errorf("%s: ply %d below the set's minimum", e.Position, s.Ply())
		}
		for _, m := range e.Moves {
			a, _ := s.ParseAction(m.Move)
			b, err := x.ScoreMove(context.Background(), s, a, false)
			if err != nil || b != (env.Bounds{Lo: m.Score, Hi: m.Score}) {
				t.Fatalf("%s move %s: set says %d, solver %v (%v)", e.Position, m.Move, m.Score, b, err)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "c4.set")
	if err := set.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSetFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	set.Write(&a)
	back.Write(&b)
	if a.String() != b.String() || back.Game != "connect4" || back.Name != "random" || len(back.Entries) != 40 {
		t.Fatalf("the file changed the set:\n%s\n---\n%s", a.String()[:300], b.String()[:300])
	}
}

// Bad set files are refused with the line and what is wrong.
func TestReadSetRefusesBadFiles(t *testing.T) {
	head := setMagic + "\n# game: connect4\n"
	for _, tc := range []struct{ text, want string }{
		{"", "empty"},
		{"hello\n", "not a position set"},
		{setMagic + "\n", "names no game"},
		{head + "pos\t1\n", "3 tab-separated"},
		{head + "pos\tx\ta:1\n", "not a whole number"},
		{head + "pos\t1\ta1\n", "not move:score"},
		{head + "pos\t1\ta:1 a:0\n", "twice"},
		{head + "pos\t1\t\n", "without moves"},
		{head + strings.Repeat("x", maxSetLine+10) + "\n", "longer than"},
	} {
		_, err := ReadSet(strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.40q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

// A set that measures nothing, or wrongly, is refused with the position
// and why (issue 65: an empty set printed "0.0% of 0" and exited 0,
// positions no move gives away and lost ones counted as kept, a Connect
// Four score of 99 was taken, an illegal move was reported as a score
// that is not the best).
func TestCheckRefusesSetsThatMeasureNothing(t *testing.T) {
	g := connect4.New()
	good := connect4Set(t, 1).Entries[0]
	st, _ := g.ParseState(good.Position)
	var moves []string
	for _, m := range good.Moves {
		moves = append(moves, m.Move)
	}
	// a position with a full column: six discs in column d
	fullState := g.Start(nil)
	for k := 0; k < 6; k++ {
		a, _ := fullState.ParseAction("d")
		fullState.Apply(a)
	}
	full := fullState.String()
	line := func(pos string, score int, ms string) Entry {
		e, err := parseEntry(fmt.Sprintf("%s\t%d\t%s", pos, score, ms))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	scored := func(score func(i int) int) string {
		var parts []string
		for i, m := range moves {
			parts = append(parts, fmt.Sprintf("%s:%d", m, score(i)))
		}
		return strings.Join(parts, " ")
	}
	for _, c := range []struct {
		name    string
		entries []Entry
		want    string
	}{
		{"no positions", nil, "holds no positions"},
		{"not critical", []Entry{line(good.Position, 0, scored(func(int) int { return 0 }))}, "not critical"},
		{"lost", []Entry{line(good.Position, -3, scored(func(i int) int { return -3 - i }))}, "lost for the side to move"},
		{"a score of 99", []Entry{line(good.Position, 99, scored(func(i int) int { return 99 - 100*min(i, 1) }))}, "outside the solver's scale"},
		{"a score the solver never gives here", []Entry{line(good.Position, 18, scored(func(i int) int { return 18 - 20*min(i, 1) }))}, "not one the solver gives here"},
		{"a score that is not the best", []Entry{line(good.Position, good.Score+1, scored(func(i int) int { return good.Moves[i].Score }))}, "not its best move's"},
	} {
		if c.name == "a score the solver never gives here" && st.Ply() < 7 {
			continue // 18 is a fastest win, possible only early
		}
		err := (&Set{Entries: c.entries}).Check(g)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	// An illegal move is named as such, even when its score is the best.
	if fs, err := g.ParseState(full); err == nil && !env.IsLegal(fs, 3) {
		var parts []string
		for _, a := range fs.LegalActions(nil) {
			parts = append(parts, fmt.Sprintf("%s:0", fs.ActionString(a)))
		}
		parts[0] = "d:5"
		text := fmt.Sprintf("%s\n# game: connect4\n%s\t0\t%s\n", setMagic, fs.String(), strings.Join(parts, " "))
		set, err := ReadSet(strings.NewReader(text))
		if err == nil {
			err = set.Check(g)
		}
		if err == nil || !strings.Contains(err.Error(), "illegal move d") {
			t.Errorf("an illegal move: %v", err)
		}
	} else {
		t.Fatalf("the full-column position %q: %v", full, err)
	}
	if err := (&Set{Entries: []Entry{good}}).Check(g); err != nil {
		t.Errorf("a good set: %v", err)
	}
}

func FuzzReadSet(f *testing.F) {
	f.Add(setMagic + "\n# game: connect4\npos\t1\ta:1 b:-2\n")
	f.Add(setMagic + "\n# name: x\n# game: g\n\n#\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ReadSet(strings.NewReader(text))
		if err != nil {
			return
		}
		// what reads, writes and reads back the same
		var buf bytes.Buffer
		if err := s.Write(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := ReadSet(&buf)
		if err != nil {
			t.Fatalf("a set that read does not read back: %v\n%q", err, buf.String())
		}
		if len(back.Entries) != len(s.Entries) {
			t.Fatalf("%d entries, then %d", len(s.Entries), len(back.Entries))
		}
	})
}

// scripted plays, on each position, the move a function of the entry
// picks.
type scripted struct {
	set  *Set
	pick func(Entry) string
}

func (p scripted) String() string { return "scripted" }
func (p scripted) Move(_ context.Context, s env.State) (int, error) {
	for _, e := range p.set.Entries {
		if e.Position == s.String() {
			return s.ParseAction(p.pick(e))
		}
	}
	return 0, nil
}

// MeasureSet counts exactly the positions whose chosen move keeps the
// class: all with the best moves, none with the worst, and splits them by
// class and by single-move positions.
func TestMeasureSetCountsKeptClasses(t *testing.T) {
	set := connect4Set(t, 30)
	g := connect4.New()
	best := func(e Entry) string {
		for _, m := range e.Moves {
			if m.Score == e.Score {
				return m.Move
			}
		}
		return ""
	}
	worst := func(e Entry) string {
		w := e.Moves[0]
		for _, m := range e.Moves {
			if m.Score < w.Score {
				w = m
			}
		}
		return w.Move
	}
	single, won := 0, 0
	for _, e := range set.Entries {
		if e.Keeping() == 1 {
			single++
		}
		if e.Score > 0 {
			won++
		}
	}
	for _, tc := range []struct {
		pick func(Entry) string
		kept int
	}{{best, 30}, {worst, 0}} {
		r, err := MeasureSet(context.Background(), g, set, func(uint64) (player.Player, error) { return scripted{set, tc.pick}, nil }, Options{Parallel: 2})
		if err != nil {
			t.Fatal(err)
		}
		if r.All.Kept != tc.kept || r.All.Total != 30 || r.Won.Total != won || r.Single.Total != single || r.Won.Total+r.Drawn.Total+r.Lost.Total != 30 {
			t.Errorf("kept %d of %d (want %d); won %d (want %d), single %d (want %d)", r.All.Kept, r.All.Total, tc.kept, r.Won.Total, won, r.Single.Total, single)
		}
	}
}

// The perfect player converts every won position of a set against itself
// as the defender, and a random player converts fewer.
func TestConvertSetWithThePerfectPlayer(t *testing.T) {
	set := connect4Set(t, 30)
	g := connect4.New()
	perfect := func(seed uint64) (player.Player, error) {
		return solver.NewPerfect(c4solve.NewExact(8, 0), "solver", 0, rand.New(rand.NewPCG(seed, 1))), nil
	}
	random := func(seed uint64) (player.Player, error) { return player.New("random", g, player.Options{Seed: seed}) }
	won, err := ConvertSet(context.Background(), g, set, perfect, perfect, Options{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if won.Total == 0 || won.Kept != won.Total {
		t.Fatalf("the perfect player converted %d of %d", won.Kept, won.Total)
	}
	rnd, err := ConvertSet(context.Background(), g, set, random, perfect, Options{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rnd.Total != won.Total || rnd.Kept >= won.Kept {
		t.Errorf("random converted %d of %d", rnd.Kept, rnd.Total)
	}
	// The games not won come back, each from a won start of the set, lost
	// or tied by the player to move there, and replayable.
	if len(won.Unconverted) != 0 || len(rnd.Unconverted) != rnd.Total-rnd.Kept {
		t.Errorf("%d and %d unconverted games, want 0 and %d", len(won.Unconverted), len(rnd.Unconverted), rnd.Total-rnd.Kept)
	}
	starts := map[string]bool{}
	for _, e := range set.Entries {
		starts[e.Position] = Class(e.Score) > 0
	}
	for _, r := range rnd.Unconverted {
		s, err := r.Replay(nil)
		if err != nil {
			t.Fatalf("game %d does not replay: %v", r.Number, err)
		}
		first, _ := g.ParseState(r.Start)
		if !starts[r.Start] || r.Spec.Name != "connect4" || s.Outcome().Winner == first.ToMove() || !s.Outcome().Over {
			t.Errorf("game %d from %s (%s): %v", r.Number, r.Start, r.Spec.Name, s.Outcome())
		}
	}
	// A time limit too short to solve anything still gives a legal move.
	hurried := solver.NewPerfect(c4solve.NewExact(8, 0), "solver:time=1ns", time.Nanosecond, rand.New(rand.NewPCG(1, 1)))
	s := g.Start(nil)
	if a, err := hurried.Move(context.Background(), s); err != nil || !env.IsLegal(s, a) {
		t.Errorf("hurried move %d: %v", a, err)
	}
}
