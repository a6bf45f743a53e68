package solve

import "github.com/sliderzero/sliderzero/env/hex"

// shortest is what a side's shortest chains between its edges are: how
// many empty cells the fewest take (dist, 0 when its edges are joined,
// Cells+1 when they cannot be), and the empty cells on one of them (on).
// With dist 1, on holds the cells that win at once; with dist 2, the
// cells whose stone leaves a cell that wins.
func (s *Solver) shortest(stones, empty hex.Bits, side int) (dist int, on hex.Bits) {
	g := s.geo
	e := g.Edges[side]
	la, lb := s.la, s.lb // scratch: each layer written before it is read
	reach := g.Flood(stones.And(e[0]), stones)
	d := 0
	for reach.And(e[1]).Empty() {
		add := empty.And(g.Neighbours(reach).Or(e[0])).AndNot(reach)
		if add.Empty() {
			return g.Cells + 1, hex.Bits{}
		}
		d++
		la[d] = add
		reach = g.Flood(reach.Or(add), stones)
	}
	if d == 0 {
		return 0, hex.Bits{}
	}
	reach = g.Flood(stones.And(e[1]), stones)
	for k := 1; k <= d; k++ {
		add := empty.And(g.Neighbours(reach).Or(e[1])).AndNot(reach)
		lb[k] = add
		reach = g.Flood(reach.Or(add), stones)
	}
	for i := 1; i <= d; i++ {
		on = on.Or(la[i].And(lb[d+1-i]))
	}
	return d, on
}

// look is what examine sees of a position before searching it.
type look struct {
	// settled: the threats settle the score, whatever the loser's
	// stones outside carrier.
	settled bool
	score   int
	carrier hex.Bits
	// moves are the moves worth searching; mine the empty cells on the
	// mover's shortest chains, searched first.
	moves, mine hex.Bits
	// lo and hi bound the score.
	lo, hi int
	// threats are the cells of the opponent's threats that leave out
	// the moves not in moves: a move off them loses.
	threats hex.Bits
}

// examine looks at p, a position not over with left empty cells, before
// any search: the threats at hand settle its score, or narrow the moves
// worth searching and bound the score.
//
//   - A cell that wins at once for the mover: the score is left.
//   - Two that win for the opponent: one stone blocks one, the loss comes
//     on the opponent's next stone. One: the mover must block it.
//   - A stone that leaves the mover two winning cells wins on its next
//     stone, whatever the opponent blocks.
//   - A stone that would leave the opponent two winning cells must be
//     answered now: a stone of the mover off the cells of one such
//     threat (its stone and the cells it would leave) loses on the
//     opponent's second stone, the soonest it could lose at all, unless
//     it leaves the mover a winning cell the opponent must block first.
//   - Otherwise, a side that needs d more stones to join its edges wins
//     at the earliest on the d-th, and not at all when the board fills
//     first.
func (s *Solver) examine(p Position, left int) look {
	g := s.geo
	me, you := p.ToMove, 1-p.ToMove
	empty := p.empty(g)
	myD, myOn := s.shortest(p.Stones[me], empty, me)
	if myD == 1 {
		return look{settled: true, score: left, carrier: hex.Cell(myOn.First())}
	}
	oppD, oppOn := s.shortest(p.Stones[you], empty, you)
	l := look{moves: empty, mine: myOn,
		lo: -(left + 1 - 2*oppD), hi: left - 2*myD + 2}
	// A side that cannot join its edges before the board is full does
	// not win (and then loses: there are no draws).
	if l.hi <= 0 {
		l.hi = -1
	}
	if l.lo >= 0 {
		l.lo = 1
	}
	switch {
	case oppD == 1 && !oppOn.Rest().Empty():
		return look{settled: true, score: -(left - 1), carrier: oppOn}
	case oppD == 1:
		l.moves, l.lo, l.threats = oppOn, -(left - 3), oppOn
		return l
	}
	if myD == 2 {
		for y := myOn; !y.Empty(); y = y.Rest() {
			i := y.First()
			if w := g.Winning(p.Stones[me].With(i), empty.AndNot(hex.Cell(i)), me); !w.Rest().Empty() {
				return look{settled: true, score: left - 2, carrier: w.With(i)}
			}
		}
	}
	if oppD == 2 {
		must, threatened := empty, false
		for x := oppOn; !x.Empty(); x = x.Rest() {
			i := x.First()
			if w := g.Winning(p.Stones[you].With(i), empty.AndNot(hex.Cell(i)), you); !w.Rest().Empty() {
				must, threatened = must.And(w.With(i)), true
				l.threats = l.threats.Or(w.With(i))
			}
		}
		if threatened {
			if myD == 2 {
				must = must.Or(myOn)
			}
			if must.Empty() {
				return look{settled: true, score: -(left - 3), carrier: l.threats}
			}
			l.moves = must
		}
	}
	return l
}
