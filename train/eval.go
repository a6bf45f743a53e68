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
	if err := r.calibrate(ctx); err != nil {
		return err
	}
	names := append([]string{currentSpec}, e.Ladder...)
	table := rating.NewTable(names)
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	for _, lr := range r.ck.Ladder {
		table.Add(index[lr.A], index[lr.B], lr.Result)
	}
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
	if anchor == 0 {
		anchor = 1 // no random on the ladder: anchor at the first baseline
	}
	ratings, err := table.Fit(anchor)
	if err != nil {
		return err
	}
	elo, lo, hi := ratings[0].Elo, ratings[0].Lo, ratings[0].Hi
	if !math.IsNaN(elo) {
		m.Elo, m.EloLo, m.EloHi = &elo, &lo, &hi
	}
	if r.Examiner != nil {
		acc, err := r.Examiner.Examine(ctx, func(seed uint64) (player.Player, error) {
			return factory(currentSpec, r.game, seed)
		})
		if err != nil {
			return fmt.Errorf("measuring accuracy: %w", err)
		}
		m.Accuracy = acc
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

// calibrate plays every pair of the ladder's baselines once per run (the
// results are kept in the checkpoint), so that the network's Elo is fitted
// on a scale the baselines fix rather than one that floats with it.
func (r *Run) calibrate(ctx context.Context) error {
	e := r.cfg.Eval
	if len(r.ck.Ladder) > 0 || len(e.Ladder) < 2 {
		return nil
	}
	pairs := len(e.Ladder) * (len(e.Ladder) - 1) / 2
	r.phase("calibrating the ladder", pairs*e.Games)
	defer r.phaseDone()
	var results []LadderResult
	for i, a := range e.Ladder {
		for j := i + 1; j < len(e.Ladder); j++ {
			b := e.Ladder[j]
			s := match.Series{Spec: r.cfg.Game, A: a, B: b, Games: e.Games, Seed: r.cfg.Seed ^ uint64(i*64+j),
				Parallel: r.cfg.workers(), OnGame: func(int, match.Record) { r.progress(1, "") }}
			res, err := s.Run(ctx)
			if err != nil {
				return fmt.Errorf("calibrating the ladder, %s against %s: %w", a, b, err)
			}
			results = append(results, LadderResult{A: a, B: b, Result: res.Total()})
		}
	}
	r.ck.Ladder = results
	return nil
}
