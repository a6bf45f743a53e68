// RLGame's notation: moves and positions written and read, the board
// drawn for a terminal and a front end, and how to play.

package rlgame

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

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
				return nil, fmt.Errorf("malformed position: cell %s is %q, want W, B or \".\" (empty)", g.cellName(sq), row[x])
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
