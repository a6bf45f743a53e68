package catsdogs

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/envtest"
)

var game, _ = New(0)

func parse(t testing.TB, pos string) *State {
	t.Helper()
	s, err := game.ParseState(pos)
	if err != nil {
		t.Fatalf("%s: %v", pos, err)
	}
	return s.(*State)
}

func TestStart(t *testing.T) {
	s := game.Start(nil).(*State)
	if got := s.String(); got != "CDDDDDC/DDDDDDD/DDDDDDD/DDDCDDD/DDDDDDD/DDDDDDD/CDDDDDC C" {
		t.Errorf("start %s", got)
	}
	// Each corner Cat has two Dogs beside it, the centre Cat four.
	if n := len(s.LegalActions(nil)); n != 12 {
		t.Errorf("%d opening moves, want 12: %v", n, envtest.Moves(s))
	}
	if s.ToMove() != Cats || s.Outcome().Over {
		t.Error("the Cats move first")
	}
}

func TestCatCapturesADog(t *testing.T) {
	s := game.Start(nil).(*State)
	envtest.Play(t, s, "d4U")
	if got := s.String(); !strings.HasPrefix(got, "CDDDDDC/DDDDDDD/DDDCDDD/DDD.DDD/") || !strings.HasSuffix(got, " D") {
		t.Errorf("after d4U: %s", got)
	}
	if n := bitsCount(s.dogs); n != 43 {
		t.Errorf("%d Dogs left, want 43", n)
	}
	// A Cat cannot move onto an empty cell or leave the board.
	c := parse(t, "C.DDDDC/DDDDDDD/DDDDDDD/DDDDDDD/DDDDDDD/DDDDDDD/CDDDDDC C")
	if _, err := c.ParseAction("a7R"); err == nil || !strings.Contains(err.Error(), "only onto a Dog") {
		t.Errorf("Cat onto an empty cell: %v", err)
	}
	if _, err := c.ParseAction("a7U"); err == nil || !strings.Contains(err.Error(), "leaves the board") {
		t.Errorf("Cat off the board: %v", err)
	}
}

func bitsCount(b uint64) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

func TestTwoDogStepsAndMovingBack(t *testing.T) {
	s := game.Start(nil).(*State)
	envtest.Play(t, s, "d4U") // leaves d4 empty
	if s.ToMove() != Dogs || s.DogStep() != 0 {
		t.Fatalf("after the Cat: %s", s)
	}
	// Only the Dogs beside d4 can step, into d4 (the Cat now holds d5).
	if got, want := envtest.Moves(s), []string{"c4R", "d3U", "e4L"}; !slices.Equal(got, want) {
		t.Errorf("first step %v, want %v", got, want)
	}
	envtest.Play(t, s, "d3U")
	if s.ToMove() != Dogs || s.DogStep() != 1 || !strings.HasSuffix(s.String(), " D2") {
		t.Fatalf("after one step: %s", s)
	}
	// The same Dog may step back.
	if !slices.Contains(envtest.Moves(s), "d4D") {
		t.Errorf("moving back is not offered: %v", envtest.Moves(s))
	}
	envtest.Play(t, s, "d4D")
	if s.ToMove() != Cats {
		t.Errorf("after two steps the Cats move: %s", s)
	}
	if s.Ply() != 3 {
		t.Errorf("ply %d, want 3 (a capture and two steps)", s.Ply())
	}
}

func TestDogsWinByThreeInALine(t *testing.T) {
	// A Cat capture that puts three Cats in row 1 wins for the Dogs.
	s := parse(t, "DDDDDDD/DDDDDDD/DDDDDDD/DDDDDDD/DDDDDDD/DCDDDDD/CDDCDDD C")
	envtest.Play(t, s, "b2D")
	if o := s.Outcome(); !o.Over || o.Winner != Dogs {
		t.Errorf("three Cats in row 1: %+v", o)
	}
	// Three in a column, made by a Cat move.
	c := parse(t, "DDDDDDD/DDDDDDD/DDDDDDD/CDDDDDD/DCDDDDD/CDDDDDD/DDDDDDD C")
	envtest.Play(t, c, "b3L")
	if o := c.Outcome(); !o.Over || o.Winner != Dogs {
		t.Errorf("three Cats in column a: %+v", o)
	}
	// A parsed position with a line is already over.
	if o := parse(t, "CCCDDDD/DDDDDDD/DDDDDDD/DDDDDDD/DDDDDDD/DDDDDDD/DDDDDDD D").Outcome(); o.Winner != Dogs || !o.Over {
		t.Errorf("line in a parsed position: %+v", o)
	}
}

func TestCatsWinWhenStuck(t *testing.T) {
	// The Cats' neighbours are all empty: at the start of their turn they
	// cannot move, and no line exists.
	s := parse(t, "C.....C/......./......./...C.../......./..D..../C.....C C")
	if o := s.Outcome(); !o.Over || o.Winner != Cats {
		t.Errorf("stuck Cats: %+v", o)
	}
	// The same after the Dogs' second step leaves them stuck.
	d := parse(t, "C.....C/......./......./...C.../......./D....../C.....C D2")
	if d.Outcome().Over {
		t.Fatal("over before the Dogs' step")
	}
	envtest.Play(t, d, "a2R")
	if o := d.Outcome(); !o.Over || o.Winner != Cats {
		t.Errorf("Cats stuck after the Dogs' turn: %+v", o)
	}
}

