package slider

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// Cell is a board cell: X is the column from the left, Y the row from the
// bottom, both from 0.
type Cell struct{ X, Y int }

func (c Cell) square() int { return c.Y*8 + c.X }

// String writes the cell in algebraic form: column letter, row number from 1.
func (c Cell) String() string {
	return string(rune('a'+c.X)) + strconv.Itoa(c.Y+1)
}

// ParseCell reads a cell in algebraic form (e.g. "c3"); it does not check
// the board size.
func ParseCell(text string) (Cell, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if len(t) != 2 || t[0] < 'a' || t[0] >= 'a'+MaxSize || t[1] < '1' || t[1] >= '1'+MaxSize {
		return Cell{}, fmt.Errorf("malformed cell %s: want a column letter and a row number, like c3", env.Quote(text))
	}
	return Cell{int(t[0] - 'a'), int(t[1] - '1')}, nil
}

// FormatCells writes cells separated by commas, as ParseBlocked reads them,
// in one order (row by row from the bottom, each from the left), so that
// a layout reads the same however it was given: a layout is a set.
func FormatCells(cells []Cell) string {
	sorted := append([]Cell(nil), cells...)
	slices.SortFunc(sorted, func(a, b Cell) int { return (a.Y*8 + a.X) - (b.Y*8 + b.X) })
	sorted = slices.Compact(sorted)
	parts := make([]string, len(sorted))
	for i, c := range sorted {
		parts[i] = c.String()
	}
	return strings.Join(parts, ",")
}

// ParseBlocked reads the --blocked setting: "none" (or empty), "random" (the
// course referee's scheme), or a comma-separated list of cells.
func ParseBlocked(text string) (cells []Cell, random bool, err error) {
	t := strings.TrimSpace(text)
	switch strings.ToLower(t) {
	case "", "none":
		return nil, false, nil
	case "random":
		return nil, true, nil
	}
	for _, part := range strings.Split(t, ",") {
		c, err := ParseCell(part)
		if err != nil {
			return nil, false, fmt.Errorf("blocked cells: %w", err)
		}
		cells = append(cells, c)
	}
	return cells, false, nil
}

// dirLetters[side][dir] is the rules' letter of each direction.
var dirLetters = [2][numDirs]byte{H: {'R', 'U', 'D'}, V: {'U', 'R', 'L'}}

var dirNames = map[byte]string{'U': "up", 'D': "down", 'L': "left", 'R': "right"}

func (s *State) ActionString(action int) string {
	g := s.g
	if action == g.pass {
		return "pass"
	}
	if action < 0 || action > g.pass {
		return fmt.Sprintf("action(%d)", action)
	}
	sq := int(g.sqOf[s.toMove][action/numDirs])
	c := Cell{sq & 7, sq >> 3}
	return c.String() + string(dirLetters[s.toMove][action%numDirs])
}

