package hex

import (
	"fmt"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// The notation: a cell is its column's letter and its row's number, a1
// at the bottom left ("c3"), as Hex programs write cells; a move is the
// cell it fills. A position is its rows top first, separated by '/',
// each a letter a cell (B Blue, R Red, . empty), then a space and the
// side to move: "...../...../..B../...../..... R".

// cellName writes cell i as column letter and row number.
func (g *Game) cellName(i int) string {
	return fmt.Sprintf("%c%d", 'a'+i%g.geo.N, i/g.geo.N+1)
}

// parseCell reads a cell name, -1 when it names none of the board.
func (g *Game) parseCell(text string) int {
	t := strings.ToLower(strings.TrimSpace(text))
	if len(t) < 2 || len(t) > 3 || t[0] < 'a' || t[0] >= 'a'+byte(g.geo.N) {
		return -1
	}
	row := 0
	for _, d := range t[1:] {
		if d < '0' || d > '9' {
			return -1
		}
		row = row*10 + int(d-'0')
	}
	if t[1] == '0' || row < 1 || row > g.geo.N {
		return -1
	}
	return (row-1)*g.geo.N + int(t[0]-'a')
}

// ActionString writes a move as the cell it fills.
func (s *State) ActionString(a int) string {
	if a < 0 || a >= s.g.geo.Cells {
		return fmt.Sprintf("action(%d)", a)
	}
	return s.g.cellName(s.g.CellOf(s.toMove, a))
}

// ParseAction reads a cell, a1 to the board's last, and checks that it is
// empty.
func (s *State) ParseAction(text string) (int, error) {
	if s.outcome.Over {
		return 0, fmt.Errorf("the game is over")
	}
	i := s.g.parseCell(text)
	if i < 0 {
		n := s.g.geo.N
		return 0, fmt.Errorf("malformed move %s: want a cell, a column a to %c and a row 1 to %d (c3)", env.Quote(text), 'a'+n-1, n)
	}
	if !s.empty().Has(i) {
		return 0, fmt.Errorf("illegal move %s: the cell holds a stone", s.g.cellName(i))
	}
	return s.g.ActionOf(s.toMove, i), nil
}

// token is the letter of cell i: B, R or . (empty).
func (s *State) token(i int) byte {
	switch {
	case s.stones[Blue].Has(i):
		return 'B'
	case s.stones[Red].Has(i):
		return 'R'
	}
	return '.'
}

// String is the one-line position: the rows top first separated by '/',
// then the side to move.
func (s *State) String() string {
	n := s.g.geo.N
	var b strings.Builder
	for r := n - 1; r >= 0; r-- {
		for c := 0; c < n; c++ {
			b.WriteByte(s.token(r*n + c))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteString(s.g.SideName(s.toMove)[:1])
	return b.String()
}

// ParseState reads the one-line form. Blue moves first, so Blue has as
// many stones as Red when Blue is to move and one more when Red is; the
// side to move has not joined its edges (the game would be over), and a
// side that has joined them has a stone without which it would not (its
// last, which ended the game).
func (g *Game) ParseState(text string) (env.State, error) {
	n := g.geo.N
	f := strings.Fields(text)
	if len(f) != 2 {
		return nil, fmt.Errorf("malformed position %s: want %d rows separated by '/', a space and the side to move", env.Quote(text), n)
	}
	side, err := g.ParseSide(f[1])
	if err != nil {
		return nil, fmt.Errorf("malformed position: %w", err)
	}
	rows := strings.Split(f[0], "/")
	if len(rows) != n {
		return nil, fmt.Errorf("malformed position: %d rows, want %d (the board is %dx%d)", len(rows), n, n, n)
	}
	s := &State{g: g, toMove: side}
	for k, row := range rows {
		r := n - 1 - k
		if len(row) != n {
			return nil, fmt.Errorf("malformed position: row %d has %d cells, want %d", r+1, len(row), n)
		}
		for c := 0; c < n; c++ {
			switch row[c] {
			case 'B', 'b':
				s.stones[Blue] = s.stones[Blue].With(r*n + c)
			case 'R', 'r':
				s.stones[Red] = s.stones[Red].With(r*n + c)
			case '.':
			default:
				return nil, fmt.Errorf("malformed position: cell %s is %q, want B, R or \".\" (empty)", g.cellName(r*n+c), row[c])
			}
		}
	}
	if err := s.judge(); err != nil {
		return nil, err
	}
	return s, nil
}

// judge checks a position read and sets its ply and outcome.
func (s *State) judge() error {
	g, side := s.g, s.toMove
	nb, nr := s.stones[Blue].Count(), s.stones[Red].Count()
	switch {
	case side == Blue && nb != nr:
		return fmt.Errorf("invalid position: Blue to move with %d stones to Red's %d (Blue moves first, so they must be equal)", nb, nr)
	case side == Red && nb != nr+1:
		return fmt.Errorf("invalid position: Red to move with %d stones to Blue's %d (Blue must have one more)", nr, nb)
	}
	s.ply = nb + nr
	if g.geo.Joins(s.stones[side], int(side)) {
		return fmt.Errorf("invalid position: %s has joined its edges and is to move (the game ended before)", g.SideName(side))
	}
	last := side.Other()
	own := s.stones[last]
	if !g.geo.Joins(own, int(last)) {
		return nil
	}
	for b := own; !b.Empty(); b = b.Rest() {
		if !g.geo.Joins(own.AndNot(Cell(b.First())), int(last)) {
			s.outcome = env.Outcome{Over: true, Winner: last}
			return nil
		}
	}
	return fmt.Errorf("invalid position: %s's edges are joined even without any one of its stones, so the game ended before its last", g.SideName(last))
}

// Board writes the rows top first, cells separated by spaces.
func (s *State) Board() string {
	n := s.g.geo.N
	var b strings.Builder
	for r := n - 1; r >= 0; r-- {
		for c := 0; c < n; c++ {
			if c > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(s.token(r*n + c))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Display draws the rhombus, each row half a cell right of the one
// below, with its coordinates, and says whose turn it is.
func (s *State) Display() string {
	n := s.g.geo.N
	letters := make([]string, n)
	for c := range letters {
		letters[c] = string(rune('a' + c))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "   %s%s\n", strings.Repeat(" ", n-1), strings.Join(letters, " "))
	for r := n - 1; r >= 0; r-- {
		fmt.Fprintf(&b, "%2d %s", r+1, strings.Repeat(" ", r))
		for c := 0; c < n; c++ {
			b.WriteByte(s.token(r*n + c))
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d\n", r+1)
	}
	fmt.Fprintf(&b, "   %s\n", strings.Join(letters, " "))
	if o := s.outcome; o.Over {
		fmt.Fprintf(&b, "%s wins.\n", s.g.SideName(o.Winner))
	} else {
		fmt.Fprintf(&b, "%s to move (Blue joins rows 1 and %d, Red columns a and %c).\n", s.g.SideName(s.toMove), n, 'a'+n-1)
	}
	return b.String()
}

// HowToPlay tells a person at a terminal the goal, the board and the
// notation (env.Explained).
func (g *Game) HowToPlay() string {
	n := g.geo.N
	return fmt.Sprintf(`Hex on a %dx%d rhombus of hexagons: each row is drawn half a cell right of the row below, and a cell touches six others (two in the rows above and below it).
Blue (B, moving first) and Red (R) place a stone in turn on any empty cell. Blue wins by joining row 1 and row %d with a chain of its stones, Red by joining column a and column %c. There are no draws, and no swap rule: Blue wins with perfect play.
A move: the cell, its column's letter and its row's number (c3).`, n, n, n, 'a'+n-1)
}

// Looks tells front ends how to draw the board's tokens (env.Drawn).
func (g *Game) Looks() map[string]env.Look {
	return map[string]env.Look{"B": {Side: Blue}, "R": {Side: Red}}
}

// Frame implements env.Framed: hexagonal cells in rows each half a cell
// right of the one below, the edges coloured by the side that joins
// them.
func (g *Game) Frame() env.Frame { return env.Frame{Style: env.StyleHex, Edges: true} }

// MoveShape is a stone dropped onto its cell.
func (s *State) MoveShape(a int) env.MoveShape {
	if a < 0 || a >= s.g.geo.Cells {
		return env.MoveShape{Button: s.ActionString(a)}
	}
	i := s.g.CellOf(s.toMove, a)
	return env.MoveShape{To: &env.Cell{Col: i % s.g.geo.N, Row: i / s.g.geo.N}}
}
