// Package connect4 is Connect Four: seven columns of six rows standing
// upright, two players dropping pieces in turn into a column that is not
// full, each piece falling to the lowest free cell; four of one's own in a
// row (across, up, or along either diagonal) wins, a full board without
// one is a tie. X moves first. It was added by following docs/new-game.md
// alone, as the proof that a game needs nothing outside its own package
// but the one line that registers it.
package connect4

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// The board.
const (
	Cols = 7
	Rows = 6
	// Cells of the board: column-major bitboards with a stride of Rows+1,
	// so the spare bit atop each column stops a line from wrapping into
	// the next column.
	stride = Rows + 1
	cells  = Cols * Rows
)

// The sides: X moves first.
const (
	X env.Side = 0
	O env.Side = 1
)

func square(col, row int) int { return col*stride + row }

// cellOf[sq] is the input planes' index (row*Cols + column) of bitboard
// square sq, looked up: Encode runs at every leaf of every search.
var cellOf = func() (t [64]uint8) {
	for sq := range t {
		t[sq] = uint8(sq%stride*Cols + sq/stride)
	}
	return t
}()

// Game is Connect Four. Its one setting, features, changes the network's
// input, not the rules.
type Game struct {
	features bool
}

// New returns the game.
func New() *Game { return &Game{} }

// NewWithFeatures returns the game whose input has the threat planes
// (features.go).
func NewWithFeatures() *Game { return &Game{features: true} }

var (
	_ env.Game      = (*Game)(nil)
	_ env.Evaluator = (*Game)(nil)
	_ env.Symmetric = (*Game)(nil)
	_ env.Drawn     = (*Game)(nil)
	_ env.Shaped    = (*State)(nil)
)

func (g *Game) Name() string { return "connect4" }
func (g *Game) Describe() string {
	if g.features {
		return "connect4 features=1"
	}
	return "connect4"
}
func (g *Game) ActionSize() int       { return Cols }
func (g *Game) InputShape() env.Shape { return env.Shape{C: g.planes(), H: Rows, W: Cols} }

// planes counts the input's planes.
func (g *Game) planes() int {
	if g.features {
		return planesWithThreats
	}
	return planeBoard
}

func (g *Game) SideName(s env.Side) string {
	if s == O {
		return "O"
	}
	return "X"
}

func (g *Game) ParseSide(text string) (env.Side, error) {
	switch strings.ToUpper(strings.TrimSpace(text)) {
	case "X":
		return X, nil
	case "O":
		return O, nil
	}
	return env.NoSide, fmt.Errorf("unknown side %s: want X or O", env.Quote(text))
}

// Start is the empty board, X to move; there is nothing to draw at random.
func (g *Game) Start(*rand.Rand) env.State { return &State{g: g} }

// State is a position.
type State struct {
	g       *Game
	pieces  [2]uint64
	height  [Cols]int8
	toMove  env.Side
	ply     int
	outcome env.Outcome
}

func (s *State) Game() env.Game       { return s.g }
func (s *State) ToMove() env.Side     { return s.toMove }
func (s *State) Ply() int             { return s.ply }
func (s *State) Outcome() env.Outcome { return s.outcome }

// LegalActions are the columns that are not full.
func (s *State) LegalActions(dst []int) []int {
	if s.outcome.Over {
		return dst
	}
	for c := 0; c < Cols; c++ {
		if s.height[c] < Rows {
			dst = append(dst, c)
		}
	}
	return dst
}

// Apply drops a piece of the side to move into column a.
func (s *State) Apply(a int) {
	me := s.toMove
	s.pieces[me] |= 1 << square(a, int(s.height[a]))
	s.height[a]++
	s.ply++
	s.toMove = me.Other()
	switch {
	case fourInARow(s.pieces[me]):
		s.outcome = env.Outcome{Over: true, Winner: me}
	case s.ply == cells:
		s.outcome = env.Outcome{Over: true, Winner: env.NoSide}
	}
}

// fourInARow reports whether b holds four in a line: a shift by a
// direction's step, ANDed in twice, leaves the starts of the lines. The
// four directions are worked out side by side, with no branch between
// them: Apply asks it at every move of every search's descent.
func fourInARow(b uint64) bool {
	h := b & (b >> stride)
	v := b & (b >> 1)
	d := b & (b >> (stride - 1))
	e := b & (b >> (stride + 1))
	return h&(h>>(2*stride))|v&(v>>2)|d&(d>>(2*(stride-1)))|e&(e>>(2*(stride+1))) != 0
}

func (s *State) Clone() env.State       { c := *s; return &c }
func (s *State) CopyFrom(src env.State) { *s = *src.(*State) }

func (s *State) Hash() uint64 {
	return env.Mix64(env.Mix64(s.pieces[X]^0x2545f4914f6cdd1d) ^ s.pieces[O] ^ uint64(s.toMove)<<63)
}

