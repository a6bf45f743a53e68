// Package catsdogs implements Cats & Dogs (Programming & Problem Solving,
// a variant of Three Musketeers) as rules.md section 3 settles it.
//
// The 7x7 board is a bitboard of 49 bits, square y*7+x. The two sides
// differ: Cats (side 0) capture, Dogs (side 1) take two steps per turn, so
// a Dogs turn spans two plies and the state records which step is next.
// Points the rules leave open, settled here:
//   - A Dogs turn is two steps; after the first, if no Dog can step, the
//     second is forgone (the turn passes to the Cats). In play this never
//     happens: the first step empties the cell the Dog left, so it can
//     always step back; only a position given with the second step due
//     can show it. A Dogs player with no step at all at the start of its
//     turn passes (the pass action).
//   - The Dogs win as soon as three or more Cats share a row or a column,
//     whoever's move made it so.
//   - The Cats win when, at the start of their turn, no Cat can capture and
//     no line of three exists.
//   - Ties happen only at the ply cap (every step and pass is a ply), which
//     a finite game never reaches with the default cap.
package catsdogs

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// The sides.
const (
	Cats env.Side = 0
	Dogs env.Side = 1
)

// Size is the board's width and height.
const Size = 7

const (
	cells   = Size * Size
	full    = uint64(1)<<cells - 1
	numDirs = 4
	pass    = cells * numDirs
	// DefaultPlyCap is far above the longest game: at most 44 captures,
	// each followed by two Dog steps.
	DefaultPlyCap = 200
)

// Planes of the network input (7x7 each).
const (
	PlaneCats     = iota
	PlaneDogs     // Dogs
	PlaneCatTurn  // all ones when the Cats are to move
	PlaneDogStep2 // all ones when the Dogs are to take their second step
	numPlanes
)

// Directions: up, down, left, right.
var dx = [numDirs]int{0, 0, -1, 1}

var dy = [numDirs]int{1, -1, 0, 0}

// Game is the Cats & Dogs configuration.
type Game struct {
	plyCap int
	// features adds the feature planes (features.go) to the input.
	features bool
	// shift masks: squares from which a step in dir stays on the board.
	canMove [numDirs]uint64
	rows    [Size]uint64
	cols    [Size]uint64
}

// New returns the game; plyCap 0 means DefaultPlyCap.
func New(plyCap int) (*Game, error) { return NewWith(plyCap, false) }

// NewWith returns the game, with the feature planes in its input when
// features is set.
func NewWith(plyCap int, features bool) (*Game, error) {
	if plyCap < 0 {
		return nil, fmt.Errorf("ply cap %d is negative", plyCap)
	}
	if plyCap == 0 {
		plyCap = DefaultPlyCap
	}
	g := &Game{plyCap: plyCap, features: features}
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			bit := uint64(1) << (y*Size + x)
			g.rows[y] |= bit
			g.cols[x] |= bit
			for d := 0; d < numDirs; d++ {
				nx, ny := x+dx[d], y+dy[d]
				if nx >= 0 && ny >= 0 && nx < Size && ny < Size {
					g.canMove[d] |= bit
				}
			}
		}
	}
	return g, nil
}

// shift moves every bit of b one step in dir (b must be within canMove[dir]).
func shift(b uint64, dir int) uint64 {
	switch dir {
	case 0:
		return b << Size
	case 1:
		return b >> Size
	case 2:
		return b >> 1
	}
	return b << 1
}

func (g *Game) Name() string { return "catsdogs" }

func (g *Game) Describe() string {
	if g.features {
		return fmt.Sprintf("catsdogs features=1 plycap=%d", g.plyCap)
	}
	return fmt.Sprintf("catsdogs plycap=%d", g.plyCap)
}

func (g *Game) ActionSize() int { return pass + 1 }

func (g *Game) InputShape() env.Shape { return env.Shape{C: g.planes(), H: Size, W: Size} }

// planes counts the input's planes.
func (g *Game) planes() int {
	if g.features {
		return numFeaturePlanes
	}
	return numPlanes
}

func (g *Game) PlyCap() int { return g.plyCap }

func (g *Game) SideName(s env.Side) string {
	switch s {
	case Cats:
		return "C"
	case Dogs:
		return "D"
	}
	return "none"
}

func (g *Game) ParseSide(s string) (env.Side, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "C", "CATS":
		return Cats, nil
	case "D", "DOGS":
		return Dogs, nil
	}
	return env.NoSide, fmt.Errorf("unknown side %s: want C (Cats) or D (Dogs)", env.Quote(s))
}

// Start returns the initial position: Cats on the corners and the centre,
// Dogs everywhere else, Cats to move.
func (g *Game) Start(*rand.Rand) env.State {
	var cats uint64
	for _, c := range [][2]int{{0, 0}, {6, 0}, {0, 6}, {6, 6}, {3, 3}} {
		cats |= 1 << (c[1]*Size + c[0])
	}
	s := &State{g: g, cats: cats, dogs: full &^ cats, toMove: Cats}
	s.settle()
	return s
}

