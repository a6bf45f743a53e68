package train

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/rating"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/store"
)

// Files of a run folder.
const (
	ConfigFile     = "config.json"
	CheckpointFile = "checkpoint.msgpack"
	WeightsFile    = "weights.msgpack" // the latest published network
	MetricsFile    = "metrics.jsonl"
	SnapshotDir    = "snapshots"
)

// Checkpoint is everything a run needs to continue: the network and the
// optimiser's state, the counters, and the run's configuration. The
// workers' random streams are derived from the seed and the round number,
// so the round number is their saved state.
type Checkpoint struct {
	Game           games.Spec     `msgpack:"game"`
	Weights        *model.Weights `msgpack:"weights"`
	Steps          int64          `msgpack:"steps"`
	Games          int64          `msgpack:"games"`
	Positions      int64          `msgpack:"positions"`
	Config         Config         `msgpack:"config"`
	Adam           *model.Adam    `msgpack:"adam"`
	SamplesTrained int64          `msgpack:"samples_trained"`
	Round          int            `msgpack:"round"` // the last round whose shard is counted
	Elapsed        float64        `msgpack:"elapsed_seconds"`
	// Ladder holds the results of the ladder's baselines against each other,
	// played once, so that every evaluation places the network on the same
	// scale.
	Ladder []LadderResult `msgpack:"ladder"`
	// Best is the network self-play uses when gating is on.
	Best      *model.Weights `msgpack:"best"`
	BestSteps int64          `msgpack:"best_steps"`
	Saved     time.Time      `msgpack:"saved"`
	// With external self-play: the shards taken, in order; the number of
	// weights versions published; the games dropped for being played
	// with weights too old.
	Ingested     []string `msgpack:"ingested,omitempty"`
	IngestedSize []int32  `msgpack:"ingested_size,omitempty"` // positions of each, 0 when left out
	PrunedShared int      `msgpack:"pruned_shared,omitempty"` // how many of them are deleted
	Published    int      `msgpack:"published,omitempty"`
	DroppedGames int64    `msgpack:"dropped_games,omitempty"`
}

// LadderResult is A's result against B, two baselines of the ladder.
type LadderResult struct {
	A, B   string
	Result rating.Result
}

// Metrics is one line of the metrics log, written after every round.
type Metrics struct {
	Time          time.Time `json:"time"`
	Elapsed       float64   `json:"elapsed_seconds"`
	Round         int       `json:"round"`
	Steps         int64     `json:"steps"`
	Games         int64     `json:"games"`
	Positions     int64     `json:"positions"`
	Replay        int       `json:"replay"`
	PolicyLoss    float64   `json:"policy_loss,omitempty"`
	ValueLoss     float64   `json:"value_loss,omitempty"`
	Entropy       float64   `json:"policy_entropy,omitempty"`
	LearningRate  float64   `json:"learning_rate"`
	GamesPerSec   float64   `json:"games_per_second"`
	SimsPerSec    float64   `json:"sims_per_second"`
	EvalsPerSec   float64   `json:"evals_per_second"`
	SamplesPerSec float64   `json:"samples_per_second,omitempty"`
	PliesPerGame  float64   `json:"plies_per_game"`
	// Wins counts the round's self-play results by the winner's side name
	// ("tie" for ties): which side the game favours under self-play.
	Wins         map[string]int `json:"wins"`
	SelfPlaySecs float64        `json:"selfplay_seconds"`
	TrainSecs    float64        `json:"train_seconds"`
	// Set on rounds after which the network was evaluated: its score
	// against each baseline, and its Elo fitted over those games (anchored
	// at random = 0 when random is on the ladder).
	EvalScores map[string]float64 `json:"eval_scores,omitempty"`
	Elo        *float64           `json:"elo,omitempty"`
	EloLo      *float64           `json:"elo_lo,omitempty"`
	EloHi      *float64           `json:"elo_hi,omitempty"`
	EvalSecs   float64            `json:"eval_seconds,omitempty"`
	// Accuracy against perfect play, per position set, when the run has an
	// Examiner.
	Accuracy []Accuracy `json:"accuracy,omitempty"`
	// With gating: the trained network's score against the best, and
	// whether it became the best.
	GateScore  *float64 `json:"gate_score,omitempty"`
	GatePassed bool     `json:"gate_passed,omitempty"`
	BestSteps  int64    `json:"best_steps,omitempty"`
	// With external self-play: the shards taken this round, and the games
	// dropped for being played with weights too old.
	Shards  int `json:"shards,omitempty"`
	Dropped int `json:"dropped_games,omitempty"`
}

