// Package rlgame implements RLGame (the "mRLGame" of the Hellenic Open
// University's rules text) as rules.md section 2 settles it.
//
// Boards are bitboards with a row stride of 8 (n <= 8), square y*8+x.
// Actions are numbered from the side to move's point of view: Black sees
// the board turned by 180 degrees, so its base is where White's is and one
// network serves both sides. Points the rules leave open, settled here:
//   - The pawns inside a base stand on one square: they leave it to any
//     free cell bordering the base, and are removed together when every
//     such cell is occupied.
//   - Removals after a move are simultaneous, judged on the position the
//     move made, in one pass.
//   - Cells of the enemy base are never occupied (pawns inside a base do
//     not stand on cells), so entering one is always possible from a
//     bordering cell, and wins.
//   - If a move removes every pawn of both sides, the mover wins (its
//     opponent has none left); if only the mover's, the opponent wins.
//   - After removals every remaining pawn has a move, so nobody ever
//     needs to pass; the ply cap (default 200) ends a game as a tie.
package rlgame

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// The sides. White (side 0) moves first.
const (
	White env.Side = 0
	Black env.Side = 1
)

// Default configuration: the standard game.
const (
	DefaultSize   = 8
	DefaultBase   = 2
	DefaultPawns  = 10
	DefaultPlyCap = 200
	numDirs       = 4
)

// Directions: up, down, left, right. Turning the board by 180 degrees
// swaps up with down and left with right.
var dx = [numDirs]int{0, 0, -1, 1}

var dy = [numDirs]int{1, -1, 0, 0}

var opposite = [numDirs]int{1, 0, 3, 2}

// Planes of the network input, from the side to move's point of view.
const (
	PlaneOwn     = iota // own pawns on the board
	PlaneOpp            // the opponent's pawns on the board
	PlaneOwnBase        // every cell: own pawns in the base / pawns
	PlaneOppBase        // every cell: the opponent's pawns in its base / pawns
	PlanePly            // every cell: ply / ply cap
	numPlanes
)

// Config is a game configuration; zero fields take the standard values.
type Config struct {
	Size   int // board n x n, 4 to 8
	Base   int // bases a x a
	Pawns  int // pawns per side (beta)
	PlyCap int
}

// Game is an RLGame configuration.
type Game struct {
	n, a, pawns, plyCap int
	board               uint64
	base                [2]uint64 // each side's base cells
	exits               [2]uint64 // cells bordering each base
	exitList            [2][]int  // exit squares in canonical order
	// permitted[side][sq]: the cells a pawn of side on sq may move to when
	// free (on the board, not nearer its own base).
	permitted [2][64]uint64
	dist      [2][64]int
	actions   int
}

// New checks a configuration and returns its game.
func New(cfg Config) (*Game, error) {
	if cfg.Size == 0 {
		cfg.Size = DefaultSize
	}
	if cfg.Base == 0 {
		cfg.Base = DefaultBase
	}
	if cfg.Pawns == 0 {
		cfg.Pawns = DefaultPawns
	}
	if cfg.PlyCap == 0 {
		cfg.PlyCap = DefaultPlyCap
	}
	n, a := cfg.Size, cfg.Base
	switch {
	case n < 4 || n > 8:
		return nil, fmt.Errorf("board size %d: want 4 to 8", n)
	case a < 1 || 2*a >= n:
		return nil, fmt.Errorf("base size %d: want 1 to %d on a %dx%d board, so that the bases do not touch", a, (n-1)/2, n, n)
	case cfg.Pawns < 1 || cfg.Pawns > 100:
		return nil, fmt.Errorf("pawns %d: want 1 to 100", cfg.Pawns)
	case cfg.PlyCap < 0:
		return nil, fmt.Errorf("ply cap %d is negative", cfg.PlyCap)
	}
	g := &Game{n: n, a: a, pawns: cfg.Pawns, plyCap: cfg.PlyCap}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			sq := y*8 + x
			g.board |= 1 << sq
			g.dist[White][sq] = max(x, y) - a + 1
			g.dist[Black][sq] = max(n-1-x, n-1-y) - a + 1
			if x < a && y < a {
				g.base[White] |= 1 << sq
			}
			if x >= n-a && y >= n-a {
				g.base[Black] |= 1 << sq
			}
		}
	}
	// Exits in canonical order: along the column x = a (y = 0..a-1), then
	// along the row y = a (x = 0..a-1), as White sees them.
	for side := White; side <= Black; side++ {
		for _, c := range g.exitCells() {
			sq := g.square(side, c[0], c[1])
			g.exits[side] |= 1 << sq
			g.exitList[side] = append(g.exitList[side], sq)
		}
	}
	for side := White; side <= Black; side++ {
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				sq := y*8 + x
				for d := 0; d < numDirs; d++ {
					nx, ny := x+dx[d], y+dy[d]
					if nx < 0 || ny < 0 || nx >= n || ny >= n {
						continue
					}
					to := ny*8 + nx
					if g.base[side]&(1<<to) == 0 && g.dist[side][to] >= g.dist[side][sq] {
						g.permitted[side][sq] |= 1 << to
					}
				}
			}
		}
	}
	g.actions = n*n*numDirs + 2*a
	return g, nil
}

