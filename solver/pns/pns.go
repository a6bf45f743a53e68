// Package pns proves who wins a position of any game from its rules alone,
// by depth-first proof-number search (df-pn, Nagai 2002) with a
// transposition table. It judges; training never sees it (like the rest of
// solver).
//
// A proof is exact for games whose positions never repeat within a game
// (Cats & Dogs: every Cat turn removes a Dog): the table is keyed on the
// position's hash alone, so a repeated position would be the graph-history
// interaction that makes df-pn unsound. The search therefore watches the
// path it stands on, and a position met again on it ends the search with
// ErrRepeats rather than a result that might be wrong. A tie by the game's
// ply cap counts as a position the attacker has not won: the cap is a
// referee's device, and proofs that would need to pass it are not made.
package pns

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/sliderzero/sliderzero/env"
)

// ErrRepeats says the game repeated a position on the search's path, where
// the table's results would no longer be exact.
var ErrRepeats = errors.New("a position repeats on the search's path: proof-number search here is exact only for games whose positions never repeat")

// Result is what a search settled about a position.
type Result int8

const (
	// Unknown: the budget ran out first.
	Unknown Result = iota
	// Won: the attacker wins whatever the other side does.
	Won
	// NotWon: the other side can always keep the attacker from winning
	// (a loss for the attacker in a game without ties).
	NotWon
)

func (r Result) String() string {
	switch r {
	case Won:
		return "won"
	case NotWon:
		return "not won"
	default:
		return "unknown"
	}
}

// infinity is a proven (0 against infinity) or disproven bound; sums of
// numbers stop just below it.
const infinity = 1 << 30

// entry is one position's proof and disproof numbers, with the nodes spent
// on it (the table keeps the costlier of two positions that collide).
type entry struct {
	key    uint64
	pn, dn uint32
	work   uint32
}

// Prover holds the table; one Prover serves many searches of one game
// (results of earlier searches stay in the table and are reused).
type Prover struct {
	table []entry
	mask  uint64

	// per-search
	attacker env.Side
	budget   int64
	nodes    int64
	ctx      context.Context
	err      error
	capped   bool
	path     map[uint64]bool
	frames   []*frame
}

// New returns a prover with a table of 2^bits entries (16 bytes each).
func New(bits int) *Prover {
	if bits < 10 {
		bits = 10
	}
	return &Prover{table: make([]entry, 1<<bits), mask: 1<<bits - 1}
}

// Clear empties the table, so that what follows does not depend on what
// was proven before.
func (p *Prover) Clear() { clear(p.table) }

// Stats describes one search.
type Stats struct {
	Nodes int64 // positions expanded
}

// Prove searches whether attacker wins from s, expanding at most budget
// positions (0: no limit but ctx). It does not change s.
func (p *Prover) Prove(ctx context.Context, s env.State, attacker env.Side, budget int64) (Result, Stats, error) {
	p.attack(s.Game(), attacker)
	p.budget, p.nodes, p.ctx, p.err = budget, 0, ctx, nil
	p.path = map[uint64]bool{}
	if o := s.Outcome(); o.Over {
		if o.Winner == attacker {
			return Won, Stats{}, nil
		}
		return NotWon, Stats{}, nil
	}
	pn, dn := p.mid(s, 0, infinity-1, infinity-1)
	st := Stats{Nodes: p.nodes}
	switch {
	case p.err != nil:
		return Unknown, st, p.err
	case pn == 0:
		return Won, st, nil
	case dn == 0:
		return NotWon, st, nil
	}
	return Unknown, st, nil
}

// attack sets what the table's keys depend on: the attacking side, and
// whether the game's ply cap puts the ply into them.
func (p *Prover) attack(g env.Game, attacker env.Side) {
	p.attacker = attacker
	_, p.capped = g.(env.Capped)
}

// key is the table's key of s: its numbers are the attacker's, so the key
// holds which side attacks.
func (p *Prover) key(s env.State) uint64 {
	k := s.Hash() ^ env.Mix64(uint64(p.attacker)+0x5eed)
	if p.capped {
		k ^= env.Mix64(uint64(s.Ply()) + 1)
	}
	return k
}

func (p *Prover) lookup(h uint64) (uint32, uint32, bool) {
	e := &p.table[h&p.mask]
	if e.key == h && (e.pn != 0 || e.dn != 0) {
		return e.pn, e.dn, true
	}
	return 0, 0, false
}

func (p *Prover) store(h uint64, pn, dn, work uint32) {
	e := &p.table[h&p.mask]
	// A settled result is worth more than any open one; among open ones
	// the one more work went into.
	if e.key != h && (e.pn != 0 || e.dn != 0) {
		settled, kept := pn == 0 || dn == 0, e.pn == 0 || e.dn == 0
		if (kept && !settled) || (kept == settled && e.work > work) {
			return
		}
	}
	*e = entry{key: h, pn: pn, dn: dn, work: work}
}

func addClamped(a, b uint32) uint32 {
	if s := uint64(a) + uint64(b); s < infinity-1 {
		return uint32(s)
	}
	return infinity - 1
}

func (p *Prover) stopped() bool {
	if p.err != nil {
		return true
	}
	if p.budget > 0 && p.nodes >= p.budget {
		return true
	}
	if p.nodes&1023 == 0 && p.ctx.Err() != nil {
		p.err = p.ctx.Err()
		return true
	}
	return false
}

