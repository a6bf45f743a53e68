package solve

import (
	"context"
	"errors"
	"fmt"
	"math/bits"

	"github.com/sliderzero/sliderzero/env"
)

// Mode is how much a solve answers.
type Mode int

const (
	// Strong answers the exact score.
	Strong Mode = iota
	// Weak answers only who wins: 1, 0 or -1. It is faster.
	Weak
)

// Bounds are what a solve proved of a score: Lo <= score <= Hi. They are
// equal once the score is known.
type Bounds struct{ Lo, Hi int }

// Exact reports whether the score is known.
func (b Bounds) Exact() bool { return b.Lo == b.Hi }

func (b Bounds) negate() Bounds { return Bounds{-b.Hi, -b.Lo} }

func (b Bounds) String() string {
	switch {
	case b.Exact():
		return fmt.Sprint(b.Lo)
	default:
		return fmt.Sprintf("%d..%d", b.Lo, b.Hi)
	}
}

// DefaultTableEntries is the transposition table's default size: about
// 180 MB, enough for middle-game positions in milliseconds.
const DefaultTableEntries = 1 << 24

// EntryBytes is the memory one table entry takes.
const EntryBytes = 11

// Solver solves positions of one board. It keeps its transposition table
// between solves (the table's entries stay true for every later position),
// so solving a game's positions one after another reuses earlier work. A
// Solver is not safe for concurrent use.
type Solver struct {
	b     *Board
	tt    table
	nodes uint64
	// minScore and maxScore bound every score on the board, for the
	// table's encoding of bounds.
	minScore, maxScore int
	// what ends a Solve early: its context, deadline and node budget
	env.SearchStop
}

// ErrBudget is returned by a solve that used up its node budget.
var ErrBudget = errors.New("the solver's node budget ran out")

// New returns a solver for board b with a transposition table of about
// entries entries (at least 1: a tiny table is slow but exact).
func New(b *Board, entries int) *Solver {
	return &Solver{b: b, tt: newTable(entries), minScore: -b.Cells() / 2, maxScore: (b.Cells() + 1) / 2}
}

// Board is the solver's board.
func (s *Solver) Board() *Board { return s.b }

// Nodes counts the positions searched since the solver was made.
func (s *Solver) Nodes() uint64 { return s.nodes }

// Reset empties the transposition table.
func (s *Solver) Reset() { s.tt.clear() }

// ErrOver is returned for a position whose game is over.
var ErrOver = errors.New("the game is over")

// Solve proves the score of p for its side to move. When ctx ends first,
// it returns the bounds proven so far with ctx's error.
func (s *Solver) Solve(ctx context.Context, p Position, mode Mode) (Bounds, error) {
	b := s.b
	if b.Over(p) {
		return Bounds{}, ErrOver
	}
	if b.winning(p.cur, p.mask)&b.possible(p.mask) != 0 {
		w := (b.Cells() + 1 - p.moves) / 2
		if mode == Weak {
			w = 1
		}
		return Bounds{w, w}, nil
	}
	lo, hi := -(b.Cells()-p.moves)/2, (b.Cells()+1-p.moves)/2
	if mode == Weak {
		lo, hi = -1, 1
	}
	s.Begin(ctx, s.nodes)
	for lo < hi {
		// Null-window searches narrow [lo, hi]; probing near 0 first
		// settles the sign (often all that is wanted) fastest.
		med := lo + (hi-lo)/2
		if med <= 0 && lo/2 < med {
			med = lo / 2
		} else if med >= 0 && hi/2 > med {
			med = hi / 2
		}
		r := s.negamax(p, med, med+1)
		if s.Stopped {
			if mode == Strong { // what is reported, not the window searched
				r := s.scoreRange(p)
				lo, hi = max(lo, r.Lo), min(hi, r.Hi)
			}
			return Bounds{lo, hi}, s.Err(s.nodes, ErrBudget)
		}
		if mode == Weak {
			r = max(-1, min(r, 1))
		}
		if r <= med {
			hi = r
		} else {
			lo = r
		}
	}
	return Bounds{lo, lo}, nil
}

// MoveScore is one column's score for the side to move: the score of the
// position after the move, from the mover's side.
type MoveScore struct {
	Column int
	Score  Bounds
}

