package player

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/sliderzero/sliderzero/env"
)

// DefaultAlphaBetaDepth is the depth of alphabeta when its spec gives no
// limit.
const DefaultAlphaBetaDepth = 10

// AlphaBetaConfig limits a search; zero fields are no limit, and at least
// one must be set.
type AlphaBetaConfig struct {
	Depth int           // deepest iteration, in plies
	Time  time.Duration // wall-clock time per move
	Nodes int           // nodes per move
}

const ttBits = 18

// Bound kinds of a transposition-table score.
const (
	boundExact = iota
	boundLower
	boundUpper
)

type ttEntry struct {
	key   uint64
	score float64
	best  int32
	depth int8
	bound uint8
}

// AlphaBeta is iterative-deepening negamax with alpha-beta pruning, a
// transposition table, and move ordering by the table's move, killer moves
// and the history heuristic. It handles games where a side moves several
// times in a row: the score is negated only when the turn changes hands.
type AlphaBeta struct {
	spec string
	eval env.Evaluator
	cfg  AlphaBetaConfig
	rng  *rand.Rand

	tt      []ttEntry
	history [2][]int32
	killers [][2]int

	// Per-search state.
	ctx      context.Context
	deadline time.Time
	nodes    int
	stopped  bool
	scratch  []env.State
	moves    [][]int
	order    [][]int32

	// Statistics of the last search.
	LastDepth int
	LastScore float64
	LastNodes int

	// OnDepth, when set, hears each finished iteration of the deepening:
	// the depth, the best move's score (the game's evaluation units; a won
	// or lost result beyond winScore/2), the nodes so far and the
	// principal variation.
	OnDepth func(depth int, score float64, nodes int, pv []int)
}

// NewAlphaBeta returns an alpha-beta player. Its table takes about 6 MB.
// With an rng, equally good moves are chosen among at random (the root's
// moves are shuffled before ordering), so that games differ; without one
// the search is the same every time.
func NewAlphaBeta(spec string, g env.Game, eval env.Evaluator, cfg AlphaBetaConfig, rng *rand.Rand) *AlphaBeta {
	ab := &AlphaBeta{spec: spec, eval: eval, cfg: cfg, rng: rng, tt: make([]ttEntry, 1<<ttBits)}
	for i := range ab.history {
		ab.history[i] = make([]int32, g.ActionSize())
	}
	return ab
}

func (ab *AlphaBeta) String() string { return ab.spec }

func (ab *AlphaBeta) Move(ctx context.Context, root env.State) (int, error) {
	legal := root.LegalActions(nil)
	if len(legal) == 0 {
		return 0, fmt.Errorf("no legal move: the game is over")
	}
	ab.ctx, ab.nodes, ab.stopped = ctx, 0, false
	ab.deadline = time.Time{}
	if ab.cfg.Time > 0 {
		ab.deadline = time.Now().Add(ab.cfg.Time)
	}
	if len(legal) == 1 {
		ab.LastDepth, ab.LastNodes = 0, 0
		return legal[0], nil
	}
	maxDepth := ab.cfg.Depth
	if maxDepth <= 0 {
		maxDepth = 100
	}
	for i := range ab.history {
		for a := range ab.history[i] {
			ab.history[i][a] /= 8 // keep a little of the last move's ordering
		}
	}
	best, bestScore := legal[0], math.Inf(-1)
	for depth := 1; depth <= maxDepth; depth++ {
		if depth > 1 {
			ab.checkStop()
			if ab.stopped {
				break
			}
		}
		move, score, complete := ab.searchRoot(root, depth)
		if complete || move >= 0 {
			// An unfinished iteration still improves on the last one when
			// its move beat the last best move, which it searched first.
			best, bestScore = move, score
			ab.LastDepth = depth
			if ab.OnDepth != nil && complete {
				ab.OnDepth(depth, score, ab.nodes, ab.PV(root, best, depth))
			}
		}
		if !complete || math.Abs(score) > winScore/2 {
			break
		}
	}
	ab.LastScore, ab.LastNodes = bestScore, ab.nodes
	return best, nil
}

// searchRoot runs one iteration. It returns the best move and its score,
// and whether every move was searched; when stopped early, the move is -1
// unless a move other than the first one already proved better.
func (ab *AlphaBeta) searchRoot(root env.State, depth int) (int, float64, bool) {
	me := root.ToMove()
	moves := ab.orderedMoves(root, 0, ab.ttMove(root))
	child := ab.state(0, root)
	alpha, beta := math.Inf(-1), math.Inf(1)
	best := -1
	for i, a := range moves {
		child.CopyFrom(root)
		child.Apply(a)
		score := ab.childScore(child, me, depth-1, 1, alpha, beta)
		if ab.stopped {
			if i == 0 {
				best = -1
			}
			return best, alpha, false
		}
		if score > alpha {
			alpha, best = score, a
		}
	}
	ab.store(root, depth, alpha, boundExact, best, 0)
	return best, alpha, true
}

