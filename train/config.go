// Package train runs AlphaZero-style training as one pipeline: self-play
// producers (package selfplay: goroutines of this process, or processes
// on other machines) write shards of games to the run's storage; the
// learner takes them into a sliding window (package replay), learns from
// batches of them with a Gorgonia optimiser, publishes numbered weights
// for the producers, and evaluates (package evaluate). A run lives in one
// folder: its configuration, checkpoints, shards, published weights and
// metrics log.
//
// The files, by job: config.go (the configuration), run.go (the loop),
// folder.go (lock, checkpoint, snapshots, metrics), ingest.go (taking
// shards, the window, pruning), learner.go (optimisation steps and
// publishing), producers.go (self-play in this process, and the
// configuration for producers elsewhere).
package train

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train/auto"
	"github.com/sliderzero/sliderzero/train/evaluate"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// Config is a training run's configuration. It is read from and written to
// JSON; docs/training.md documents every field, and `sliderzero train
// --print-config` prints the defaults.
type Config struct {
	// Game to learn.
	Game registry.Spec `json:"game" msgpack:"Game"`
	// Net is the network: kind "mlp", "resmlp" or "conv", Width units per
	// layer (channels for conv), Depth layers (mlp) or residual blocks
	// (resmlp, conv).
	Net NetConfig `json:"net" msgpack:"Net"`
	// StartFrom, when set, is a player, weights or checkpoint file whose
	// network a new run starts from instead of random weights: a run can
	// go on from a shipped player, or from a narrower network of the same
	// kind and depth, widened keeping its function (model.Weights.Widen).
	// Only the network is taken: counters, optimiser state and replay
	// start afresh. Read once, when the run is created.
	StartFrom string `json:"start_from,omitempty" msgpack:"StartFrom,omitempty"`
	// Teacher, when set, is a player, weights or checkpoint file whose
	// network plays the self-play games instead of the run's own: the
	// run's network learns from the games and searches of a fixed one,
	// perhaps larger (distillation). Evaluation, checkpoints and exported
	// players are the run's own network. Read once, when the run is
	// created, into the run's folder (TeacherFile), which it plays since.
	Teacher string `json:"teacher,omitempty" msgpack:"Teacher,omitempty"`
	// Search is self-play's search; evaluation plays with the same
	// settings at eval.sims.
	Search selfplay.Settings `json:"search" msgpack:"Search"`
	// Targets sets what the value head learns from each game.
	Targets selfplay.Targets `json:"targets" msgpack:"Targets"`

	// Workers is the number of self-play goroutines (0: one per core).
	Workers int `json:"workers" msgpack:"Workers"`
	// GamesInFlight is how many games each worker plays at once; their
	// leaves are evaluated together in one batch.
	GamesInFlight int `json:"games_in_flight" msgpack:"GamesInFlight"`
	// GamesPerRound is the number of self-play games between two training
	// phases; shards hold one round each.
	GamesPerRound int `json:"games_per_round" msgpack:"GamesPerRound"`
	// OverlapTraining runs each round's training while this process's
	// producers play the round, on the window as it stood before the round,
	// instead of after it: no core waits for the other, and self-play's
	// network is one round older. (Producers in other processes always
	// play beside the learner.)
	OverlapTraining bool `json:"overlap_training" msgpack:"OverlapTraining"`
	// ReplayWindow is the number of most recent positions training samples
	// from.
	ReplayWindow int `json:"replay_window" msgpack:"ReplayWindow"`
	// KeepShards is how many shards older than the window's the run keeps
	// in its storage; older ones are deleted, their totals kept in
	// pruned.json (0: keep every shard).
	KeepShards int `json:"keep_shards" msgpack:"KeepShards"`
	// MaxWeightsLag is how many versions older than the newest published
	// weights a shard's weights may be; older shards are dropped, since
	// they teach what the network has already moved past (0: 4). The
	// producers of this process are never more than one version behind.
	MaxWeightsLag int `json:"max_weights_lag" msgpack:"MaxWeightsLag"`
	// MinReplay is the number of positions needed before training starts.
	MinReplay int `json:"min_replay" msgpack:"MinReplay"`

	// BatchSize is the number of positions per optimisation step.
	BatchSize int `json:"batch_size" msgpack:"BatchSize"`
	// SampleRatio is the number of training samples drawn per new
	// self-play position.
	SampleRatio float64 `json:"sample_ratio" msgpack:"SampleRatio"`
	// Surprise, when positive, draws each position with a chance in
	// proportion to 1 + Surprise * |q - z|, its search value's distance
	// from its target (0: uniform draws).
	Surprise float64 `json:"surprise" msgpack:"Surprise"`
	// LearningRate is a piecewise-constant schedule: each entry's rate
	// applies from its step on.
	LearningRate []LRStep `json:"learning_rate" msgpack:"LearningRate"`
	// Anneal lowers the schedule's rate over the end of the run.
	Anneal AnnealConfig `json:"lr_anneal" msgpack:"Anneal"`
	// WeightDecay is the L2 coefficient added to the gradients.
	WeightDecay float64 `json:"weight_decay" msgpack:"WeightDecay"`
	// ValueWeight weighs the value loss against the policy loss (0: 1).
	ValueWeight float64 `json:"value_weight" msgpack:"ValueWeight"`
	// PliesWeight weighs the plies head's loss (0: learn.DefaultPliesWeight),
	// for networks with net.moves_left.
	PliesWeight float64 `json:"plies_weight,omitempty" msgpack:"PliesWeight"`
	// Averaging keeps a moving average of the trained weights for
	// evaluation and players.
	Averaging AveragingConfig `json:"averaging" msgpack:"Averaging"`

	// CheckpointMinutes is the time between checkpoints (0: every round);
	// a checkpoint is also written when training stops.
	CheckpointMinutes float64 `json:"checkpoint_minutes" msgpack:"CheckpointMinutes"`
	// SnapshotMinutes is the time between weight snapshots kept for later
	// evaluation (0: none).
	SnapshotMinutes float64 `json:"snapshot_minutes" msgpack:"SnapshotMinutes"`
	// Minutes, Steps and Games stop training when any is reached (0: no
	// limit). Minutes count training time across resumes.
	Minutes float64 `json:"minutes" msgpack:"Minutes"`
	Steps   int64   `json:"steps" msgpack:"Steps"`
	Games   int64   `json:"games" msgpack:"Games"`

	// Eval measures the network against fixed baselines during training.
	Eval evaluate.Config `json:"eval" msgpack:"Eval"`

	// Seed makes the run reproducible: with one worker, the same seed and
	// configuration give the same games.
	Seed uint64 `json:"seed" msgpack:"Seed"`

	// Auto is what the run measured of its game when it was created and
	// the settings it chose from that (package auto): those left to it
	// (-1, or an empty ladder) in the configuration given.
	Auto *auto.Report `json:"auto,omitempty" msgpack:"Auto,omitempty"`
}

