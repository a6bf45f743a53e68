package mcts

import (
	"fmt"

	"github.com/sliderzero/sliderzero/env"
)

// Proof is what the search has proven of a position (MCTS-Solver, Winands
// et al. 2008; Leela Chess Zero's certainty propagation): nothing, or a
// win, loss or draw for the side it is told from, with the plies to the end
// of the proven line.
//
// A proof rests only on positions the game's own rules end: a tie by the
// ply cap (the referee's device) or by a repetition rule is a terminal
// the search values but does not prove, so a proof holds in the game
// without the cap and without the rule. A win's plies are those of the
// line found, which may be longer than the shortest win; a loss's are the
// longest resistance the proven children allow.
type Proof int8

// Proofs.
const (
	Unproven Proof = iota
	ProvenWin
	ProvenLoss
	ProvenDraw
)

func (p Proof) String() string {
	switch p {
	case ProvenWin:
		return "win"
	case ProvenLoss:
		return "loss"
	case ProvenDraw:
		return "draw"
	}
	return "unproven"
}

// value is the proof's exact value, 0 for none.
func (p Proof) value() float32 {
	switch p {
	case ProvenWin:
		return 1
	case ProvenLoss:
		return -1
	}
	return 0
}

// flip is the proof told from the other side.
func (p Proof) flip() Proof {
	switch p {
	case ProvenWin:
		return ProvenLoss
	case ProvenLoss:
		return ProvenWin
	}
	return p
}

// Describe writes a proof for people: "win in 5", "loss in 4", "draw".
func Describe(p Proof, plies int) string {
	switch p {
	case ProvenWin, ProvenLoss:
		return fmt.Sprintf("%s in %d", p, plies)
	case ProvenDraw:
		return "draw"
	}
	return ""
}

// ruleEnd reports whether a finished position was ended by the game's own
// rules, and so proves its result: not by the ply cap, not by a
// repetition rule wrapped around the game.
func ruleEnd(s env.State) bool {
	return env.Unwrap(s).Outcome().Over && !env.EndedByCap(s)
}

// told is node i's proof told from side (a node's proof is kept for its
// mover; the root's, which no one chose, for its side to move, rootSide).
func (a arena) told(i int32, side, rootSide env.Side) Proof {
	n := &a[i]
	who := n.mover
	if who == env.NoSide {
		who = rootSide
	}
	if who == side {
		return n.proof
	}
	return n.proof.flip()
}

// resolve tries to prove node i from its children: a win for the side
// choosing among them if one child is proven a win for it (the shortest
// such line), a loss if every child is a proven loss for it (the longest),
// a draw if every child is proven and one is a draw. It reports whether
// the node is (now) proven.
func (a arena) resolve(i int32) bool {
	n := &a[i]
	if n.proof != Unproven {
		return true
	}
	kids := a.children(i)
	if len(kids) == 0 {
		return false
	}
	chooser := kids[0].mover
	result, plies := ProvenLoss, 0
	win := -1
	for k := range kids {
		c := &kids[k]
		switch c.proof {
		case Unproven:
			result = Unproven
		case ProvenWin: // for its mover, the chooser
			if win < 0 || int(c.plies) < win {
				win = int(c.plies)
			}
		case ProvenDraw:
			if result == ProvenLoss {
				result, plies = ProvenDraw, int(c.plies)
			}
		case ProvenLoss:
			if result == ProvenLoss {
				plies = max(plies, int(c.plies))
			}
		}
	}
	if win >= 0 {
		result, plies = ProvenWin, win
	}
	if result == Unproven {
		return false
	}
	// The result is the chooser's; keep it for the node's mover.
	who := n.mover
	if who == env.NoSide {
		who = chooser
	}
	if who != chooser {
		result = result.flip()
	}
	n.proof, n.plies = result, int16(min(plies+1, 1<<15-1))
	return true
}

// propagate carries a new proof at the end of path up towards the root,
// as far as it proves nodes.
func (a arena) propagate(path []int32) {
	for k := len(path) - 2; k >= 0; k-- {
		if !a.resolve(path[k]) {
			return
		}
	}
}

// ChildProof is what the search has proven of the move action at the
// root, for the root's side to move (ProvenWin: the move wins), and the
// plies to the end after it.
func (t *Tree) ChildProof(action int) (Proof, int) {
	side := t.rootSide
	r := t.nodes[0]
	for c := r.firstChild; c >= 0 && c < r.firstChild+r.numChild; c++ {
		if int(t.nodes[c].action) == action {
			return t.nodes.told(c, side, side), int(t.nodes[c].plies)
		}
	}
	return Unproven, 0
}

// provenChoice is the root child a proof decides, -1 when none does: the
// shortest proven win; when every move is proven, a draw, else the longest
// loss.
func (a arena) provenChoice(side env.Side) int {
	kids := a.children(0)
	best, bestWin := -1, 0
	allProven := true
	draw, loss, lossPlies := -1, -1, -1
	for k := range kids {
		c := &kids[k]
		switch a.told(a[0].firstChild+int32(k), side, side) {
		case ProvenWin:
			if best < 0 || int(c.plies) < bestWin {
				best, bestWin = k, int(c.plies)
			}
		case ProvenDraw:
			draw = k
		case ProvenLoss:
			if int(c.plies) > lossPlies {
				loss, lossPlies = k, int(c.plies)
			}
		default:
			allProven = false
		}
	}
	switch {
	case best >= 0:
		return best
	case !allProven:
		return -1
	case draw >= 0:
		return draw
	}
	return loss
}

// checksWins reports whether new leaves are looked at one ply ahead for a
// move that wins at once.
func (p Params) checksWins() bool { return !p.NoProofs && !p.NoWinCheck }

// winProbe finds a move that wins at once, trying each legal move on a
// scratch state when the game does not say (env.WinFinder).
type winProbe struct {
	state env.State
	buf   []int
}

// find is a legal move of s that ends the game at once in a win for
// its side to move, by the game's own rules, or -1. (MCTS-Solver alone
// proves a move lost only once the opponent's winning reply has been
// visited, which a network that gives that reply a tiny prior may never
// do within the budget: the classic blunder of letting an open three be
// completed.)
func (w *winProbe) find(s env.State) int {
	if f, ok := s.(env.WinFinder); ok {
		return f.WinningAction()
	}
	if w.state == nil {
		w.state = s.Clone()
	}
	mover := s.ToMove()
	w.buf = s.LegalActions(w.buf[:0])
	for _, a := range w.buf {
		w.state.CopyFrom(s)
		w.state.Apply(a)
		if o := w.state.Outcome(); o.Over && o.Winner == mover && ruleEnd(w.state) {
			return a
		}
	}
	return -1
}

// proveRootWin marks the root move action, which wins at once, as
// proven, which proves the root: the search then stops and plays it.
func (a arena) proveRootWin(action int) {
	r := &a[0]
	for c := r.firstChild; c < r.firstChild+r.numChild; c++ {
		if n := &a[c]; int(n.action) == action {
			n.terminal, n.termValue = true, 1
			n.proof, n.plies = ProvenWin, 0
			a.resolve(0)
			return
		}
	}
}
