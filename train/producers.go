package train

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// localRound is a round being played by this process's producers.
type localRound struct {
	done  chan struct{}
	shard *replay.Shard
	err   error
}

// wait blocks until the round's shard is written.
func (l *localRound) wait() error {
	<-l.done
	return l.err
}

// startLocalRound has this process's producers play round with weights
// version v, read now, so that the round does not depend on when the
// learner publishes the next version.
func (r *Run) startLocalRound(ctx context.Context, round, v int) (*localRound, error) {
	_, net, err := r.local.Weights(ctx, v)
	if err != nil {
		return nil, err
	}
	if net == nil {
		return nil, fmt.Errorf("%s: weights version %d is missing", r.storage.Location(), v)
	}
	l := &localRound{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		l.shard, l.err = r.local.Round(ctx, round, v, net)
	}()
	return l, nil
}

// newLocalProducer makes the producer of this process: named "local", its
// round seq's worker w drawing from the stream (seed, seq<<16 | w).
func (r *Run) newLocalProducer() (*selfplay.Producer, error) {
	p, err := selfplay.NewProducer(r.storage, selfplay.LocalName, r.cfg.job(), r.cfg.workers(), r.cfg.Seed)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// OpenProducer makes a producer for the run whose learner publishes to st,
// perhaps on another machine: it waits for the run's configuration, and
// names itself so that no other process on any machine has its name; its
// games' random streams mix that name into seed.
func OpenProducer(ctx context.Context, st *runstore.Store, workers int, seed uint64) (*selfplay.Producer, error) {
	var cfg Config
	for {
		data, err := st.Read(ctx, selfplay.ConfigKey, 1<<20)
		if err == nil {
			if cfg, err = ParseConfig(data, st.Location()+"/"+selfplay.ConfigKey); err != nil {
				return nil, err
			}
			break
		}
		if !errors.Is(err, runstore.ErrNotFound) {
			return nil, err
		}
		if err := selfplay.Sleep(ctx, time.Second); err != nil {
			return nil, err
		}
	}
	name := selfplay.UniqueName()
	return selfplay.NewProducer(st, name, cfg.job(), workers, selfplay.NameSeed(seed, name))
}

// measured is the network the run measures and its players play: the
// average of the trained weights when the run keeps one, else the latest.
func (ck *Checkpoint) measured() *model.Weights {
	if ck.Averaged != nil {
		return ck.Averaged
	}
	return ck.Weights
}

// netFile is the measured network as a file of the run's game.
func (ck *Checkpoint) netFile() model.NetFile {
	return model.NetFile{Game: ck.Config.Game, Weights: ck.measured(), Steps: ck.Steps, Games: ck.Games, Positions: ck.Positions}
}

// selfPlayFile is the network the producers play: the best with gating,
// else the latest (or the average, with averaging.selfplay).
func (ck *Checkpoint) selfPlayFile() model.NetFile {
	f := ck.netFile()
	f.Weights = ck.Weights
	switch {
	case ck.Best != nil:
		f.Weights, f.Steps = ck.Best, ck.BestSteps
	case ck.Config.Averaging.SelfPlay && ck.Averaged != nil:
		f.Weights = ck.Averaged
	}
	return f
}

// publish hands the network to the producers as the next weights version,
// and deletes versions too old for a shard played with them to be taken.
func (r *Run) publish(ctx context.Context) error {
	v := r.state.Published
	f := r.state.selfPlayFile()
	if r.teacher != nil {
		// The teacher's own counters are not known: none, rather than
		// the run's under another network.
		f = model.NetFile{Game: r.cfg.Game, Weights: r.teacher}
	}
	if err := selfplay.Publish(ctx, r.storage, v, f); err != nil {
		return err
	}
	r.state.Published++
	if old := v - r.cfg.maxLag() - 2; old >= 0 {
		r.storage.Delete(ctx, selfplay.WeightsKey(old))
	}
	return nil
}

// republish makes the storage's weights agree with the checkpoint after a
// start: versions a stop lost are deleted, and the checkpoint's self-play
// network is (again) the newest.
func (r *Run) republish(ctx context.Context) error {
	vs, err := selfplay.WeightsVersions(ctx, r.storage)
	if err != nil {
		return err
	}
	// Versions beyond the learner's count are a lost timeline's or
	// strays: withdrawn.
	for _, v := range vs {
		if v >= r.state.Published-1 {
			if err := r.storage.Delete(ctx, selfplay.WeightsKey(v)); err != nil {
				return err
			}
		}
	}
	if r.state.Published > 0 {
		r.state.Published--
	}
	return r.publish(ctx)
}