// AveragingConfig sets the moving average of the weights: after each
// round of n steps, average = decay^n * average + (1 - decay^n) * weights,
// as if averaged after every step. The average smooths the last few
// thousand steps' noise out of the network that is measured and exported.
type AveragingConfig struct {
	// Decay per step, in (0, 1); 0 turns averaging off.
	Decay float64 `json:"decay" msgpack:"Decay"`
	// SelfPlay publishes the average to the producers instead of the
	// latest weights.
	SelfPlay bool `json:"selfplay" msgpack:"SelfPlay"`
}

// AnnealConfig lowers the learning rate over the last part of a run, by a
// factor that falls from 1 to Final along half a cosine between the share
// Start of the run and its end. The run's progress is its furthest limit:
// minutes, steps or games reached over the limit set. A run limited by
// minutes therefore anneals by its clock (the same seed then gives the
// same games but not the same rates); one limited by steps or games
// stays reproducible. A resumed run given a longer limit raises its rate
// again, as a warm restart. (A refit of self-play's own data with a cosine
// to a tenth of the rate kept a point more than the online run:
// experiments/ceiling; the effect on training is in experiments/strength2.)
type AnnealConfig struct {
	// Start is the share of the run, in [0, 1), from which the rate falls;
	// Final, in (0, 1], the factor it reaches at the end (0 or 1: off).
	Start float64 `json:"start" msgpack:"Start"`
	Final float64 `json:"final" msgpack:"Final"`
}