// Encode writes two planes seen from the side to move: its pieces, then
// the opponent's, row 0 at the bottom.
func (s *State) Encode(dst []float32) {
	dst = dst[:s.g.planes()*cells]
	clear(dst)
	for p, side := range [2]env.Side{s.toMove, s.toMove.Other()} {
		for b := s.pieces[side]; b != 0; b &= b - 1 {
			dst[p*cells+int(cellOf[bits.TrailingZeros64(b)&63])] = 1
		}
	}
	if s.g.features {
		s.encodeThreats(dst)
	}
}

// Symmetries: the board mirrored left to right.
func (g *Game) Symmetries() int { return 2 }

func (g *Game) TransformInput(k int, src, dst []float32) {
	if k == 0 {
		copy(dst, src)
		return
	}
	for i := 0; i < g.planes()*Rows; i++ {
		for c := 0; c < Cols; c++ {
			dst[i*Cols+c] = src[i*Cols+Cols-1-c]
		}
	}
}

func (g *Game) TransformAction(k, a int) int {
	if k == 0 {
		return a
	}
	return Cols - 1 - a
}

// ActionString writes a column as its letter, a to g.
func (s *State) ActionString(a int) string {
	if a < 0 || a >= Cols {
		return fmt.Sprintf("action(%d)", a)
	}
	return string(rune('a' + a))
}

// ParseAction reads a column as a letter a-g or a number 1-7 (the usual
// notation of Connect Four's solvers) and checks that it is not full.
func (s *State) ParseAction(text string) (int, error) {
	if s.outcome.Over {
		return 0, fmt.Errorf("the game is over")
	}
	t := strings.ToLower(strings.TrimSpace(text))
	c := -1
	if len(t) == 1 {
		switch {
		case t[0] >= 'a' && t[0] < 'a'+Cols:
			c = int(t[0] - 'a')
		case t[0] >= '1' && t[0] < '1'+Cols:
			c = int(t[0] - '1')
		}
	}
	if c < 0 {
		return 0, fmt.Errorf("malformed move %s: want a column, a to g (or 1 to 7)", env.Quote(text))
	}
	if s.height[c] == Rows {
		return 0, fmt.Errorf("illegal move %s: column %c is full", t, 'a'+c)
	}
	return c, nil
}

func (s *State) cellChar(col, row int) byte {
	bit := uint64(1) << square(col, row)
	switch {
	case s.pieces[X]&bit != 0:
		return 'X'
	case s.pieces[O]&bit != 0:
		return 'O'
	}
	return '.'
}

