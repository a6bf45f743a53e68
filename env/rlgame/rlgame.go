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
	"strconv"
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
func (g *Game) ActionSize() int       { return g.actions }
func (g *Game) InputShape() env.Shape { return env.Shape{C: numPlanes, H: g.n, W: g.n} }
func (g *Game) Size() int             { return g.n }

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

func (s *State) Game() env.Game       { return s.g }
func (s *State) ToMove() env.Side     { return s.toMove }
func (s *State) Ply() int             { return int(s.ply) }
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

func (s *State) Clone() env.State       { c := *s; return &c }
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

func (g *Game) cellName(sq int) string {
	return string(rune('a'+sq&7)) + strconv.Itoa(sq>>3+1)
}

// ActionString writes a move as from and to cells, "c3d3", or for a pawn
// leaving the base as "@" and the cell, "@c1".
func (s *State) ActionString(a int) string {
	g := s.g
	if a < 0 || a >= g.actions {
		return fmt.Sprintf("action(%d)", a)
	}
	from, to := g.decode(s.toMove, a)
	if from < 0 {
		return "@" + g.cellName(to)
	}
	return g.cellName(from) + g.cellName(to)
}

func (g *Game) parseCell(t string) (int, bool) {
	if len(t) != 2 || t[0]|0x20 < 'a' || int(t[0]|0x20-'a') >= g.n || t[1] < '1' || int(t[1]-'1') >= g.n {
		return 0, false
	}
	return int(t[1]-'1')*8 + int(t[0]|0x20-'a'), true
}

// ParseAction reads a move ("c3d3", "@c1") of the side to move and checks
// that it is legal.
func (s *State) ParseAction(text string) (int, error) {
	g, side := s.g, s.toMove
	t := strings.TrimSpace(text)
	if s.outcome.Over {
		return 0, fmt.Errorf("the game is over")
	}
	name := map[env.Side]string{White: "White", Black: "Black"}[side]
	if strings.HasPrefix(t, "@") {
		to, ok := g.parseCell(t[1:])
		if !ok {
			return 0, fmt.Errorf("malformed move %s: want @ and a cell, like @c1, or two cells, like c1d1", env.Quote(text))
		}
		if s.inBase[side] == 0 {
			return 0, fmt.Errorf("illegal move %s: %s has no pawn left in its base", t, name)
		}
		for k, sq := range g.exitList[side] {
			if sq == to {
				if s.occupied()&(1<<to) != 0 {
					return 0, fmt.Errorf("illegal move %s: %s is occupied", t, g.cellName(to))
				}
				return g.n*g.n*numDirs + k, nil
			}
		}
		return 0, fmt.Errorf("illegal move %s: %s does not border %s's base", t, g.cellName(to), name)
	}
	if len(t) != 4 {
		return 0, fmt.Errorf("malformed move %s: want two cells, like c1d1, or @ and a cell, like @c1", env.Quote(text))
	}
	from, ok1 := g.parseCell(t[:2])
	to, ok2 := g.parseCell(t[2:])
	if !ok1 || !ok2 {
		return 0, fmt.Errorf("malformed move %q: cells run from a1 to %s", text, g.cellName((g.n-1)*8+g.n-1))
	}
	if s.pawns[side]&(1<<from) == 0 {
		return 0, fmt.Errorf("illegal move %s: no %s pawn on %s", t, name, g.cellName(from))
	}
	d := -1
	for k := 0; k < numDirs; k++ {
		if from+dy[k]*8+dx[k] == to && (from&7)+dx[k] >= 0 && (from&7)+dx[k] < g.n {
			d = k
		}
	}
	switch {
	case d < 0:
		return 0, fmt.Errorf("illegal move %s: a pawn moves one cell up, down, left or right", t)
	case g.permitted[side][from]&(1<<to) == 0:
		return 0, fmt.Errorf("illegal move %s: it would bring the pawn nearer its own base", t)
	case s.occupied()&(1<<to) != 0:
		return 0, fmt.Errorf("illegal move %s: %s is occupied", t, g.cellName(to))
	}
	return g.boardAction(side, from, d), nil
}

func (s *State) cellChar(sq int) byte {
	switch {
	case s.pawns[White]&(1<<sq) != 0:
		return 'W'
	case s.pawns[Black]&(1<<sq) != 0:
		return 'B'
	}
	return '.'
}

// String writes the one-line position: the rows top first separated by
// '/', the side to move, and the pawns in White's and Black's bases, e.g.
// "......../.../........ W 10 10".
func (s *State) String() string {
	g := s.g
	var b strings.Builder
	for y := g.n - 1; y >= 0; y-- {
		for x := 0; x < g.n; x++ {
			b.WriteByte(s.cellChar(y*8 + x))
		}
		if y > 0 {
			b.WriteByte('/')
		}
	}
	fmt.Fprintf(&b, " %s %d %d", g.SideName(s.toMove), s.inBase[White], s.inBase[Black])
	return b.String()
}

