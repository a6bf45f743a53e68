package solve

import "github.com/sliderzero/sliderzero/env"

// The sides, as env/slider numbers them.
const (
	sideH env.Side = 0
	sideV env.Side = 1
)

// maxMoves bounds the moves of one side: three directions for each of at
// most seven pieces.
const maxMoves = 24

// moveList holds a side's bitboards after each of its moves; the first
// exits of them took a piece off the board.
type moveList struct {
	own   [maxMoves]uint64
	n     int
	exits int
}

// add appends the bitboards after moving each piece of from one step; dst
// holds the destinations and shift the distance from source to
// destination (negative for moves down the board's numbering).
func (l *moveList) add(own, dst uint64, shift int) {
	for ; dst != 0; dst &= dst - 1 {
		d := dst & -dst
		var src uint64
		if shift > 0 {
			src = d >> shift
		} else {
			src = d << -shift
		}
		l.own[l.n] = own ^ d ^ src
		l.n++
	}
}

// moves lists the moves of side s, whose pieces are own, when every cell of
// empty is free to move into. It follows the rules exactly as env/slider
// does, on its own code, so that the two check each other.
func (ix *index) moves(s env.Side, own, empty uint64, l *moveList) {
	l.n, l.exits = 0, 0
	e := &ix.edges
	if s == sideH {
		for x := own & e.lastCol; x != 0; x &= x - 1 {
			l.own[l.n] = own &^ (x & -x)
			l.n++
		}
		l.exits = l.n
		l.add(own, ((own&^e.lastCol)<<1)&empty, 1) // right
		l.add(own, (own<<8)&empty, 8)              // up
		l.add(own, (own>>8)&empty, -8)             // down
		return
	}
	for x := own & e.topRow; x != 0; x &= x - 1 {
		l.own[l.n] = own &^ (x & -x)
		l.n++
	}
	l.exits = l.n
	l.add(own, ((own&^e.topRow)<<8)&empty, 8)    // up
	l.add(own, ((own&^e.lastCol)<<1)&empty, 1)   // right
	l.add(own, ((own&^e.firstCol)>>1)&empty, -1) // left
}

// hasMove reports whether side s, with pieces own, has a move other than a
// pass.
func (ix *index) hasMove(s env.Side, own, empty uint64) bool {
	e := &ix.edges
	if s == sideH {
		return own&e.lastCol != 0 || ((own<<1)|(own<<8)|(own>>8))&empty != 0
	}
	return own&e.topRow != 0 || ((own<<8)|((own&^e.lastCol)<<1)|((own&^e.firstCol)>>1))&empty != 0
}

// unmoves lists side s's bitboards before each of its moves that could
// have led to own, other than a piece leaving the board (which changes the
// class) and a pass.
func (ix *index) unmoves(s env.Side, own, empty uint64, l *moveList) {
	l.n, l.exits = 0, 0
	e := &ix.edges
	// A piece now on d came from src = d - step, which must be empty now.
	if s == sideH {
		l.add(own, ((own&^e.firstCol)>>1)&empty, -1) // it moved right
		l.add(own, (own>>8)&empty, -8)               // it moved up
		l.add(own, (own<<8)&empty, 8)                // it moved down
		return
	}
	l.add(own, (own>>8)&empty, -8)               // it moved up
	l.add(own, ((own&^e.firstCol)>>1)&empty, -1) // it moved right
	l.add(own, ((own&^e.lastCol)<<1)&empty, 1)   // it moved left
}
