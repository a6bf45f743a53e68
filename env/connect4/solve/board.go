// Package solve is an exact Connect Four solver for boards of W columns
// and H rows with W*(H+1) at most 64: bitboards, negamax with alpha-beta,
// a transposition table, null-window searches on the score, centre-first
// move ordering refined by the threats a move creates, and the usual
// prunings (win at once, block a forced cell, never play below a cell the
// opponent wins on). It follows the design of Pascal Pons's solver
// (http://blog.gamesolver.org), written anew for any board size.
//
// Scores follow the field's convention: 0 is a draw; a side to move that
// can force a win scores the number of its own discs left unplayed after
// its winning disc, plus one (on 7x6, 1 for a win with its 21st disc, 18
// for the fastest win of all, with its 4th); a forced loss scores the
// negative of the opponent's winning score. A weak solve answers only the
// sign: 1, 0 or -1.
package solve

import (
	"fmt"
	"math/bits"
	"strings"
)

// maxColumns is the most columns a board can have: 64 bits hold at most
// 32 columns of one row and its spare bit.
const maxColumns = 32

// Board is the geometry of a board: W columns of H rows. Bitboards are
// column-major with a stride of H+1: the spare bit atop each column keeps
// a line from wrapping into the next column and makes position keys
// unique.
type Board struct {
	W, H   int
	stride uint
	// bottom has a bit on each column's lowest cell, full on every cell.
	bottom, full uint64
	// order lists the columns centre first, then outwards, left first.
	order []int
}

// NewBoard checks and builds a board's geometry.
func NewBoard(w, h int) (*Board, error) {
	if w < 1 || h < 1 || w*(h+1) > 64 {
		return nil, fmt.Errorf("a %dx%d board does not fit the solver: it needs columns times (rows+1) at most 64", w, h)
	}
	if w < 4 && h < 4 {
		return nil, fmt.Errorf("a %dx%d board has no line of four", w, h)
	}
	b := &Board{W: w, H: h, stride: uint(h + 1)}
	for c := 0; c < w; c++ {
		b.bottom |= 1 << (uint(c) * b.stride)
		b.full |= (1<<uint(h) - 1) << (uint(c) * b.stride)
	}
	for i := 0; i < w; i++ {
		// the centre, then alternately left and right of it
		b.order = append(b.order, w/2+(1-2*(i%2))*(i+1)/2)
	}
	return b, nil
}

// Cells is the number of cells, W times H.
func (b *Board) Cells() int { return b.W * b.H }

// String names the board: "7x6".
func (b *Board) String() string { return fmt.Sprintf("%dx%d", b.W, b.H) }

// column is the mask of column c's cells.
func (b *Board) column(c int) uint64 { return (1<<uint(b.H) - 1) << (uint(c) * b.stride) }

// top is the mask of column c's top cell.
func (b *Board) top(c int) uint64 { return 1 << (uint(b.H-1) + uint(c)*b.stride) }

// Position is a position for the solver: the discs of the side to move,
// every disc, and their number.
type Position struct {
	cur, mask uint64
	moves     int
}

// Moves is the number of discs on the board.
func (p Position) Moves() int { return p.moves }

// FromBitboards builds a position from the bitboards of the side to move
// and of its opponent in the board's layout (the layout of package
// connect4 on 7x6).
func (b *Board) FromBitboards(mine, theirs uint64) (Position, error) {
	if mine&theirs != 0 || (mine|theirs)&^b.full != 0 {
		return Position{}, fmt.Errorf("the bitboards overlap or leave the board")
	}
	mask := mine | theirs
	for c := 0; c < b.W; c++ {
		col := mask & b.column(c) >> (uint(c) * b.stride)
		if col&(col+1) != 0 {
			return Position{}, fmt.Errorf("a disc floats above an empty cell in column %d", c+1)
		}
	}
	return Position{cur: mine, mask: mask, moves: bits.OnesCount64(mask)}, nil
}

// Bitboards returns the discs of the side to move and of its opponent.
func (p Position) Bitboards() (mine, theirs uint64) { return p.cur, p.cur ^ p.mask }

// CanPlay reports whether column c has room.
func (b *Board) CanPlay(p Position, c int) bool {
	return c >= 0 && c < b.W && p.mask&b.top(c) == 0
}

