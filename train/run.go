package train

import (
	"context"
	"path/filepath"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train/evaluate"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/runfolder"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// Run is a training run in its folder: the loop that joins the producers,
// the intake, the learner and the evaluation.
type Run struct {
	folder *folder
	cfg    Config
	game   env.Game
	// state is the checkpoint as it stands: counters, weights, shards taken.
	state   Checkpoint
	window  *replay.Window
	learner *learner
	// storage is where producers and the learner meet: the run folder
	// (folderStore, which the run opened and closes), or a shared location
	// (UseSharedStorage).
	storage     *runstore.Store
	folderStore *runstore.Store
	// examples are the self-play games kept whole since the last
	// checkpoint, for the examples file.
	examples []replay.GameExample
	intake   *intake
	// teacher is the network self-play plays instead of the run's own
	// (Config.Teacher); nil without one.
	teacher *model.Weights
	// local is this process's producer; nil when only producers elsewhere
	// play.
	local *selfplay.Producer
	// runLog holds what the run tells a person (Log, Progress,
	// RoundLinesEvery).
	runLog
	// Examiner, when set, measures the network at every evaluation against
	// a yardstick outside training (perfect play).
	Examiner evaluate.Examiner
	// Players builds the evaluation ladder's baselines, with the kinds
	// the command adds (the perfect player); nil for the built-in kinds.
	Players *player.Factory
}

// Progress shows the phases of a round to a person: a phase counts total
// units (games, steps).
type Progress = evaluate.Progress

// UseSharedStorage makes the run the learner of producers elsewhere only:
// its rounds take the shards that arrive in shared instead of playing,
// and publish numbered weights there. The run's own files (checkpoint,
// metrics) stay in its folder. It writes the configuration there for the
// producers, rebuilds the window from the shards the checkpoint says were
// taken when the run was resumed, and publishes the run's network.
func (r *Run) UseSharedStorage(ctx context.Context, shared *runstore.Store) error {
	r.storage, r.local = shared, nil
	r.intake.store = shared
	if err := shared.Write(ctx, selfplay.ConfigKey, r.cfg.JSON()); err != nil {
		return err
	}
	if r.window.Len() == 0 && len(r.state.Taken) > 0 {
		if err := r.intake.rebuild(ctx, &r.state); err != nil {
			return err
		}
	}
	return r.republish(ctx)
}

// Close releases the run folder's lock (the OS releases it too when the
// process ends, however it ends).
func (r *Run) Close() error {
	r.folderStore.Close()
	return r.folder.close()
}

// maxEarlyLines bounds the notes held for a Log not yet set.
const maxEarlyLines = 1000

// Game is the game the run learns.
func (r *Run) Game() env.Game { return r.game }

// Dir is the run's folder.
func (r *Run) Dir() string { return r.folder.dir }

// Config is the run's configuration.
func (r *Run) Config() Config { return r.cfg }

// State returns the run's counters and network as they stand.
func (r *Run) State() Checkpoint { return r.state }

// SetLimits replaces the stopping limits, e.g. to train a resumed run for
// longer. They are saved with the next checkpoint.
func (r *Run) SetLimits(minutes float64, steps, games int64) {
	r.cfg.Minutes, r.cfg.Steps, r.cfg.Games = minutes, steps, games
	r.state.Config = r.cfg
}

// Finished reports whether a stopping limit is reached.
func (r *Run) Finished() bool {
	c, s := r.cfg, r.state
	return (c.Minutes > 0 && s.Elapsed >= c.Minutes*60) ||
		(c.Steps > 0 && s.Steps >= c.Steps) ||
		(c.Games > 0 && s.Games >= c.Games)
}

// Train runs rounds until a limit is reached or ctx ends; either way it
// writes a checkpoint before returning. An interrupted round's unfinished
// games are dropped.
func (r *Run) Train(ctx context.Context) error {
	if r.cfg.Eval.Minutes > 0 {
		// The ladder's baselines of kinds the command adds are checked
		// now, not at the first evaluation minutes in.
		ev := &evaluate.Referee{Config: r.cfg.Eval, Players: r.Players}
		if err := ev.Prepare(r.game); err != nil {
			return err
		}
	}
	r.flushEarly()
	lastCheckpoint, lastSnapshot, lastEval := time.Now(), time.Now(), time.Now()
	var lastEvalSecs float64
	evalDue := func() bool {
		e := r.cfg.Eval
		return e.Minutes > 0 && (time.Since(lastEval).Minutes() >= e.Minutes || r.Finished())
	}
	bar := newRunBar(r)
	defer r.phaseDone()
	for !r.Finished() {
		start := time.Now()
		m, err := r.round(ctx)
		r.state.Elapsed += time.Since(start).Seconds()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return err
		}
		m.Elapsed = r.state.Elapsed
		if evalDue() {
			what := "evaluation"
			if r.Finished() {
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
		if err := r.folder.appendMetrics(m); err != nil {
			return err
		}
		r.logRound(m)
		bar.advance(m)
		if c := r.cfg.CheckpointMinutes; time.Since(lastCheckpoint).Minutes() >= c {
			if err := r.saveCheckpoint(); err != nil {
				return err
			}
			lastCheckpoint = time.Now()
		}
		if c := r.cfg.SnapshotMinutes; c > 0 && time.Since(lastSnapshot).Minutes() >= c {
			if err := r.folder.snapshot(r.state.netFile()); err != nil {
				return err
			}
			lastSnapshot = time.Now()
		}
	}
	if err := r.saveCheckpoint(); err != nil {
		return err
	}
	r.logf("checkpoint saved: %s (step %d, %d games)", filepath.Join(r.Dir(), CheckpointFile), r.state.Steps, r.state.Games)
	return ctx.Err()
}

// saveCheckpoint writes the checkpoint, and the self-play examples kept
// since the last one (a failure to keep those is logged, not fatal).
func (r *Run) saveCheckpoint() error {
	if err := r.folder.keepExamples(r.cfg.Game, r.game, r.examples); err != nil {
		r.logf("keeping self-play examples: %v", err)
	}
	r.examples = r.examples[:0]
	return r.folder.writeCheckpoint(&r.state)
}

// round is one round of the pipeline: this process's producers (if any)
// play a round with the newest weights; the intake takes the shards that
// arrived; the learner takes the steps they owe and publishes the result.
// With overlap_training the learner trains while the round plays, on the
// window as it stood before it (the round's shard is trained on in the
// next round), so that neither waits for the other; the games still depend
// only on the seed and the round.
func (r *Run) round(ctx context.Context) (runfolder.Metrics, error) {
	round := r.state.Round + 1
	m := runfolder.Metrics{Round: round}
	var local *localRound
	if r.local != nil {
		var err error
		if local, err = r.startLocalRound(ctx, round, r.state.Published-1); err != nil {
			return m, err
		}
	}
	learnFirst := local != nil && r.cfg.OverlapTraining
	var got intakeStats
	var err error
	if !learnFirst {
		if got, err = r.ingest(ctx, local); err != nil {
			return m, err
		}
	}
	learnt, err := r.learn(ctx, round)
	if learnFirst {
		var ierr error
		got, ierr = r.ingest(ctx, local)
		if err == nil {
			err = ierr
		}
	}
	if err != nil {
		return m, err
	}
	if err := r.intake.prune(ctx, &r.state); err != nil {
		return m, err
	}
	if round%100 == 0 {
		// Producers killed in the middle of a write leave temporaries.
		r.storage.RemoveStale(selfplay.ShardsPrefix, staleTemporary)
	}
	r.state.Round = round
	// Examples wait for the next checkpoint: rewriting their file every
	// round would cost the learner more than the games are worth.
	r.examples = append(r.examples, got.Examples...)
	if n := len(r.examples); n > maxExamples {
		r.examples = r.examples[n-maxExamples:]
	}
	got.addTo(&m)
	learnt.addTo(&m)
	m.Time = time.Now().UTC()
	m.Steps, m.Games, m.Positions, m.Replay = r.state.Steps, r.state.Games, r.state.Positions, r.window.Len()
	m.LearningRate = r.cfg.rate(&r.state)
	return m, nil
}

// ingest takes the shards that arrived: after this process's round, when
// it plays one; else at least one, waiting for the producers elsewhere.
func (r *Run) ingest(ctx context.Context, local *localRound) (intakeStats, error) {
	if local != nil {
		if err := local.wait(); err != nil {
			return intakeStats{}, err
		}
	}
	for {
		keys, err := r.intake.pending(ctx, maxShardsPerRound)
		if err != nil {
			return intakeStats{}, err
		}
		if len(keys) > 0 || local != nil {
			return r.intake.take(ctx, &r.state, keys)
		}
		if err := selfplay.Sleep(ctx, 500*time.Millisecond); err != nil {
			return intakeStats{}, err
		}
	}
}

// learn takes the steps owed and, when it took any, publishes the new
// network: to players in the run folder, to the producers as the next
// weights version (unless a teacher plays self-play).
func (r *Run) learn(ctx context.Context, round int) (learnStats, error) {
	steps := r.learner.owed(&r.state, r.window)
	if steps == 0 {
		return learnStats{}, nil
	}
	st, err := r.learner.learn(ctx, &r.state, r.window, round, steps)
	if err != nil || st.Steps == 0 {
		return st, err
	}
	if err := r.folder.writeWeights(r.state.netFile()); err != nil {
		return st, err
	}
	if r.teacher != nil {
		// Self-play's network has not changed: a new version would only
		// be downloaded again, and make producers elsewhere look stale.
		return st, nil
	}
	return st, r.publish(ctx)
}

// addTo records the round's intake in its metrics line.
func (s intakeStats) addTo(m *runfolder.Metrics) {
	m.Shards, m.Dropped, m.SetAside = s.Shards, s.Dropped, s.SetAside
	m.Wins = s.Wins
	if m.Wins == nil {
		m.Wins = map[string]int{}
	}
	m.GamesPerSec, m.SimsPerSec, m.EvalsPerSec, m.SelfPlaySecs = s.rates()
	m.PliesPerGame = float64(s.Plies) / float64(max(s.Games, 1))
	m.CappedShare, m.RepeatedShare, m.ValueVariance = s.health()
}

// addTo records the round's training in its metrics line.
func (s learnStats) addTo(m *runfolder.Metrics) {
	m.PolicyLoss, m.ValueLoss, m.Entropy, m.PliesLoss = s.Policy, s.Value, s.Entropy, s.Plies
	m.SamplesPerSec, m.TrainSecs = s.SamplesPerSec, s.Secs
	m.DivergedSteps = s.Diverged
}

// evaluate places the current network on the ladder (calibrating the
// ladder first, once per run), measures it with the Examiner, and gates
// it, recording everything in m; a network that passes the gate is
// published to the producers at once.
func (r *Run) evaluate(ctx context.Context, m *runfolder.Metrics) error {
	t0 := time.Now()
	ev := &evaluate.Referee{Game: r.cfg.Game, Config: r.cfg.Eval, Search: r.cfg.Search.Params, Seed: r.cfg.Seed,
		Workers: r.cfg.workers(), Progress: r.Progress, Examiner: r.Examiner, Players: r.Players}
	if err := ev.Prepare(r.game); err != nil {
		return err
	}
	var calibration []evaluate.LadderResult
	if len(r.state.Ladder) > 0 {
		calibration = r.state.Ladder
	}
	if n := r.cfg.Eval.SnapshotOpponents; n > 0 {
		ops, err := r.folder.snapshotOpponents(n, r.state.Steps)
		if err != nil {
			return err
		}
		ev.Opponents = ops
	}
	w := r.state.measured()
	rep, err := ev.Evaluate(ctx, w, r.state.Best, r.game, m.Round, calibration)
	if err != nil {
		return err
	}
	r.state.Ladder = rep.Calibration
	m.EvalScores, m.EvalSeats, m.Accuracy = rep.Standing.Scores, rep.Standing.Seats, rep.Accuracy
	if st := rep.Standing; st.EloAvailable {
		m.Elo, m.EloLo, m.EloHi = &st.Elo, &st.Lo, &st.Hi
	}
	if m.GateScore = rep.GateScore; m.GateScore != nil {
		if *m.GateScore >= r.cfg.Eval.GateScore {
			r.state.Best, r.state.BestSteps = w.Clone(), r.state.Steps
			m.GatePassed = true
			if err := r.publish(ctx); err != nil {
				return err
			}
		}
		m.BestSteps = r.state.BestSteps
	}
	m.EvalSecs = time.Since(t0).Seconds()
	return nil
}