// Analyze proves the score of every playable column of p (from the side
// to move's point of view; the position's score is their maximum). When
// ctx ends first, it returns the bounds proven so far with ctx's error.
func (s *Solver) Analyze(ctx context.Context, p Position, mode Mode) ([]MoveScore, error) {
	b := s.b
	if b.Over(p) {
		return nil, ErrOver
	}
	var out []MoveScore
	var firstErr error
	for c := 0; c < b.W; c++ {
		if !b.CanPlay(p, c) {
			continue
		}
		var r Bounds
		if firstErr != nil {
			// out of time: only what needs no search
			r = s.quick(p, c, mode)
		} else {
			r, firstErr = s.ScoreMove(ctx, p, c, mode)
		}
		out = append(out, MoveScore{c, r})
	}
	return out, firstErr
}

// ScoreMove proves the score of playing column c (which must have room)
// in p, from the mover's point of view. When ctx ends first, it returns
// the bounds proven so far with ctx's error.
func (s *Solver) ScoreMove(ctx context.Context, p Position, c int, mode Mode) (Bounds, error) {
	if r := s.quick(p, c, mode); r.Exact() || ctx.Err() != nil {
		return r, ctx.Err()
	}
	r, err := s.Solve(ctx, s.b.Play(p, c), mode)
	return r.negate(), err
}

// quick is what a move's score is without a search: exact for a winning
// move and the board's last cell, else the widest bounds.
func (s *Solver) quick(p Position, c int, mode Mode) Bounds {
	b := s.b
	if b.Wins(p, c) {
		w := (b.Cells() + 1 - p.moves) / 2
		if mode == Weak {
			w = 1
		}
		return Bounds{w, w}
	}
	child := b.Play(p, c)
	if child.moves == b.Cells() {
		return Bounds{}
	}
	return s.unsearched(child, mode).negate()
}

// unsearched is the widest bounds of a position's score.
func (s *Solver) unsearched(p Position, mode Mode) Bounds {
	if mode == Weak {
		return Bounds{-1, 1}
	}
	return s.scoreRange(p)
}

// scoreRange is the scores a position can have at all: a side wins at
// the earliest with its fourth disc (and with its next one at best), and
// a win scores the discs it then has left, its winning one included.
func (s *Solver) scoreRange(p Position) Bounds {
	mine, theirs := p.moves/2, p.moves-p.moves/2 // discs on the board
	leftMine, leftTheirs := (s.b.Cells()+1-p.moves)/2, (s.b.Cells()-p.moves)/2
	return Bounds{
		min(0, -(leftTheirs - max(4-theirs, 1) + 1)),
		max(0, leftMine-max(4-mine, 1)+1),
	}
}

// Best is the best of a position's move scores: the highest score, and
// the columns that reach it. With bounds, it is the highest lower bound,
// and among equal ones the highest upper bound.
func Best(moves []MoveScore) (Bounds, []int) {
	var best Bounds
	var cols []int
	for i, m := range moves {
		switch {
		case i == 0 || m.Score.Lo > best.Lo || (m.Score.Lo == best.Lo && m.Score.Hi > best.Hi):
			best, cols = m.Score, []int{m.Column}
		case m.Score == best:
			cols = append(cols, m.Column)
		}
	}
	return best, cols
}

// checkEvery is how many nodes pass between looks at the clock: about a
// millisecond of search.
const checkEvery = 1 << 13

// nonLosing has a bit on each playable cell whose move does not let the
// opponent win at once: a forced block if the opponent threatens one cell,
// none if it threatens two, and never the cell below one of its winning
// cells.
func (b *Board) nonLosing(p Position) uint64 {
	possible := b.possible(p.mask)
	threats := b.winning(p.cur^p.mask, p.mask)
	if forced := possible & threats; forced != 0 {
		if forced&(forced-1) != 0 {
			return 0
		}
		possible = forced
	}
	return possible &^ (threats >> 1)
}