// Run is a training run in its folder.
type Run struct {
	dir     string
	cfg     Config
	game    env.Game
	ck      Checkpoint
	replay  *Replay
	trainer *model.Trainer
	net     *model.Net // the latest trained network
	best    *model.Net // with gating, the network self-play uses
	// Progress receives progress reports; nil for none.
	Progress Progress
	// Log receives one line per round and notes; nil for none.
	Log io.Writer
	// Examiner, when set, measures the network at every evaluation against
	// a yardstick outside training (perfect play).
	Examiner Examiner
	lock     *os.File // the run folder's lock, held until Close
	// held lists the shards on disk, oldest first, for keep_shards.
	held []shardInfo
	// shared, when set, is where external self-play meets this trainer.
	shared *runstore.Store
}

// Close releases the run folder's lock (the OS releases it too when the
// process ends, however it ends).
func (r *Run) Close() error {
	err := unlockDir(r.lock)
	r.lock = nil
	return err
}

// Examiner measures a player against a yardstick from outside training,
// such as perfect play from a solver table. The command supplies it, so
// that nothing training learns from can depend on the yardstick.
type Examiner interface {
	// Examine measures the players newPlayer builds, one per position with
	// the position's own seed.
	Examine(ctx context.Context, newPlayer func(seed uint64) (player.Player, error)) ([]Accuracy, error)
}

// Accuracy is the share of one set's critical positions on which a player
// kept the exact value, in all and split by the value (won or drawn for
// the side to move).
type Accuracy struct {
	Set        string  `json:"set"`
	Kept       int     `json:"kept"`
	Total      int     `json:"total"`
	Lo         float64 `json:"lo"` // 95% interval of the share
	Hi         float64 `json:"hi"`
	WonKept    int     `json:"won_kept"`
	WonTotal   int     `json:"won_total"`
	DrawnKept  int     `json:"drawn_kept"`
	DrawnTotal int     `json:"drawn_total"`
	// Converted of Played won positions were played out to a win against
	// a perfect defender (a tie by the cap is a failure).
	Converted int `json:"converted,omitempty"`
	Played    int `json:"played,omitempty"`
}

// Share is the share of positions kept.
func (a Accuracy) Share() float64 {
	if a.Total == 0 {
		return 0
	}
	return float64(a.Kept) / float64(a.Total)
}

// Progress shows the phases of a round to a person.
type Progress interface {
	Phase(name string, total int)
	Add(n int, note string)
	Done()
}

// Create starts a new run in dir, which must not hold one already.
func Create(dir string, cfg Config) (*Run, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, CheckpointFile)); err == nil {
		return nil, fmt.Errorf("%s already holds a run; resume it with --resume %s, or choose another --run", dir, dir)
	}
	if seqs, _ := shardSeqs(dir); len(seqs) > 0 {
		return nil, fmt.Errorf("%s already holds replay shards of a run without a checkpoint; remove the folder or choose another --run", dir)
	}
	g, err := games.New(cfg.Game)
	if err != nil {
		return nil, err
	}
	arch := model.NewArch(cfg.Net.Kind, cfg.Net.Width, cfg.Net.Depth, g)
	w, err := model.NewWeights(arch, rand.New(rand.NewPCG(cfg.Seed, 0x1e7)))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	if err := store.WriteAtomic(filepath.Join(dir, ConfigFile), cfg.JSON()); err != nil {
		unlockDir(lock)
		return nil, err
	}
	r := &Run{dir: dir, cfg: cfg, game: g, replay: newReplay(cfg.ReplayWindow), lock: lock}
	r.ck = Checkpoint{Game: cfg.Game, Weights: w, Config: cfg, Adam: model.NewAdam(cfg.WeightDecay)}
	if err := r.build(); err != nil {
		r.Close()
		return nil, err
	}
	// The first checkpoint makes the folder a run at once.
	if err := r.checkpoint(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Resume reopens the run in dir at its last checkpoint. Shards written
// after that checkpoint (self-play finished, training not yet saved) are
// kept and counted: they are finished games.
func Resume(dir string) (*Run, error) {
	lock, err := lockDir(dir)
	if err != nil {
		if _, serr := os.Stat(filepath.Join(dir, CheckpointFile)); serr != nil {
			return nil, fmt.Errorf("%s holds no run (no %s)", dir, CheckpointFile)
		}
		return nil, err
	}
	r, err := resume(dir)
	if err == nil {
		err = checkWritable(dir, filepath.Join(dir, "replay"))
	}
	if err != nil {
		unlockDir(lock)
		return nil, err
	}
	r.lock = lock
	return r, nil
}

// checkWritable finds out at once, not a round later, that a run's
// folders cannot be written.
func checkWritable(dirs ...string) error {
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("%s cannot be written: %w", d, err)
		}
		f, err := os.CreateTemp(d, ".write-test*")
		if err != nil {
			return fmt.Errorf("%s cannot be written: %w", d, err)
		}
		f.Close()
		os.Remove(f.Name())
	}
	return nil
}

