package train

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// BenchmarkSelfPlay measures one worker's simulations per second with the
// default network and search, next to the forward pass alone at the same
// batch size: their ratio is the share of time spent in the network.
func BenchmarkSelfPlay(b *testing.B) {
	cfg := DefaultConfig()
	g, _ := games.New(cfg.Game)
	arch := model.Arch{Kind: cfg.Net.Kind, Width: cfg.Net.Width, Depth: cfg.Net.Depth, Input: g.InputShape().Size(), Actions: g.ActionSize()}
	w, _ := model.NewWeights(arch, rand.New(rand.NewPCG(1, 1)))
	net, _ := model.NewNet(w)
	// With the plies head: its column in the heads' layer, the plies'
	// backup and (once values are decided) the moves-left utility.
	mlArch := arch
	mlArch.MovesLeft = true
	mlw, _ := model.NewWeights(mlArch, rand.New(rand.NewPCG(1, 1)))
	mlNet, _ := model.NewNet(mlw)
	// Without the look one ply ahead at new leaves, for its cost.
	noCheck := cfg.job()
	noCheck.Search.NoWinCheck = true
	for _, r := range []struct {
		name string
		net  *model.Net
		job  selfplay.Job
	}{{"search", net, cfg.job()}, {"search-moves-left", mlNet, cfg.job()}, {"search-no-win-check", net, noCheck}} {
		n := r.net
		b.Run(r.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			sims := 0
			for i := 0; i < b.N; i++ {
				st, err := selfplay.Play(context.Background(), g, r.job, n, func(int) *rand.Rand { return rng }, selfplay.Indices(cfg.GamesInFlight), func(selfplay.Game) {})
				if err != nil {
					b.Fatal(err)
				}
				sims += int(st.Sims)
			}
			b.ReportMetric(float64(sims)/b.Elapsed().Seconds(), "sims/s")
		})
	}
	b.Run("forward", func(b *testing.B) {
		batch := cfg.GamesInFlight
		const sets = 64
		x := benchInputs(g, sets*batch, rand.New(rand.NewPCG(3, 4)))
		f := net.NewForward()
		l, v := make([]float32, batch*arch.Actions), make([]float32, batch)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			k := i % sets
			f.Run(batch, x[k*batch*arch.Input:], l, v, nil)
		}
		b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "evals/s")
	})
}

// BenchmarkSelfPlayConnect4 is BenchmarkSelfPlay's search on Connect Four,
// where a move that wins at once is common, with and without the look one
// ply ahead at new leaves.
func BenchmarkSelfPlayConnect4(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Game = registry.Spec{Name: "connect4"}
	g, err := games.New(cfg.Game)
	if err != nil {
		b.Fatal(err)
	}
	w, _ := model.NewWeights(model.NewArch(cfg.Net.Kind, cfg.Net.Width, cfg.Net.Depth, g), rand.New(rand.NewPCG(1, 1)))
	net, _ := model.NewNet(w)
	for _, check := range []bool{true, false} {
		job := cfg.job()
		job.Search.NoWinCheck = !check
		name := "win-check"
		if !check {
			name = "no-win-check"
		}
		b.Run(name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			sims := 0
			for i := 0; i < b.N; i++ {
				st, err := selfplay.Play(context.Background(), g, job, net, func(int) *rand.Rand { return rng }, selfplay.Indices(cfg.GamesInFlight), func(selfplay.Game) {})
				if err != nil {
					b.Fatal(err)
				}
				sims += int(st.Sims)
			}
			b.ReportMetric(float64(sims)/b.Elapsed().Seconds(), "sims/s")
		})
	}
}
