// Package hex is Hex: an n x n rhombus of hexagonal cells, two players
// placing a stone each in turn on an empty cell; Blue, who moves first,
// joins the bottom and top rows with a chain of its stones, Red the
// first and last columns, and whoever does so first wins. A full board
// always has exactly one such chain, so there are no draws. There is no
// swap rule: the first player wins with perfect play (package solve
// proves it on small boards). The rules are in docs/hex.md. It was added
// by docs/new-game.md alone.
package hex

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// The sides: Blue moves first and joins the bottom and top rows, Red
// joins the first and last columns.
const (
	Blue env.Side = 0
	Red  env.Side = 1
)

// Board sizes.
const (
	MinSize     = 3
	MaxSize     = 11
	DefaultSize = 5
)

// Game is Hex on an n x n board.
type Game struct {
	geo *Geometry
	// frame[side][a] is the cell of action a of the side to move: Blue
	// sees the board as it is, Red transposed (frame.go).
	frame [2][]uint8
}

var (
	_ env.Game      = (*Game)(nil)
	_ env.Evaluator = (*Game)(nil)
	_ env.Symmetric = (*Game)(nil)
	_ env.Drawn     = (*Game)(nil)
	_ env.Framed    = (*Game)(nil)
	_ env.Explained = (*Game)(nil)
	_ env.InputDoc  = (*Game)(nil)
	_ env.Shaped    = (*State)(nil)
	_ env.WinFinder = (*State)(nil)
)

// New returns Hex on an n x n board, MinSize <= n <= MaxSize.
func New(n int) (*Game, error) {
	if n < MinSize || n > MaxSize {
		return nil, fmt.Errorf("a Hex board is %d to %d cells wide, not %d", MinSize, MaxSize, n)
	}
	g := &Game{geo: NewGeometry(n)}
	g.frame[Blue] = make([]uint8, n*n)
	for i := range g.frame[Blue] {
		g.frame[Blue][i] = uint8(i)
	}
	g.frame[Red] = g.geo.transpose
	return g, nil
}

// Size is the board's width.
func (g *Game) Size() int { return g.geo.N }

// Geometry is the board's cells and edges as sets, for exact solvers.
func (g *Game) Geometry() *Geometry { return g.geo }

func (g *Game) Name() string          { return "hex" }
func (g *Game) Describe() string      { return fmt.Sprintf("hex size=%d", g.geo.N) }
func (g *Game) ActionSize() int       { return g.geo.Cells }
func (g *Game) InputShape() env.Shape { return env.Shape{C: 2, H: g.geo.N, W: g.geo.N} }

func (g *Game) SideName(s env.Side) string {
	if s == Red {
		return "Red"
	}
	return "Blue"
}

// ParseSide reads Blue or Red, or their letters B and R, in any case.
func (g *Game) ParseSide(text string) (env.Side, error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "blue", "b":
		return Blue, nil
	case "red", "r":
		return Red, nil
	}
	return env.NoSide, fmt.Errorf("unknown side %s: want Blue or Red (B or R)", env.Quote(text))
}

// Start is the empty board, Blue to move.
func (g *Game) Start(*rand.Rand) env.State { return &State{g: g} }

// CellOf is the cell (r*n + c) that action a of the side to move plays:
// actions are numbered from the mover's point of view, Red's on the
// transposed board.
func (g *Game) CellOf(side env.Side, a int) int { return int(g.frame[side][a]) }

// ActionOf is the action of the side to move that plays cell i.
func (g *Game) ActionOf(side env.Side, i int) int { return int(g.frame[side][i]) }

// State is a position.
type State struct {
	g       *Game
	stones  [2]Bits
	toMove  env.Side
	ply     int
	outcome env.Outcome
}

func (s *State) Game() env.Game       { return s.g }
func (s *State) ToMove() env.Side     { return s.toMove }
func (s *State) Ply() int             { return s.ply }
func (s *State) Outcome() env.Outcome { return s.outcome }

