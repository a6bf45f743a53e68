package envtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
)

// Options tunes Conformance. Zero values take the defaults.
type Options struct {
	// Games is the number of random games played from the start (default
	// 200); the positions met along them are the ones checked.
	Games int
	// MaxPositions bounds the positions checked in depth (default 3000).
	MaxPositions int
	// MaxPlies bounds a game of a game without a ply cap (env.Capped);
	// default 100,000.
	MaxPlies int
	// Seed seeds the random games.
	Seed uint64
}

// Report counts what Conformance checked and what failed, per check.
type Report struct {
	Games, Positions, Moves int
	// Checks counts the assertions made, per check; Failures those that
	// failed.
	Checks, Failures map[string]int
}

// Total is the number of assertions made, and of those that failed.
func (r Report) Total() (checks, failures int) {
	for _, n := range r.Checks {
		checks += n
	}
	for _, n := range r.Failures {
		failures += n
	}
	return checks, failures
}

func (r Report) String() string {
	c, f := r.Total()
	var names []string
	for k := range r.Checks {
		names = append(names, k)
	}
	sort.Strings(names)
	var parts []string
	for _, k := range names {
		parts = append(parts, fmt.Sprintf("%s %d", k, r.Checks[k]))
	}
	return fmt.Sprintf("%d games, %d positions, %d moves; %d checks (%s), %d failed", r.Games, r.Positions, r.Moves, c, strings.Join(parts, ", "), f)
}

// suite runs the checks and counts them.
type suite struct {
	t testing.TB
	g env.Game
	r Report
}

// check records one assertion of a check; a failure is reported with
// t.Errorf, at most three times a check so that one broken method does
// not flood the log.
func (s *suite) check(name string, ok bool, format string, args ...any) bool {
	s.r.Checks[name]++
	if ok {
		return true
	}
	s.r.Failures[name]++
	if s.r.Failures[name] <= 3 {
		s.t.Helper()
		s.t.Errorf("%s: %s: %s", s.g.Name(), name, fmt.Sprintf(format, args...))
	}
	return false
}

// Conformance checks that g keeps the env contract, from random games from
// its start: legal moves are in range, distinct, and round-trip through
// their notation; Apply changes only its receiver (Clone and CopyFrom give
// independent copies); positions round-trip through their one-line form
// with the same hash, moves and encoding; encodings have the declared
// shape, are finite and equal for equal positions; a finished game has no
// moves and a valid result, an unfinished one has moves; declared
// symmetries map the moves of a position to the moves of its image and
// keep its result; random games end within the cap; a seeded game is
// repeated exactly; side names round-trip; a drawn board and its move
// shapes (env.Drawn, env.Shaped) fit the board. A game's test calls it
// in one line:
//
//	func TestConformance(t *testing.T) { envtest.Conformance(t, myGame, envtest.Options{}) }
func Conformance(t testing.TB, g env.Game, o Options) Report {
	t.Helper()
	if o.Games <= 0 {
		o.Games = 200
	}
	if o.MaxPositions <= 0 {
		o.MaxPositions = 3000
	}
	if o.MaxPlies <= 0 {
		o.MaxPlies = 100_000
	}
	s := &suite{t: t, g: g, r: Report{Checks: map[string]int{}, Failures: map[string]int{}}}
	s.safely("sides", s.sides)
	var positions []env.State
	s.safely("playout", func() { positions = s.playouts(o) })
	s.safely("seed", func() { s.repeatable(o) })
	byEncoding := map[string][]env.State{}
	if _, ok := g.(env.Symmetric); ok {
		for _, p := range positions {
			s.safely("encoding", func() {
				key := encodingKey(p)
				byEncoding[key] = append(byEncoding[key], p)
			})
		}
	}
	for _, p := range positions {
		s.r.Positions++
		s.safely("position", func() { s.position(p) })
		s.safely("moves", func() { s.moves(p) })
		s.safely("draw", func() { s.draw(p) })
		s.safely("symmetry", func() { s.symmetries(p, byEncoding) })
	}
	return s.r
}

// safely runs a check, counting a panic of the game's code as its failure.
func (s *suite) safely(name string, f func()) {
	defer func() {
		if e := recover(); e != nil {
			s.check(name, false, "panic: %v", e)
		}
	}()
	f()
}

func (s *suite) sides() {
	for side := env.Side(0); side < 2; side++ {
		name := s.g.SideName(side)
		back, err := s.g.ParseSide(name)
		s.check("sides", err == nil && back == side, "side %d is written %q and read back as %d (%v)", side, name, back, err)
	}
}