// ParseAction reads a move of the side to move in the rules' notation
// ("a2R", "pass") and checks that it is legal.
func (s *State) ParseAction(text string) (int, error) {
	g := s.g
	t := strings.TrimSpace(text)
	if s.outcome.Over {
		return 0, fmt.Errorf("the game is over")
	}
	side := s.toMove
	name := g.SideName(side)
	if strings.EqualFold(t, "pass") {
		if s.hasMove() {
			return 0, fmt.Errorf("illegal move pass: %s has a legal move, and passing is allowed only without one", name)
		}
		return g.pass, nil
	}
	if len(t) != 3 {
		return 0, fmt.Errorf("malformed move %s: want a cell and a direction, like a2R, or pass", env.Quote(text))
	}
	c, err := ParseCell(t[:2])
	if err != nil {
		return 0, fmt.Errorf("malformed move %s: want a cell and a direction, like a2R, or pass", env.Quote(text))
	}
	letter := t[2] &^ 0x20 // upper case
	if _, ok := dirNames[letter]; !ok {
		return 0, fmt.Errorf("malformed move %s: the direction must be U, D, L or R", env.Quote(text))
	}
	if c.X >= g.n || c.Y >= g.n {
		return 0, fmt.Errorf("illegal move %s: %s is off the %dx%d board", t, c, g.n, g.n)
	}
	dir := strings.IndexByte(string(dirLetters[side][:]), letter)
	if dir < 0 {
		return 0, fmt.Errorf("illegal move %s: %s never moves %s", t, name, dirNames[letter])
	}
	bit := uint64(1) << c.square()
	if s.pieces[side]&bit == 0 {
		return 0, fmt.Errorf("illegal move %s: no %s piece on %s", t, name, c)
	}
	action := int(g.base[side][c.square()]) + dir
	if dir == 0 && bit&g.exitEdge[side] != 0 {
		return action, nil // leaves the board
	}
	to := c.square() + delta[side][dir]
	tx, ty := c.X, c.Y
	switch letter {
	case 'U':
		ty++
	case 'D':
		ty--
	case 'L':
		tx--
	case 'R':
		tx++
	}
	if tx < 0 || ty < 0 || tx >= g.n || ty >= g.n {
		return 0, fmt.Errorf("illegal move %s: it would leave the board, which only %s's %s moves from the edge may do",
			t, name, dirNames[dirLetters[side][0]])
	}
	target := Cell{tx, ty}
	switch tb := uint64(1) << to; {
	case s.blocked&tb != 0:
		return 0, fmt.Errorf("illegal move %s: %s is blocked", t, target)
	case (s.pieces[H]|s.pieces[V])&tb != 0:
		return 0, fmt.Errorf("illegal move %s: %s is occupied", t, target)
	}
	return action, nil
}

// cellChar is the character of a cell in the rules' text formats.
func (s *State) cellChar(x, y int) byte {
	bit := uint64(1) << (y*8 + x)
	switch {
	case s.pieces[H]&bit != 0:
		return 'H'
	case s.pieces[V]&bit != 0:
		return 'V'
	case s.blocked&bit != 0:
		return 'B'
	}
	return '+'
}