// State is a Cats & Dogs position.
type State struct {
	g       *Game
	cats    uint64
	dogs    uint64
	toMove  env.Side
	step    int8 // 0 or 1: which Dog step is next
	ply     int32
	outcome env.Outcome
}

var _ env.State = (*State)(nil)

func (s *State) Game() env.Game { return s.g }

func (s *State) ToMove() env.Side { return s.toMove }

func (s *State) Ply() int { return int(s.ply) }

func (s *State) Outcome() env.Outcome { return s.outcome }

// Cats and Dogs bitboards (square y*7+x).
func (s *State) CatsBits() uint64 { return s.cats }

func (s *State) DogsBits() uint64 { return s.dogs }

// DogStep is the Dog step to take next (0 or 1) when the Dogs are to move.
func (s *State) DogStep() int { return int(s.step) }

// targets returns, per direction, the destination squares of the side to
// move's legal moves.
func (s *State) targets() (t [numDirs]uint64) {
	g := s.g
	if s.toMove == Cats {
		for d := 0; d < numDirs; d++ {
			t[d] = shift(s.cats&g.canMove[d], d) & s.dogs
		}
		return t
	}
	empty := full &^ (s.cats | s.dogs)
	for d := 0; d < numDirs; d++ {
		t[d] = shift(s.dogs&g.canMove[d], d) & empty
	}
	return t
}

func (s *State) hasMove() bool {
	t := s.targets()
	return t[0]|t[1]|t[2]|t[3] != 0
}

// lineOfThree reports whether three or more Cats share a row or column.
func (s *State) lineOfThree() bool { return s.g.lineOfThree(s.cats) }

// settle decides the outcome after a move (or of a parsed position): the
// Dogs' line of three, the Cats stuck at the start of their turn, the
// forgone second Dog step, and the ply cap.
func (s *State) settle() {
	switch {
	case s.lineOfThree():
		s.outcome = env.Outcome{Over: true, Winner: Dogs}
	case s.toMove == Cats && !s.hasMove():
		s.outcome = env.Outcome{Over: true, Winner: Cats}
	case s.toMove == Dogs && s.step == 1 && !s.hasMove():
		// The second step is forgone.
		s.toMove, s.step = Cats, 0
		s.settle()
		return
	case int(s.ply) >= s.g.plyCap:
		s.outcome = env.Outcome{Over: true, Winner: env.NoSide}
	}
}

func (s *State) LegalActions(dst []int) []int {
	if s.outcome.Over {
		return dst
	}
	start := len(dst)
	t := s.targets()
	for d := 0; d < numDirs; d++ {
		for m := t[d]; m != 0; m &= m - 1 {
			to := bits.TrailingZeros64(m)
			from := to - (dy[d]*Size + dx[d])
			dst = append(dst, from*numDirs+d)
		}
	}
	if len(dst) == start {
		dst = append(dst, pass) // only the Dogs can be without a move here
	}
	return dst
}

func (s *State) Apply(action int) {
	if action == pass {
		s.toMove, s.step = Cats, 0
	} else {
		from, d := action/numDirs, action%numDirs
		to := from + dy[d]*Size + dx[d]
		fb, tb := uint64(1)<<from, uint64(1)<<to
		if s.toMove == Cats {
			s.cats = s.cats&^fb | tb
			s.dogs &^= tb
			s.toMove, s.step = Dogs, 0
		} else {
			s.dogs = s.dogs&^fb | tb
			if s.step == 0 {
				s.step = 1
			} else {
				s.toMove, s.step = Cats, 0
			}
		}
	}
	s.ply++
	s.settle()
}

func (s *State) Clone() env.State { c := *s; return &c }

func (s *State) CopyFrom(src env.State) { *s = *src.(*State) }

func (s *State) Hash() uint64 {
	h := env.Mix64(s.cats ^ 0x9e3779b97f4a7c15)
	h = env.Mix64(h ^ s.dogs)
	return env.Mix64(h ^ uint64(s.toMove) ^ uint64(s.step)<<1)
}

// Encode writes the Cats, the Dogs, whose turn it is and the Dog step.
// The board is not turned for the side to move: the sides differ, and the
// turn planes tell the network which one it plays.
func (s *State) Encode(dst []float32) {
	dst = dst[:s.g.planes()*cells]
	clear(dst)
	for b := s.cats; b != 0; b &= b - 1 {
		dst[PlaneCats*cells+bits.TrailingZeros64(b)] = 1
	}
	for b := s.dogs; b != 0; b &= b - 1 {
		dst[PlaneDogs*cells+bits.TrailingZeros64(b)] = 1
	}
	if s.toMove == Cats {
		for i := 0; i < cells; i++ {
			dst[PlaneCatTurn*cells+i] = 1
		}
	} else if s.step == 1 {
		for i := 0; i < cells; i++ {
			dst[PlaneDogStep2*cells+i] = 1
		}
	}
	if s.g.features {
		s.encodeFeatures(dst)
	}
}

