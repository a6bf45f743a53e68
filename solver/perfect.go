package solver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/sliderzero/sliderzero/env"
)

// Perfect plays perfectly with an exact solver (player.Player): the best
// score on the solver's scale (the quickest win, else a draw, else the
// slowest loss), a seeded random choice among equal moves.
//
// It first settles each move's class (win, draw or loss), which is
// cheaper, then the exact scores of the moves of the best class. With a
// time limit or a node budget (given to its solver), a solve cut short
// falls back on what is proven: the move with the best lower bound, and
// among equal ones the best upper bound.
type Perfect struct {
	x     env.ExactSolver
	spec  string
	rng   *rand.Rand
	limit time.Duration
	// Last holds the scores behind the last move.
	Last []env.MoveScore
}

// NewPerfect returns a perfect player over x; limit (0: none) bounds the
// time a move takes; spec is its name in records.
func NewPerfect(x env.ExactSolver, spec string, limit time.Duration, rng *rand.Rand) *Perfect {
	return &Perfect{x: x, spec: spec, rng: rng, limit: limit}
}

func (p *Perfect) String() string { return p.spec }

// Move plays a best move.
func (p *Perfect) Move(ctx context.Context, s env.State) (int, error) {
	if s.Outcome().Over {
		return 0, fmt.Errorf("no legal move: the game is over")
	}
	if p.limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.limit)
		defer cancel()
	}
	classes, err := env.ScoreMoves(ctx, p.x, s, nil, true)
	if err != nil && !cut(err) {
		return 0, err
	}
	if len(classes) == 0 {
		return 0, fmt.Errorf("the solver found no move in %s", s)
	}
	best, candidates := env.BestMoves(classes)
	p.Last = classes
	if len(candidates) > 1 && best.Exact() && best.Lo != 0 && ctx.Err() == nil {
		// Among the moves of the best class (a win or a loss), the exact
		// scores tell the quickest win or the slowest loss.
		within, err := env.ScoreMoves(ctx, p.x, s, candidates, false)
		if err != nil && !cut(err) {
			return 0, err
		}
		_, candidates = env.BestMoves(within)
		p.Last = within
	}
	if ctx.Err() != nil && len(candidates) > 1 && p.limit == 0 {
		return 0, ctx.Err()
	}
	return candidates[p.rng.IntN(len(candidates))], nil
}

// cut reports whether a solve ended by its time limit or node budget,
// after which the bounds proven so far still choose a move.
func cut(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, env.ErrBudget)
}
