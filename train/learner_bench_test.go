package train

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sliderzero/sliderzero/train/replay"
)

// BenchmarkLearnerStep measures the learner's steps (batches drawn from a
// full window, then a Gorgonia step) for the default network and the
// 60-minute runs' 128x3 with its 250,000-position window.
func BenchmarkLearnerStep(b *testing.B) {
	for _, c := range []struct {
		depth, window int
	}{{2, 60000}, {3, 250000}} {
		b.Run(fmt.Sprintf("128x%d/window%d", c.depth, c.window), func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Net.Depth, cfg.ReplayWindow, cfg.Eval.Minutes = c.depth, c.window, 0
			r, err := Create(filepath.Join(b.TempDir(), "run"), cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			ctx := context.Background()
			v, net, err := r.local.Weights(ctx, 0)
			if err != nil {
				b.Fatal(err)
			}
			shard, err := r.local.Round(ctx, 1, v, net)
			if err != nil {
				b.Fatal(err)
			}
			for r.window.Len() < c.window {
				// Copies, so that the window's samples lie apart in memory
				// as a long run's do.
				for _, s := range shard.Samples {
					s.Input = append([]float32(nil), s.Input...)
					r.window.Add([]replay.Sample{s})
				}
			}
			b.ResetTimer()
			st, err := r.learner.learn(ctx, &r.state, r.window, 1, b.N)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(st.Steps*cfg.BatchSize)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}

// BenchmarkRounds runs the default configuration's rounds, self-play and
// learning beside each other as in a real run (without evaluations), for
// a profile of the whole: go test ./train -bench Rounds -cpuprofile F.
func BenchmarkRounds(b *testing.B) {
	cfg := DefaultConfig()
	if os.Getenv("ROUNDS_DEPTH3") != "" {
		cfg.Net.Depth, cfg.ReplayWindow = 3, 250000
	}
	cfg.Eval.Minutes, cfg.CheckpointMinutes, cfg.SnapshotMinutes, cfg.Minutes = 0, 1000, 0, 0
	cfg.Games = int64(b.N+20) * int64(cfg.GamesPerRound)
	r, err := Create(filepath.Join(b.TempDir(), "run"), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	for i := 0; i < 20; i++ { // past min_replay
		if _, err := r.round(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	var games int64
	var evals float64
	defer func() { b.ReportMetric(evals/float64(games), "evals/game") }()
	for i := 0; i < b.N; i++ {
		m, err := r.round(ctx)
		if err != nil {
			b.Fatal(err)
		}
		games += int64(m.Shards * cfg.GamesPerRound)
		evals += m.EvalsPerSec * m.SelfPlaySecs
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(r.state.Positions)/float64(r.state.Games), "positions/game")
}