// Board writes n lines of cells separated by spaces, bases marked with
// their pawn counts in the corner cell nearest the board's centre... kept
// simple: base cells show as 'w' and 'b'.
func (s *State) Board() string {
	g := s.g
	var b strings.Builder
	for y := g.n - 1; y >= 0; y-- {
		for x := 0; x < g.n; x++ {
			if x > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(s.boardChar(y*8 + x))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (s *State) boardChar(sq int) byte {
	switch c := s.cellChar(sq); {
	case c != '.':
		return c
	case s.g.base[White]&(1<<sq) != 0:
		return 'w'
	case s.g.base[Black]&(1<<sq) != 0:
		return 'b'
	}
	return '.'
}

// Display draws the board with coordinates (base cells as w and b) and
// the pawns waiting in each base.
func (s *State) Display() string {
	g := s.g
	var b strings.Builder
	for y := g.n - 1; y >= 0; y-- {
		fmt.Fprintf(&b, "%d ", y+1)
		for x := 0; x < g.n; x++ {
			b.WriteByte(' ')
			b.WriteByte(s.boardChar(y*8 + x))
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ")
	for x := 0; x < g.n; x++ {
		b.WriteByte(' ')
		b.WriteByte(byte('a' + x))
	}
	fmt.Fprintf(&b, "\nin base: White %d, Black %d\n", s.inBase[White], s.inBase[Black])
	switch o := s.outcome; {
	case o.Over && o.Winner == env.NoSide:
		b.WriteString("game over: tie\n")
	case o.Over:
		fmt.Fprintf(&b, "game over: %s wins\n", g.SideName(o.Winner))
	default:
		fmt.Fprintf(&b, "ply %d, %s to move\n", s.ply, g.SideName(s.toMove))
	}
	return b.String()
}

// ParseState reads a one-line position of this game's size.
func (g *Game) ParseState(text string) (env.State, error) {
	f := strings.Fields(text)
	if len(f) != 4 {
		return nil, fmt.Errorf("malformed position %s: want rows separated by '/', the side to move, and the pawns in each base", env.Quote(text))
	}
	side, err := g.ParseSide(f[1])
	if err != nil {
		return nil, fmt.Errorf("malformed position: %w", err)
	}
	s := &State{g: g, toMove: side}
	for i, v := range f[2:] {
		k, err := strconv.Atoi(v)
		if err != nil || k < 0 || k > g.pawns {
			return nil, fmt.Errorf("malformed position: pawns in base %q, want 0 to %d", v, g.pawns)
		}
		s.inBase[i] = int8(k)
	}
	rows := strings.Split(f[0], "/")
	if len(rows) != g.n {
		return nil, fmt.Errorf("malformed position: %d rows for a %dx%d board", len(rows), g.n, g.n)
	}
	for i, row := range rows {
		y := g.n - 1 - i
		if len(row) != g.n {
			return nil, fmt.Errorf("malformed position: row %d has %d cells, want %d", i+1, len(row), g.n)
		}
		for x := 0; x < g.n; x++ {
			sq := y*8 + x
			switch row[x] {
			case 'W':
				s.pawns[White] |= 1 << sq
			case 'B':
				s.pawns[Black] |= 1 << sq
			case '.':
				continue
			default:
				return nil, fmt.Errorf("malformed position: cell %s is %q, want W, B or .", g.cellName(sq), row[x])
			}
			own := White
			if row[x] == 'B' {
				own = Black
			}
			if g.base[own]&(1<<sq) != 0 {
				return nil, fmt.Errorf("invalid position: a pawn on %s, a cell of its own base (pawns in a base are counted, not placed)", g.cellName(sq))
			}
		}
	}
	// A pawn in the enemy base has won: the position a winning move leaves.
	won := [2]bool{s.pawns[White]&g.base[Black] != 0, s.pawns[Black]&g.base[White] != 0}
	if won[White] && won[Black] {
		return nil, fmt.Errorf("invalid position: both sides have a pawn in the enemy base")
	}
	for side := White; side <= Black; side++ {
		if s.count(side) > g.pawns {
			return nil, fmt.Errorf("invalid position: %s has %d pawns, at most %d", g.SideName(side), s.count(side), g.pawns)
		}
	}
	switch {
	case won[White]:
		s.outcome = env.Outcome{Over: true, Winner: White}
	case won[Black]:
		s.outcome = env.Outcome{Over: true, Winner: Black}
	case s.count(White) == 0 && s.count(Black) == 0:
		return nil, fmt.Errorf("invalid position: neither side has a pawn")
	case s.count(White) == 0:
		s.outcome = env.Outcome{Over: true, Winner: Black}
	case s.count(Black) == 0:
		s.outcome = env.Outcome{Over: true, Winner: White}
	}
	return s, nil
}

// Looks tells front ends how to draw Board's tokens.
// Frame implements env.Framed: no piece leaves the board.
func (g *Game) Frame() env.Frame { return env.Frame{Style: env.StyleGrid} }

func (g *Game) Looks() map[string]env.Look {
	return map[string]env.Look{
		"W": {Side: White, Label: "W"},
		"B": {Side: Black, Label: "B"},
		"w": {Side: env.NoSide, Mark: env.MarkBase},
		"b": {Side: env.NoSide, Mark: env.MarkBase},
	}
}

// MoveShape places a legal move on the board: a pawn moving from a cell to
// a cell, or entering the board from its base onto a cell.
func (s *State) MoveShape(action int) env.MoveShape {
	g := s.g
	if action < 0 || action >= g.actions {
		return env.MoveShape{Button: s.ActionString(action)}
	}
	from, to := g.decode(s.toMove, action)
	dest := env.Cell{Col: to % 8, Row: to / 8}
	if from < 0 {
		return env.MoveShape{To: &dest}
	}
	return env.MoveShape{From: &env.Cell{Col: from % 8, Row: from / 8}, To: &dest}
}

// HowToPlay tells a person at a terminal the goal, the board and the
// notation (env.Explained).
func (g *Game) HowToPlay() string {
	return `RLGame: each side's pawns start in its base (w: White's in the bottom-left corner, b: Black's in the top-right) and race for the other's. A pawn that enters the enemy base wins; so does removing every enemy pawn.
Board: W and B are pawns; w and b mark the bases' cells; columns a.. from the left, rows 1.. from the bottom.
A move: a pawn's cell and the cell it steps to, up, down, left or right (c3d3); "@c1" brings a pawn out of the base onto a free cell beside it. A pawn left with no free step, and a base whose exits are all taken, are removed.`
}
