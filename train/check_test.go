// The configuration's ranges: each setting at the end of its range is
// accepted, one past it refused with the setting named, and a missing
// learning-rate schedule refused rather than read.

package train

import (
	"runtime"
	"strings"
	"testing"
)

func TestConfigRanges(t *testing.T) {
	for _, c := range []struct {
		what    string
		in, out func(*Config)
	}{
		{"workers", func(c *Config) { c.Workers = 1024 }, func(c *Config) { c.Workers = 1025 }},
		{"workers", func(c *Config) { c.Workers = 0 }, func(c *Config) { c.Workers = -1 }},
		{"games_in_flight", func(c *Config) { c.GamesInFlight = 4096 }, func(c *Config) { c.GamesInFlight = 4097 }},
		{"games_in_flight", func(c *Config) { c.GamesInFlight = 1 }, func(c *Config) { c.GamesInFlight = 0 }},
		{"games_per_round", func(c *Config) { c.GamesPerRound = 1_000_000 }, func(c *Config) { c.GamesPerRound = 1_000_001 }},
		{"games_per_round", func(c *Config) { c.GamesPerRound = 1 }, func(c *Config) { c.GamesPerRound = 0 }},
		{"batch_size", func(c *Config) { c.BatchSize, c.MinReplay, c.ReplayWindow = 65536, 65536, 65536 }, func(c *Config) { c.BatchSize, c.MinReplay, c.ReplayWindow = 65537, 65537, 65537 }},
		{"replay_window", func(c *Config) { c.ReplayWindow = 50_000_000 }, func(c *Config) { c.ReplayWindow = 50_000_001 }},
		{"replay_window", func(c *Config) { c.ReplayWindow, c.MinReplay = c.BatchSize, c.BatchSize }, func(c *Config) { c.ReplayWindow, c.MinReplay = c.BatchSize-1, c.BatchSize-1 }},
		{"min_replay", func(c *Config) { c.MinReplay = c.ReplayWindow }, func(c *Config) { c.MinReplay = c.ReplayWindow + 1 }},
		{"min_replay", func(c *Config) { c.MinReplay = c.BatchSize }, func(c *Config) { c.MinReplay = c.BatchSize - 1 }},
		{"sample_ratio", func(c *Config) { c.SampleRatio = 1000 }, func(c *Config) { c.SampleRatio = 1001 }},
		{"sample_ratio", func(c *Config) { c.SampleRatio = 0.01 }, func(c *Config) { c.SampleRatio = 0 }},
		{"learning_rate", func(c *Config) { c.LearningRate[0].Rate = 9.99 }, func(c *Config) { c.LearningRate[0].Rate = 10 }},
		{"learning_rate must start at step 0", func(c *Config) { c.LearningRate = c.LearningRate[:1] }, func(c *Config) { c.LearningRate = nil }},
		{"learning_rate steps must increase", func(c *Config) {
			c.LearningRate = []LRStep{{Step: 0, Rate: 0.1}, {Step: 1, Rate: 0.1}}
		}, func(c *Config) { c.LearningRate = []LRStep{{Step: 0, Rate: 0.1}, {Step: 0, Rate: 0.1}} }},
		{"keep_shards", func(c *Config) { c.KeepShards = 0 }, func(c *Config) { c.KeepShards = -1 }},
		{"averaging.decay", func(c *Config) { c.Averaging.Decay = 0.999 }, func(c *Config) { c.Averaging.Decay = 1 }},
		{"lr_anneal.start", func(c *Config) { c.Anneal.Start = 0.99 }, func(c *Config) { c.Anneal.Start = 1 }},
		{"lr_anneal.final", func(c *Config) { c.Anneal.Final = 1 }, func(c *Config) { c.Anneal.Final = 1.01 }},
		{"surprise", func(c *Config) { c.Surprise = 100 }, func(c *Config) { c.Surprise = 100.5 }},
		{"must not be negative", func(c *Config) { c.Minutes, c.Steps, c.Games = 0, 0, 0 }, func(c *Config) { c.Steps = -1 }},
	} {
		in, out := tinyConfig(), tinyConfig()
		c.in(&in)
		c.out(&out)
		if err := in.Check(); err != nil {
			t.Errorf("%s: the range's end refused: %v", c.what, err)
		}
		if err := out.Check(); err == nil || !strings.Contains(err.Error(), c.what) {
			t.Errorf("%s: one past the range's end: got %v", c.what, err)
		}
	}
}

// An anneal whose final factor is 1 leaves the rate alone at every point
// of the run, and one of 0 is read as no anneal.
func TestAnnealFactorEnds(t *testing.T) {
	for _, p := range []float64{0, 0.3, 0.6, 1} {
		if f := (AnnealConfig{Start: 0.2, Final: 1}).factor(p); f != 1 {
			t.Errorf("final 1 at %.1f: factor %v", p, f)
		}
		if f := (AnnealConfig{Start: 0.2, Final: 0}).factor(p); f != 1 {
			t.Errorf("final 0 (off) at %.1f: factor %v", p, f)
		}
	}
	if f := (AnnealConfig{Start: 0.2, Final: 0.1}).factor(1); f < 0.0999 || f > 0.1001 {
		t.Errorf("final 0.1 at the end: factor %v", f)
	}
}

// No workers given is one per core.
func TestWorkersDefaultToTheCores(t *testing.T) {
	if got := (Config{}).workers(); got != runtime.NumCPU() {
		t.Errorf("workers 0 gives %d workers, want one per core (%d)", got, runtime.NumCPU())
	}
	if got := (Config{Workers: 3}).workers(); got != 3 {
		t.Errorf("workers 3 gives %d", got)
	}
}
