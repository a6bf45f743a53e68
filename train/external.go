package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/store"
)

// Self-play and training as separate processes meet at shared storage (a
// folder or a bucket, package runstore), as KataGo's and Leela Chess
// Zero's do:
//
//	config.json                    the run's configuration (the trainer writes it)
//	weights/NNNNNNNN.msgpack       the trainer's published networks, numbered
//	shards/PRODUCER-NNNNNN.msgpack a self-play process's rounds
//
// A producer names itself after its host, its pid and a random number, so
// that no two processes on any machines write the same key; objects appear
// whole or not at all. The trainer finds new shards by listing, remembers
// which it took (in its checkpoint), and drops rounds played with weights
// more than max_weights_lag versions older than its newest.
const (
	sharedConfig  = "config.json"
	weightsPrefix = "weights/"
	shardsPrefix  = "shards/"
)

// maxShardsPerRound bounds what one round takes, so that rounds, and the
// time between published weights, stay short however many producers write.
const maxShardsPerRound = 32

func weightsKey(v int) string { return fmt.Sprintf("%s%08d.msgpack", weightsPrefix, v) }

// publishedNet is a published network and its version.
type publishedNet struct {
	model.NetFile `msgpack:",inline"`
	Version       int `msgpack:"version"`
}

// newestWeights returns the newest published network, or version -1 when
// there is none yet.
func newestWeights(ctx context.Context, st *runstore.Store) (int, *model.Weights, error) {
	keys, err := st.List(ctx, weightsPrefix)
	if err != nil {
		return -1, nil, err
	}
	for i := len(keys) - 1; i >= 0; i-- {
		v, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(keys[i], weightsPrefix), ".msgpack"))
		if err != nil {
			continue
		}
		data, err := st.Read(ctx, keys[i], store.MaxFileSize)
		if errors.Is(err, runstore.ErrNotFound) {
			continue // deleted since the listing: an older one will do
		}
		if err != nil {
			return -1, nil, err
		}
		var p publishedNet
		if _, err := store.Decode(data, keys[i], model.KindWeights, model.FormatVersion, &p); err != nil {
			return -1, nil, err
		}
		if p.Weights == nil {
			return -1, nil, fmt.Errorf("%s holds no network", keys[i])
		}
		return v, p.Weights, nil
	}
	return -1, nil, nil
}

// Producer is a self-play process of a run whose trainer is elsewhere.
type Producer struct {
	shared  *runstore.Store
	name    string
	workers int
	seed    uint64
	// Log hears one line a round; nil for none.
	Log io.Writer
}

// NewProducer makes a producer writing to shared, with a name no other
// process on any machine has.
func NewProducer(shared *runstore.Store, workers int, seed uint64) *Producer {
	host, _ := os.Hostname()
	host = strings.Map(func(r rune) rune {
		if r == '-' || r == '.' || r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			return r
		}
		return '_'
	}, host)
	name := fmt.Sprintf("%s_%d_%08x", host, os.Getpid(), rand.Uint32())
	return &Producer{shared: shared, name: name, workers: max(1, workers), seed: seed}
}

// Name is the producer's name in its shards' keys.
func (p *Producer) Name() string { return p.name }

func (p *Producer) logf(format string, args ...any) {
	if p.Log != nil {
		fmt.Fprintf(p.Log, "%s "+format+"\n", append([]any{time.Now().UTC().Format("2006-01-02T15:04:05Z")}, args...)...)
	}
}

