// Cats & Dogs' notation: positions written and read, the board drawn for
// a terminal and a front end, and how to play.

package catsdogs

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

func (s *State) cellChar(sq int) byte {
	switch {
	case s.cats&(1<<sq) != 0:
		return 'C'
	case s.dogs&(1<<sq) != 0:
		return 'D'
	}
	return '.'
}

// String writes the one-line position: rows top first separated by '/',
// then the side to move, with the Dog step ("D2") when the Dogs are on
// their second step, e.g. "C.....C/DDDDDDD/.../C.....C C".
func (s *State) String() string {
	var b strings.Builder
	for y := Size - 1; y >= 0; y-- {
		for x := 0; x < Size; x++ {
			b.WriteByte(s.cellChar(y*Size + x))
		}
		if y > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteString(s.g.SideName(s.toMove))
	if s.toMove == Dogs && s.step == 1 {
		b.WriteByte('2')
	}
	return b.String()
}

// Board writes the board as 7 lines of cells separated by spaces.
func (s *State) Board() string {
	var b strings.Builder
	for y := Size - 1; y >= 0; y-- {
		for x := 0; x < Size; x++ {
			if x > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(s.cellChar(y*Size + x))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Display draws the board with coordinates and says whose turn it is.
func (s *State) Display() string {
	var b strings.Builder
	for y := Size - 1; y >= 0; y-- {
		fmt.Fprintf(&b, "%d ", y+1)
		for x := 0; x < Size; x++ {
			b.WriteByte(' ')
			b.WriteByte(s.cellChar(y*Size + x))
		}
		b.WriteByte('\n')
	}
	b.WriteString("   a b c d e f g\n")
	switch o := s.outcome; {
	case o.Over && o.Winner == env.NoSide:
		b.WriteString("game over: tie\n")
	case o.Over:
		fmt.Fprintf(&b, "game over: %s win\n", map[env.Side]string{Cats: "the Cats", Dogs: "the Dogs"}[o.Winner])
	case s.toMove == Cats:
		fmt.Fprintf(&b, "ply %d, Cats to move\n", s.ply)
	default:
		fmt.Fprintf(&b, "ply %d, Dogs to move (step %d of 2)\n", s.ply, s.step+1)
	}
	return b.String()
}

// ParseState reads a one-line position (what String writes).
func (g *Game) ParseState(text string) (env.State, error) {
	rowsText, sideText, ok := strings.Cut(strings.TrimSpace(text), " ")
	if !ok {
		return nil, fmt.Errorf("malformed position %s: want 7 rows separated by '/', a space, and C, D or D2", env.Quote(text))
	}
	s := &State{g: g}
	switch strings.ToUpper(strings.TrimSpace(sideText)) {
	case "C":
		s.toMove = Cats
	case "D":
		s.toMove = Dogs
	case "D2":
		s.toMove, s.step = Dogs, 1
	default:
		return nil, fmt.Errorf("malformed position: side to move %q, want C, D or D2", sideText)
	}
	rows := strings.Split(rowsText, "/")
	if len(rows) != Size {
		return nil, fmt.Errorf("malformed position: %d rows, want 7", len(rows))
	}
	for i, row := range rows {
		y := Size - 1 - i
		if len(row) != Size {
			return nil, fmt.Errorf("malformed position: row %d has %d cells, want 7", i+1, len(row))
		}
		for x := 0; x < Size; x++ {
			bit := uint64(1) << (y*Size + x)
			switch row[x] {
			case 'C':
				s.cats |= bit
			case 'D':
				s.dogs |= bit
			case '.':
			default:
				return nil, fmt.Errorf("malformed position: cell %s is %q, want C, D or \".\" (empty)", cellName(y*Size+x), row[x])
			}
		}
	}
	if n := bits.OnesCount64(s.cats); n > 5 || n == 0 {
		return nil, fmt.Errorf("invalid position: %d Cats, want 1 to 5", n)
	}
	s.settle()
	return s, nil
}

// Looks tells front ends how to draw Board's tokens.
// Frame implements env.Framed: no piece leaves the board.
func (g *Game) Frame() env.Frame { return env.Frame{Style: env.StyleGrid} }

func (g *Game) Looks() map[string]env.Look {
	return map[string]env.Look{"C": {Side: Cats, Label: "C"}, "D": {Side: Dogs, Label: "D"}}
}

// MoveShape places a legal move on the board: a step to a neighbouring
// cell; a pass is a button.
func (s *State) MoveShape(action int) env.MoveShape {
	if action < 0 || action >= pass {
		return env.MoveShape{Button: s.ActionString(action)}
	}
	sq, d := action/numDirs, action%numDirs
	from := env.Cell{Col: sq % Size, Row: sq / Size}
	to := env.Cell{Col: from.Col + dx[d], Row: from.Row + dy[d]}
	return env.MoveShape{From: &from, To: &to}
}

// HowToPlay tells a person at a terminal the goal, the board and the
// notation (env.Explained).
func (g *Game) HowToPlay() string {
	return `Cats & Dogs on 7x7: the Cats (C) move one step a turn, the Dogs (D) two steps a turn (two plies). The Dogs win the moment three Cats share a row or a column; the Cats win when they cannot move at the start of their turn with no such line.
Board: columns a-g from the left, rows 1-7 from the bottom.
A move: a piece's cell and a direction U, D, L or R (d4U); "pass" when there is none.`
}