// Stones are the cells of a side's stones.
func (s *State) Stones(side env.Side) Bits { return s.stones[side] }

// empty is the set of empty cells.
func (s *State) empty() Bits { return s.g.geo.All.AndNot(s.stones[Blue].Or(s.stones[Red])) }

// LegalActions are the empty cells, from the mover's point of view.
func (s *State) LegalActions(dst []int) []int {
	if s.outcome.Over {
		return dst
	}
	f := s.g.frame[s.toMove]
	for e := s.empty(); !e.Empty(); e = e.Rest() {
		dst = append(dst, int(f[e.First()]))
	}
	return dst
}

// Apply places a stone of the side to move; the game ends when the stone
// joins the side's two edges.
func (s *State) Apply(a int) {
	me := s.toMove
	i := s.g.CellOf(me, a)
	s.stones[me] = s.stones[me].With(i)
	s.ply++
	s.toMove = me.Other()
	if s.g.geo.JoinsWith(s.stones[me], i, int(me)) {
		s.outcome = env.Outcome{Over: true, Winner: me}
	}
}

func (s *State) Clone() env.State       { c := *s; return &c }
func (s *State) CopyFrom(src env.State) { *s = *src.(*State) }

func (s *State) Hash() uint64 {
	b, r := s.stones[Blue], s.stones[Red]
	h := env.Mix64(b.Lo ^ 0x2545f4914f6cdd1d)
	h = env.Mix64(h ^ b.Hi)
	h = env.Mix64(h ^ r.Lo)
	return env.Mix64(h^r.Hi) ^ uint64(s.toMove)<<63
}

// WinningAction implements env.WinFinder: the first empty cell where a
// stone of the side to move joins its edges, or -1.
func (s *State) WinningAction() int {
	if s.outcome.Over {
		return -1
	}
	w := s.g.geo.Winning(s.stones[s.toMove], s.empty(), int(s.toMove))
	if w.Empty() {
		return -1
	}
	return s.g.ActionOf(s.toMove, w.First())
}

// Encode writes two planes of n x n seen from the side to move, Red's
// transposed so that the mover always joins the bottom and top rows:
// the mover's stones, then the opponent's.
func (s *State) Encode(dst []float32) {
	n := s.g.geo.Cells
	dst = dst[:2*n]
	clear(dst)
	f := s.g.frame[s.toMove]
	for p, side := range [2]env.Side{s.toMove, s.toMove.Other()} {
		for b := s.stones[side]; !b.Empty(); b = b.Rest() {
			dst[p*n+int(f[b.First()])] = 1
		}
	}
}

// Symmetries: the half turn, which maps each side's edges onto
// themselves (and commutes with Red's transpose).
func (g *Game) Symmetries() int { return 2 }

func (g *Game) TransformInput(k int, src, dst []float32) {
	n := g.geo.Cells
	if k == 0 {
		copy(dst[:2*n], src)
		return
	}
	for p := 0; p < 2; p++ {
		for i := 0; i < n; i++ {
			dst[p*n+i] = src[p*n+n-1-i]
		}
	}
}

func (g *Game) TransformAction(k, a int) int {
	if k == 0 {
		return a
	}
	return g.geo.Cells - 1 - a
}

// InputDoc implements env.InputDoc.
func (g *Game) InputDoc() string {
	n := g.geo.N
	return fmt.Sprintf("2 planes of %d rows x %d columns seen from the side to move, in order: its stones, the opponent's (1 or 0). "+
		"Blue (moving first, joining rows 1 and %d) sees the board as it is; Red (joining columns a and %c) sees it transposed, "+
		"cell (column c, row r) at (column r, row c), so that the side to move always joins the bottom and top rows. "+
		"The input of the cell in row r (0 = row 1) and column c (0 = a), as the side to move sees it, is plane*%d + r*%d + c; "+
		"action r*%d + c places a stone there.", n, n, n, 'a'+n-1, n*n, n, n)
}