func resume(dir string) (*Run, error) {
	var ck Checkpoint
	if _, err := store.Read(filepath.Join(dir, CheckpointFile), model.KindCheckpoint, model.FormatVersion, &ck); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("%s holds no run (no %s)", dir, CheckpointFile)
		}
		return nil, err
	}
	if ck.Weights == nil || ck.Adam == nil {
		return nil, fmt.Errorf("%s: the checkpoint lacks its network or optimiser state", dir)
	}
	if err := ck.Config.Check(); err != nil {
		return nil, fmt.Errorf("%s: the checkpoint's configuration: %w", dir, err)
	}
	g, err := games.New(ck.Config.Game)
	if err != nil {
		return nil, err
	}
	if err := ck.Weights.Arch.CheckGame(g); err != nil {
		return nil, fmt.Errorf("%s: checkpoint does not match its game: %w", dir, err)
	}
	r := &Run{dir: dir, cfg: ck.Config, game: g, ck: ck, replay: newReplay(ck.Config.ReplayWindow)}
	if err := r.build(); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	removeTemporaries(dir)
	if err := r.loadReplay(); err != nil {
		return nil, err
	}
	if err := r.trimMetrics(); err != nil {
		return nil, err
	}
	seqs, err := shardSeqs(dir)
	if err != nil {
		return nil, err
	}
	for _, seq := range seqs {
		s, n, err := loadShard(shardPath(dir, seq), true)
		if err != nil {
			return nil, err
		}
		r.held = append(r.held, shardInfo{seq: seq, games: int64(s.Games), positions: int64(n)})
	}
	if r.held, err = prune(dir, r.held, r.cfg.ReplayWindow, r.cfg.KeepShards); err != nil {
		return nil, err
	}
	return r, nil
}

// trimMetrics makes the metrics log agree with what survived a stop: the
// shards (kept even when written after the checkpoint) and the checkpoint's
// training. A line whose round's shard is gone, or cut short by a kill, is
// dropped; a line whose round's games survive but whose training was lost
// keeps its self-play figures, with the steps of the checkpoint and without
// the losses and evaluation of a network that no longer exists. So no round
// is missing, none is counted twice, and the steps never go back.
func (r *Run) trimMetrics() error {
	path := filepath.Join(r.dir, MetricsFile)
	data, err := store.ReadFile(path, store.MaxFileSize)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	var kept []byte
	seen := map[int]bool{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		var m Metrics
		if len(line) == 0 || json.Unmarshal(line, &m) != nil || m.Round > r.ck.Round || seen[m.Round] {
			continue
		}
		seen[m.Round] = true
		if m.Steps > r.ck.Steps {
			m.Steps, m.PolicyLoss, m.ValueLoss, m.Entropy, m.SamplesPerSec = r.ck.Steps, 0, 0, 0, 0
			m.EvalScores, m.Elo, m.EloLo, m.EloHi, m.EvalSecs, m.Accuracy = nil, nil, nil, nil, 0, nil
			m.GateScore, m.GatePassed = nil, false
			if line, err = json.Marshal(m); err != nil {
				return err
			}
		}
		kept = append(append(kept, line...), '\n')
	}
	if bytes.Equal(kept, data) {
		return nil
	}
	return store.WriteAtomic(path, kept)
}