// Run plays rounds (0: until ctx ends) with the newest published weights,
// writing a shard after each. It waits for the configuration and the first
// weights when they are not there yet.
func (p *Producer) Run(ctx context.Context, rounds int) error {
	var cfg Config
	for {
		data, err := p.shared.Read(ctx, sharedConfig, 1<<20)
		if err == nil {
			if cfg, err = parseConfig(data, p.shared.Location()+"/"+sharedConfig); err != nil {
				return err
			}
			break
		}
		if !errors.Is(err, runstore.ErrNotFound) {
			return err
		}
		if err := sleep(ctx, time.Second); err != nil {
			return err
		}
	}
	g, err := games.New(cfg.Game)
	if err != nil {
		return err
	}
	h := fnv.New64a()
	h.Write([]byte(p.name))
	base := p.seed ^ h.Sum64()
	for seq := 1; rounds == 0 || seq <= rounds; seq++ {
		version, w, err := newestWeights(ctx, p.shared)
		if err != nil {
			return err
		}
		if version < 0 {
			p.logf("waiting for the trainer's first weights in %s", p.shared.Location())
			if err := sleep(ctx, time.Second); err != nil {
				return err
			}
			seq--
			continue
		}
		net, err := model.NewNet(w)
		if err != nil {
			return err
		}
		shard, st, err := playRound(ctx, g, cfg, net, p.workers, func(wk int) *rand.Rand {
			return rand.New(rand.NewPCG(base, uint64(seq)<<16|uint64(wk)))
		}, seq, nil)
		if err != nil {
			return err
		}
		shard.Producer, shard.WeightsVersion = p.name, version
		data, err := encodeShard(shard)
		if err != nil {
			return err
		}
		key := fmt.Sprintf("%s%s-%06d.msgpack", shardsPrefix, p.name, seq)
		if err := p.shared.Write(ctx, key, data); err != nil {
			return err
		}
		p.logf("%s: %d games, %d positions with weights %d, %.0f games/s", key, shard.Games, len(shard.Samples), version, float64(shard.Games)/st.secs)
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// UseSharedStorage turns the run into the trainer of external self-play:
// its rounds take the shards that arrive in shared instead of playing, and
// publish numbered weights there. The run's own files (checkpoint,
// metrics) stay in its folder. It writes the configuration and publishes
// the run's current network as the next version; a resumed run rebuilds
// its window from the shards its checkpoint says it took.
func (r *Run) UseSharedStorage(ctx context.Context, shared *runstore.Store) error {
	r.shared = shared
	if err := shared.Write(ctx, sharedConfig, r.cfg.JSON()); err != nil {
		return err
	}
	if len(r.ck.Ingested) > 0 && r.replay.Len() == 0 {
		if err := r.loadSharedReplay(ctx); err != nil {
			return err
		}
	}
	return r.publishShared(ctx)
}

// latestVersion is the version of the newest published weights, -1 before
// the first.
func (r *Run) latestVersion() int { return r.ck.Published - 1 }

// publishShared writes the current weights as the next version.
func (r *Run) publishShared(ctx context.Context) error {
	v := r.ck.Published
	data, err := store.Encode(model.KindWeights, model.FormatVersion, &publishedNet{NetFile: r.netFile(), Version: v})
	if err != nil {
		return err
	}
	if err := r.shared.Write(ctx, weightsKey(v), data); err != nil {
		return err
	}
	r.ck.Published++
	// Weights too old for any shard played with them to be accepted are
	// of no more use.
	if old := v - r.cfg.maxLag() - 2; old >= 0 {
		r.shared.Delete(ctx, weightsKey(old))
	}
	return nil
}

// externalRound takes the shards that arrived, trains what they owe, and
// publishes the result.
func (r *Run) externalRound(ctx context.Context) (Metrics, error) {
	round := r.ck.Round + 1
	m := Metrics{Round: round, Wins: map[string]int{}}
	t0 := time.Now()
	var fresh []string
	for {
		keys, err := r.shared.List(ctx, shardsPrefix)
		if err != nil {
			return m, err
		}
		taken := map[string]bool{}
		for _, k := range r.ck.Ingested {
			taken[k] = true
		}
		for _, k := range keys {
			if !taken[k] && len(fresh) < maxShardsPerRound {
				fresh = append(fresh, k)
			}
		}
		if len(fresh) > 0 {
			break
		}
		if err := sleep(ctx, 500*time.Millisecond); err != nil {
			return m, err
		}
	}
	for _, key := range fresh {
		data, err := r.shared.Read(ctx, key, store.MaxFileSize)
		if errors.Is(err, runstore.ErrNotFound) {
			continue
		}
		if err != nil {
			return m, err
		}
		s, _, err := decodeShard(data, key, false)
		if err != nil {
			// A damaged shard is left out, and remembered so that it is not
			// read again; the run goes on.
			r.logf("skipping %s: %v", key, err)
			r.ck.Ingested = append(r.ck.Ingested, key)
			r.ck.IngestedSize = append(r.ck.IngestedSize, 0)
			continue
		}
		if err := s.checkGame(key, r.cfg.Game, r.game); err != nil {
			return m, err
		}
		r.ck.Ingested = append(r.ck.Ingested, key)
		if lag := r.latestVersion() - s.WeightsVersion; lag > r.cfg.maxLag() {
			r.ck.IngestedSize = append(r.ck.IngestedSize, 0)
			r.ck.DroppedGames += int64(s.Games)
			m.Dropped += s.Games
			continue
		}
		r.ck.IngestedSize = append(r.ck.IngestedSize, int32(len(s.Samples)))
		r.replay.Add(s.Samples)
		r.ck.Games += int64(s.Games)
		r.ck.Positions += int64(len(s.Samples))
		m.Shards++
		m.PliesPerGame += float64(s.Plies)
		m.Wins["games"] += s.Games
	}
	if g := m.Wins["games"]; g > 0 {
		m.PliesPerGame /= float64(g)
	}
	m.SelfPlaySecs = time.Since(t0).Seconds()
	if err := r.trainPhase(ctx, round, true, &m); err != nil {
		return m, err
	}
	if err := r.publishShared(ctx); err != nil {
		return m, err
	}
	r.pruneShared(ctx)
	r.ck.Round = round
	return r.finishRound(m), nil
}

// pruneShared deletes, under keep_shards, taken shards older than the
// window needs beyond the newest keep_shards of them. A failed deletion is
// retried at the next round.
func (r *Run) pruneShared(ctx context.Context) {
	keep := r.cfg.KeepShards
	if keep <= 0 || len(r.ck.IngestedSize) != len(r.ck.Ingested) {
		return
	}
	need, first := int64(r.cfg.ReplayWindow), len(r.ck.Ingested)
	for first > 0 && need > 0 {
		first--
		need -= int64(r.ck.IngestedSize[first])
	}
	for i := r.ck.PrunedShared; i < first-keep; i++ {
		if err := r.shared.Delete(ctx, r.ck.Ingested[i]); err != nil {
			return
		}
		r.ck.PrunedShared = i + 1
	}
}

// loadSharedReplay rebuilds the window from the shards the checkpoint says
// were taken, newest first; shards gone from the storage are skipped.
func (r *Run) loadSharedReplay(ctx context.Context) error {
	var shards []*Shard
	need := r.cfg.ReplayWindow
	for i := len(r.ck.Ingested) - 1; i >= 0 && need > 0; i-- {
		key := r.ck.Ingested[i]
		data, err := r.shared.Read(ctx, key, store.MaxFileSize)
		if errors.Is(err, runstore.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		s, _, err := decodeShard(data, key, false)
		if err != nil || r.latestVersion()-s.WeightsVersion > r.cfg.maxLag() {
			continue
		}
		shards = append(shards, s)
		need -= len(s.Samples)
	}
	slices.Reverse(shards)
	for _, s := range shards {
		r.replay.Add(s.Samples)
	}
	return nil
}

// parseConfig reads a configuration's JSON as LoadConfig does.
func parseConfig(data []byte, name string) (Config, error) {
	c := DefaultConfig()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return c, fmt.Errorf("%s: %w", name, err)
	}
	if _, ok := top["game"]; ok {
		c.Game = games.Spec{}
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("%s: %w", name, err)
	}
	return c, c.Check()
}
