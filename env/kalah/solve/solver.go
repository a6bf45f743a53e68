// Package solve is an exact solver of Kalah(m, n) (package kalah): the
// final difference of the stores under perfect play, for the side to
// move. A position's future depends only on the seeds in its pits and on
// who moves (the stores only add up), so the search works on what the
// side to move gains from here, in a transposition table keyed by the
// pits alone: negamax with alpha-beta over the gain, null-window searches
// that narrow the score's bounds (its sign first), and the moves ordered
// as Kalah programs order them: the move that refuted the position
// before, then the moves ending in the store (the one nearest the store
// first: it leaves the others' counts as they were), then captures by
// their size, then the rest from the store back.
package solve

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/kalah"
)

// Position is a position as the solver sees it, from the side to move's
// point of view: M pits a side, its pits and the opponent's (each from
// its owner's left), and Lead, its store less the opponent's.
type Position struct {
	M            int
	Mine, Theirs [kalah.MaxPits]uint8
	Lead         int
}

// PositionOf is a Kalah state as the solver's position.
func PositionOf(st env.State) (Position, error) {
	m, mine, theirs, my, their, ok := kalah.SeedsOf(st)
	if !ok {
		return Position{}, fmt.Errorf("the Kalah solver needs a Kalah position, not one of %s", st.Game().Name())
	}
	return Position{M: m, Mine: mine, Theirs: theirs, Lead: my - their}, nil
}

// pits is the seeds in the pits of one position, the side to move's first.
type pits struct{ mine, theirs [kalah.MaxPits]uint8 }

func sum(p *[kalah.MaxPits]uint8) int {
	n := 0
	for _, c := range p {
		n += int(c)
	}
	return n
}

// move is a move played: the position after it (from its own side to
// move's point of view), the seeds it gains the mover, whether the mover
// moves again, whether the game is over (gain then includes the seeds
// swept at the end).
type move struct {
	pit   int
	next  pits
	gain  int
	again bool
	over  bool
}

// play plays pit a of p on a board of m pits a side (kalah.Sow: the
// game's own rules), and ends the game when the side to move next has no
// seeds: the other side's go to its store.
func play(m int, p *pits, a int) move {
	mv := move{pit: a, next: *p}
	var store uint8
	mv.again = kalah.Sow(m, &mv.next.mine, &mv.next.theirs, &store, a)
	mv.gain = int(store)
	switch {
	case mv.again && sum(&mv.next.mine) == 0:
		mv.over = true
		mv.gain -= sum(&mv.next.theirs)
	case !mv.again && sum(&mv.next.theirs) == 0:
		mv.over = true
		mv.gain += sum(&mv.next.mine)
	case !mv.again:
		mv.next.mine, mv.next.theirs = mv.next.theirs, mv.next.mine
	}
	return mv
}

// Solver solves Kalah positions of any number of pits. It keeps its
// table between solves (entries stay true for every later position), so
// a game's positions solved in order reuse earlier work. A Solver is not
// safe for concurrent use.
type Solver struct {
	tt    table
	nodes uint64
	m     int
	// what stops a solve: the context, its deadline, a node budget
	// counted from the solve's first node
	env.SearchStop
}

// New returns a solver with a table of about entries entries (at least
// 1: a tiny table is slow but exact).
func New(entries int) *Solver { return &Solver{tt: newTable(entries)} }

// Reset empties the table.
func (s *Solver) Reset() { s.tt.clear() }

// Nodes counts the positions searched since the solver was made.
func (s *Solver) Nodes() uint64 { return s.nodes }

// ScoreMove proves the final store difference, for the mover, of playing
// pit a (from 0) in p; weak asks only its sign (-1, 0 or 1). When ctx
// ends or the budget runs out first, it returns the bounds proven so far
// with ctx's error or env.ErrBudget.
func (s *Solver) ScoreMove(ctx context.Context, p Position, a int, weak bool) (env.Bounds, error) {
	if p.M < 1 || p.M > kalah.MaxPits || a < 0 || a >= p.M || p.Mine[a] == 0 {
		return env.Bounds{}, fmt.Errorf("pit %d is not a legal move", a+1)
	}
	s.m = p.M
	mv := play(p.M, &pits{p.Mine, p.Theirs}, a)
	c := p.Lead + mv.gain
	if mv.over {
		if weak {
			c = max(-1, min(c, 1))
		}
		return env.Bounds{Lo: c, Hi: c}, nil
	}
	// The rest of the game moves the seeds left in the pits, each to
	// one store or the other: the score is c plus or minus at most their
	// number, and even (the seeds are 2mn, so the two stores' difference
	// is even).
	left := sum(&mv.next.mine) + sum(&mv.next.theirs)
	lo, hi := c-left, c+left
	if weak {
		lo, hi = max(-1, min(lo, 1)), max(-1, min(hi, 1))
	}
	if ctx.Err() != nil {
		return env.Bounds{Lo: lo, Hi: hi}, ctx.Err()
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
		r := s.scoreAfter(&mv, c, med, med+1)
		if s.Stopped {
			return env.Bounds{Lo: lo, Hi: hi}, s.Err(s.nodes, env.ErrBudget)
		}
		if weak {
			r = max(-1, min(r, 1))
		}
		if r <= med {
			hi = r
		} else {
			lo = r
		}
		if !weak {
			lo, hi = lo+lo&1, hi-hi&1 // the score is even
		}
	}
	return env.Bounds{Lo: lo, Hi: lo}, nil
}

