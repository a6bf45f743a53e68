// Package player defines what a player is (given a position, choose a move
// within a budget), builds players from spec strings, and holds the
// classical baselines a trained agent is measured against.
package player

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/sliderzero/sliderzero/env"
)

// Player chooses moves. Move must not modify s, and returns early with its
// best move so far, or an error if it has none, when ctx is done.
// A Player is used by one goroutine at a time.
type Player interface {
	Move(ctx context.Context, s env.State) (int, error)
	// String is the spec that builds the player.
	String() string
}

// Errors a player's Move may wrap, for referees to tell forfeits apart.
var (
	// ErrTimeLimit: the player did not answer within its time limit.
	ErrTimeLimit = errors.New("no answer within the time limit")
	// ErrIllegalMove: the player answered a move that is not legal, or
	// not a move at all.
	ErrIllegalMove = errors.New("illegal move")
)

// Reporter is a player that can tell what its last search found: its value
// for the side that moved, and the visits it made.
type Reporter interface {
	LastSearch() (value float32, visits int)
}

// Analyzer is a player that can show its view of a position: its value
// for the side to move and the moves its search prefers.
type Analyzer interface {
	Analyze(ctx context.Context, s env.State, top int) (Analysis, error)
}

// New builds a player for a game from a spec string, of the built-in
// kinds: for programs that build one player; those that build many, or
// add kinds, use a Factory.
func New(spec string, game env.Game, opts Options) (Player, error) {
	f, _ := NewFactory()
	s, err := f.Read(spec, game, opts)
	if err != nil {
		return nil, err
	}
	return s.New(game, opts.Seed)
}

func evaluator(g env.Game, kind string) (env.Evaluator, error) {
	ev, ok := g.(env.Evaluator)
	if !ok {
		return nil, fmt.Errorf("player %s needs an evaluation function, and %s has none", kind, g.Name())
	}
	return ev, nil
}

// Random plays uniformly among the legal moves.
type Random struct {
	spec string
	rng  *rand.Rand
	buf  []int
}

func (r *Random) String() string { return r.spec }

func (r *Random) Move(_ context.Context, s env.State) (int, error) {
	r.buf = s.LegalActions(r.buf[:0])
	if len(r.buf) == 0 {
		return 0, fmt.Errorf("no legal move: the game is over")
	}
	return r.buf[r.rng.IntN(len(r.buf))], nil
}

// Greedy plays the move whose resulting position the game's evaluation
// likes best, taking a win at once; ties are broken at random.
type Greedy struct {
	spec string
	eval env.Evaluator
	rng  *rand.Rand
	buf  []int
}

func (g *Greedy) String() string { return g.spec }

func (g *Greedy) Move(_ context.Context, s env.State) (int, error) {
	g.buf = s.LegalActions(g.buf[:0])
	if len(g.buf) == 0 {
		return 0, fmt.Errorf("no legal move: the game is over")
	}
	me := s.ToMove()
	child := s.Clone()
	best, bestScore, ties := g.buf[0], 0.0, 0
	for i, a := range g.buf {
		child.CopyFrom(s)
		child.Apply(a)
		score := scoreFor(g.eval, child, me)
		switch {
		case i == 0 || score > bestScore:
			best, bestScore, ties = a, score, 1
		case score == bestScore:
			// Reservoir sampling keeps each tied move equally likely.
			ties++
			if g.rng.IntN(ties) == 0 {
				best = a
			}
		}
	}
	return best, nil
}

// winScore outranks every evaluation.
const winScore = 1e9

// scoreFor scores a position for side me: the outcome if it is over, else
// the evaluation turned to me's point of view.
func scoreFor(ev env.Evaluator, s env.State, me env.Side) float64 {
	if o := s.Outcome(); o.Over {
		return winScore * float64(o.Value(me))
	}
	v := ev.Evaluate(s)
	if s.ToMove() != me {
		v = -v
	}
	return v
}