// factor is the anneal's multiplier of the rate at progress p in [0, 1].
func (a AnnealConfig) factor(p float64) float64 {
	if a.Final <= 0 || a.Final >= 1 || p <= a.Start {
		return 1
	}
	x := min(1, (p-a.Start)/(1-a.Start))
	return a.Final + (1-a.Final)*0.5*(1+math.Cos(math.Pi*x))
}

// NetConfig chooses the network.
type NetConfig struct {
	Kind  string `json:"kind" msgpack:"Kind"`
	Width int    `json:"width" msgpack:"Width"`
	Depth int    `json:"depth" msgpack:"Depth"`
	// MovesLeft adds the plies-to-end head (model.Arch.MovesLeft), trained
	// on each self-play position's real plies to the end of its game.
	MovesLeft bool `json:"moves_left,omitempty" msgpack:"MovesLeft"`
	// WDL makes the value head a win/draw/loss softmax (model.Arch.WDL),
	// taught the value targets as class probabilities.
	WDL bool `json:"wdl,omitempty" msgpack:"WDL,omitempty"`
}

// Arch is the network's architecture for game g.
func (n NetConfig) Arch(g env.Game) model.Arch {
	a := model.NewArch(n.Kind, n.Width, n.Depth, g)
	a.MovesLeft = n.MovesLeft
	a.WDL = n.WDL
	return a
}

// LRStep is one entry of the learning-rate schedule.
type LRStep struct {
	Step int64   `json:"step" msgpack:"Step"`
	Rate float64 `json:"rate" msgpack:"Rate"`
}

// DefaultConfig is the built-in configuration for games.DefaultTraining
// (Slider 5x5), sized to show learning in about ten minutes on two cores.
func DefaultConfig() Config {
	return Config{
		Game: games.DefaultTraining(),
		Net:  NetConfig{Kind: model.KindMLP, Width: 128, Depth: 3},
		Search: selfplay.Settings{Params: mcts.Params{Sims: selfplay.AutoSims, CPUCT: 1.5, FPUReduction: 0.2, NoiseAlpha: 0.3, NoiseFrac: 0.25,
			GumbelM: 8, GumbelVisitInit: 50, GumbelValueScale: 0.1}, TemperaturePlies: 8, RandomPlies: selfplay.AutoRandomPlies,
			RandomStarts: selfplay.AutoRandomStarts},
		// Measured in experiments/ablation5: discounted targets with capped
		// games bootstrapped, and a value loss weighed 4, gave the best
		// accuracy against perfect play after ten minutes.
		Targets:         selfplay.Targets{Discount: 0.98, Capped: selfplay.CappedBootstrap},
		ValueWeight:     4,
		OverlapTraining: true,
		GamesInFlight:   8,
		GamesPerRound:   64,
		ReplayWindow:    60000,
		// About 40 MB of shards beyond the window's on 5x5, whatever the
		// run's length: enough to look back at, small on any laptop.
		KeepShards: 200,
		MinReplay:  2000,
		BatchSize:  128,
		// Four samples a position since the fused training step (issue
		// 66): a default ten-minute run trains 2.7 times the samples it
		// did at 2, its self-play a third faster beside the cheaper
		// learner, at the same accuracy (experiments/learner).
		SampleRatio:  4,
		LearningRate: []LRStep{{0, 2e-3}, {4000, 1e-3}, {8000, 5e-4}},
		WeightDecay:  1e-4,

		// The ladder (empty) is chosen from the game, as the search's
		// settings at -1 are (Resolved).
		Eval: evaluate.Config{Minutes: 2, Games: 20, Sims: 100, GateScore: 0.55, AccuracyTable: "auto"},

		CheckpointMinutes: 1,
		SnapshotMinutes:   1,
		Minutes:           10,
		Seed:              1,
	}
}

