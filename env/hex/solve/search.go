package solve

import (
	"context"
	"errors"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/hex"
)

// Bounds are what a solve proved of a score: Lo <= score <= Hi, equal
// once the score is known.
type Bounds struct{ Lo, Hi int }

func (b Bounds) negate() Bounds { return Bounds{-b.Hi, -b.Lo} }

// Position is a position as the solver sees it: each side's stones (by
// side: 0 Blue, 1 Red) and the side to move.
type Position struct {
	Stones [2]hex.Bits
	ToMove int
}

// Solver solves the positions of one board size. It keeps its table
// between solves (its entries stay true for every later position), so
// solving a game's positions one after another reuses earlier work. A
// Solver is not safe for concurrent use.
type Solver struct {
	geo   *hex.Geometry
	tt    table
	order []int8 // the cells, the centre's first
	// la and lb are shortest's layers, kept to spare allocations.
	la, lb []hex.Bits
	nodes  uint64
	// the current solve's context, deadline and node budget
	env.SearchStop
}

// ErrBudget is returned by a solve that used up its node budget.
var ErrBudget = errors.New("the solver's node budget ran out")

// ErrOver is returned for a position whose game is over.
var ErrOver = errors.New("the game is over")

// New returns a solver of the board geo with a table of about entries
// entries (at least 1: a tiny table is slow but exact).
func New(geo *hex.Geometry, entries int) *Solver {
	return &Solver{geo: geo, tt: newTable(entries), order: centreFirst(geo.N),
		la: make([]hex.Bits, geo.Cells+2), lb: make([]hex.Bits, geo.Cells+2)}
}

// Nodes counts the positions searched since the solver was made.
func (s *Solver) Nodes() uint64 { return s.nodes }

// Reset forgets the table's entries.
func (s *Solver) Reset() { s.tt.reset() }

