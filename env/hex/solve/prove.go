package solve

import "github.com/sliderzero/sliderzero/env/hex"

// prove settles only who wins p, a position not over, and faster than
// negamax: with each result it finds a carrier, empty cells the winner's
// strategy needs, such that the result stands whatever stones the loser
// had on the other cells. A move that fails prunes the moves left: the
// opponent's win after it, carrier C, is a win of the opponent moving
// first from p itself (taking the mover's stone away only helps the
// opponent), so a stone off C changes nothing and loses too. Only the
// moves inside the carriers of every move refuted so far are searched.
// Hex allows this because a stone of one's own never hurts.
//
// It returns whether the side to move wins, and the carrier.
func (s *Solver) prove(p Position) (bool, hex.Bits) {
	g := s.geo
	s.nodes++
	if s.nodes%checkEvery == 0 && s.Expired(s.nodes) || s.Stopped {
		return false, hex.Bits{}
	}
	empty := p.empty(g)
	l := s.examine(p, empty.Count())
	if l.settled {
		return l.score > 0, l.carrier
	}
	k, turned := s.key(p)
	ttMove := -1
	if e, ok := s.tt.get(k); ok {
		if e.lo > 0 || e.hi < 0 {
			c := empty
			if e.carried {
				c = e.carrier
				if turned {
					c = g.Rotate(c)
				}
			}
			return e.lo > 0, c
		}
		if e.move >= 0 {
			ttMove = int(e.move)
			if turned {
				ttMove = g.Cells - 1 - ttMove
			}
		}
	}
	start := s.nodes
	moves, carrier := l.moves, l.threats
	var buf [hex.MaxSize * hex.MaxSize]int8
	for _, m := range s.ordered(moves, l, ttMove, buf[:0]) {
		if !moves.Has(int(m)) {
			continue // off the carrier of a move refuted
		}
		won, c := s.prove(p.play(int(m)))
		if s.Stopped {
			return false, hex.Bits{}
		}
		if !won {
			return s.proven(k, turned, true, c.With(int(m)), int(m), start), c.With(int(m))
		}
		moves = moves.And(c)
		carrier = carrier.Or(c.With(int(m)))
	}
	return s.proven(k, turned, false, carrier, -1, start), carrier
}

// proven stores a result of prove in the table, and returns won.
func (s *Solver) proven(k key, turned, won bool, carrier hex.Bits, move int, start uint64) bool {
	g := s.geo
	e := entry{lo: 1, hi: int8(g.Cells + 1), move: int8(move), carrier: carrier, carried: true}
	if !won {
		e.lo, e.hi = int8(-g.Cells-1), -1
	}
	if turned {
		e.carrier = g.Rotate(carrier)
		if move >= 0 {
			e.move = int8(g.Cells - 1 - move)
		}
	}
	s.tt.put(k, e, s.nodes-start)
	return won
}

// ordered appends the moves to dst in the order to search them: the
// table's move, then the cells on the mover's shortest chains, then the
// rest, each nearest the centre first. (The opponent's shortest chains
// first as well made the search of the empty 5x5 board nine times
// larger.)
func (s *Solver) ordered(moves hex.Bits, l look, ttMove int, dst []int8) []int8 {
	if ttMove >= 0 && moves.Has(ttMove) {
		dst = append(dst, int8(ttMove))
		moves = moves.AndNot(hex.Cell(ttMove))
	}
	for _, tier := range [2]hex.Bits{moves.And(l.mine), moves.AndNot(l.mine)} {
		for _, c := range s.order {
			if tier.Empty() {
				break
			}
			if tier.Has(int(c)) {
				dst = append(dst, c)
				tier = tier.AndNot(hex.Cell(int(c)))
			}
		}
	}
	return dst
}