// Resolved is c with the settings left to the game (search.sims,
// search.random_plies and search.random_starts at -1, an empty
// eval.ladder) chosen from what auto.Measure measures of it, and the
// measurements and reasons kept in Auto, as a run stores its
// configuration. A configuration that leaves nothing to the game, or
// whose game cannot be built (Check says why), is returned as it is.
func (c Config) Resolved() Config {
	g, err := games.New(c.Game)
	if err != nil || c.Auto != nil {
		return c
	}
	st, err := auto.Measure(context.Background(), g, c.Seed)
	if err != nil {
		return c
	}
	ch := auto.Choose(st)
	rep := &auto.Report{Stats: st}
	choose := func(left bool, setting string, set func()) {
		reason := ""
		for _, r := range ch.Reasons {
			if strings.HasPrefix(r, setting+" ") {
				reason = r
			}
		}
		if left {
			set()
			rep.Chosen = append(rep.Chosen, reason)
		} else {
			rep.Kept = append(rep.Kept, setting+": as configured")
		}
	}
	choose(c.Search.RandomPlies == selfplay.AutoRandomPlies, "search.random_plies", func() { c.Search.RandomPlies = ch.RandomPlies })
	choose(c.Search.RandomStarts == selfplay.AutoRandomStarts, "search.random_starts", func() { c.Search.RandomStarts = ch.RandomStarts })
	choose(c.Search.Sims == selfplay.AutoSims, "search.sims", func() { c.Search.Sims = ch.Sims })
	choose(len(c.Eval.Ladder) == 0, "eval.ladder", func() { c.Eval.Ladder = slices.Clone(ch.Ladder) })
	c.Auto = rep
	return c
}

// WithGame is c for the game of spec: the settings left to the game are
// chosen for it when a run is created, and those c gives are kept.
func (c Config) WithGame(spec registry.Spec) Config {
	c.Game = spec
	return c
}

// Presets are named variants of the built-in configuration, in the order
// train --help lists them.
var Presets = []struct{ Name, About string }{
	{"smoke", "one training minute, a small evaluation at its end: checks that everything runs"},
	{"default", "the built-in configuration: ten training minutes, an evaluation every two"},
	{"hour", "sixty training minutes, an evaluation every ten, a larger replay window and a learning rate that decays over the hour"},
}

// Preset is the built-in configuration under a preset's name.
func Preset(name string) (Config, error) {
	c := DefaultConfig()
	switch name {
	case "smoke":
		c.Minutes = 1
		c.Eval.Minutes, c.Eval.Games, c.Eval.AccuracyPositions = 1, 10, 200
		c.CheckpointMinutes, c.SnapshotMinutes = 0.5, 0.5
	case "default", "":
	case "hour":
		c.Minutes = 60
		c.Eval.Minutes = 10
		c.SnapshotMinutes = 10
		c.ReplayWindow = 300_000
		// The default schedule, then halved twice more: the default run
		// takes about 230,000 steps in its ten minutes on two cores
		// (experiments/learner).
		c.LearningRate = append(c.LearningRate, LRStep{400_000, 2.5e-4}, LRStep{800_000, 1.25e-4})
	default:
		var names []string
		for _, p := range Presets {
			names = append(names, p.Name)
		}
		return Config{}, fmt.Errorf("unknown preset %q: want one of %s", name, strings.Join(names, ", "))
	}
	return c, nil
}