// terminal is a finished position's numbers for the attacker.
func (p *Prover) terminal(s env.State) (uint32, uint32) {
	if s.Outcome().Winner == p.attacker {
		return 0, infinity
	}
	return infinity, 0
}

// frame is one depth's working memory: a position's children and their
// numbers, kept between calls so that expanding a node allocates nothing.
type frame struct {
	child  env.State
	moves  []int
	pns    []uint32
	dns    []uint32
	hashes []uint64
}

// mid expands s until its numbers reach a threshold (the multiple iterative
// deepening of df-pn) and returns them.
func (p *Prover) mid(s env.State, depth int, thpn, thdn uint32) (uint32, uint32) {
	h, seen := p.key(s), s.Hash()
	if depth >= len(p.frames) {
		p.frames = append(p.frames, &frame{child: s.Clone()})
	}
	f := p.frames[depth]
	f.moves = s.LegalActions(f.moves[:0])
	moves, child := f.moves, f.child
	n := len(moves)
	f.pns, f.dns, f.hashes = slices.Grow(f.pns[:0], n)[:n], slices.Grow(f.dns[:0], n)[:n], slices.Grow(f.hashes[:0], n)[:n]
	pns, dns, hashes := f.pns, f.dns, f.hashes
	p.path[seen] = true
	defer delete(p.path, seen)
	start := p.nodes
	p.nodes++

	for i, a := range moves {
		child.CopyFrom(s)
		child.Apply(a)
		if child.Outcome().Over {
			pns[i], dns[i] = p.terminal(child)
			continue
		}
		hashes[i] = p.key(child)
		if p.path[child.Hash()] {
			p.err = ErrRepeats
			return 1, 1
		}
		pns[i], dns[i] = 1, 1
	}
	// Where the attacker moves, the node takes its best child's proof
	// number and the sum of the disproof numbers; where the defender
	// moves, the other way round. least/sum name the two roles.
	least, sum, thLeast, thSum := pns, dns, thpn, thdn
	if s.ToMove() != p.attacker {
		least, sum, thLeast, thSum = dns, pns, thdn, thpn
	}
	for {
		// Refresh the children from the table: a search below one child
		// may have settled others by transposition.
		best, lo, second, total := -1, uint32(infinity), uint32(infinity), uint32(0)
		for i := range moves {
			if pns[i] != 0 && dns[i] != 0 { // settled children stay so
				if cp, cd, ok := p.lookup(hashes[i]); ok {
					pns[i], dns[i] = cp, cd
				}
			}
			total = addClamped(total, sum[i])
			if best < 0 || least[i] < lo {
				if best >= 0 {
					second = min(second, lo)
				}
				lo, best = least[i], i
			} else {
				second = min(second, least[i])
			}
		}
		pn, dn := lo, total
		if s.ToMove() != p.attacker {
			pn, dn = total, lo
		}
		// Sums stop below infinity; a settled position's other number is
		// infinity whatever its children's sums were.
		if pn == 0 {
			dn = infinity
		} else if dn == 0 {
			pn = infinity
		}
		p.store(h, pn, dn, uint32(min(p.nodes-start, 1<<31)))
		if pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || p.stopped() {
			return pn, dn
		}
		// The best child may grow to the next-best sibling's number (plus
		// a quarter, to spare switching back and forth between two close
		// ones), and its other number to what leaves this node's sum under
		// its threshold.
		childLeast := min(thLeast, addClamped(second, second/4+1))
		childSum := thSum - total + sum[best]
		cpn, cdn := childLeast, childSum
		if s.ToMove() != p.attacker {
			cpn, cdn = childSum, childLeast
		}
		child.CopyFrom(s)
		child.Apply(moves[best])
		pns[best], dns[best] = p.mid(child, depth+1, cpn, cdn)
		if p.err != nil {
			return 1, 1
		}
	}
}

// WinningMove finds a move that keeps the attacker's win in s, the
// attacker to move: one that ends the game in its favour, or into a
// position the table holds as proven (after Prove found s won, one
// usually is), or else one proven now within budget nodes. It reports
// false when none is found.
func (p *Prover) WinningMove(ctx context.Context, s env.State, attacker env.Side, budget int64) (int, bool) {
	if s.Outcome().Over || s.ToMove() != attacker {
		return 0, false
	}
	p.attack(s.Game(), attacker)
	moves := s.LegalActions(nil)
	child := s.Clone()
	var open []int
	for _, a := range moves {
		child.CopyFrom(s)
		child.Apply(a)
		if o := child.Outcome(); o.Over {
			if o.Winner == attacker {
				return a, true
			}
			continue
		}
		if pn, _, ok := p.lookup(p.key(child)); ok && pn == 0 {
			return a, true
		}
		open = append(open, a)
	}
	for _, a := range open {
		child.CopyFrom(s)
		child.Apply(a)
		if r, _, err := p.Prove(ctx, child, attacker, budget); err == nil && r == Won {
			return a, true
		}
	}
	return 0, false
}

// Verdict names a result for the side it is about, in words.
func Verdict(g env.Game, attacker env.Side, r Result) string {
	switch r {
	case Won:
		return fmt.Sprintf("%s wins", g.SideName(attacker))
	case NotWon:
		return fmt.Sprintf("%s cannot win", g.SideName(attacker))
	}
	return "unknown"
}