// Symmetries implements env.Symmetric: the eight symmetries of the square
// keep the rules (rows and columns map to rows and columns).
func (g *Game) Symmetries() int { return 8 }

// mapCell maps (x, y) under symmetry k: bit 0 mirrors x, bit 1 mirrors y,
// bit 2 transposes.
func mapCell(k, x, y int) (int, int) {
	if k&1 != 0 {
		x = Size - 1 - x
	}
	if k&2 != 0 {
		y = Size - 1 - y
	}
	if k&4 != 0 {
		x, y = y, x
	}
	return x, y
}

// mapDir maps a direction under symmetry k.
func mapDir(k, d int) int {
	x, y := dx[d], dy[d]
	if k&1 != 0 {
		x = -x
	}
	if k&2 != 0 {
		y = -y
	}
	if k&4 != 0 {
		x, y = y, x
	}
	for e := 0; e < numDirs; e++ {
		if dx[e] == x && dy[e] == y {
			return e
		}
	}
	panic("unreachable")
}

func (g *Game) TransformInput(k int, src, dst []float32) {
	n := g.planes()
	if g.features {
		// The counts are the same under every symmetry: kept as they are.
		n = PlaneCounts
		copy(dst[n*cells:(n+1)*cells], src[n*cells:(n+1)*cells])
	}
	for p := 0; p < n; p++ {
		for y := 0; y < Size; y++ {
			for x := 0; x < Size; x++ {
				nx, ny := mapCell(k, x, y)
				dst[p*cells+ny*Size+nx] = src[p*cells+y*Size+x]
			}
		}
	}
}

func (g *Game) TransformAction(k, a int) int {
	if a == pass {
		return pass
	}
	from, d := a/numDirs, a%numDirs
	nx, ny := mapCell(k, from%Size, from/Size)
	return (ny*Size+nx)*numDirs + mapDir(k, d)
}

var dirLetters = "UDLR"

func cellName(sq int) string { return string(rune('a'+sq%Size)) + string(rune('1'+sq/Size)) }

// ActionString writes a move as the piece's cell and a direction letter,
// e.g. "d4U"; a pass is "pass".
func (s *State) ActionString(a int) string {
	if a == pass {
		return "pass"
	}
	if a < 0 || a > pass {
		return fmt.Sprintf("action(%d)", a)
	}
	return cellName(a/numDirs) + string(dirLetters[a%numDirs])
}

// ParseAction reads a move ("d4U", "pass") for the side to move and checks
// that it is legal.
func (s *State) ParseAction(text string) (int, error) {
	t := strings.TrimSpace(text)
	if s.outcome.Over {
		return 0, fmt.Errorf("the game is over")
	}
	side := map[env.Side]string{Cats: "Cat", Dogs: "Dog"}[s.toMove]
	if strings.EqualFold(t, "pass") {
		if s.hasMove() {
			return 0, fmt.Errorf("illegal move pass: the %ss have a move, and may pass only without one", side)
		}
		return pass, nil
	}
	if len(t) != 3 || t[0]|0x20 < 'a' || t[0]|0x20 >= 'a'+Size || t[1] < '1' || t[1] >= '1'+Size || !strings.ContainsRune(dirLetters, rune(t[2]&^0x20)) {
		return 0, fmt.Errorf("malformed move %s: want a cell a1-g7 and a direction U, D, L or R, like d4U, or pass", env.Quote(text))
	}
	x, y := int(t[0]|0x20-'a'), int(t[1]-'1')
	d := strings.IndexRune(dirLetters, rune(t[2]&^0x20))
	from := y*Size + x
	own := s.cats
	if s.toMove == Dogs {
		own = s.dogs
	}
	if own&(1<<from) == 0 {
		return 0, fmt.Errorf("illegal move %s: no %s on %s", t, side, cellName(from))
	}
	nx, ny := x+dx[d], y+dy[d]
	if nx < 0 || ny < 0 || nx >= Size || ny >= Size {
		return 0, fmt.Errorf("illegal move %s: it leaves the board", t)
	}
	to := ny*Size + nx
	if s.toMove == Cats && s.dogs&(1<<to) == 0 {
		return 0, fmt.Errorf("illegal move %s: a Cat moves only onto a Dog, and %s holds none", t, cellName(to))
	}
	if s.toMove == Dogs && (s.cats|s.dogs)&(1<<to) != 0 {
		return 0, fmt.Errorf("illegal move %s: a Dog moves only to an empty cell, and %s is not", t, cellName(to))
	}
	return from*numDirs + d, nil
}