// exitCells are White's exit cells, in canonical order.
func (g *Game) exitCells() [][2]int {
	var out [][2]int
	for y := 0; y < g.a; y++ {
		out = append(out, [2]int{g.a, y})
	}
	for x := 0; x < g.a; x++ {
		out = append(out, [2]int{x, g.a})
	}
	return out
}

// square maps canonical coordinates (as side sees the board) to a square.
func (g *Game) square(side env.Side, cx, cy int) int {
	if side == Black {
		cx, cy = g.n-1-cx, g.n-1-cy
	}
	return cy*8 + cx
}

// canon maps a square to side's canonical coordinates.
func (g *Game) canon(side env.Side, sq int) (int, int) {
	x, y := sq&7, sq>>3
	if side == Black {
		return g.n - 1 - x, g.n - 1 - y
	}
	return x, y
}

func (g *Game) Name() string { return "rlgame" }

func (g *Game) Describe() string {
	return fmt.Sprintf("rlgame size=%d base=%d pawns=%d plycap=%d", g.n, g.a, g.pawns, g.plyCap)
}

func (g *Game) ActionSize() int { return g.actions }

func (g *Game) InputShape() env.Shape { return env.Shape{C: numPlanes, H: g.n, W: g.n} }

func (g *Game) Size() int { return g.n }

// PlyCap is the number of plies after which a game is a tie.
func (g *Game) PlyCap() int { return g.plyCap }

func (g *Game) SideName(s env.Side) string {
	switch s {
	case White:
		return "W"
	case Black:
		return "B"
	}
	return "none"
}

func (g *Game) ParseSide(s string) (env.Side, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "W", "WHITE":
		return White, nil
	case "B", "BLACK":
		return Black, nil
	}
	return env.NoSide, fmt.Errorf("unknown side %s: want W or B", env.Quote(s))
}

// Start returns the initial position: every pawn in its base, White to move.
func (g *Game) Start(*rand.Rand) env.State {
	return &State{g: g, inBase: [2]int8{int8(g.pawns), int8(g.pawns)}, toMove: White}
}

// State is an RLGame position.
type State struct {
	g       *Game
	pawns   [2]uint64 // pawns on board cells
	inBase  [2]int8   // pawns still in their own base
	toMove  env.Side
	ply     int32
	outcome env.Outcome
}

var _ env.State = (*State)(nil)

func (s *State) Game() env.Game { return s.g }

func (s *State) ToMove() env.Side { return s.toMove }

func (s *State) Ply() int { return int(s.ply) }

func (s *State) Outcome() env.Outcome { return s.outcome }

// Pawns returns a side's pawns on the board and in its base.
func (s *State) Pawns(side env.Side) (board uint64, inBase int) {
	return s.pawns[side], int(s.inBase[side])
}

func (s *State) occupied() uint64 { return s.pawns[White] | s.pawns[Black] }

func (s *State) LegalActions(dst []int) []int {
	if s.outcome.Over {
		return dst
	}
	g, side := s.g, s.toMove
	free := g.board &^ s.occupied()
	for p := s.pawns[side]; p != 0; p &= p - 1 {
		sq := bits.TrailingZeros64(p)
		targets := g.permitted[side][sq] & free
		for d := 0; d < numDirs; d++ {
			to := sq + dy[d]*8 + dx[d]
			if to >= 0 && to < 64 && targets&(1<<to) != 0 {
				dst = append(dst, g.boardAction(side, sq, d))
			}
		}
	}
	if s.inBase[side] > 0 {
		for k, sq := range g.exitList[side] {
			if free&(1<<sq) != 0 {
				dst = append(dst, g.n*g.n*numDirs+k)
			}
		}
	}
	return dst
}

// boardAction numbers a move of the pawn on sq in direction d, as side
// sees the board.
func (g *Game) boardAction(side env.Side, sq, d int) int {
	cx, cy := g.canon(side, sq)
	if side == Black {
		d = opposite[d]
	}
	return (cy*g.n+cx)*numDirs + d
}

