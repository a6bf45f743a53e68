package player

import (
	"context"
	"math/rand/v2"
	"sort"
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
	// Threads searches with that many trees at once (uct.Config).
	Threads int
}

// UCT plays with plain Monte Carlo tree search (package uct).
type UCT struct {
	spec     string
	cfg      UCTConfig
	searcher *uct.Searcher
}

// NewUCT returns a plain MCTS player.
func NewUCT(spec string, cfg UCTConfig, rng *rand.Rand) *UCT {
	return &UCT{spec: spec, cfg: cfg, searcher: uct.New(uct.Config{Sims: cfg.Sims, Time: cfg.Time, C: cfg.C, MaxNodes: cfg.MaxNodes, Threads: cfg.Threads}, rng)}
}

func (p *UCT) String() string { return p.spec }

// Config is the player's budget and threads.
func (p *UCT) Config() UCTConfig { return p.cfg }

func (p *UCT) Move(ctx context.Context, s env.State) (int, error) {
	return p.searcher.Search(ctx, s)
}

// LastSearch is the last search's value of its move for the side that
// moved, and its simulations.
func (p *UCT) LastSearch() (float32, int) {
	return float32(p.searcher.LastValue), p.searcher.LastSims
}

// Stream searches s, calling emit with the search's view (the moves by
// their share of the visits, each with its mean playout result and its
// line of most visited replies) every o.Every and once at the end (Done);
// it stops at the player's budget (o.Until: none), when ctx ends, or when
// emit returns false.
func (p *UCT) Stream(ctx context.Context, s env.State, o StreamOptions, emit func(Progress) bool) error {
	every, top, depth := o.Every, o.Top, o.Depth
	if o.Until {
		sims, t := p.searcher.Budget()
		p.searcher.SetBudget(0, 0)
		defer p.searcher.SetBudget(sims, t)
	}
	t0 := time.Now()
	view := func(sims int, done bool) Progress {
		kids := p.searcher.RootChildren()
		sort.SliceStable(kids, func(i, j int) bool { return kids[i].Visits > kids[j].Visits })
		pr := Progress{Visits: sims, NPS: float64(sims) / max(time.Since(t0).Seconds(), 1e-9), Done: done}
		for i, k := range kids {
			if i == 0 {
				pr.Value = float32(k.Value)
			}
			if len(pr.Lines) == top || k.Visits == 0 {
				break
			}
			pr.Lines = append(pr.Lines, Candidate{Move: s.ActionString(k.Action), Action: k.Action,
				Share: float64(k.Visits) / float64(max(sims, 1)), Visits: k.Visits, Value: float32(k.Value),
				PV: env.MoveNames(s, p.searcher.PV(k.Action, depth))})
		}
		return pr
	}
	p.searcher.Every = every
	p.searcher.OnProgress = func(sims int) bool { return emit(view(sims, false)) }
	defer func() { p.searcher.OnProgress = nil }()
	if _, err := p.searcher.Search(ctx, s); err != nil {
		return err
	}
	// Stopped or not, the last view is the search's answer.
	emit(view(p.searcher.LastSims, true))
	return nil
}

// Analyze searches s and returns the value of the move it would play for
// the side to move, and its moves by their share of the visits (with each
// one's visits and mean playout result).
func (p *UCT) Analyze(ctx context.Context, s env.State, top int) (Analysis, error) {
	if _, err := p.searcher.Search(ctx, s); err != nil {
		return Analysis{}, err
	}
	kids := p.searcher.RootChildren()
	total := 0
	for _, k := range kids {
		total += k.Visits
	}
	sort.SliceStable(kids, func(i, j int) bool { return kids[i].Visits > kids[j].Visits })
	an := Analysis{Value: float32(p.searcher.LastValue)}
	for _, k := range kids {
		if len(an.Best) == top || k.Visits == 0 {
			break
		}
		an.Best = append(an.Best, Candidate{Move: s.ActionString(k.Action), Action: k.Action, Share: float64(k.Visits) / float64(max(total, 1)),
			Visits: k.Visits, Value: float32(k.Value)})
	}
	return an, nil
}