// build makes the trainer and the published network from the checkpoint.
func (r *Run) build() error {
	tr, err := model.NewTrainer(r.ck.Weights, r.cfg.BatchSize, r.ck.Adam)
	if err != nil {
		return err
	}
	if w := r.cfg.ValueWeight; w > 0 {
		tr.SetValueWeight(w)
	}
	net, err := model.NewNet(r.ck.Weights)
	if err != nil {
		return err
	}
	r.trainer, r.net = tr, net
	if r.cfg.Eval.GateGames > 0 {
		if r.ck.Best == nil {
			r.ck.Best, r.ck.BestSteps = r.ck.Weights.Clone(), r.ck.Steps
		}
		if r.best, err = model.NewNet(r.ck.Best); err != nil {
			return err
		}
	}
	return nil
}

// selfPlayNet is the network self-play uses: the best with gating, else
// the latest.
func (r *Run) selfPlayNet() *model.Net {
	if r.best != nil {
		return r.best
	}
	return r.net
}

// loadReplay fills the window from the newest shards and counts the shards
// that came after the checkpoint.
func (r *Run) loadReplay() error {
	seqs, err := shardSeqs(r.dir)
	if err != nil {
		return err
	}
	var shards []*Shard
	need := r.cfg.ReplayWindow
	for i := len(seqs) - 1; i >= 0; i-- {
		seq := seqs[i]
		if need <= 0 && seq <= r.ck.Round {
			break
		}
		s, err := readShard(r.dir, seq)
		if err != nil {
			return err
		}
		if err := s.checkGame(shardPath(r.dir, seq), r.cfg.Game, r.game); err != nil {
			return err
		}
		shards = append(shards, s)
		need -= len(s.Samples)
	}
	for i := len(shards) - 1; i >= 0; i-- {
		s := shards[i]
		r.replay.Add(s.Samples)
		if s.Seq > r.ck.Round {
			r.ck.Round = s.Seq
			r.ck.Games += int64(s.Games)
			r.ck.Positions += int64(len(s.Samples))
			r.logf("kept shard %d, written after the checkpoint: %d games", s.Seq, s.Games)
		}
	}
	return nil
}

// logf writes a log line stamped with the time (UTC).
func (r *Run) logf(format string, args ...any) {
	if r.Log != nil {
		fmt.Fprintf(r.Log, "%s "+format+"\n", append([]any{time.Now().UTC().Format("2006-01-02T15:04:05Z")}, args...)...)
	}
}

// Game is the game the run learns.
func (r *Run) Game() env.Game { return r.game }

// Dir is the run's folder.
func (r *Run) Dir() string { return r.dir }

// Config is the run's configuration.
func (r *Run) Config() Config { return r.cfg }

// Checkpoint returns the run's counters and network as they stand.
func (r *Run) State() Checkpoint { return r.ck }

// SetLimits replaces the stopping limits, e.g. to train a resumed run for
// longer. They are saved with the next checkpoint.
func (r *Run) SetLimits(minutes float64, steps, games int64) {
	r.cfg.Minutes, r.cfg.Steps, r.cfg.Games = minutes, steps, games
	r.ck.Config = r.cfg
}

// Finished reports whether a stopping limit is reached.
func (r *Run) Finished() bool { return r.finished() }

// finished reports whether a stopping limit is reached.
func (r *Run) finished() bool {
	c := r.cfg
	return (c.Minutes > 0 && r.ck.Elapsed >= c.Minutes*60) ||
		(c.Steps > 0 && r.ck.Steps >= c.Steps) ||
		(c.Games > 0 && r.ck.Games >= c.Games)
}

