package rlgame

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/envtest"
)

var std, _ = New(Config{})

func parse(t testing.TB, g *Game, pos string) *State {
	t.Helper()
	s, err := g.ParseState(pos)
	if err != nil {
		t.Fatalf("%s: %v", pos, err)
	}
	return s.(*State)
}

const empty8 = "......../......../......../......../......../......../......../........"

func TestStartAndLeavingTheBase(t *testing.T) {
	s := std.Start(nil).(*State)
	if s.String() != empty8+" W 10 10" || s.ToMove() != White {
		t.Fatalf("start %s", s)
	}
	// White's pawns leave the 2x2 base for the four cells bordering it.
	if got, want := envtest.Moves(s), []string{"@a3", "@b3", "@c1", "@c2"}; !slices.Equal(got, want) {
		t.Errorf("White's opening moves %v, want %v", got, want)
	}
	envtest.Play(t, s, "@c1")
	if b, n := s.Pawns(White); b != 1<<2 || n != 9 {
		t.Errorf("after @c1: board %x, base %d", b, n)
	}
	// Black's, mirrored: f6, f7, g6, h6.
	if got, want := envtest.Moves(s), []string{"@f7", "@f8", "@g6", "@h6"}; !slices.Equal(got, want) {
		t.Errorf("Black's opening moves %v, want %v", got, want)
	}
	if _, err := s.ParseAction("@d4"); err == nil || !strings.Contains(err.Error(), "does not border") {
		t.Errorf("leaving to a far cell: %v", err)
	}
}

func TestDistanceRule(t *testing.T) {
	// White on e3 (distance max(4,2)-2+1 = 3): d3 would be distance 2.
	s := parse(t, std, "......../......../......../......../......../....W.../......../........ W 9 10")
	if got, want := envtest.Moves(s), []string{"@a3", "@b3", "@c1", "@c2", "e3e2", "e3e4", "e3f3"}; !slices.Equal(got, want) {
		t.Errorf("moves %v, want %v", got, want)
	}
	if _, err := s.ParseAction("e3d3"); err == nil || !strings.Contains(err.Error(), "nearer its own base") {
		t.Errorf("moving towards the base: %v", err)
	}
	// Black on d6 (distance max(7-3,7-5)-1 = 3): e6 would be distance 2.
	b := parse(t, std, "......../......../...B..../......../......../......../......../........ B 10 9")
	if _, err := b.ParseAction("d6e6"); err == nil {
		t.Error("Black moved towards its base")
	}
	if _, err := b.ParseAction("d6c6"); err != nil {
		t.Errorf("Black moving away: %v", err)
	}
	// Into its own base never: White on c1 cannot step left into b1.
	c := parse(t, std, "......../......../......../......../......../......../......../..W..... W 9 10")
	if slices.Contains(envtest.Moves(c), "c1b1") {
		t.Error("a pawn re-entered its base")
	}
}

func TestRemovalOfTrappedPawns(t *testing.T) {
	g, _ := New(Config{Size: 6, Base: 1, Pawns: 5})
	// White's pawn on a3 may go to a4 or b3 only (a2 is nearer its base).
	// Black holds a4 and moves c3 -> b3: the White pawn is trapped and
	// removed.
	s := parse(t, g, "....../....../B...../W.B.../....../...... B 3 3")
	envtest.Play(t, s, "c3b3")
	if b, _ := s.Pawns(White); b != 0 {
		t.Errorf("White's trapped pawn on a3 survives: %s", s)
	}
	if s.Outcome().Over {
		t.Errorf("White still has pawns in its base: %+v", s.Outcome())
	}
	// Pawns in a base are removed together when every exit is taken: with
	// a 1x1 base, White's exits are b1 and a2.
	w := parse(t, g, "....../....../....../....../B...../..B... B 5 3")
	envtest.Play(t, w, "c1b1")
	if _, n := w.Pawns(White); n != 0 {
		t.Errorf("White's base pawns survive with both exits taken: %s", w)
	}
	if o := w.Outcome(); !o.Over || o.Winner != Black {
		t.Errorf("White has no pawn left: %+v", o)
	}
}

func TestRemovalOfBothColours(t *testing.T) {
	g, _ := New(Config{Size: 6, Base: 1, Pawns: 5})
	// Black's pawn on a6 may only go down to a5 (b6 is nearer its base).
	// White moving b5 -> a5 traps and removes it; the White pawn keeps a
	// free target (b5) and stays.
	s := parse(t, g, "B...../.W..../....../....../....../...... W 4 4")
	envtest.Play(t, s, "b5a5")
	if b, _ := s.Pawns(Black); b != 0 {
		t.Errorf("Black's trapped a6 pawn survives: %s", s)
	}
	if b, _ := s.Pawns(White); b == 0 {
		t.Errorf("White's pawn was removed too: %s", s)
	}
}