// playouts plays o.Games random games to their ends and returns up to
// o.MaxPositions positions met, spread over the games.
func (s *suite) playouts(o Options) []env.State {
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	limit := o.MaxPlies
	if c, ok := s.g.(env.Capped); ok {
		limit = c.PlyCap()
	}
	var all []env.State
	buf := make([]int, 0, 64)
	for i := 0; i < o.Games; i++ {
		st := s.g.Start(rng)
		s.r.Games++
		for ply := 0; !st.Outcome().Over; ply++ {
			if !s.check("playout", ply <= limit, "a random game is still going after %d plies (cap %d): %s", ply, limit, env.Excerpt(st.String(), 200)) {
				break
			}
			kept, text := st.Clone(), st.String()
			all = append(all, kept)
			buf = st.LegalActions(buf[:0])
			if len(buf) == 0 {
				break // position() reports it
			}
			st.Apply(buf[rng.IntN(len(buf))])
			s.r.Moves++
			s.check("apply", kept.String() == text, "a clone of %s changed when the position it was cloned from moved", env.Quote(text))
		}
		all = append(all, st.Clone())
	}
	if len(all) <= o.MaxPositions {
		return all
	}
	picked := make([]env.State, 0, o.MaxPositions)
	for _, k := range rng.Perm(len(all))[:o.MaxPositions] {
		picked = append(picked, all[k])
	}
	return picked
}

// repeatable plays the same seeded game twice.
func (s *suite) repeatable(o Options) {
	play := func() []string {
		rng := rand.New(rand.NewPCG(o.Seed, 7))
		st := s.g.Start(rng)
		out := []string{st.String()}
		for ply := 0; ply < 1000 && !st.Outcome().Over; ply++ {
			legal := st.LegalActions(nil)
			if len(legal) == 0 {
				break
			}
			st.Apply(legal[rng.IntN(len(legal))])
			out = append(out, st.String())
		}
		return out
	}
	a, b := play(), play()
	s.check("seed", slices.Equal(a, b), "two games with the same seed differ (%d and %d positions)", len(a), len(b))
}

func encodingKey(st env.State) string {
	size := st.Game().InputShape().Size()
	buf := make([]float32, size+1) // room for a game that writes past its shape
	st.Encode(buf[:size])
	return fmt.Sprint(buf[:size])
}

// position checks one position's form, hash, encoding and outcome.
func (s *suite) position(p env.State) {
	g := s.g
	text := p.String()
	q, err := g.ParseState(text)
	// The one-line form need not hold the ply: a position read back may
	// start counting afresh, and then a game the cap ended is not over,
	// and an encoding that sees the ply differs.
	if s.check("notation", err == nil, "its own position %s does not parse: %v", env.Quote(text), err) {
		s.check("notation", q.String() == text, "position %s reads back as %s", env.Quote(text), env.Quote(q.String()))
		s.check("hash", q.Hash() == p.Hash(), "position %s read back has another hash", env.Quote(text))
		if !env.EndedByCap(p) {
			s.check("notation", slices.Equal(sorted(q.LegalActions(nil)), sorted(p.LegalActions(nil))), "position %s read back has other moves", env.Quote(text))
			s.check("notation", q.Outcome() == p.Outcome(), "position %s read back has outcome %+v, not %+v", env.Quote(text), q.Outcome(), p.Outcome())
		}
		if !p.Outcome().Over {
			s.check("notation", q.ToMove() == p.ToMove(), "position %s read back has the other side to move", env.Quote(text))
			if q.Ply() == p.Ply() {
				s.check("encoding", encodingKey(q) == encodingKey(p), "position %s read back encodes differently", env.Quote(text))
			}
		}
	}
	c := p.Clone()
	s.check("hash", c.Hash() == p.Hash(), "a clone of %s has another hash", env.Quote(text))
	size := g.InputShape().Size()
	s.check("encoding", size > 0, "input shape %+v is empty", g.InputShape())
	if o := p.Outcome(); o.Over {
		s.check("terminal", len(p.LegalActions(nil)) == 0, "finished position %s has legal moves", env.Quote(text))
		s.check("terminal", o.Winner == env.NoSide || o.Winner == 0 || o.Winner == 1, "finished position %s has winner %d", env.Quote(text), o.Winner)
		return
	}
	s.check("terminal", len(p.LegalActions(nil)) > 0, "unfinished position %s has no legal move (a player who must pass has the pass action)", env.Quote(text))
	s.check("terminal", p.ToMove() == 0 || p.ToMove() == 1, "position %s has side %d to move", env.Quote(text), p.ToMove())
	// Encode writes exactly its shape: a guard value past the end stays,
	// and values already there are overwritten.
	a := make([]float32, size+1)
	b := make([]float32, size+1)
	for i := range b {
		b[i] = float32(math.NaN())
	}
	a[size], b[size] = 12345, 12345
	p.Encode(a[:size])
	p.Encode(b[:size])
	c.Encode(b[:size])
	s.check("encoding", a[size] == 12345 && b[size] == 12345, "Encode of %s writes past its shape", env.Quote(text))
	finite := true
	for _, v := range a[:size] {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			finite = false
		}
	}
	s.check("encoding", finite, "Encode of %s writes a value that is not finite", env.Quote(text))
	s.check("encoding", slices.Equal(a, b), "Encode of %s and of its clone differ, or Encode leaves values unwritten", env.Quote(text))
}

