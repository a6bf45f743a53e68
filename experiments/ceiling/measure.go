package main

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
	solver "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
)

// setNames are the table's held-out sets, in report order.
var setNames = accuracy.SetNames

// probe is a position with its exact value and its moves' values.
type probe struct {
	s    *slider.State
	v    solver.Value
	acts []int
	vals []solver.Value
}

// probesOf reads one of the table's sets.
func probesOf(t *solver.Table, set string) ([]probe, error) {
	positions, ok := t.Sets[set]
	if !ok {
		return nil, fmt.Errorf("the table has no set %q", set)
	}
	g := t.Game()
	var out []probe
	for _, p := range positions {
		s, err := g.ParseState(p)
		if err != nil {
			return nil, err
		}
		st := env.Unwrap(s).(*slider.State)
		pr, err := probeOf(t, st)
		if err != nil {
			return nil, err
		}
		out = append(out, pr)
	}
	return out, nil
}

func probeOf(t *solver.Table, s *slider.State) (probe, error) {
	v, err := t.Value(s)
	if err != nil {
		return probe{}, err
	}
	acts, vals, err := t.Moves(s)
	if err != nil {
		return probe{}, err
	}
	return probe{s: s, v: v, acts: acts, vals: vals}, nil
}

// uniformProbes draws n positions uniformly from the table (critical or
// not, held out or not: the held-out sets are 4,000 of 240 million), for
// the fit on the training distribution itself.
func uniformProbes(t *solver.Table, n int, seed uint64) ([]probe, error) {
	rng := rand.New(rand.NewPCG(seed, 0x7a11d))
	out := make([]probe, 0, n)
	for len(out) < n {
		pr, err := probeOf(t, t.RandomPosition(rng))
		if err != nil {
			return nil, err
		}
		out = append(out, pr)
	}
	return out, nil
}

// Thresholds of the value head's class: a value above Win is read as a
// win, below -Win a loss, else a draw.
type thresholds struct {
	// Nearest reads the value as the nearest of -1, 0 and 1 (0.5): the
	// right reading for a network trained on exact results.
	Nearest float64 `json:"nearest"`
	// Discounted is half the smallest discounted target a decided
	// position has (Discount^(longest-1) / 2): the midpoint between a
	// draw's target and the slowest win's, for networks trained on
	// discounted targets (self-play's, and --value discounted).
	Discounted float64 `json:"discounted"`
}

func class(v, th float64) solver.Result {
	switch {
	case v > th:
		return solver.Win
	case v < -th:
		return solver.Loss
	}
	return solver.Draw
}

// split is a tally over all positions and by their exact result.
type split struct {
	All   accuracy.Tally `json:"all"`
	Won   accuracy.Tally `json:"won"`
	Drawn accuracy.Tally `json:"drawn"`
	Lost  accuracy.Tally `json:"lost"`
}

func (s *split) add(r solver.Result, ok bool) {
	k := 0
	if ok {
		k = 1
	}
	for _, t := range []*accuracy.Tally{&s.All, s.of(r)} {
		t.Kept += k
		t.Total++
	}
}

func (s *split) of(r solver.Result) *accuracy.Tally {
	switch r {
	case solver.Win:
		return &s.Won
	case solver.Loss:
		return &s.Lost
	}
	return &s.Drawn
}

// rawResult is what the network says without search.
type rawResult struct {
	// ValueNearest and ValueDiscounted: the value head's class (read with
	// each threshold) equals the exact result.
	ValueNearest    split `json:"value_nearest"`
	ValueDiscounted split `json:"value_discounted"`
	// Policy: the policy head's most likely legal move keeps the value.
	Policy split `json:"policy"`
	// OnePly: the move whose resulting position the value head likes best
	// (for the mover; a finished game by its result) keeps the value.
	OnePly split `json:"one_ply"`
	// ValueMSE is the mean squared error of the value head against the
	// exact result (+1, 0, -1).
	ValueMSE float64 `json:"value_mse_exact"`
}

// measureRaw evaluates the network's heads on the probes.
func measureRaw(w *model.Weights, probes []probe, th thresholds) (rawResult, error) {
	net, err := model.NewNet(w)
	if err != nil {
		return rawResult{}, err
	}
	fwd := net.NewForward()
	a := w.Arch
	var r rawResult
	if len(probes) == 0 {
		return r, nil
	}
	// The positions, then every child of every position, in one pass.
	var rows []*slider.State
	for _, p := range probes {
		rows = append(rows, p.s)
	}
	first := make([]int, len(probes)) // first child's row
	for i, p := range probes {
		first[i] = len(rows)
		for _, act := range p.acts {
			c := p.s.Clone().(*slider.State)
			c.Apply(act)
			rows = append(rows, c)
		}
	}
	const chunk = 512
	input := make([]float32, chunk*a.Input)
	logits := make([]float32, len(rows)*a.Actions)
	values := make([]float32, len(rows))
	for lo := 0; lo < len(rows); lo += chunk {
		n := min(chunk, len(rows)-lo)
		for i := 0; i < n; i++ {
			rows[lo+i].Encode(input[i*a.Input : (i+1)*a.Input])
		}
		fwd.Run(n, input, logits[lo*a.Actions:], values[lo:], nil)
	}
	var sq float64
	for i, p := range probes {
		v := float64(values[i])
		d := v - float64(p.v.Result)
		sq += d * d
		r.ValueNearest.add(p.v.Result, class(v, th.Nearest) == p.v.Result)
		r.ValueDiscounted.add(p.v.Result, class(v, th.Discounted) == p.v.Result)
		best, bestLogit := -1, float32(0)
		for j, act := range p.acts {
			if l := logits[i*a.Actions+act]; best < 0 || l > bestLogit {
				best, bestLogit = j, l
			}
		}
		r.Policy.add(p.v.Result, p.vals[best].Result == p.v.Result)
		best, bestValue := -1, 0.0
		mover := p.s.ToMove()
		for j := range p.acts {
			c := rows[first[i]+j]
			var q float64
			if o := c.Outcome(); o.Over {
				q = float64(o.Value(mover))
			} else if c.ToMove() == mover {
				q = float64(values[first[i]+j]) // the opponent passed
			} else {
				q = -float64(values[first[i]+j])
			}
			if best < 0 || q > bestValue {
				best, bestValue = j, q
			}
		}
		r.OnePly.add(p.v.Result, p.vals[best].Result == p.v.Result)
	}
	r.ValueMSE = sq / float64(len(probes))
	return r, nil
}

// searchFactory builds, for each position, a player that searches with
// the project's MCTS (player.Net, as net: and player: specs do) over w.
func searchFactory(name string, w *model.Weights, g env.Game, cfg mcts.Params) accuracy.Factory {
	return func(seed uint64) (player.Player, error) {
		return player.NewNet(name, w, g, cfg, rand.New(rand.NewPCG(seed, 0x5eed)))
	}
}

// measureSearch is accuracy.Measure on one set at one budget.
func measureSearch(ctx context.Context, t *solver.Table, set string, f accuracy.Factory, limit int, seed uint64) (accuracy.Result, error) {
	return accuracy.Measure(ctx, t, set, f, accuracy.Options{Limit: limit, Seed: seed, Parallel: 1})
}
