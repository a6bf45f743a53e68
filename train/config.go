// Package train runs AlphaZero-style training: self-play workers play
// games with the network-guided search, their positions go into replay
// shards and a sliding-window buffer, and a Gorgonia optimiser learns from
// batches of them. A run lives in one folder: its configuration,
// checkpoints, replay shards, published weights and metrics log.
package train

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
)

// Config is a training run's configuration. It is read from and written to
// JSON; README.md documents every field, and `sliderzero train
// --print-config` prints the defaults.
type Config struct {
	// Game to learn.
	Game games.Spec `json:"game"`
	// Net is the network: kind "mlp" or "resmlp", Width units per layer,
	// Depth layers (mlp) or residual blocks (resmlp).
	Net NetConfig `json:"net"`
	// Search used in self-play.
	Search SearchConfig `json:"search"`
	// Targets sets what the value head learns from each game.
	Targets TargetConfig `json:"targets"`

	// Workers is the number of self-play goroutines (0: one per core).
	Workers int `json:"workers"`
	// GamesInFlight is how many games each worker plays at once; their
	// leaves are evaluated together in one batch.
	GamesInFlight int `json:"games_in_flight"`
	// GamesPerRound is the number of self-play games between two training
	// phases; shards hold one round each.
	GamesPerRound int `json:"games_per_round"`
	// OverlapTraining runs each round's training while its self-play
	// plays, on the replay as it stood before the round, instead of after
	// it: no core waits for the other phase, and self-play's network is one
	// round older.
	OverlapTraining bool `json:"overlap_training"`
	// ReplayWindow is the number of most recent positions training samples
	// from.
	ReplayWindow int `json:"replay_window"`
	// KeepShards is how many shards older than the window's the run keeps
	// on disk; older ones are deleted, their totals kept in
	// replay/pruned.json (0: keep every shard).
	KeepShards int `json:"keep_shards"`
	// MaxWeightsLag is, with external self-play, how many versions older
	// than the newest published weights a shard's weights may be; older
	// shards are dropped, since they teach what the network has already
	// moved past (0: 4).
	MaxWeightsLag int `json:"max_weights_lag"`
	// MinReplay is the number of positions needed before training starts.
	MinReplay int `json:"min_replay"`

	// BatchSize is the number of positions per optimisation step.
	BatchSize int `json:"batch_size"`
	// SampleRatio is the number of training samples drawn per new
	// self-play position.
	SampleRatio float64 `json:"sample_ratio"`
	// LearningRate is a piecewise-constant schedule: each entry's rate
	// applies from its step on.
	LearningRate []LRStep `json:"learning_rate"`
	// WeightDecay is the L2 coefficient added to the gradients.
	WeightDecay float64 `json:"weight_decay"`
	// ValueWeight weighs the value loss against the policy loss (0: 1).
	ValueWeight float64 `json:"value_weight"`

	// CheckpointMinutes is the time between checkpoints (0: every round);
	// a checkpoint is also written when training stops.
	CheckpointMinutes float64 `json:"checkpoint_minutes"`
	// SnapshotMinutes is the time between weight snapshots kept for later
	// evaluation (0: none).
	SnapshotMinutes float64 `json:"snapshot_minutes"`
	// Minutes, Steps and Games stop training when any is reached (0: no
	// limit). Minutes count training time across resumes.
	Minutes float64 `json:"minutes"`
	Steps   int64   `json:"steps"`
	Games   int64   `json:"games"`

	// Eval measures the network against fixed baselines during training.
	Eval EvalConfig `json:"eval"`

	// Seed makes the run reproducible: with one worker, the same seed and
	// configuration give the same games.
	Seed uint64 `json:"seed"`
}