// Train runs rounds until a limit is reached or ctx ends; either way it
// writes a checkpoint before returning. An interrupted round's unfinished
// games are dropped.
func (r *Run) Train(ctx context.Context) error {
	lastCheckpoint, lastSnapshot, lastEval := time.Now(), time.Now(), time.Now()
	var lastEvalSecs float64
	evalDue := func() bool {
		e := r.cfg.Eval
		return e.Minutes > 0 && time.Since(lastEval).Minutes() >= e.Minutes
	}
	for !r.finished() {
		start := time.Now()
		round := r.round
		if r.shared != nil {
			round = r.externalRound
		}
		m, err := round(ctx)
		r.ck.Elapsed += time.Since(start).Seconds()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return err
		}
		m.Elapsed = r.ck.Elapsed
		if evalDue() || (r.finished() && r.cfg.Eval.Minutes > 0) {
			what := "evaluation"
			if r.finished() {
				what = "final evaluation"
			}
			if lastEvalSecs > 0 {
				r.logf("%s: about %.0f s (as long as the last)", what, lastEvalSecs)
			} else {
				r.logf("%s: the first one also plays the ladder's baselines against each other", what)
			}
			if err := r.evaluate(ctx, &m); err != nil {
				if ctx.Err() != nil {
					break
				}
				return err
			}
			lastEval = time.Now()
			lastEvalSecs = m.EvalSecs
		}
		if err := r.writeMetrics(m); err != nil {
			return err
		}
		r.logf("round %d: %d games, %d positions, %d steps, policy loss %.3f, value loss %.3f, entropy %.2f, %.0f sims/s",
			m.Round, m.Games, m.Positions, m.Steps, m.PolicyLoss, m.ValueLoss, m.Entropy, m.SimsPerSec)
		if m.Elo != nil {
			r.logf("evaluation: Elo %+.0f [%+.0f, %+.0f] (%.0f s); score against each baseline:", *m.Elo, *m.EloLo, *m.EloHi, m.EvalSecs)
			for _, base := range r.cfg.Eval.Ladder {
				if sc, ok := m.EvalScores[base]; ok {
					r.logf("  %-24s %5.1f%%", base, 100*sc)
				}
			}
		}
		for _, a := range m.Accuracy {
			r.logf("accuracy on %s positions: %.1f%% [%.1f, %.1f] of %d; won positions converted: %d of %d", a.Set, 100*a.Share(), 100*a.Lo, 100*a.Hi, a.Total, a.Converted, a.Played)
		}
		if m.GateScore != nil {
			r.logf("gating: %.0f%% against the best network (step %d): %v", 100**m.GateScore, m.BestSteps, map[bool]string{true: "replaced it", false: "kept it"}[m.GatePassed])
		}
		if c := r.cfg.CheckpointMinutes; time.Since(lastCheckpoint).Minutes() >= c {
			if err := r.checkpoint(); err != nil {
				return err
			}
			lastCheckpoint = time.Now()
		}
		if c := r.cfg.SnapshotMinutes; c > 0 && time.Since(lastSnapshot).Minutes() >= c {
			if err := r.snapshot(); err != nil {
				return err
			}
			lastSnapshot = time.Now()
		}
	}
	if err := r.checkpoint(); err != nil {
		return err
	}
	r.logf("checkpoint saved: %s (step %d, %d games)", filepath.Join(r.dir, CheckpointFile), r.ck.Steps, r.ck.Games)
	return ctx.Err()
}

// round plays one round of self-play, stores its shard, and trains. With
// overlap_training, the training phase runs at the same time as the
// self-play phase, on the replay as it stood before the round (the round's
// own shard is trained on in the next round), so that neither waits for
// the other; the games still depend only on the seed and the round.
func (r *Run) round(ctx context.Context) (Metrics, error) {
	cfg := r.cfg
	round := r.ck.Round + 1
	m := Metrics{Round: round}
	// The network is taken before training starts, which replaces it.
	net := r.selfPlayNet()
	if !cfg.OverlapTraining {
		shard, st, err := r.selfPlayPhase(ctx, round, net)
		if err != nil {
			return m, err
		}
		if err := r.addShard(shard, st, &m); err != nil {
			return m, err
		}
		if err := r.trainPhase(ctx, round, true, &m); err != nil {
			return m, err
		}
		return r.finishRound(m), nil
	}
	var trainErr error
	var tm Metrics
	done := make(chan struct{})
	go func() {
		defer close(done)
		trainErr = r.trainPhase(ctx, round, false, &tm)
	}()
	shard, st, err := r.selfPlayPhase(ctx, round, net)
	<-done
	if err != nil {
		return m, err
	}
	if trainErr != nil {
		return m, trainErr
	}
	m.PolicyLoss, m.ValueLoss, m.Entropy, m.SamplesPerSec, m.TrainSecs = tm.PolicyLoss, tm.ValueLoss, tm.Entropy, tm.SamplesPerSec, tm.TrainSecs
	if err := r.addShard(shard, st, &m); err != nil {
		return m, err
	}
	return r.finishRound(m), nil
}