// decode returns the from square (-1 for the base) and the to square of an
// action of side.
func (g *Game) decode(side env.Side, a int) (from, to int) {
	if a >= g.n*g.n*numDirs {
		return -1, g.exitList[side][a-g.n*g.n*numDirs]
	}
	c, d := a/numDirs, a%numDirs
	from = g.square(side, c%g.n, c/g.n)
	if side == Black {
		d = opposite[d]
	}
	return from, from + dy[d]*8 + dx[d]
}

func (s *State) Apply(a int) {
	g, side := s.g, s.toMove
	from, to := g.decode(side, a)
	if from < 0 {
		s.inBase[side]--
	} else {
		s.pawns[side] &^= 1 << from
	}
	s.pawns[side] |= 1 << to
	s.ply++
	if g.base[side.Other()]&(1<<to) != 0 {
		s.outcome = env.Outcome{Over: true, Winner: side}
		s.toMove = side.Other()
		return
	}
	s.removeTrapped()
	switch {
	case s.count(side.Other()) == 0:
		s.outcome = env.Outcome{Over: true, Winner: side}
	case s.count(side) == 0:
		s.outcome = env.Outcome{Over: true, Winner: side.Other()}
	case int(s.ply) >= g.plyCap:
		s.outcome = env.Outcome{Over: true, Winner: env.NoSide}
	}
	s.toMove = side.Other()
}

func (s *State) count(side env.Side) int {
	return bits.OnesCount64(s.pawns[side]) + int(s.inBase[side])
}

// removeTrapped removes, all at once, every pawn whose permitted targets
// are all occupied, and a base's pawns when all its exits are occupied.
func (s *State) removeTrapped() {
	g := s.g
	free := g.board &^ s.occupied()
	var trapped [2]uint64
	var baseTrapped [2]bool
	for side := White; side <= Black; side++ {
		for p := s.pawns[side] &^ g.base[side.Other()]; p != 0; p &= p - 1 {
			sq := bits.TrailingZeros64(p)
			if g.permitted[side][sq]&free == 0 {
				trapped[side] |= 1 << sq
			}
		}
		baseTrapped[side] = s.inBase[side] > 0 && g.exits[side]&free == 0
	}
	for side := White; side <= Black; side++ {
		s.pawns[side] &^= trapped[side]
		if baseTrapped[side] {
			s.inBase[side] = 0
		}
	}
}

func (s *State) Clone() env.State { c := *s; return &c }

func (s *State) CopyFrom(src env.State) { *s = *src.(*State) }

func (s *State) Hash() uint64 {
	h := env.Mix64(s.pawns[White] ^ 0x9e3779b97f4a7c15)
	h = env.Mix64(h ^ s.pawns[Black])
	return env.Mix64(h ^ uint64(s.inBase[White]) ^ uint64(s.inBase[Black])<<8 ^ uint64(s.toMove)<<16)
}

func (s *State) Encode(dst []float32) {
	g, side := s.g, s.toMove
	area := g.n * g.n
	dst = dst[:numPlanes*area]
	clear(dst)
	fill := func(plane int, b uint64) {
		for ; b != 0; b &= b - 1 {
			cx, cy := g.canon(side, bits.TrailingZeros64(b))
			dst[plane*area+cy*g.n+cx] = 1
		}
	}
	fill(PlaneOwn, s.pawns[side])
	fill(PlaneOpp, s.pawns[side.Other()])
	constant := func(plane int, v float32) {
		for i := 0; i < area; i++ {
			dst[plane*area+i] = v
		}
	}
	constant(PlaneOwnBase, float32(s.inBase[side])/float32(g.pawns))
	constant(PlaneOppBase, float32(s.inBase[side.Other()])/float32(g.pawns))
	constant(PlanePly, float32(s.ply)/float32(g.plyCap))
}

// Symmetries implements env.Symmetric: mirroring in the main diagonal keeps
// both bases and every distance.
func (g *Game) Symmetries() int { return 2 }

func (g *Game) TransformInput(k int, src, dst []float32) {
	if k == 0 {
		copy(dst, src)
		return
	}
	area := g.n * g.n
	for p := 0; p < numPlanes; p++ {
		for y := 0; y < g.n; y++ {
			for x := 0; x < g.n; x++ {
				dst[p*area+x*g.n+y] = src[p*area+y*g.n+x]
			}
		}
	}
}

// transposed direction: up <-> right, down <-> left.
var transDir = [numDirs]int{3, 2, 1, 0}

func (g *Game) TransformAction(k, a int) int {
	if k == 0 {
		return a
	}
	if base := g.n * g.n * numDirs; a >= base {
		// Exits along the column x = a and along the row y = a swap.
		i := a - base
		if i < g.a {
			return base + g.a + i
		}
		return base + i - g.a
	}
	c, d := a/numDirs, a%numDirs
	cx, cy := c%g.n, c/g.n
	return (cx*g.n+cy)*numDirs + transDir[d]
}