// EvalConfig sets the evaluation against a ladder of baselines during
// training. Its time is not counted as training time.
type EvalConfig struct {
	// Minutes between evaluations (0: never).
	Minutes float64 `json:"minutes"`
	// Games against each baseline, colours alternating.
	Games int `json:"games"`
	// Sims is the network's simulations per move when evaluated.
	Sims int `json:"sims"`
	// Ladder lists the baselines' player specs.
	Ladder []string `json:"ladder"`
	// GateGames, when positive, turns gating on: at each evaluation the
	// trained network plays the best one so far for this many games, and
	// replaces it (as the network self-play uses) only with a score of at
	// least GateScore.
	GateGames int     `json:"gate_games"`
	GateScore float64 `json:"gate_score"`
	// AccuracyTable names a solver table against which each evaluation
	// also measures accuracy (the share of critical positions on which the
	// network keeps the exact value, at Sims simulations): a file, "auto"
	// for checkpoints/tables/slider-NxN.table on Slider boards small
	// enough to solve (solved on first use), or "" for none. Training
	// itself never reads the table: the command measures through Run's
	// Examiner.
	AccuracyTable string `json:"accuracy_table"`
	// AccuracyPositions limits each position set to its first N positions
	// (0: all).
	AccuracyPositions int `json:"accuracy_positions"`
}

// NetConfig chooses the network.
type NetConfig struct {
	Kind  string `json:"kind"`
	Width int    `json:"width"`
	Depth int    `json:"depth"`
}

// SearchConfig is the self-play search.
type SearchConfig struct {
	// Sims is the number of simulations per move.
	Sims int `json:"sims"`
	// Gumbel selects Gumbel root search with sequential halving over
	// GumbelM actions instead of PUCT.
	Gumbel  bool `json:"gumbel"`
	GumbelM int  `json:"gumbel_m"`
	// CPUCT is PUCT's exploration constant.
	CPUCT float64 `json:"c_puct"`
	// NoiseAlpha and NoiseFrac set PUCT's Dirichlet noise at the root.
	NoiseAlpha float64 `json:"noise_alpha"`
	NoiseFrac  float64 `json:"noise_frac"`
	// TemperaturePlies is the number of opening plies whose move is drawn
	// in proportion to the visits (or by the Gumbel sample); later moves
	// are the search's best.
	TemperaturePlies int `json:"temperature_plies"`
	// FastProb turns on playout cap randomisation (KataGo) when positive:
	// each move is, with this chance, a fast search of FastSims
	// simulations without root noise, which plays the game on but is not
	// trained on; the other moves get the full Sims and become samples.
	// More games per minute, so more outcomes to learn values from.
	FastProb float64 `json:"fast_prob"`
	FastSims int     `json:"fast_sims"`
	// RandomPlies, when positive, starts each game with a number of
	// uniformly random moves drawn from 0 to RandomPlies (not trained on),
	// so that self-play sees positions its own habits would never reach.
	RandomPlies int `json:"random_plies"`
}

// TargetConfig sets the value targets. A finished game gives each of its
// positions the outcome for the side to move, z = +1, 0 or -1, and then:
type TargetConfig struct {
	// Discount, in (0, 1), makes a win d plies away worth Discount^(d-1)
	// and a loss -Discount^(d-1), so that the network prefers faster wins
	// and slower losses and converts won positions instead of shuffling;
	// 0 or 1: no discount.
	Discount float64 `json:"discount"`
	// Capped says what a game ended by the ply cap teaches: "tie" (0, the
	// referee's verdict) or "bootstrap" (the search's value of the last
	// position, discounted back to each earlier one: the cap is not the
	// game's end, so its verdict is not the position's value).
	Capped string `json:"capped"`
	// SearchWeight mixes the search's value of each position into its
	// target: (1-w)*z + w*q.
	SearchWeight float64 `json:"search_weight"`
}

// Capped-game targets.
const (
	CappedTie       = "tie"
	CappedBootstrap = "bootstrap"
)

// discount is the per-ply discount factor, 1 for none.
func (t TargetConfig) discount() float64 {
	if t.Discount <= 0 || t.Discount >= 1 {
		return 1
	}
	return t.Discount
}

// LRStep is one entry of the learning-rate schedule.
type LRStep struct {
	Step int64   `json:"step"`
	Rate float64 `json:"rate"`
}