// selfPlayPhase plays a round's games with the self-play network: each
// worker plays its share with its own random stream, and the games are
// gathered in worker order so that the round does not depend on
// scheduling.
func (r *Run) selfPlayPhase(ctx context.Context, round int, net *model.Net) (*Shard, playStats, error) {
	r.phase(fmt.Sprintf("round %d self-play", round), r.cfg.GamesPerRound)
	defer r.phaseDone()
	var mu sync.Mutex
	return playRound(ctx, r.game, r.cfg, net, r.cfg.workers(), func(w int) *rand.Rand {
		return rand.New(rand.NewPCG(r.cfg.Seed, uint64(round)<<16|uint64(w)))
	}, round, func() {
		mu.Lock()
		r.progress(1, "")
		mu.Unlock()
	})
}

// playRound plays cfg.GamesPerRound games with net on workers goroutines,
// worker w drawing from rngFor(w), and gathers them in worker order so
// that the shard does not depend on scheduling. onGame hears of each
// finished game, from any worker.
func playRound(ctx context.Context, g env.Game, cfg Config, net *model.Net, workers int, rngFor func(w int) *rand.Rand, seq int, onGame func()) (*Shard, playStats, error) {
	t0 := time.Now()
	workers = min(workers, cfg.GamesPerRound)
	results := make([][]finishedGame, workers)
	stats := make([]playStats, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		share := cfg.GamesPerRound / workers
		if w < cfg.GamesPerRound%workers {
			share++
		}
		wg.Add(1)
		go func(w, share int) {
			defer wg.Done()
			stats[w], errs[w] = selfPlay(ctx, g, cfg, net, rngFor(w), share, func(fg finishedGame) {
				results[w] = append(results[w], fg)
				if onGame != nil {
					onGame()
				}
			})
		}(w, share)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, playStats{}, err
	}
	shard := &Shard{Seq: seq, Game: cfg.Game}
	var st playStats
	st.wins = map[string]int{}
	for w := range results {
		for _, fg := range results[w] {
			name := "tie"
			if fg.winner != env.NoSide {
				name = g.SideName(fg.winner)
			}
			st.wins[name]++
			shard.Games++
			shard.Plies += fg.plies
			shard.Samples = append(shard.Samples, fg.samples...)
		}
		st.sims += stats[w].sims
		st.evals += stats[w].evals
	}
	st.secs = time.Since(t0).Seconds()
	return shard, st, nil
}

// addShard stores a round's shard and counts it.
func (r *Run) addShard(shard *Shard, st playStats, m *Metrics) error {
	if err := writeShard(shardPath(r.dir, shard.Seq), shard); err != nil {
		return err
	}
	r.replay.Add(shard.Samples)
	r.ck.Round = shard.Seq
	r.ck.Games += int64(shard.Games)
	r.ck.Positions += int64(len(shard.Samples))
	r.held = append(r.held, shardInfo{seq: shard.Seq, games: int64(shard.Games), positions: int64(len(shard.Samples))})
	var err error
	if r.held, err = prune(r.dir, r.held, r.cfg.ReplayWindow, r.cfg.KeepShards); err != nil {
		return err
	}
	m.Wins = st.wins
	m.SelfPlaySecs = st.secs
	m.GamesPerSec = float64(shard.Games) / st.secs
	m.SimsPerSec = float64(st.sims) / st.secs
	m.EvalsPerSec = float64(st.evals) / st.secs
	m.PliesPerGame = float64(shard.Plies) / float64(max(shard.Games, 1))
	return nil
}

// trainPhase takes as many optimisation steps as the sample ratio owes
// for the positions counted so far, and publishes the result.
func (r *Run) trainPhase(ctx context.Context, round int, show bool, m *Metrics) error {
	cfg := r.cfg
	t1 := time.Now()
	if r.replay.Len() >= cfg.MinReplay {
		owed := int64(cfg.SampleRatio*float64(r.ck.Positions)) - r.ck.SamplesTrained
		steps := int(owed / int64(cfg.BatchSize))
		if steps > 0 {
			if err := r.trainSteps(ctx, round, steps, show, m); err != nil {
				return err
			}
			m.SamplesPerSec = float64(steps*cfg.BatchSize) / time.Since(t1).Seconds()
		}
	}
	m.TrainSecs = time.Since(t1).Seconds()
	return nil
}

