package player

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/mcts/uct"
)

// DefaultUCTSims is the budget of mcts when its spec gives none.
const DefaultUCTSims = 1000

// UCTConfig is the budget of the plain MCTS player.
type UCTConfig struct {
	Sims int
	Time time.Duration
	C    float64
	// MaxNodes bounds the tree, and so the memory (0: uct.MaxNodes).
	MaxNodes int
}

// UCT plays with plain Monte Carlo tree search (package uct).
type UCT struct {
	spec     string
	searcher *uct.Searcher
}

// NewUCT returns a plain MCTS player.
func NewUCT(spec string, cfg UCTConfig, rng *rand.Rand) *UCT {
	return &UCT{spec: spec, searcher: uct.New(uct.Config{Sims: cfg.Sims, Time: cfg.Time, C: cfg.C, MaxNodes: cfg.MaxNodes}, rng)}
}

func (p *UCT) String() string { return p.spec }

func (p *UCT) Move(ctx context.Context, s env.State) (int, error) {
	return p.searcher.Search(ctx, s)
}

// LastSearch is the last search's value of its move for the side that
// moved, and its simulations.
func (p *UCT) LastSearch() (float32, int) {
	return float32(p.searcher.LastValue), p.searcher.LastSims
}
