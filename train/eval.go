package train

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/rating"
)

// currentSpec names the network being trained in evaluation games.
const currentSpec = "current"

// evaluate plays the current network against the ladder and records the
// scores and the fitted Elo in m.
func (r *Run) evaluate(ctx context.Context, m *Metrics) error {
	t0 := time.Now()
	e := r.cfg.Eval
	w := r.ck.Weights
	factory := func(spec string, g env.Game, seed uint64) (player.Player, error) {
		if spec == currentSpec {
			return player.NewNet(spec, w, g, mcts.Config{Sims: e.Sims, CPUCT: r.cfg.Search.CPUCT}, rand.New(rand.NewPCG(seed, 0)))
		}
		return match.DefaultFactory(spec, g, seed)
	}
	names := append([]string{currentSpec}, e.Ladder...)
	table := rating.NewTable(names)
	m.EvalScores = map[string]float64{}
	r.phase(fmt.Sprintf("round %d evaluation", m.Round), len(e.Ladder)*e.Games)
	defer r.phaseDone()
	for i, base := range e.Ladder {
		s := match.Series{Spec: r.cfg.Game, A: currentSpec, B: base, Games: e.Games,
			Seed: r.cfg.Seed ^ uint64(m.Round)<<20 ^ uint64(i), Parallel: r.cfg.workers(), Factory: factory,
			OnGame: func(int, match.Record) { r.progress(1, "") }}
		res, err := s.Run(ctx)
		if err != nil {
			return fmt.Errorf("evaluation against %s: %w", base, err)
		}
		table.Add(0, i+1, res.Total())
		m.EvalScores[base] = res.Total().Score()
	}
	anchor := 0
	for i, name := range names {
		if name == "random" {
			anchor = i
		}
	}
	ratings, err := table.Fit(anchor)
	if err != nil {
		return err
	}
	elo, lo, hi := ratings[0].Elo, ratings[0].Lo, ratings[0].Hi
	if anchor == 0 {
		// No random on the ladder: report the network against the first
		// baseline instead.
		elo, lo, hi = -ratings[1].Elo, -ratings[1].Hi, -ratings[1].Lo
	}
	if !math.IsNaN(elo) {
		m.Elo, m.EloLo, m.EloHi = &elo, &lo, &hi
	}
	if e.GateGames > 0 {
		if err := r.gate(ctx, m); err != nil {
			return err
		}
	}
	m.EvalSecs = time.Since(t0).Seconds()
	return nil
}

// gate plays the trained network against the best one and promotes it if
// it scores well enough.
func (r *Run) gate(ctx context.Context, m *Metrics) error {
	e := r.cfg.Eval
	cur, best := r.ck.Weights, r.ck.Best
	factory := func(spec string, g env.Game, seed uint64) (player.Player, error) {
		w := cur
		if spec == "best" {
			w = best
		}
		return player.NewNet(spec, w, g, mcts.Config{Sims: e.Sims, CPUCT: r.cfg.Search.CPUCT}, rand.New(rand.NewPCG(seed, 1)))
	}
	s := match.Series{Spec: r.cfg.Game, A: currentSpec, B: "best", Games: e.GateGames,
		Seed: r.cfg.Seed ^ uint64(m.Round)<<24, Parallel: r.cfg.workers(), Factory: factory}
	res, err := s.Run(ctx)
	if err != nil {
		return fmt.Errorf("gating match: %w", err)
	}
	score := res.Total().Score()
	m.GateScore = &score
	if score >= e.GateScore {
		net, err := model.NewNet(cur)
		if err != nil {
			return err
		}
		r.ck.Best, r.ck.BestSteps, r.best = cur.Clone(), r.ck.Steps, net
		m.GatePassed = true
	}
	m.BestSteps = r.ck.BestSteps
	return nil
}
