package slider

import (
	"math/bits"

	"github.com/sliderzero/sliderzero/env"
)

// Directions are numbered from the mover's point of view: 0 is forward
// (towards the exit edge: H's Right, V's Up), 1 and 2 are sideways (H's Up
// and Down, V's Right and Left; V's are H's under the transpose).
const numDirs = 3

// delta[side][dir] is the square offset of a move.
var delta = [2][numDirs]int{
	H: {1, 8, -8},
	V: {8, 1, -1},
}

// State is a Slider position; it implements env.State.
type State struct {
	g       *Game
	pieces  [2]uint64
	blocked uint64
	toMove  env.Side
	passed  bool // the previous ply was a pass
	ply     int32
	outcome env.Outcome
}

var _ env.State = (*State)(nil)

func (s *State) Game() env.Game { return s.g }

// Rules returns the game with its concrete type.
func (s *State) Rules() *Game { return s.g }

func (s *State) ToMove() env.Side { return s.toMove }

func (s *State) Ply() int { return int(s.ply) }

func (s *State) Outcome() env.Outcome { return s.outcome }

// Pieces returns the bitboard of a side's pieces (square y*8+x).
func (s *State) Pieces(side env.Side) uint64 { return s.pieces[side] }

// Blocked returns the bitboard of blocked cells.
func (s *State) Blocked() uint64 { return s.blocked }

// Passed reports whether the previous ply was a pass.
func (s *State) Passed() bool { return s.passed }

// targets returns, for each direction of the side to move, the bitboard of
// destination squares of its legal moves that stay on the board, and the
// pieces that can leave the board by moving forward.
func (s *State) targets() (dirs [numDirs]uint64, exits uint64) {
	g := s.g
	p := s.pieces[s.toMove]
	empty := g.board &^ (s.pieces[H] | s.pieces[V] | s.blocked)
	if s.toMove == H {
		exits = p & g.lastCol
		dirs[0] = ((p &^ g.lastCol) << 1) & empty
		dirs[1] = (p << 8) & empty
		dirs[2] = (p >> 8) & empty
	} else {
		exits = p & g.topRow
		dirs[0] = ((p &^ g.topRow) << 8) & empty
		dirs[1] = ((p &^ g.lastCol) << 1) & empty
		dirs[2] = ((p &^ g.firstCol) >> 1) & empty
	}
	return dirs, exits
}

// hasMove reports whether the side to move has a move other than a pass.
func (s *State) hasMove() bool {
	dirs, exits := s.targets()
	return exits|dirs[0]|dirs[1]|dirs[2] != 0
}

// NumLegal counts the legal actions without listing them.
func (s *State) NumLegal() int {
	if s.outcome.Over {
		return 0
	}
	dirs, exits := s.targets()
	n := bits.OnesCount64(exits) + bits.OnesCount64(dirs[0]) +
		bits.OnesCount64(dirs[1]) + bits.OnesCount64(dirs[2])
	if n == 0 {
		return 1 // the forced pass
	}
	return n
}

func (s *State) LegalActions(dst []int) []int {
	if s.outcome.Over {
		return dst
	}
	side := s.toMove
	base := &s.g.base[side]
	start := len(dst)
	dirs, exits := s.targets()
	for m := exits; m != 0; m &= m - 1 {
		dst = append(dst, int(base[bits.TrailingZeros64(m)]))
	}
	for d := 0; d < numDirs; d++ {
		off := delta[side][d]
		for m := dirs[d]; m != 0; m &= m - 1 {
			from := bits.TrailingZeros64(m) - off
			dst = append(dst, int(base[from])+d)
		}
	}
	if len(dst) == start {
		dst = append(dst, s.g.pass)
	}
	return dst
}

func (s *State) Apply(action int) {
	g := s.g
	side := s.toMove
	if action == g.pass {
		if s.passed {
			s.outcome = env.Outcome{Over: true, Winner: env.NoSide}
		}
		s.passed = true
	} else {
		s.passed = false
		m := &g.step[side][action]
		p := s.pieces[side]&^m.from | m.to
		s.pieces[side] = p
		if p == 0 {
			s.outcome = env.Outcome{Over: true, Winner: side}
		}
	}
	s.ply++
	if !s.outcome.Over && int(s.ply) >= g.plyCap {
		s.outcome = env.Outcome{Over: true, Winner: env.NoSide}
	}
	s.toMove = side.Other()
}