// scoreAfter is the score c + (or -) the next position's gain, searched
// within (alpha, beta) on the score's scale: a bound on the side it fell
// when it falls outside.
func (s *Solver) scoreAfter(mv *move, c, alpha, beta int) int {
	if mv.again {
		return c + s.negamax(&mv.next, alpha-c, beta-c)
	}
	return c - s.negamax(&mv.next, c-beta, c-alpha)
}

// checkEvery is how many nodes pass between looks at the clock: about a
// millisecond of search.
const checkEvery = 1 << 13

// negamax returns what the side to move of p (which has seeds) gains
// from here with best play on both sides, within the window (alpha,
// beta): exact when it lies inside, else a bound on the side it fell.
func (s *Solver) negamax(p *pits, alpha, beta int) int {
	s.nodes++
	if s.nodes%checkEvery == 0 && s.Expired(s.nodes) || s.Stopped {
		return 0
	}
	// Every seed left goes to one store or the other.
	left := sum(&p.mine) + sum(&p.theirs)
	lo, hi := -left, left
	k0, k1 := s.key(p)
	best := noMove
	if e, ok := s.tt.get(k0, k1); ok {
		lo, hi = max(lo, int(e.lo)), min(hi, int(e.hi))
		best = int(e.move)
	}
	switch {
	case lo >= beta:
		return lo
	case hi <= alpha:
		return hi
	case lo == hi:
		return lo
	}
	alpha, beta = max(alpha, lo), min(beta, hi)
	a0 := alpha
	var moves [kalah.MaxPits]move
	n := s.order(p, best, &moves)
	value, start := -1<<10, s.nodes
	for i := 0; i < n; i++ {
		mv := &moves[i]
		v := mv.gain
		switch {
		case mv.over:
		case mv.again:
			v += s.negamax(&mv.next, alpha-mv.gain, beta-mv.gain)
		default:
			v -= s.negamax(&mv.next, mv.gain-beta, mv.gain-alpha)
		}
		if s.Stopped {
			return 0
		}
		if v > value {
			value, best = v, mv.pit
		}
		if value > alpha {
			alpha = value
			if alpha >= beta {
				break
			}
		}
	}
	switch {
	case value <= a0:
		hi = min(hi, value)
	case value >= beta:
		lo = max(lo, value)
	default:
		lo, hi = value, value
	}
	s.tt.put(k0, k1, entry{lo: int8(lo), hi: int8(hi), move: int8(best), work: uint8(bits.Len64(s.nodes - start))})
	return value
}

// order plays p's moves into moves, best first (the package's comment),
// and returns their number.
func (s *Solver) order(p *pits, first int, moves *[kalah.MaxPits]move) int {
	var rank [kalah.MaxPits]int
	n := 0
	for a := s.m - 1; a >= 0; a-- {
		if p.mine[a] == 0 {
			continue
		}
		mv := play(s.m, p, a)
		r := mv.gain*8 + a
		switch {
		case a == first:
			r = 1 << 20
		case mv.again:
			r = 1<<16 + a
		}
		i := n
		for ; i > 0 && rank[i-1] < r; i-- {
			rank[i], moves[i] = rank[i-1], moves[i-1]
		}
		rank[i], moves[i] = r, mv
		n++
	}
	return n
}

// key is the whole of a position's pits, 7 bits a pit (no count reaches
// 128), and the board's pits a side: no two positions share one.
func (s *Solver) key(p *pits) (k0, k1 uint64) {
	for i := 0; i < s.m; i++ {
		k0 = k0<<7 | uint64(p.mine[i])
		k1 = k1<<7 | uint64(p.theirs[i])
	}
	return k0 | uint64(s.m)<<56, k1
}