// childScore scores child, reached by a move of side me, from me's point
// of view, with the window (alpha, beta) also from me's point of view.
func (ab *AlphaBeta) childScore(child env.State, me env.Side, depth, ply int, alpha, beta float64) float64 {
	if o := child.Outcome(); o.Over {
		switch o.Winner {
		case env.NoSide:
			return 0
		case me:
			return winScore - float64(ply)
		default:
			return -winScore + float64(ply)
		}
	}
	if child.ToMove() == me {
		return ab.negamax(child, depth, ply, alpha, beta)
	}
	return -ab.negamax(child, depth, ply, -beta, -alpha)
}

// negamax scores s, which is not over, for its side to move.
func (ab *AlphaBeta) negamax(s env.State, depth, ply int, alpha, beta float64) float64 {
	ab.nodes++
	if ab.nodes&1023 == 0 {
		ab.checkStop()
	}
	if ab.stopped {
		return 0
	}
	if ab.cfg.Nodes > 0 && ab.nodes >= ab.cfg.Nodes {
		ab.stopped = true
		return 0
	}
	if depth <= 0 {
		return ab.eval.Evaluate(s)
	}
	origAlpha := alpha
	ttMove := -1
	if e := &ab.tt[s.Hash()&(1<<ttBits-1)]; e.key == s.Hash() {
		ttMove = int(e.best)
		if int(e.depth) >= depth {
			score := fromTT(e.score, ply)
			switch {
			case e.bound == boundExact:
				return score
			case e.bound == boundLower && score >= beta:
				return score
			case e.bound == boundUpper && score <= alpha:
				return score
			}
		}
	}
	me := s.ToMove()
	moves := ab.orderedMoves(s, ply, ttMove)
	child := ab.state(ply, s)
	best, bestMove := math.Inf(-1), moves[0]
	for _, a := range moves {
		child.CopyFrom(s)
		child.Apply(a)
		score := ab.childScore(child, me, depth-1, ply+1, alpha, beta)
		if ab.stopped {
			return 0
		}
		if score > best {
			best, bestMove = score, a
		}
		if score > alpha {
			alpha = score
		}
		if alpha >= beta {
			ab.history[me][a] += int32(depth * depth)
			if k := &ab.killers[ply]; k[0] != a {
				k[1], k[0] = k[0], a
			}
			break
		}
	}
	bound := uint8(boundExact)
	switch {
	case best <= origAlpha:
		bound = boundUpper
	case best >= beta:
		bound = boundLower
	}
	ab.store(s, depth, best, bound, bestMove, ply)
	return best
}

func (ab *AlphaBeta) checkStop() {
	if !ab.deadline.IsZero() && time.Now().After(ab.deadline) {
		ab.stopped = true
	}
	if ab.ctx.Err() != nil {
		ab.stopped = true
	}
}

// PV is the principal variation from root: first, then the table's best
// move in each following position, up to depth plies.
func (ab *AlphaBeta) PV(root env.State, first, depth int) []int {
	line := []int{first}
	s := root.Clone()
	s.Apply(first)
	for len(line) < depth && !s.Outcome().Over {
		a := ab.ttMove(s)
		if a < 0 || !env.IsLegal(s, a) {
			break
		}
		line = append(line, a)
		s.Apply(a)
	}
	return line
}

// Won reports whether a score is a proven result (a win or loss the search
// reached), and in how many plies from the root.
func Won(score float64) (won, lost bool, plies int) {
	switch {
	case score > winScore/2:
		return true, false, int(winScore - score)
	case score < -winScore/2:
		return false, true, int(winScore + score)
	}
	return false, false, 0
}

func (ab *AlphaBeta) ttMove(s env.State) int {
	if e := &ab.tt[s.Hash()&(1<<ttBits-1)]; e.key == s.Hash() {
		return int(e.best)
	}
	return -1
}

func (ab *AlphaBeta) store(s env.State, depth int, score float64, bound uint8, best, ply int) {
	e := &ab.tt[s.Hash()&(1<<ttBits-1)]
	*e = ttEntry{key: s.Hash(), score: toTT(score, ply), best: int32(best), depth: int8(min(depth, 127)), bound: bound}
}

