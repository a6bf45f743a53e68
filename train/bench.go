package train

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/model/learn"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// SpeedReport is what Bench measured, per core.
type SpeedReport struct {
	Arch          model.Arch
	Params        int
	Batch         int
	PlainEvals    float64 // evaluations/s, plain-Go forward pass at Batch
	GorgoniaEvals float64 // evaluations/s, the same through a Gorgonia machine
	SelfPlaySims  float64 // simulations/s of one self-play worker
	SearchShare   float64 // self-play simulations/s over forward-pass evaluations/s: 1 means the search costs nothing beside the network
	// SelfPlaySims2 is the simulations/s of two workers, on two
	// goroutines, wall time.
	SelfPlaySims2 float64
	// SelfPlayBatch is the mean batch self-play's forward passes had.
	SelfPlayBatch float64
}

// Bench measures, on one core, the configuration's network (freshly
// initialised) and its self-play search, each for about d.
func Bench(ctx context.Context, cfg Config, d time.Duration) (SpeedReport, error) {
	var r SpeedReport
	g, err := games.New(cfg.Game)
	if err != nil {
		return r, err
	}
	arch := cfg.Net.Arch(g)
	w, err := model.NewWeights(arch, rand.New(rand.NewPCG(cfg.Seed, initStream)))
	if err != nil {
		return r, err
	}
	net, err := model.NewNet(w)
	if err != nil {
		return r, err
	}
	r.Arch, r.Params, r.Batch = arch, w.NumParams(), cfg.GamesInFlight
	const sets = 32
	rng := rand.New(rand.NewPCG(3, 4))
	x := benchInputs(g, sets*r.Batch, rng)
	logits, values := make([]float32, r.Batch*arch.Actions), make([]float32, r.Batch)
	f := net.NewForward()
	n, t0 := 0, time.Now()
	for time.Since(t0) < d && ctx.Err() == nil {
		f.Run(r.Batch, x[(n%sets)*r.Batch*arch.Input:], logits, values, nil)
		n++
	}
	r.PlainEvals = float64(n*r.Batch) / time.Since(t0).Seconds()
	gf, err := learn.NewGraphForward(w, r.Batch)
	if err != nil {
		return r, err
	}
	n, t0 = 0, time.Now()
	for time.Since(t0) < d && ctx.Err() == nil {
		if err := gf.Run(x[(n%sets)*r.Batch*arch.Input:], logits, values, nil); err != nil {
			return r, err
		}
		n++
	}
	r.GorgoniaEvals = float64(n*r.Batch) / time.Since(t0).Seconds()
	sims, t0 := 0, time.Now()
	var evals, batches int64
	for time.Since(t0) < d && ctx.Err() == nil {
		st, err := selfplay.Play(ctx, g, cfg.job(), net, func(int) *rand.Rand { return rng }, selfplay.Indices(cfg.GamesInFlight), func(selfplay.Game) {})
		if err != nil {
			return r, err
		}
		sims += int(st.Sims)
		evals, batches = evals+st.Evals, batches+st.Batches
	}
	r.SelfPlayBatch = float64(evals) / float64(max(batches, 1))
	r.SelfPlaySims = float64(sims) / time.Since(t0).Seconds()
	r.SearchShare = r.SelfPlaySims / r.PlainEvals
	job := cfg.job()
	job.GamesPerRound = 2 * cfg.GamesInFlight
	sims, t0 = 0, time.Now()
	for seq := 1; time.Since(t0) < d && ctx.Err() == nil; seq++ {
		shard, err := selfplay.PlayRound(ctx, g, job, net, 2, func(i int) *rand.Rand {
			return rand.New(rand.NewPCG(uint64(seq), uint64(i)))
		}, seq, nil)
		if err != nil {
			return r, err
		}
		sims += int(shard.Sims)
	}
	r.SelfPlaySims2 = float64(sims) / time.Since(t0).Seconds()
	return r, nil
}

// benchInputs encodes n positions from random play: real positions,
// because gonum skips zero inputs and an empty board would flatter the
// network.
func benchInputs(g env.Game, n int, rng *rand.Rand) []float32 {
	size := g.InputShape().Size()
	x := make([]float32, n*size)
	for k := 0; k < n; k++ {
		s := g.Start(rng)
		for ply := rng.IntN(40); ply > 0 && !s.Outcome().Over; ply-- {
			legal := s.LegalActions(nil)
			s.Apply(legal[rng.IntN(len(legal))])
		}
		s.Encode(x[k*size : (k+1)*size])
	}
	return x
}