// DefaultConfig is the built-in configuration for games.DefaultTraining
// (Slider 5x5), sized to show learning in about ten minutes on two cores.
func DefaultConfig() Config {
	return Config{
		Game:   games.DefaultTraining(),
		Net:    NetConfig{Kind: model.KindMLP, Width: 128, Depth: 2},
		Search: SearchConfig{Sims: 64, CPUCT: 1.5, NoiseAlpha: 0.3, NoiseFrac: 0.25, GumbelM: 8, TemperaturePlies: 8},
		// Measured in experiments/ablation5: discounted targets with capped
		// games bootstrapped, and a value loss weighed 4, gave the best
		// accuracy against perfect play after ten minutes.
		Targets:         TargetConfig{Discount: 0.98, Capped: CappedBootstrap},
		ValueWeight:     4,
		OverlapTraining: true,
		GamesInFlight:   8,
		GamesPerRound:   64,
		ReplayWindow:    60000,
		// About 40 MB of shards beyond the window's on 5x5, whatever the
		// run's length: enough to look back at, small on any laptop.
		KeepShards:   200,
		MinReplay:    2000,
		BatchSize:    128,
		SampleRatio:  2,
		LearningRate: []LRStep{{0, 2e-3}, {4000, 1e-3}, {8000, 5e-4}},
		WeightDecay:  1e-4,

		Eval: EvalConfig{Minutes: 2, Games: 20, Sims: 100,
			Ladder: []string{"random", "greedy", "alphabeta:depth=4", "alphabeta:depth=8", "alphabeta"}, GateScore: 0.55,
			AccuracyTable: "auto"},

		CheckpointMinutes: 1,
		SnapshotMinutes:   1,
		Minutes:           10,
		Seed:              1,
	}
}

// Check reports the first invalid setting, naming it.
func (c Config) Check() error {
	if _, err := games.New(c.Game); err != nil {
		return fmt.Errorf("game: %w", err)
	}
	g, _ := games.New(c.Game)
	arch := model.NewArch(c.Net.Kind, c.Net.Width, c.Net.Depth, g)
	if err := arch.Check(); err != nil {
		return fmt.Errorf("net: %w", err)
	}
	checks := []struct {
		ok   bool
		what string
	}{
		{c.Search.Sims >= 1 && c.Search.Sims <= 1_000_000, "search.sims must be from 1 to 1,000,000"},
		{c.Search.GumbelM <= 1024, "search.gumbel_m must be at most 1024"},
		{c.Search.RandomPlies <= 1000, "search.random_plies must be at most 1000"},
		{c.Workers <= 1024, "workers must be at most 1024"},
		{c.GamesInFlight <= 4096, "games_in_flight must be at most 4096"},
		{c.GamesPerRound <= 1_000_000, "games_per_round must be at most 1,000,000"},
		{c.BatchSize <= 65536, "batch_size must be at most 65536"},
		{c.ReplayWindow <= 50_000_000, "replay_window must be at most 50,000,000 positions"},
		{c.SampleRatio <= 1000, "sample_ratio must be at most 1000"},
		{c.Eval.Games <= 100_000 && c.Eval.Sims <= 1_000_000 && c.Eval.GateGames <= 100_000, "eval.games, eval.sims and eval.gate_games are too large"},
		{c.LearningRate == nil || len(c.LearningRate) == 0 || (c.LearningRate[0].Rate > 0 && c.LearningRate[0].Rate < 10), "learning_rate must be positive and below 10"},
		{c.Search.CPUCT > 0, "search.c_puct must be positive"},
		{c.Search.NoiseFrac >= 0 && c.Search.NoiseFrac < 1, "search.noise_frac must be in [0, 1)"},
		{c.Search.NoiseFrac == 0 || c.Search.NoiseAlpha > 0, "search.noise_alpha must be positive"},
		{!c.Search.Gumbel || c.Search.GumbelM >= 2, "search.gumbel_m must be at least 2"},
		{c.Search.TemperaturePlies >= 0, "search.temperature_plies must not be negative"},
		{c.Search.FastProb >= 0 && c.Search.FastProb < 1, "search.fast_prob must be in [0, 1)"},
		{c.Search.RandomPlies >= 0, "search.random_plies must not be negative"},
		{c.Search.FastProb == 0 || (c.Search.FastSims >= 1 && c.Search.FastSims <= c.Search.Sims), "search.fast_sims must be between 1 and search.sims"},
		{c.Targets.Discount >= 0 && c.Targets.Discount <= 1, "targets.discount must be in [0, 1]"},
		{c.Targets.Capped == "" || c.Targets.Capped == CappedTie || c.Targets.Capped == CappedBootstrap, "targets.capped must be tie or bootstrap"},
		{c.Targets.SearchWeight >= 0 && c.Targets.SearchWeight <= 1, "targets.search_weight must be in [0, 1]"},
		{c.Workers >= 0, "workers must not be negative"},
		{c.GamesInFlight >= 1, "games_in_flight must be at least 1"},
		{c.GamesPerRound >= 1, "games_per_round must be at least 1"},
		{c.BatchSize >= 1, "batch_size must be at least 1"},
		{c.ReplayWindow >= c.BatchSize, "replay_window must hold at least one batch"},
		{c.MinReplay >= c.BatchSize && c.MinReplay <= c.ReplayWindow, "min_replay must be between batch_size and replay_window"},
		{c.KeepShards >= 0, "keep_shards must not be negative (0 keeps every shard)"},
		{c.MaxWeightsLag >= 0, "max_weights_lag must not be negative"},
		{c.SampleRatio > 0, "sample_ratio must be positive"},
		{len(c.LearningRate) > 0 && c.LearningRate[0].Step == 0, "learning_rate must start at step 0"},
		{c.WeightDecay >= 0, "weight_decay must not be negative"},
		{c.ValueWeight >= 0, "value_weight must not be negative"},
		{c.CheckpointMinutes >= 0 && c.SnapshotMinutes >= 0, "checkpoint_minutes and snapshot_minutes must not be negative"},
		{c.Minutes >= 0 && c.Steps >= 0 && c.Games >= 0, "minutes, steps and games must not be negative"},
		{c.Eval.Minutes >= 0, "eval.minutes must not be negative"},
		{c.Eval.Minutes == 0 || (c.Eval.Games >= 1 && c.Eval.Sims >= 1 && len(c.Eval.Ladder) > 0), "eval needs games, sims and a ladder"},
		{c.Eval.AccuracyPositions >= 0, "eval.accuracy_positions must not be negative"},
		{c.Eval.GateGames >= 0 && (c.Eval.GateGames == 0 || (c.Eval.Minutes > 0 && c.Eval.GateScore > 0 && c.Eval.GateScore < 1)), "eval.gate_games needs eval.minutes and a gate_score in (0, 1)"},
	}
	for _, ch := range checks {
		if !ch.ok {
			return fmt.Errorf("config: %s", ch.what)
		}
	}
	for i := 1; i < len(c.LearningRate); i++ {
		if c.LearningRate[i].Step <= c.LearningRate[i-1].Step || c.LearningRate[i].Rate <= 0 || c.LearningRate[i].Rate >= 10 {
			return fmt.Errorf("config: learning_rate steps must increase and rates be positive and below 10")
		}
	}
	// Every baseline of the ladder must be a player of the game now, not
	// at the first evaluation minutes in.
	if c.Eval.Minutes > 0 {
		for _, spec := range c.Eval.Ladder {
			if _, err := player.New(spec, g, player.Options{}); err != nil {
				return fmt.Errorf("config: eval.ladder %q: %w", spec, err)
			}
		}
	}
	return nil
}

