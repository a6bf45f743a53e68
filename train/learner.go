package train

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/model/learn"
	"github.com/sliderzero/sliderzero/train/replay"
)

// learner takes optimisation steps on batches drawn from the window.
type learner struct {
	trainer *learn.Trainer
	cfg     Config
	game    env.Game
	batch   *learn.Batch
}

// learnStats is what one round's learning did.
type learnStats struct {
	Steps                         int
	Policy, Value, Entropy, Plies float64 // mean losses over the steps
	// Diverged counts the steps whose loss was not a number, dropped
	// (their batches count as trained, so that the run goes on).
	Diverged            int
	Secs, SamplesPerSec float64
}

func newLearner(ck *Checkpoint, cfg Config, g env.Game) (*learner, error) {
	tr, err := learn.NewTrainer(ck.Weights, cfg.BatchSize, ck.Adam)
	if err != nil {
		return nil, err
	}
	if w := cfg.ValueWeight; w > 0 {
		tr.SetValueWeight(w)
	}
	if w := cfg.PliesWeight; w > 0 {
		tr.SetPliesWeight(w)
	}
	b := replay.NewBatch(cfg.BatchSize, g.InputShape().Size(), g.ActionSize())
	return &learner{trainer: tr, cfg: cfg, game: g, batch: b}, nil
}

// owed is the number of steps the sample ratio owes for the positions
// counted so far, once the window holds min_replay positions.
func (l *learner) owed(ck *Checkpoint, window *replay.Window) int {
	if window.Len() < l.cfg.MinReplay {
		return 0
	}
	owed := int64(l.cfg.SampleRatio*float64(ck.Positions)) - ck.SamplesTrained
	return max(0, int(owed/int64(l.cfg.BatchSize)))
}

// learn takes steps steps of round's training (fewer if ctx ends), each
// on a batch drawn from the window with the round's random stream, and
// leaves the new weights in the checkpoint.
func (l *learner) learn(ctx context.Context, ck *Checkpoint, window *replay.Window, round, steps int) (learnStats, error) {
	t0 := time.Now()
	var st learnStats
	in, actions := l.game.InputShape().Size(), l.game.ActionSize()
	rng := rand.New(rand.NewPCG(l.cfg.Seed^batchStream, uint64(round)))
	sym, _ := l.game.(env.Symmetric)
	var sum learn.Losses
	for ; st.Steps < steps && ctx.Err() == nil; st.Steps++ {
		window.Fill(rng, l.batch, in, actions, sym, l.cfg.Surprise)
		loss, err := l.trainer.Step(l.batch, l.cfg.rate(ck))
		if err != nil && !errors.Is(err, learn.ErrDiverged) {
			return st, err
		}
		ck.Steps++
		ck.SamplesTrained += int64(l.cfg.BatchSize)
		if err != nil {
			st.Diverged++
			continue
		}
		sum.Policy += loss.Policy
		sum.Value += loss.Value
		sum.Entropy += loss.Entropy
		sum.Plies += loss.Plies
	}
	if st.Steps > st.Diverged {
		n := float64(st.Steps - st.Diverged)
		st.Policy, st.Value, st.Entropy, st.Plies = sum.Policy/n, sum.Value/n, sum.Entropy/n, sum.Plies/n
		ck.Weights = l.trainer.Weights()
		if d := l.cfg.Averaging.Decay; d > 0 {
			if ck.Averaged == nil {
				ck.Averaged = ck.Weights.Clone()
			} else {
				ck.Averaged.Blend(ck.Weights, math.Pow(d, n))
			}
		}
	}
	st.Secs = time.Since(t0).Seconds()
	if steps > 0 {
		st.SamplesPerSec = float64(st.Steps*l.cfg.BatchSize) / st.Secs
	}
	return st, nil
}

// Seeds of the run's random streams besides self-play's, which use the
// seed itself: the first network's weights, and the batches.
const (
	initStream  = 0x1e7
	batchStream = 0x7a11
)