func TestWinning(t *testing.T) {
	// Entering any cell of the enemy base wins.
	s := parse(t, std, "......../......../......W./......../......../......../......../........ W 9 10")
	envtest.Play(t, s, "g6g7")
	if o := s.Outcome(); !o.Over || o.Winner != White {
		t.Errorf("entering Black's base: %+v", o)
	}
	// Winning by elimination: Black's last pawn is trapped by White's move.
	g, _ := New(Config{Size: 6, Base: 1, Pawns: 5})
	e := parse(t, g, "B...../.W..../....../....../....../...... W 4 0")
	envtest.Play(t, e, "b5a5")
	if o := e.Outcome(); !o.Over || o.Winner != White {
		t.Errorf("eliminating Black: %+v", o)
	}
}

func TestPlyCap(t *testing.T) {
	g, _ := New(Config{PlyCap: 2})
	s := g.Start(nil).(*State)
	envtest.Play(t, s, "@c1")
	envtest.Play(t, s, "@f8")
	if o := s.Outcome(); !o.Over || o.Winner != env.NoSide {
		t.Errorf("at the cap: %+v", o)
	}
}

func TestRandomPlayInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, cfg := range []Config{{}, {Size: 6, Base: 1, Pawns: 5}, {Size: 5, Base: 2, Pawns: 3}} {
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		size := g.InputShape().Size()
		for _, st := range envtest.RandomPositions(g, rng, 400) {
			s := st.(*State)
			if len(s.LegalActions(nil)) == 0 {
				t.Fatalf("%s: no legal move in a live position", s)
			}
			p := parse(t, g, s.String())
			if p.pawns != s.pawns || p.inBase != s.inBase || p.toMove != s.toMove {
				t.Fatalf("round trip %s -> %s", s, p)
			}
			for _, a := range s.LegalActions(nil) {
				back, err := s.ParseAction(s.ActionString(a))
				if err != nil || back != a {
					t.Fatalf("%s: %s -> %d, %v", s, s.ActionString(a), back, err)
				}
			}
			// The diagonal mirror: encodings and actions correspond.
			m := mirror(s)
			enc, want, got := make([]float32, size), make([]float32, size), make([]float32, size)
			s.Encode(enc)
			m.Encode(want)
			g.TransformInput(1, enc, got)
			if !slices.Equal(want, got) {
				t.Fatalf("mirror of %s: encodings differ", s)
			}
			var mapped []int
			for _, a := range s.LegalActions(nil) {
				mapped = append(mapped, g.TransformAction(1, a))
			}
			legal := m.LegalActions(nil)
			slices.Sort(mapped)
			slices.Sort(legal)
			if !slices.Equal(mapped, legal) {
				t.Fatalf("mirror of %s: actions %v, mirror's %v", s, mapped, legal)
			}
		}
	}
}

func mirror(s *State) *State {
	m := *s
	for side := range m.pawns {
		m.pawns[side] = 0
		for b := s.pawns[side]; b != 0; b &= b - 1 {
			sq := 0
			for ; b&(1<<sq) == 0; sq++ {
			}
			m.pawns[side] |= 1 << ((sq&7)*8 + sq>>3)
		}
	}
	return &m
}

func TestConfigs(t *testing.T) {
	for _, bad := range []Config{{Size: 3}, {Size: 9}, {Base: 4}, {Size: 6, Base: 3}, {Pawns: -1}} {
		if _, err := New(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if std.ActionSize() != 8*8*4+4 {
		t.Errorf("action space %d", std.ActionSize())
	}
}

func FuzzParseState(f *testing.F) {
	f.Add(empty8 + " W 10 10")
	f.Add("......../......W./......../......../......../......../......../........ B 9 10")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := std.ParseState(text)
		if err != nil {
			return
		}
		p, err := std.ParseState(s.String())
		if err != nil || p.String() != s.String() {
			t.Fatalf("%q -> %s -> %v, %v", text, s, p, err)
		}
		st := s.(*State)
		if st.pawns[White]&st.pawns[Black] != 0 {
			t.Fatalf("%q: overlapping pawns", text)
		}
	})
}

func FuzzParseAction(f *testing.F) {
	for _, m := range []string{"@c1", "c1d1", "@a9", "h8h9", "pass", ""} {
		f.Add(m)
	}
	s := parse(f, std, "......../......../......../......../......../....W.../......../........ W 9 10")
	f.Fuzz(func(t *testing.T, text string) {
		if a, err := s.ParseAction(text); err == nil && !env.IsLegal(s, a) {
			t.Fatalf("%q parsed to illegal action %d", text, a)
		}
	})
}