// centreFirst lists an n x n board's cells by their distance from the
// centre, nearest first.
func centreFirst(n int) []int8 {
	type cell struct{ i, d int }
	cells := make([]cell, 0, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			// twice the hexagonal distance from the centre, in cube
			// coordinates (x = c, z = r, y = -x-z)
			dx, dz := 2*c-(n-1), 2*r-(n-1)
			d := max(abs(dx), abs(dz), abs(dx+dz))
			cells = append(cells, cell{r*n + c, d})
		}
	}
	// a stable insertion sort: equal distances keep the board's order
	for i := 1; i < len(cells); i++ {
		for j := i; j > 0 && cells[j-1].d > cells[j].d; j-- {
			cells[j-1], cells[j] = cells[j], cells[j-1]
		}
	}
	out := make([]int8, len(cells))
	for i, c := range cells {
		out[i] = int8(c.i)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (p Position) empty(geo *hex.Geometry) hex.Bits {
	return geo.All.AndNot(p.Stones[0].Or(p.Stones[1]))
}

func (p Position) play(i int) Position {
	p.Stones[p.ToMove] = p.Stones[p.ToMove].With(i)
	p.ToMove = 1 - p.ToMove
	return p
}

// left is the number of empty cells.
func (s *Solver) left(p Position) int {
	return s.geo.Cells - p.Stones[0].Count() - p.Stones[1].Count()
}

// Scores: a side that wins with its stone on the board's t-th cell filled
// scores Cells+1-t, the cells still empty after it plus one; the loser
// the negative. A position with k empty cells won at once scores k.

// Solve proves the score of p for its side to move; weak asks only for
// the sign, 1 or -1, which is faster. When ctx ends or the budget runs
// out first, it returns the bounds proven so far with the reason.
func (s *Solver) Solve(ctx context.Context, p Position, weak bool) (Bounds, error) {
	g := s.geo
	if g.Joins(p.Stones[0], 0) || g.Joins(p.Stones[1], 1) {
		return Bounds{}, ErrOver
	}
	left := s.left(p)
	if !g.Winning(p.Stones[p.ToMove], p.empty(g), p.ToMove).Empty() {
		if weak {
			return Bounds{1, 1}, nil
		}
		return Bounds{left, left}, nil
	}
	// No win at once: at best on the mover's second stone from here, at
	// worst on the opponent's first.
	lo, hi := -(left - 1), left-2
	if weak {
		lo, hi = -1, 1
	}
	s.Begin(ctx, s.nodes)
	// prove settles the sign (there are no draws), often all that is
	// wanted; null windows in the class's range then narrow the score.
	won, _ := s.prove(p)
	if s.Stopped {
		return Bounds{lo, hi}, s.Err(s.nodes, ErrBudget)
	}
	switch {
	case weak && won:
		return Bounds{1, 1}, nil
	case weak:
		return Bounds{-1, -1}, nil
	case won:
		lo = 1
	default:
		hi = -1
	}
	for lo < hi {
		med := lo + (hi-lo)/2
		r := s.negamax(p, med, med+1)
		if s.Stopped {
			return Bounds{lo, hi}, s.Err(s.nodes, ErrBudget)
		}
		if r <= med {
			hi = r
		} else {
			lo = r
		}
	}
	return Bounds{lo, lo}, nil
}

// ScoreMove proves the score of playing the empty cell i in p, from the
// mover's point of view.
func (s *Solver) ScoreMove(ctx context.Context, p Position, i int, weak bool) (Bounds, error) {
	child := p.play(i)
	if s.geo.JoinsWith(child.Stones[p.ToMove], i, p.ToMove) {
		if weak {
			return Bounds{1, 1}, nil
		}
		left := s.left(p)
		return Bounds{left, left}, nil
	}
	r, err := s.Solve(ctx, child, weak)
	return r.negate(), err
}

// checkEvery is how many nodes pass between looks at the clock.
const checkEvery = 1 << 12

// negamax returns the score of p, a position not over, within the window
// (alpha, beta): the exact score if it lies inside, else a bound on the
// side it fell (at most alpha: an upper bound; at least beta: a lower
// one).
func (s *Solver) negamax(p Position, alpha, beta int) int {
	g := s.geo
	s.nodes++
	if s.nodes%checkEvery == 0 && s.Expired(s.nodes) || s.Stopped {
		return 0
	}
	left := g.Cells - p.Stones[0].Count() - p.Stones[1].Count()
	l := s.examine(p, left)
	if l.settled {
		return l.score
	}
	moves := l.moves
	if alpha < l.lo {
		alpha = l.lo
		if alpha >= beta {
			return alpha
		}
	}
	if beta > l.hi {
		beta = l.hi
		if alpha >= beta {
			return beta
		}
	}
	key, turned := s.key(p)
	ttMove := -1
	e, ok := s.tt.get(key)
	if ok {
		if lo := int(e.lo); lo > alpha {
			alpha = lo
			if alpha >= beta {
				return alpha
			}
		}
		if hi := int(e.hi); hi < beta {
			beta = hi
			if alpha >= beta {
				return beta
			}
		}
		if e.move >= 0 {
			ttMove = int(e.move)
			if turned {
				ttMove = g.Cells - 1 - ttMove
			}
		}
	}
	alpha0, start := alpha, s.nodes
	best, bestMove := -g.Cells-1, -1
	try := func(i int) bool {
		v := -s.negamax(p.play(i), -beta, -alpha)
		if s.Stopped {
			return true
		}
		if v > best {
			best, bestMove = v, i
		}
		if v > alpha {
			alpha = v
		}
		return alpha >= beta
	}
	var buf [hex.MaxSize * hex.MaxSize]int8
	for _, m := range s.ordered(moves, l, ttMove, buf[:0]) {
		if try(int(m)) {
			break
		}
	}
	if s.Stopped {
		return 0
	}
	e = entry{lo: int8(-g.Cells - 1), hi: int8(g.Cells + 1), move: int8(bestMove)}
	switch {
	case best <= alpha0:
		e.hi = int8(best)
	case best >= beta:
		e.lo = int8(best)
	default:
		e.lo, e.hi = int8(best), int8(best)
	}
	if turned && bestMove >= 0 {
		e.move = int8(g.Cells - 1 - bestMove)
	}
	s.tt.put(key, e, s.nodes-start)
	return best
}

// key is the table's key of p: the position or its half turn, whichever
// is smaller, and whether it is the half turn.
func (s *Solver) key(p Position) (k key, turned bool) {
	k = key{stones: p.Stones, toMove: int8(p.ToMove)}
	t := [2]hex.Bits{s.geo.Rotate(p.Stones[0]), s.geo.Rotate(p.Stones[1])}
	if t[0].Less(k.stones[0]) || t[0] == k.stones[0] && t[1].Less(k.stones[1]) {
		k.stones = t
		return k, true
	}
	return k, false
}