func TestDogPassesAndForgoneStep(t *testing.T) {
	// No Dog can move at all: the Dogs pass, and only then.
	s := parse(t, "DC...../C....../......./......./......./......./....... D")
	if got := envtest.Moves(s); !slices.Equal(got, []string{"pass"}) {
		t.Fatalf("walled-in Dogs: %v", got)
	}
	if _, err := parse(t, "CDDDDDC/DDDDDDD/DDDDDDD/DDD.DDD/DDDDDDD/DDDDDDD/CDDDDDC D").ParseAction("pass"); err == nil {
		t.Error("Dogs passed with a move")
	}
	envtest.Play(t, s, "pass")
	if s.ToMove() != Cats || s.Outcome().Over {
		t.Errorf("after the pass: %s %+v", s, s.Outcome())
	}
	// A Dog's first step empties the cell it came from, so in play the same
	// Dog can always step back and a second step is never forgone; a
	// position given with the second step due and no Dog able to move shows
	// the rule: the turn goes to the Cats at once.
	f := parse(t, "DC...../C....../......./......./......./......./....... D2")
	if f.ToMove() != Cats || f.Outcome().Over {
		t.Errorf("forgone second step: %s %+v", f, f.Outcome())
	}
}

func TestPlyCap(t *testing.T) {
	g, _ := New(2)
	s := g.Start(nil).(*State)
	envtest.Play(t, s, "d4U")
	envtest.Play(t, s, "d3U")
	if o := s.Outcome(); !o.Over || o.Winner != env.NoSide {
		t.Errorf("at the cap: %+v", o)
	}
}

func TestRoundTripsAndSymmetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	size := game.InputShape().Size()
	for _, st := range envtest.RandomPositions(game, rng, 500) {
		s := st.(*State)
		p := parse(t, s.String())
		if p.cats != s.cats || p.dogs != s.dogs || p.toMove != s.toMove || p.step != s.step {
			t.Fatalf("round trip %s -> %s", s, p)
		}
		for _, a := range s.LegalActions(nil) {
			back, err := s.ParseAction(s.ActionString(a))
			if err != nil || back != a {
				t.Fatalf("%s: %s -> %d, %v", s, s.ActionString(a), back, err)
			}
		}
		enc := make([]float32, size)
		s.Encode(enc)
		for k := 1; k < 8; k++ {
			m := mirror(s, k)
			want, got := make([]float32, size), make([]float32, size)
			m.Encode(want)
			game.TransformInput(k, enc, got)
			if !slices.Equal(want, got) {
				t.Fatalf("symmetry %d: encodings differ for %s", k, s)
			}
			var mapped []int
			for _, a := range s.LegalActions(nil) {
				mapped = append(mapped, game.TransformAction(k, a))
			}
			legal := m.LegalActions(nil)
			slices.Sort(mapped)
			slices.Sort(legal)
			if !slices.Equal(mapped, legal) {
				t.Fatalf("symmetry %d of %s: actions %v, mirror's %v", k, s, mapped, legal)
			}
		}
	}
}

// mirror applies symmetry k to a position.
func mirror(s *State, k int) *State {
	m := *s
	m.cats, m.dogs = 0, 0
	for sq := 0; sq < cells; sq++ {
		x, y := mapCell(k, sq%Size, sq/Size)
		if s.cats&(1<<sq) != 0 {
			m.cats |= 1 << (y*Size + x)
		}
		if s.dogs&(1<<sq) != 0 {
			m.dogs |= 1 << (y*Size + x)
		}
	}
	return &m
}

func TestEveryGameEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200; i++ {
		s := game.Start(nil).(*State)
		for !s.Outcome().Over {
			legal := s.LegalActions(nil)
			s.Apply(legal[rng.IntN(len(legal))])
		}
		if s.Outcome().Winner == env.NoSide {
			t.Fatalf("a random game reached the ply cap: %s", s)
		}
	}
}

func FuzzParseState(f *testing.F) {
	f.Add("CDDDDDC/DDDDDDD/DDDDDDD/DDDCDDD/DDDDDDD/DDDDDDD/CDDDDDC C")
	f.Add("C.....C/......./......./...C.../......./D....../C.....C D2")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := game.ParseState(text)
		if err != nil {
			return
		}
		st := s.(*State)
		if st.cats&st.dogs != 0 || (st.cats|st.dogs)&^full != 0 {
			t.Fatalf("%q: overlapping bitboards", text)
		}
		p, err := game.ParseState(s.String())
		if err != nil || p.String() != s.String() {
			t.Fatalf("%q -> %s -> %v, %v", text, s, p, err)
		}
	})
}

func FuzzParseAction(f *testing.F) {
	for _, m := range []string{"d4U", "pass", "a1R", "g7L", "h1U", ""} {
		f.Add(m)
	}
	s := game.Start(nil).(*State)
	f.Fuzz(func(t *testing.T, text string) {
		if a, err := s.ParseAction(text); err == nil && !env.IsLegal(s, a) {
			t.Fatalf("%q parsed to illegal action %d", text, a)
		}
	})
}
