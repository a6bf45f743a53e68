package selfplay

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train/replay"
)

// LocalName is the name of the producers that run inside the learner's
// process.
const LocalName = "local"

// Producer plays rounds of self-play with published weights and writes
// each as a shard to a run's storage.
type Producer struct {
	store   *runstore.Store
	name    string
	job     Job
	game    env.Game
	workers int
	seed    uint64
	// Log hears one line a round; nil for none.
	Log io.Writer
	// OnGame hears of each finished game, from any worker; nil for none.
	OnGame func()
	// starts are the positions of the last round that the next round's
	// exploring games start from (Settings.ExploreShare).
	starts []string
}

// NewProducer makes a producer of job writing to st under name, with
// workers goroutines. Round seq's game i draws from the random stream
// (seed, seq<<20 | i), so that a round's games depend only on the seed,
// the round and the weights, however many workers play them.
func NewProducer(st *runstore.Store, name string, job Job, workers int, seed uint64) (*Producer, error) {
	g, err := games.New(job.Game)
	if err != nil {
		return nil, err
	}
	return &Producer{store: st, name: name, job: job, game: g, workers: max(1, workers), seed: seed}, nil
}

// UniqueName is a producer name no other process on any machine has: the
// host, the pid and a random number.
func UniqueName() string {
	host, _ := os.Hostname()
	host = strings.Map(func(r rune) rune {
		if r == '-' || r == '.' || r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			return r
		}
		return '_'
	}, host)
	return fmt.Sprintf("%s_%d_%08x", host, os.Getpid(), rand.Uint32())
}

// NameSeed mixes a producer's name into a seed, so that producers started
// with one seed still play different games.
func NameSeed(seed uint64, name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return seed ^ h.Sum64()
}

// Name is the producer's name in its shards' keys.
func (p *Producer) Name() string { return p.name }

func (p *Producer) logf(format string, args ...any) {
	if p.Log != nil {
		fmt.Fprintf(p.Log, "%s "+format+"\n", append([]any{time.Now().UTC().Format("2006-01-02T15:04:05Z")}, args...)...)
	}
}

// Weights reads version v of the published weights (v < 0: the newest)
// and checks that they play the job's game. It returns version -1 when
// nothing is published yet.
func (p *Producer) Weights(ctx context.Context, v int) (int, *model.Net, error) {
	var w *model.Weights
	var err error
	if v < 0 {
		v, w, err = NewestWeights(ctx, p.store)
	} else {
		w, err = ReadWeights(ctx, p.store, v)
	}
	if err != nil || v < 0 {
		return -1, nil, err
	}
	if err := w.Arch.CheckGame(p.game); err != nil {
		return -1, nil, fmt.Errorf("%s: %w", WeightsKey(v), err)
	}
	net, err := model.NewNet(w)
	if err != nil {
		return -1, nil, err
	}
	return v, net, nil
}

// Round plays round seq with net, weights version v, and writes its
// shard.
func (p *Producer) Round(ctx context.Context, seq, v int, net *model.Net) (*replay.Shard, error) {
	job := p.job
	job.Starts = p.starts
	shard, err := PlayRound(ctx, p.game, job, net, p.workers, func(i int) *rand.Rand {
		return rand.New(rand.NewPCG(p.seed, uint64(seq)<<20|uint64(i)))
	}, seq, p.OnGame)
	if err != nil {
		return nil, err
	}
	if job.Search.ExploreShare > 0 {
		p.starts = ExploreStarts(shard.Samples)
	}
	shard.Producer, shard.WeightsVersion = p.name, v
	data, err := replay.Encode(shard)
	if err != nil {
		return nil, err
	}
	key := ShardKey(p.name, seq)
	if err := p.store.Write(ctx, key, data); err != nil {
		return nil, err
	}
	p.logf("%s: %d games, %d positions with weights %d, %.0f games/s", key, shard.Games, len(shard.Samples), v, float64(shard.Games)/shard.Seconds)
	return shard, nil
}

// Run plays rounds (0: until ctx ends) with the newest published weights,
// waiting for the first ones when none are published yet.
func (p *Producer) Run(ctx context.Context, rounds int) error {
	for seq := 1; rounds == 0 || seq <= rounds; seq++ {
		v, net, err := p.Weights(ctx, -1)
		if err != nil && ctx.Err() == nil {
			// A damaged or foreign file is the storage's problem, not a
			// reason to stop: the learner's next version will do.
			p.logf("skipping the published weights: %s", env.Excerpt(err.Error(), 300))
			v = -1
		}
		if v < 0 {
			if err == nil {
				p.logf("waiting for the learner's first weights in %s", p.store.Location())
			}
			if err := Sleep(ctx, time.Second); err != nil {
				return err
			}
			seq--
			continue
		}
		if _, err := p.Round(ctx, seq, v, net); err != nil {
			return err
		}
	}
	return nil
}

// Sleep waits for d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