func sorted(a []int) []int { slices.Sort(a); return a }

// moves checks the legal moves of an unfinished position and what Apply
// does with each.
func (s *suite) moves(p env.State) {
	if p.Outcome().Over {
		return
	}
	g := s.g
	text, hash := p.String(), p.Hash()
	legal := p.LegalActions(nil)
	seen := map[int]bool{}
	names := map[string]bool{}
	scratch := p.Clone()
	wins := map[int]bool{} // the moves that win at once by the rules
	for _, a := range legal {
		if !s.check("legal", a >= 0 && a < g.ActionSize(), "action %d of %s is outside [0, %d)", a, env.Quote(text), g.ActionSize()) {
			continue
		}
		s.check("legal", !seen[a], "action %d is listed twice in %s", a, env.Quote(text))
		seen[a] = true
		name := p.ActionString(a)
		s.check("notation", !names[name], "two moves of %s are written %q", env.Quote(text), name)
		names[name] = true
		back, err := p.ParseAction(name)
		s.check("notation", err == nil && back == a, "move %q (action %d) of %s reads back as %d (%v)", name, a, env.Quote(text), back, err)
		scratch.CopyFrom(p)
		s.check("apply", scratch.String() == text && scratch.Hash() == hash, "CopyFrom of %s gives %s", env.Quote(text), env.Quote(scratch.String()))
		scratch.Apply(a)
		s.check("apply", p.String() == text && p.Hash() == hash, "applying %s to a copy of %s changed the original", name, env.Quote(text))
		s.check("apply", scratch.Ply() == p.Ply()+1, "after %s the ply is %d, not %d", name, scratch.Ply(), p.Ply()+1)
		after := scratch.Clone()
		s.check("apply", after.String() == scratch.String() && after.Hash() == scratch.Hash(), "a clone after %s differs from the position", name)
		if o := scratch.Outcome(); o.Over && o.Winner == p.ToMove() && !env.EndedByCap(scratch) {
			wins[a] = true
		}
	}
	if f, ok := p.(env.WinFinder); ok {
		got := f.WinningAction()
		s.check("winfinder", wins[got] || got == -1 && len(wins) == 0, "WinningAction of %s is %d; the moves that win at once are %v", env.Quote(text), got, sorted(keysOf(wins)))
	}
	s.check("legal", env.IsLegal(p, legal[0]), "env.IsLegal refuses the first legal action of %s", env.Quote(text))
	_, err := p.ParseAction("no-such-move-zz9")
	s.check("notation", err != nil, "ParseAction accepts nonsense in %s", env.Quote(text))
}

// draw checks the board front ends draw and the move shapes they click.
func (s *suite) draw(p env.State) {
	var rows [][]string
	for _, line := range strings.Split(strings.TrimRight(p.Board(), "\n"), "\n") {
		rows = append(rows, strings.Fields(line))
	}
	cols := len(rows[0])
	for _, r := range rows {
		s.check("draw", len(r) == cols, "the board's rows have %d and %d cells", cols, len(r))
	}
	if d, ok := s.g.(env.Drawn); ok {
		looks := d.Looks()
		for token, l := range looks {
			s.check("draw", token != "" && !strings.ContainsAny(token, " \t\n"), "token %q cannot be a board word", token)
			s.check("draw", l.Side == env.NoSide || l.Side == 0 || l.Side == 1, "token %q is a piece of side %d", token, l.Side)
		}
	}
	sh, ok := env.Unwrap(p).(env.Shaped)
	if !ok || p.Outcome().Over {
		return
	}
	near := func(c *env.Cell) bool {
		return c.Col >= -1 && c.Row >= -1 && c.Col <= cols && c.Row <= len(rows)
	}
	inside := func(c *env.Cell) bool { return c.Col >= 0 && c.Row >= 0 && c.Col < cols && c.Row < len(rows) }
	shapes := map[string]string{}
	for _, a := range p.LegalActions(nil) {
		m := sh.MoveShape(a)
		name := p.ActionString(a)
		s.check("draw", !m.Off || env.FrameOf(p.Game()).OffBoard, "move %s leaves the board, but the game's frame has no ring to click for it (env.Framed)", name)
		switch {
		case m.From == nil && m.To == nil:
			s.check("draw", m.Button != "", "move %s has no cell and no button", name)
		case m.From != nil:
			s.check("draw", inside(m.From) && m.To != nil && near(m.To) && inside(m.To) != m.Off, "move %s goes from %v to %v (off %v) on a %dx%d board", name, m.From, m.To, m.Off, len(rows), cols)
		default:
			s.check("draw", inside(m.To), "drop %s lands on %v, outside the %dx%d board", name, m.To, len(rows), cols)
		}
		var key string
		switch {
		case m.From != nil && m.To != nil:
			key = fmt.Sprint("move", *m.From, *m.To)
		case m.Column && m.To != nil:
			key = fmt.Sprint("column", m.To.Col)
		case m.To != nil:
			key = fmt.Sprint("drop", *m.To)
		default:
			key = "button " + m.Button
		}
		other, dup := shapes[key]
		s.check("draw", !dup, "moves %s and %s are the same click", other, name)
		shapes[key] = name
	}
}