// String is the one-line position: the rows top first separated by '/',
// then the side to move: "......./......./......./......./......./...X... O".
func (s *State) String() string {
	var b strings.Builder
	for row := Rows - 1; row >= 0; row-- {
		for col := 0; col < Cols; col++ {
			b.WriteByte(s.cellChar(col, row))
		}
		if row > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteString(s.g.SideName(s.toMove))
	return b.String()
}

// ParseState reads the one-line form. The pieces must stand on each other
// (no piece above an empty cell), X must have as many pieces as O (X to
// move) or one more (O to move), and at most the side that moved last may
// have four in a row.
func (g *Game) ParseState(text string) (env.State, error) {
	f := strings.Fields(text)
	if len(f) != 2 {
		return nil, fmt.Errorf("malformed position %s: want six rows separated by '/', a space and the side to move", env.Quote(text))
	}
	side, err := g.ParseSide(f[1])
	if err != nil {
		return nil, fmt.Errorf("malformed position: %w", err)
	}
	rows := strings.Split(f[0], "/")
	if len(rows) != Rows {
		return nil, fmt.Errorf("malformed position: %d rows, want %d", len(rows), Rows)
	}
	s := &State{g: g, toMove: side}
	for i, text := range rows {
		row := Rows - 1 - i
		if len(text) != Cols {
			return nil, fmt.Errorf("malformed position: row %d has %d cells, want %d", row+1, len(text), Cols)
		}
		for col := 0; col < Cols; col++ {
			switch text[col] {
			case 'X', 'x':
				s.pieces[X] |= 1 << square(col, row)
			case 'O', 'o':
				s.pieces[O] |= 1 << square(col, row)
			case '.':
				continue
			default:
				return nil, fmt.Errorf("malformed position: cell %c%d is %q, want X, O or \".\" (empty)", 'a'+col, row+1, text[col])
			}
		}
	}
	all := s.pieces[X] | s.pieces[O]
	for col := 0; col < Cols; col++ {
		column := all >> (col * stride) & (1<<Rows - 1)
		h := bits.OnesCount64(column)
		if column != 1<<h-1 {
			return nil, fmt.Errorf("invalid position: a piece floats above an empty cell in column %c", 'a'+col)
		}
		s.height[col] = int8(h)
	}
	nx, no := bits.OnesCount64(s.pieces[X]), bits.OnesCount64(s.pieces[O])
	switch {
	case side == X && nx != no:
		return nil, fmt.Errorf("invalid position: X to move with %d pieces to O's %d (X moves first, so they must be equal)", nx, no)
	case side == O && nx != no+1:
		return nil, fmt.Errorf("invalid position: O to move with %d pieces to X's %d (X must have one more)", no, nx)
	}
	s.ply = nx + no
	last := side.Other()
	switch {
	case fourInARow(s.pieces[side]):
		return nil, fmt.Errorf("invalid position: %s has four in a row and is to move (the game ended before)", g.SideName(side))
	case fourInARow(s.pieces[last]):
		s.outcome = env.Outcome{Over: true, Winner: last}
	case s.ply == cells:
		s.outcome = env.Outcome{Over: true, Winner: env.NoSide}
	}
	return s, nil
}

// Board writes the rows top first, cells separated by spaces.
func (s *State) Board() string {
	var b strings.Builder
	for row := Rows - 1; row >= 0; row-- {
		for col := 0; col < Cols; col++ {
			if col > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(s.cellChar(col, row))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Display draws the board with its column letters and says whose turn it
// is.
func (s *State) Display() string {
	var b strings.Builder
	for row := Rows - 1; row >= 0; row-- {
		fmt.Fprintf(&b, "%d ", row+1)
		for col := 0; col < Cols; col++ {
			b.WriteByte(' ')
			b.WriteByte(s.cellChar(col, row))
		}
		b.WriteByte('\n')
	}
	b.WriteString("   a b c d e f g\n")
	switch o := s.outcome; {
	case o.Over && o.Winner == env.NoSide:
		b.WriteString("The board is full: a tie.\n")
	case o.Over:
		fmt.Fprintf(&b, "%s wins.\n", s.g.SideName(o.Winner))
	default:
		fmt.Fprintf(&b, "%s to move.\n", s.g.SideName(s.toMove))
	}
	return b.String()
}

// Looks tells front ends how to draw the board's tokens.
// InputDoc implements env.InputDoc.
func (g *Game) InputDoc() string {
	if g.features {
		return fmt.Sprintf("4 planes of %d rows x %d columns, in order: the side to move's discs, the other side's, "+
			"the empty cells where a disc of the side to move would make four, the same for the other side (1 or 0); "+
			"the input of the cell in row r (0 at the bottom) and column c (0 = a) is plane*%d + r*%d + c. Action c drops a disc in column c.",
			Rows, Cols, Rows*Cols, Cols)
	}
	return fmt.Sprintf("2 planes of %d rows x %d columns, in order: the side to move's discs, the other side's (1 or 0); "+
		"the input of the cell in row r (0 at the bottom) and column c (0 = a) is plane*%d + r*%d + c. Action c drops a disc in column c.",
		Rows, Cols, Rows*Cols, Cols)
}

// Frame implements env.Framed: discs drop into upright columns.
func (g *Game) Frame() env.Frame { return env.Frame{Style: env.StyleColumns} }

func (g *Game) Looks() map[string]env.Look {
	return map[string]env.Look{"X": {Side: X, Label: "X"}, "O": {Side: O, Label: "O"}}
}

// MoveShape is a drop into a column: a click on the column makes it, and
// the piece lands on the column's lowest free cell.
func (s *State) MoveShape(a int) env.MoveShape {
	if a < 0 || a >= Cols {
		return env.MoveShape{Button: s.ActionString(a)}
	}
	return env.MoveShape{To: &env.Cell{Col: a, Row: int(s.height[a])}, Column: true}
}

// HowToPlay tells a person at a terminal the goal, the board and the
// notation (env.Explained).
func (g *Game) HowToPlay() string {
	return `Connect Four: X and O drop pieces in turn into the seven columns; a piece falls to the lowest free cell. Four of your own in a line (across, up or diagonal) wins; a full board is a tie.
A move: the column's letter, a to g (or 1 to 7).`
}

// Bitboards returns the discs of the side to move and of its opponent, in
// the layout of package solve's 7x6 board (column-major, a stride of
// Rows+1), for exact solvers; ok is false for a state of another game.
func Bitboards(st env.State) (mine, theirs uint64, ok bool) {
	s, ok := env.Unwrap(st).(*State)
	if !ok {
		return 0, 0, false
	}
	return s.pieces[s.toMove], s.pieces[s.toMove.Other()], true
}

// WinningAction implements env.WinFinder without copying the state: the
// first column whose next disc completes four of the side to move, or -1.
func (s *State) WinningAction() int {
	if s.outcome.Over {
		return -1
	}
	occupied := s.pieces[X] | s.pieces[O]
	// The cell each column's next disc falls to; a full column's is its
	// spare bit, which no threat holds.
	next := (occupied + bottomBits) & boardBits
	w := threats(s.pieces[s.toMove], occupied) & next
	if w == 0 {
		return -1
	}
	// The lowest bit is in the first such column (column-major squares).
	return bits.TrailingZeros64(w) / stride
}

// bottomBits holds each column's bottom cell.
var bottomBits = func() (b uint64) {
	for c := 0; c < Cols; c++ {
		b |= 1 << square(c, 0)
	}
	return b
}()
