// Tests of positions as text and as input: parsing, round trips, the
// transpose, the encoding, hashes, random starts.

package slider

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sliderzero/sliderzero/env"
)

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