// Play drops a disc of the side to move into column c, which must have
// room.
func (b *Board) Play(p Position, c int) Position {
	p.cur ^= p.mask
	p.mask |= p.mask + 1<<(uint(c)*b.stride)
	p.moves++
	return p
}

// playMove plays a move given as the bit of its cell.
func playMove(p Position, move uint64) Position {
	p.cur ^= p.mask
	p.mask |= move
	p.moves++
	return p
}

// Wins reports whether the side to move wins at once by playing column c
// (which must have room).
func (b *Board) Wins(p Position, c int) bool {
	return b.winning(p.cur, p.mask)&b.possible(p.mask)&b.column(c) != 0
}

// Over reports whether the player who moved last has four in a row or the
// board is full.
func (b *Board) Over(p Position) bool {
	return b.fourInARow(p.cur^p.mask) || p.moves == b.Cells()
}

// LastWon reports whether the player who moved last has four in a row.
func (b *Board) LastWon(p Position) bool { return b.fourInARow(p.cur ^ p.mask) }

func (b *Board) fourInARow(x uint64) bool {
	for _, d := range [4]uint{1, b.stride, b.stride - 1, b.stride + 1} {
		m := x & (x >> d)
		if m&(m>>(2*d)) != 0 {
			return true
		}
	}
	return false
}

// possible has a bit on each cell a disc can be dropped into.
func (b *Board) possible(mask uint64) uint64 { return (mask + b.bottom) & b.full }

// key identifies a position: above each column's discs a bit marks its
// height, so side-to-move discs plus the marks are unique.
func (b *Board) key(p Position) uint64 { return p.cur + p.mask + b.bottom }

// mirrorKey is the key of the position mirrored left to right: each
// column's bits (its discs and its height mark) move to the mirror column.
func (b *Board) mirrorKey(key uint64) uint64 {
	var m uint64
	colMask := uint64(1)<<b.stride - 1
	for c := 0; c < b.W; c++ {
		m |= (key >> (uint(c) * b.stride) & colMask) << (uint(b.W-1-c) * b.stride)
	}
	return m
}

// winning has a bit on each empty cell that would complete a line of four
// for the discs of pos.
func (b *Board) winning(pos, mask uint64) uint64 {
	// vertical: three below
	r := (pos << 1) & (pos << 2) & (pos << 3)
	// across, and the two diagonals; every shift is below 64 (the board
	// fits in 64 bits), which the masks tell the compiler
	for _, d := range [3]uint{b.stride, b.stride - 1, b.stride + 1} {
		d1, d2, d3 := d&63, 2*d&63, 3*d&63
		p := (pos << d1) & (pos << d2)
		r |= p & (pos << d3)
		r |= p & (pos >> d1)
		p = (pos >> d1) & (pos >> d2)
		r |= p & (pos << d1)
		r |= p & (pos >> d3)
	}
	return r & (b.full ^ mask)
}

// ParseMoves reads the field's plain form of a position: the columns
// played from the empty board, 1 to W, one digit each ("4453"). It refuses
// a full column and a move after the game is over.
func (b *Board) ParseMoves(text string) (Position, error) {
	var p Position
	for i, r := range text {
		c := int(r - '1')
		if r < '1' || c >= b.W || c > 8 {
			return Position{}, fmt.Errorf("move %d %q is not a column 1 to %d", i+1, r, b.W)
		}
		if !b.CanPlay(p, c) {
			return Position{}, fmt.Errorf("move %d: column %d is full", i+1, c+1)
		}
		if b.Over(p) {
			return Position{}, fmt.Errorf("move %d: the game is already over", i+1)
		}
		p = b.Play(p, c)
	}
	return p, nil
}

// Grid draws a position, top row first, X for the first player's discs.
func (b *Board) Grid(p Position) string {
	first := p.cur
	if p.moves%2 == 1 {
		first = p.cur ^ p.mask
	}
	var sb strings.Builder
	for r := b.H - 1; r >= 0; r-- {
		for c := 0; c < b.W; c++ {
			bit := uint64(1) << (uint(c)*b.stride + uint(r))
			switch {
			case first&bit != 0:
				sb.WriteByte('X')
			case p.mask&bit != 0:
				sb.WriteByte('O')
			default:
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