// rate is the learning rate at a step.
func (c Config) rate(step int64) float64 {
	r := c.LearningRate[0].Rate
	for _, s := range c.LearningRate {
		if step >= s.Step {
			r = s.Rate
		}
	}
	return r
}

// workers is the number of self-play workers.
func (c Config) workers() int {
	if c.Workers > 0 {
		return c.Workers
	}
	return runtime.NumCPU()
}

// LoadConfig reads a JSON configuration. Fields it leaves out keep their
// defaults; unknown fields are refused, as they are usually misspellings.
func LoadConfig(path string) (Config, error) {
	c := DefaultConfig()
	data, err := store.ReadFile(path, 1<<20)
	if err != nil {
		return c, err
	}
	// A game given in the file replaces the default game as a whole: a
	// field it leaves out means that game's default, not Slider's.
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	if _, ok := top["game"]; ok {
		c.Game = games.Spec{}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	if err := c.Check(); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// JSON writes the configuration as indented JSON.
func (c Config) JSON() []byte {
	b, _ := json.MarshalIndent(c, "", "  ")
	return append(b, '\n')
}

// maxLag is the weights lag external shards may have.
func (c Config) maxLag() int {
	if c.MaxWeightsLag > 0 {
		return c.MaxWeightsLag
	}
	return 4
}