// negamax returns the score of p within the window (alpha, beta): the
// exact score if it lies inside, else a bound on the side it fell. p is
// not over, and its side to move cannot win at once.
func (s *Solver) negamax(p Position, alpha, beta int) int {
	b := s.b
	s.nodes++
	if s.nodes%checkEvery == 0 && s.Expired(s.nodes) || s.Stopped {
		return 0
	}
	next := b.nonLosing(p)
	if next == 0 {
		return -(b.Cells() - p.moves) / 2
	}
	if p.moves >= b.Cells()-2 {
		return 0
	}
	if lo := -(b.Cells() - 2 - p.moves) / 2; alpha < lo {
		alpha = lo
		if alpha >= beta {
			return alpha
		}
	}
	hi := (b.Cells() - 1 - p.moves) / 2
	key, mirrored := b.key(p), false
	if p.moves <= mirrorMoves {
		// Early on, a position and its mirror image share one entry: the
		// searches there are the costliest, and their results the same.
		if m := b.mirrorKey(key); m < key {
			key, mirrored = m, true
		}
	}
	ttMove := -1
	if e, ok := s.tt.get(key); ok {
		v := int(e.val)
		if v > s.maxScore-s.minScore+1 {
			// a lower bound
			if lo := v + 2*s.minScore - s.maxScore - 2; alpha < lo {
				alpha = lo
				if alpha >= beta {
					return alpha
				}
			}
		} else if up := v + s.minScore - 1; up < hi {
			hi = up
		}
		if e.move != noMove {
			ttMove = int(e.move)
			if mirrored {
				ttMove = b.W - 1 - ttMove
			}
		}
	}
	if beta > hi {
		beta = hi
		if alpha >= beta {
			return beta
		}
	}
	start := s.nodes
	var ms sorter
	for i := b.W - 1; i >= 0; i-- {
		c := b.order[i]
		if move := next & b.column(c); move != 0 {
			score := bits.OnesCount64(b.winning(p.cur|move, p.mask))
			if c == ttMove {
				// the move that refuted this position before, first
				score = 1 << 10
			}
			ms.add(c, score)
		}
	}
	best, val := ttMove, uint8(0)
	for ms.n > 0 {
		c := ms.next()
		score := -s.negamax(playMove(p, next&b.column(c)), -beta, -alpha)
		if s.Stopped {
			return 0
		}
		if score >= beta {
			best, val = c, uint8(score+s.maxScore-2*s.minScore+2)
			alpha = score
			break
		}
		if score > alpha {
			alpha = score
		}
	}
	if val == 0 {
		val = uint8(alpha - s.minScore + 1)
	}
	if mirrored && best != noMove {
		best = b.W - 1 - best
	}
	s.tt.put(key, entry{val: val, move: int8(best), work: uint8(bits.Len64(s.nodes - start))})
	return alpha
}

// mirrorMoves is the number of discs up to which positions share table
// entries with their mirror images.
const mirrorMoves = 20

// sorter orders a node's moves, best last: by the threats each creates,
// and among equals in the order added (centre columns are added last).
type sorter struct {
	n     int
	moves [maxColumns]struct {
		col   int8
		score int16
	}
}

func (m *sorter) add(col, score int) {
	i := m.n
	m.n++
	for ; i > 0 && int(m.moves[i-1].score) > score; i-- {
		m.moves[i] = m.moves[i-1]
	}
	m.moves[i].col, m.moves[i].score = int8(col), int16(score)
}

func (m *sorter) next() int {
	m.n--
	return int(m.moves[m.n].col)
}

// noMove marks an entry without a best move.
const noMove = -1

// entry is what the table keeps of a position: a bound on its score
// (encoded by negamax; 0 for none), the move that refuted it if any, and
// the work its search took (the bit length of its node count), by which
// entries compete for a place.
type entry struct {
	val  uint8
	move int8
	work uint8
}

// table is the transposition table: buckets of two slots, one kept for
// the costlier of its positions, one for the latest; the whole key is
// kept so that no two positions are confused, whatever the board's size.
type table struct {
	keys []uint64
	data []entry
}

func newTable(entries int) table {
	n := uint64(max(1, entries/2))
	// an odd number of buckets spreads the keys' column structure
	n |= 1
	return table{keys: make([]uint64, 2*n), data: make([]entry, 2*n)}
}

func (t *table) clear() {
	clear(t.keys)
	clear(t.data)
}

func (t *table) bucket(key uint64) uint64 { return key % uint64(len(t.keys)/2) * 2 }

func (t *table) put(key uint64, e entry) {
	i := t.bucket(key)
	switch {
	case t.keys[i] == key || e.work >= t.data[i].work:
		if t.keys[i] != key && t.keys[i] != 0 {
			// the costlier slot's old entry takes the other slot
			t.keys[i+1], t.data[i+1] = t.keys[i], t.data[i]
		}
		t.keys[i], t.data[i] = key, e
	default:
		t.keys[i+1], t.data[i+1] = key, e
	}
}

func (t *table) get(key uint64) (entry, bool) {
	i := t.bucket(key)
	switch key {
	case t.keys[i]:
		return t.data[i], true
	case t.keys[i+1]:
		return t.data[i+1], true
	}
	return entry{}, false
}