func (r *Run) finishRound(m Metrics) Metrics {
	m.Time = time.Now().UTC()
	m.Steps, m.Games, m.Positions, m.Replay = r.ck.Steps, r.ck.Games, r.ck.Positions, r.replay.Len()
	m.LearningRate = r.cfg.rate(r.ck.Steps)
	return m
}

func (r *Run) trainSteps(ctx context.Context, round, steps int, show bool, m *Metrics) error {
	cfg := r.cfg
	in, actions := r.game.InputShape().Size(), r.game.ActionSize()
	b := newBatch(cfg.BatchSize, in, actions)
	rng := rand.New(rand.NewPCG(cfg.Seed^0x7a11, uint64(round)))
	sym, _ := r.game.(env.Symmetric)
	if show {
		r.phase(fmt.Sprintf("round %d training", round), steps)
		defer r.phaseDone()
	}
	var sum model.Losses
	done := 0
	for ; done < steps; done++ {
		if err := ctx.Err(); err != nil {
			break
		}
		r.replay.fill(rng, b, in, actions, sym)
		l, err := r.trainer.Step(b, cfg.rate(r.ck.Steps))
		if err != nil {
			return err
		}
		r.ck.Steps++
		r.ck.SamplesTrained += int64(cfg.BatchSize)
		sum.Policy += l.Policy
		sum.Value += l.Value
		sum.Entropy += l.Entropy
		if show {
			r.progress(1, fmt.Sprintf("loss %.3f+%.3f", l.Policy, l.Value))
		}
	}
	if done > 0 {
		m.PolicyLoss, m.ValueLoss, m.Entropy = sum.Policy/float64(done), sum.Value/float64(done), sum.Entropy/float64(done)
	}
	return r.publish()
}

// publish hands the trained weights to self-play: in this process at once,
// and to other processes through the run folder's weights file.
func (r *Run) publish() error {
	w := r.trainer.Weights()
	net, err := model.NewNet(w)
	if err != nil {
		return err
	}
	r.net = net
	r.ck.Weights = w
	return store.Write(filepath.Join(r.dir, WeightsFile), model.KindWeights, model.FormatVersion, r.netFile())
}

func (r *Run) netFile() model.NetFile {
	return model.NetFile{Game: r.cfg.Game, Weights: r.ck.Weights, Steps: r.ck.Steps, Games: r.ck.Games, Positions: r.ck.Positions}
}

// checkpoint saves the run atomically.
func (r *Run) checkpoint() error {
	r.ck.Weights = r.trainer.Weights()
	r.ck.Saved = time.Now().UTC()
	return store.Write(filepath.Join(r.dir, CheckpointFile), model.KindCheckpoint, model.FormatVersion, &r.ck)
}

// snapshot keeps the current network for later evaluation.
func (r *Run) snapshot() error {
	path := filepath.Join(r.dir, SnapshotDir, fmt.Sprintf("weights-%07d.msgpack", r.ck.Steps))
	return store.Write(path, model.KindWeights, model.FormatVersion, r.netFile())
}

func (r *Run) writeMetrics(m Metrics) error {
	line, err := json.Marshal(m)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(r.dir, MetricsFile), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(append(line, '\n'))
	return errors.Join(werr, f.Close())
}

func (r *Run) phase(name string, total int) {
	if r.Progress != nil {
		r.Progress.Phase(name, total)
	}
}

func (r *Run) progress(n int, note string) {
	if r.Progress != nil {
		r.Progress.Add(n, note)
	}
}

func (r *Run) phaseDone() {
	if r.Progress != nil {
		r.Progress.Done()
	}
}

// removeTemporaries deletes the temporary files of writes that a kill cut
// short; they are never read, and only waste space.
func removeTemporaries(dir string) {
	for _, pattern := range []string{".*.tmp*", "*/.*.tmp*"} {
		left, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, f := range left {
			os.Remove(f)
		}
	}
}