// CountsStart is false: the course's tournament server did not count the
// start position for its repetition rule.
func (s *State) CountsStart() bool { return false }

// CountsMove reports whether the position a move leads to counts for a
// repetition rule: as the tournament server's did, only boards reached by
// a move on the board, not by a pass or by a piece leaving the board.
func (s *State) CountsMove(action int) bool {
	g := s.g
	if action == g.pass {
		return false
	}
	bit := uint64(1) << int(g.sqOf[s.toMove][action/numDirs])
	return !(action%numDirs == 0 && bit&g.exitEdge[s.toMove] != 0)
}

// BlockedCells lists the position's blocked cells.
func (s *State) BlockedCells() []Cell {
	var cells []Cell
	for bb := s.blocked; bb != 0; bb &= bb - 1 {
		sq := bits.TrailingZeros64(bb)
		cells = append(cells, Cell{X: sq % 8, Y: sq / 8})
	}
	return cells
}

func (s *State) Clone() env.State {
	c := *s
	return &c
}

// CopyFrom panics if src is not a Slider state: mixing games is a
// programming error, not a condition to recover from.
func (s *State) CopyFrom(src env.State) { *s = *src.(*State) }

func (s *State) Hash() uint64 {
	h := env.Mix64(s.pieces[H] ^ 0x9e3779b97f4a7c15)
	h = env.Mix64(h ^ s.pieces[V])
	h = env.Mix64(h ^ s.blocked)
	flags := uint64(s.toMove)
	if s.passed {
		flags |= 2
	}
	return env.Mix64(h ^ flags)
}

func (s *State) Encode(dst []float32) {
	n := s.g.n
	area := n * n
	dst = dst[:numPlanes*area]
	clear(dst)
	side := s.toMove
	cell := &s.g.cellOf[side]
	fill := func(plane int, b uint64) {
		off := plane * area
		for ; b != 0; b &= b - 1 {
			dst[off+int(cell[bits.TrailingZeros64(b)&63])] = 1
		}
	}
	fill(PlaneOwn, s.pieces[side])
	fill(PlaneOpp, s.pieces[side.Other()])
	fill(PlaneBlocked, s.blocked)
}

// Transposed returns the position mirrored in the main diagonal with the
// colours swapped: the symmetry of rules.md under which the game is
// unchanged.
func (s *State) Transposed() *State {
	t := *s
	t.pieces[H] = transpose(s.pieces[V])
	t.pieces[V] = transpose(s.pieces[H])
	t.blocked = transpose(s.blocked)
	t.toMove = s.toMove.Other()
	if s.outcome.Winner != env.NoSide {
		t.outcome.Winner = s.outcome.Winner.Other()
	}
	return &t
}

// transpose mirrors an 8x8 bitboard in the a1-h8 diagonal.
func transpose(x uint64) uint64 {
	const (
		k1 = 0x5500550055005500
		k2 = 0x3333000033330000
		k4 = 0x0f0f0f0f00000000
	)
	t := k4 & (x ^ (x << 28))
	x ^= t ^ (t >> 28)
	t = k2 & (x ^ (x << 14))
	x ^= t ^ (t >> 14)
	t = k1 & (x ^ (x << 7))
	x ^= t ^ (t >> 7)
	return x
}

// cappedTie reports whether the game reached its ply cap (which, on a
// pass, hides whether a second pass ended it).
func (s *State) cappedTie() bool { return int(s.ply) >= s.g.plyCap }

// WinningAction implements env.WinFinder: the side to move wins at once
// only by moving its last piece off the board; -1 when it cannot.
func (s *State) WinningAction() int {
	if s.outcome.Over || bits.OnesCount64(s.pieces[s.toMove]) != 1 {
		return -1
	}
	_, exits := s.targets()
	if exits == 0 {
		return -1
	}
	return int(s.g.base[s.toMove][bits.TrailingZeros64(exits)])
}