// symmetries checks a game's declared symmetries: the identity is the
// identity, each maps actions one to one and keeps encodings' values, and
// where the image of a position is among the positions met, the position's
// moves map onto the image's and the outcome is the same.
func (s *suite) symmetries(p env.State, byEncoding map[string][]env.State) {
	sym, ok := s.g.(env.Symmetric)
	if !ok || p.Outcome().Over {
		return
	}
	size := s.g.InputShape().Size()
	src := make([]float32, size)
	p.Encode(src)
	dst := make([]float32, size)
	legal := sorted(p.LegalActions(nil))
	for k := 0; k < sym.Symmetries(); k++ {
		sym.TransformInput(k, src, dst)
		if k == 0 {
			s.check("symmetry", slices.Equal(src, dst), "symmetry 0 changes the encoding")
		}
		a, b := slices.Clone(src), slices.Clone(dst)
		slices.Sort(a)
		slices.Sort(b)
		s.check("symmetry", slices.Equal(a, b), "symmetry %d does not permute the encoding's values", k)
		var mapped []int
		seen := map[int]bool{}
		for _, act := range legal {
			m := sym.TransformAction(k, act)
			if k == 0 {
				s.check("symmetry", m == act, "symmetry 0 maps action %d to %d", act, m)
			}
			s.check("symmetry", m >= 0 && m < s.g.ActionSize() && !seen[m], "symmetry %d maps action %d to %d, out of range or taken", k, act, m)
			seen[m] = true
			mapped = append(mapped, m)
		}
		for _, img := range byEncoding[fmt.Sprint(dst)] {
			if img.Outcome().Over || img.ToMove() != p.ToMove() {
				continue
			}
			s.check("symmetry", slices.Equal(sorted(slices.Clone(mapped)), sorted(img.LegalActions(nil))), "symmetry %d maps the moves of %s onto other moves than its image %s has", k, env.Quote(p.String()), env.Quote(img.String()))
			for i, act := range legal {
				x, y := p.Clone(), img.Clone()
				x.Apply(act)
				y.Apply(mapped[i])
				s.check("symmetry", x.Outcome() == y.Outcome(), "symmetry %d: move %s of %s and its image give outcomes %+v and %+v", k, p.ActionString(act), env.Quote(p.String()), x.Outcome(), y.Outcome())
			}
			break
		}
	}
}

// FuzzParse is the fuzz target of a game's position and move parsers: no
// text makes ParseState or ParseAction panic; a position read is written
// back in a form that reads as the same position, with legal moves in
// range; a move read is legal. Seed it with Seeds.
func FuzzParse(f *testing.F, g env.Game) {
	for _, seed := range Seeds(g, 40) {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, position, move string) {
		st, err := g.ParseState(position)
		if err != nil {
			return
		}
		text := st.String()
		again, err := g.ParseState(text)
		if err != nil {
			t.Fatalf("%q reads as %q, which does not read back: %v", position, text, err)
		}
		if again.String() != text {
			t.Fatalf("%q reads as %q, then as %q", position, text, again.String())
		}
		for _, a := range st.LegalActions(nil) {
			if a < 0 || a >= g.ActionSize() {
				t.Fatalf("%q has action %d out of range", position, a)
			}
		}
		a, err := st.ParseAction(move)
		if err != nil {
			return
		}
		if !env.IsLegal(st, a) {
			t.Fatalf("move %q reads as action %d, illegal in %q", move, a, text)
		}
	})
}

// Seeds are pairs of a position and one of its moves (or a nonsense word)
// from random games of g, for fuzzing.
func Seeds(g env.Game, n int) [][2]string {
	rng := rand.New(rand.NewPCG(1, 1))
	var out [][2]string
	for _, p := range RandomPositions(g, rng, n) {
		legal := p.LegalActions(nil)
		move := "zz"
		if len(legal) > 0 {
			move = p.ActionString(legal[rng.IntN(len(legal))])
		}
		out = append(out, [2]string{p.String(), move})
	}
	return out
}

func keysOf(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