// Check reports the first invalid setting, naming it.
func (c Config) Check() error {
	// Each setting in its range, as the engine's game command and the
	// other commands' flags check it (a ply cap past the largest is not a
	// game any command plays).
	if err := games.CheckSettings(c.Game); err != nil {
		return fmt.Errorf("game: %w", err)
	}
	g, _ := games.New(c.Game)
	arch := c.Net.Arch(g)
	if err := arch.Check(); err != nil {
		return fmt.Errorf("net: %w", err)
	}
	if err := c.Search.Check(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if _, ok := g.(env.RandomStarter); c.Search.RandomStarts > 0 && !ok {
		return fmt.Errorf("config: search.random_starts: %s draws no random positions (env.RandomStarter)", c.Game.Name)
	}
	if err := c.Targets.Check(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	checks := []struct {
		ok   bool
		what string
	}{
		{c.Workers <= 1024, "workers must be at most 1024"},
		{c.GamesInFlight <= 4096, "games_in_flight must be at most 4096"},
		{c.GamesPerRound <= 1_000_000, "games_per_round must be at most 1,000,000"},
		{c.BatchSize <= 65536, "batch_size must be at most 65536"},
		{c.ReplayWindow <= 50_000_000, "replay_window must be at most 50,000,000 positions"},
		{c.SampleRatio <= 1000, "sample_ratio must be at most 1000"},
		{len(c.LearningRate) == 0 || (c.LearningRate[0].Rate > 0 && c.LearningRate[0].Rate < 10), "learning_rate must be positive and below 10"},
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
		{c.PliesWeight >= 0, "plies_weight must not be negative"},
		{c.Averaging.Decay >= 0 && c.Averaging.Decay < 1, "averaging.decay must be in [0, 1)"},
		{c.Anneal.Start >= 0 && c.Anneal.Start < 1, "lr_anneal.start must be in [0, 1)"},
		{c.Anneal.Final >= 0 && c.Anneal.Final <= 1, "lr_anneal.final must be in [0, 1]"},
		{c.Surprise >= 0 && c.Surprise <= 100, "surprise must be from 0 to 100"},
		{c.CheckpointMinutes >= 0 && c.SnapshotMinutes >= 0, "checkpoint_minutes and snapshot_minutes must not be negative"},
		{c.Minutes >= 0 && c.Steps >= 0 && c.Games >= 0, "minutes, steps and games must not be negative"},
		{c.Teacher == "" || c.Eval.GateGames == 0, "teacher and eval.gate_games exclude each other: gating chooses which of the run's own networks plays self-play, a teacher plays it instead"},
		{c.Teacher == "" || !c.Averaging.SelfPlay, "teacher and averaging.selfplay exclude each other: a teacher plays self-play instead of the run's average"},
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
	return c.Eval.Check(g)
}

// rate is the learning rate at a checkpoint's step and progress.
func (c Config) rate(ck *Checkpoint) float64 {
	r := c.LearningRate[0].Rate
	for _, s := range c.LearningRate {
		if ck.Steps >= s.Step {
			r = s.Rate
		}
	}
	return r * c.Anneal.factor(c.shareDone(ck))
}

// shareDone is the share of the run done, by whichever limit is nearest
// to being reached (0 with no limit).
func (c Config) shareDone(ck *Checkpoint) float64 {
	p := 0.0
	if c.Minutes > 0 {
		p = max(p, ck.Elapsed/(c.Minutes*60))
	}
	if c.Steps > 0 {
		p = max(p, float64(ck.Steps)/float64(c.Steps))
	}
	if c.Games > 0 {
		p = max(p, float64(ck.Games)/float64(c.Games))
	}
	return min(p, 1)
}

// workers is the number of self-play workers.
func (c Config) workers() int {
	if c.Workers > 0 {
		return c.Workers
	}
	return runtime.NumCPU()
}

// job is what the run's producers play.
func (c Config) job() selfplay.Job {
	return selfplay.Job{Game: c.Game, Search: c.Search, Targets: c.Targets, GamesInFlight: c.GamesInFlight, GamesPerRound: c.GamesPerRound}
}

// LoadConfig reads a JSON configuration file (see ParseConfig).
func LoadConfig(path string) (Config, error) {
	data, err := store.ReadFile(path, 1<<20)
	if err != nil {
		return DefaultConfig(), err
	}
	return ParseConfig(data, path)
}

// ParseConfig reads a configuration's JSON; name says where it came from.
// Fields it leaves out keep their defaults; unknown fields are refused, as
// they are usually misspellings.
func ParseConfig(data []byte, name string) (Config, error) {
	c := DefaultConfig()
	// A game given in the file replaces the default game as a whole: a
	// field it leaves out means that game's default, not Slider's.
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return c, fmt.Errorf("%s: %w", name, err)
	}
	if _, ok := top["game"]; ok {
		c.Game = registry.Spec{}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("%s: %w", name, err)
	}
	if err := c.Check(); err != nil {
		return c, fmt.Errorf("%s: %w", name, err)
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