// Win scores count plies from the root, to prefer the fastest win; the
// table stores them counted from the position instead.
func toTT(score float64, ply int) float64 {
	switch {
	case score > winScore/2:
		return score + float64(ply)
	case score < -winScore/2:
		return score - float64(ply)
	}
	return score
}

func fromTT(score float64, ply int) float64 {
	switch {
	case score > winScore/2:
		return score - float64(ply)
	case score < -winScore/2:
		return score + float64(ply)
	}
	return score
}

// state returns the scratch state for children of nodes at ply.
func (ab *AlphaBeta) state(ply int, like env.State) env.State {
	for len(ab.scratch) <= ply {
		ab.scratch = append(ab.scratch, like.Clone())
	}
	return ab.scratch[ply]
}

// orderedMoves lists the legal moves of s: the table's move first, then
// the killers, then by history score.
func (ab *AlphaBeta) orderedMoves(s env.State, ply, ttMove int) []int {
	for len(ab.moves) <= ply {
		ab.moves = append(ab.moves, make([]int, 0, 32))
		ab.order = append(ab.order, make([]int32, 0, 32))
		ab.killers = append(ab.killers, [2]int{-1, -1})
	}
	moves := s.LegalActions(ab.moves[ply][:0])
	if ply == 0 && ab.rng != nil {
		ab.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	}
	keys := ab.order[ply][:0]
	hist := ab.history[s.ToMove()]
	k := ab.killers[ply]
	for _, a := range moves {
		key := hist[a]
		switch a {
		case ttMove:
			key = math.MaxInt32
		case k[0]:
			key = math.MaxInt32 - 2
		case k[1]:
			key = math.MaxInt32 - 3
		}
		keys = append(keys, key)
	}
	// Insertion sort: the lists are short, and it is stable, which keeps
	// the search deterministic.
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && keys[j] > keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
			moves[j], moves[j-1] = moves[j-1], moves[j]
		}
	}
	ab.moves[ply], ab.order[ply] = moves, keys
	return moves
}

// Stream searches s, calling emit after each finished depth of the
// deepening with its Deepening (the score in the game's units, the
// principal variation, the nodes so far), and once at the end (Done) with
// the move found; it stops at the player's budget (none with o.Until: to
// the deepest iteration, or until ctx ends).
func (ab *AlphaBeta) Stream(ctx context.Context, s env.State, o StreamOptions, emit func(Progress) bool) error {
	if o.Until {
		cfg := ab.cfg
		ab.cfg = AlphaBetaConfig{Depth: 100}
		defer func() { ab.cfg = cfg }()
	}
	t0 := time.Now()
	view := func(depth int, score float64, nodes int, pv []int, done bool) Progress {
		d := &Deepening{Depth: depth, Nodes: nodes, Score: score, PV: env.MoveNames(s, pv)}
		p := Progress{Visits: nodes, NPS: float64(nodes) / max(time.Since(t0).Seconds(), 1e-9), Done: done, Deepening: d}
		if len(pv) > 0 {
			p.Lines = []Candidate{{Move: s.ActionString(pv[0]), Action: pv[0], Share: 1, PV: d.PV}}
		}
		return p
	}
	stop, cancel := context.WithCancel(ctx)
	defer cancel()
	ab.OnDepth = func(depth int, score float64, nodes int, pv []int) {
		if !emit(view(depth, score, nodes, pv, false)) {
			cancel()
		}
	}
	defer func() { ab.OnDepth = nil }()
	best, err := ab.Move(stop, s)
	if err != nil {
		return err
	}
	emit(view(ab.LastDepth, ab.LastScore, ab.LastNodes, ab.PV(s, best, ab.LastDepth), true))
	return nil
}

// Analyze searches s to the player's budget and returns its best move,
// with the search's Deepening (the value is the score's sign: alpha-beta
// has no probability of winning).
func (ab *AlphaBeta) Analyze(ctx context.Context, s env.State, top int) (Analysis, error) {
	t0 := time.Now()
	best, err := ab.Move(ctx, s)
	if err != nil {
		return Analysis{}, err
	}
	d := &Deepening{Depth: ab.LastDepth, Nodes: ab.LastNodes, Score: ab.LastScore, PV: env.MoveNames(s, ab.PV(s, best, ab.LastDepth))}
	an := Analysis{Value: float32(math.Copysign(min(1, math.Abs(ab.LastScore)), ab.LastScore)), Deepening: d, Took: time.Since(t0)}
	an.Best = []Candidate{{Move: s.ActionString(best), Action: best, Share: 1, PV: d.PV}}
	return an, nil
}