// String writes the one-line position: rows top first separated by '/',
// then the side to move.
func (s *State) String() string {
	n := s.g.n
	var b strings.Builder
	for y := n - 1; y >= 0; y-- {
		for x := 0; x < n; x++ {
			b.WriteByte(s.cellChar(x, y))
		}
		if y > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteString(s.g.SideName(s.toMove))
	// Whether the last plies were passes decides whether a pass ends the
	// game, so the line keeps it.
	if s.passed {
		b.WriteString(" pass")
		if s.outcome.Over && s.outcome.Winner == env.NoSide && !s.cappedTie() {
			b.WriteString(" pass")
		}
	}
	return b.String()
}

// Board writes the course's board format: N lines, top row first, cells
// separated by single spaces.
func (s *State) Board() string {
	n := s.g.n
	var b strings.Builder
	for y := n - 1; y >= 0; y-- {
		for x := 0; x < n; x++ {
			if x > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(s.cellChar(x, y))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Display draws the board with row numbers and column letters, and says
// whose turn it is.
func (s *State) Display() string {
	n := s.g.n
	var b strings.Builder
	for y := n - 1; y >= 0; y-- {
		fmt.Fprintf(&b, "%d ", y+1)
		for x := 0; x < n; x++ {
			b.WriteByte(' ')
			b.WriteByte(s.cellChar(x, y))
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ")
	for x := 0; x < n; x++ {
		b.WriteByte(' ')
		b.WriteByte(byte('a' + x))
	}
	b.WriteByte('\n')
	o := s.outcome
	switch {
	case o.Over && o.Winner == env.NoSide:
		b.WriteString("game over: tie\n")
	case o.Over:
		fmt.Fprintf(&b, "game over: %s wins\n", s.g.SideName(o.Winner))
	default:
		fmt.Fprintf(&b, "ply %d, %s to move\n", s.ply, s.g.SideName(s.toMove))
	}
	return b.String()
}

// ParsePosition reads a one-line position of this game's size.
func (g *Game) ParsePosition(text string) (*State, error) {
	f := strings.Fields(text)
	passes := len(f) - 2
	if len(f) < 2 || passes > 2 || (passes >= 1 && f[2] != "pass") || (passes == 2 && f[3] != "pass") {
		return nil, fmt.Errorf("malformed position %s: want rows separated by '/', a space, the side to move, and \"pass\" once or twice after passes", env.Quote(text))
	}
	side, err := g.ParseSide(f[1])
	if err != nil {
		return nil, fmt.Errorf("malformed position: %w", err)
	}
	rows := strings.Split(f[0], "/")
	if len(rows) != g.n {
		return nil, fmt.Errorf("malformed position: %d rows for a %dx%d board", len(rows), g.n, g.n)
	}
	s, err := g.fromRows(rows, side, func(r string) []string { return strings.Split(r, "") })
	if err != nil || passes == 0 {
		return s, err
	}
	if s.outcome.Over {
		return nil, fmt.Errorf("invalid position %s: a side without pieces has won, and no pass follows", env.Quote(text))
	}
	s.passed = true
	if passes == 2 {
		s.outcome = env.Outcome{Over: true, Winner: env.NoSide}
	}
	return s, nil
}

// ParsePosition reads a one-line position of any supported size, under
// the default rules for that size.
func ParsePosition(text string) (*State, error) {
	rows, _, _ := strings.Cut(strings.TrimSpace(text), " ")
	n := strings.Count(rows, "/") + 1
	g, err := New(Config{Size: n})
	if err != nil {
		// The size is read from the rows: say what the rows should be.
		return nil, fmt.Errorf("malformed position %s: %d rows separated by '/'; want %d to %d rows of H, V, + (blocked) and . (empty), a space, the side to move", env.Quote(env.Excerpt(text, 60)), n, MinSize, MaxSize)
	}
	return g.ParsePosition(text)
}

// ParseBoard reads a board in the course's file format (an optional line
// holding N, then N lines of N space-separated cells, top row first), with
// toMove to play, under the default rules for its size.
func ParseBoard(text string, toMove env.Side) (*State, error) {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r", ""), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("malformed board: it is empty")
	}
	n := len(lines)
	if first, err := strconv.Atoi(lines[0]); err == nil {
		n, lines = first, lines[1:]
		if len(lines) != n {
			return nil, fmt.Errorf("malformed board: the first line says size %d but %d rows follow", n, len(lines))
		}
	}
	g, err := New(Config{Size: n})
	if err != nil {
		return nil, fmt.Errorf("malformed board: %w", err)
	}
	return g.fromRows(lines, toMove, strings.Fields)
}

// fromRows builds a position from n rows, top first, each split into cells.
func (g *Game) fromRows(rows []string, toMove env.Side, split func(string) []string) (*State, error) {
	if toMove != H && toMove != V {
		return nil, fmt.Errorf("side to move must be H or V")
	}
	s := &State{g: g, toMove: toMove}
	for i, row := range rows {
		y := g.n - 1 - i
		cells := split(row)
		if len(cells) != g.n {
			return nil, fmt.Errorf("malformed board: row %d (y=%d) has %d cells, want %d", i+1, y, len(cells), g.n)
		}
		for x, c := range cells {
			bit := uint64(1) << (y*8 + x)
			switch c {
			case "H":
				s.pieces[H] |= bit
			case "V":
				s.pieces[V] |= bit
			case "B":
				s.blocked |= bit
			case "+":
			default:
				return nil, fmt.Errorf("malformed board: cell %s is %q, want H, V, B or +", Cell{x, y}, c)
			}
		}
	}
	for _, side := range []env.Side{H, V} {
		if k := bits.OnesCount64(s.pieces[side]); k > g.n-1 {
			return nil, fmt.Errorf("invalid position: %s has %d pieces, at most %d on a %dx%d board", g.SideName(side), k, g.n-1, g.n, g.n)
		}
	}
	switch {
	case s.pieces[H] == 0 && s.pieces[V] == 0:
		return nil, fmt.Errorf("invalid position: neither side has a piece left")
	case s.pieces[H] == 0:
		s.outcome = env.Outcome{Over: true, Winner: H}
	case s.pieces[V] == 0:
		s.outcome = env.Outcome{Over: true, Winner: V}
	}
	return s, nil
}

// Of is g as a Slider game, when it is one (repetition rules and other
// wrappers of states do not wrap games): for code that needs a Slider
// board's size and layout without asserting the concrete type itself.
func Of(g env.Game) (*Game, bool) {
	sg, ok := g.(*Game)
	return sg, ok
}

// StateOf is a Slider position as its own type (for Slider's solver),
// seen through any wrapper (env.Unwrap); ok is false for a position of
// another game.
func StateOf(s env.State) (*State, bool) {
	st, ok := env.Unwrap(s).(*State)
	return st, ok
}

// InputDoc implements env.InputDoc.
func (g *Game) InputDoc() string {
	return fmt.Sprintf("3 planes of %d x %d, in order: the side to move's pieces, the other side's, blocked cells (1 or 0). "+
		"Seen from the side to move: with H to move, the input of cell (x, y) (a1 = (0, 0)) is plane*%d + y*%d + x; with V to move, plane*%d + x*%d + y. "+
		"Action a moves the piece on input cell a/3 in direction a%%3: for H R, U, D; for V U, R, L (forward off the far edge where it leaves the board); the last action (%d) passes.",
		g.n, g.n, g.n*g.n, g.n, g.n*g.n, g.n, 3*g.n*g.n)
}

// Frame implements env.Framed: pieces leave by the far edges.
func (g *Game) Frame() env.Frame { return env.Frame{OffBoard: true, Style: env.StyleGrid} }

// Looks tells front ends how to draw Board's tokens (env.Drawn).
func (g *Game) Looks() map[string]env.Look {
	return map[string]env.Look{
		"H": {Side: H, Label: "H"},
		"V": {Side: V, Label: "V"},
		"B": {Side: env.NoSide, Mark: env.MarkBlocked},
	}
}

// steps[side][dir] is a move's step in columns and rows.
var steps = [2][numDirs]env.Cell{H: {{Col: 1}, {Row: 1}, {Row: -1}}, V: {{Row: 1}, {Col: 1}, {Col: -1}}}

// MoveShape places a legal move on the board: a piece stepping to a
// neighbouring cell, or past the edge when it leaves; a pass is a button.
func (s *State) MoveShape(action int) env.MoveShape {
	g := s.g
	if action < 0 || action >= g.pass {
		return env.MoveShape{Button: s.ActionString(action)}
	}
	sq := int(g.sqOf[s.toMove][action/numDirs])
	step := steps[s.toMove][action%numDirs]
	from := env.Cell{Col: sq & 7, Row: sq >> 3}
	to := env.Cell{Col: from.Col + step.Col, Row: from.Row + step.Row}
	off := to.Col < 0 || to.Row < 0 || to.Col >= g.n || to.Row >= g.n
	return env.MoveShape{From: &from, To: &to, Off: off}
}

// HowToPlay tells a person at a terminal the goal, the board and the
// notation (env.Explained).
func (g *Game) HowToPlay() string {
	return `Slider: H's pieces start on the left edge and leave the board over the right edge; V's start on the bottom edge and leave over the top. The first side to take all its pieces off the board wins.
Board: H and V are the pieces, B a blocked cell, + an empty cell; columns a.. from the left, rows 1.. from the bottom.
A move: a piece's cell and a direction. H moves R (right, off the board from the last column), U or D; V moves U (up, off the board from the top row), L or R; onto an empty cell only. A side with no move passes ("pass"); two passes in a row tie the game.`
}
