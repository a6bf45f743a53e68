package selfplay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/store"
)

// Producers and the learner meet at a run's storage (a folder or a
// bucket, package runstore), as KataGo's and Leela Chess Zero's processes
// do:
//
//	config.json                    the run's configuration (the learner writes it)
//	weights/NNNNNNNN.msgpack       the learner's published networks, numbered
//	shards/PRODUCER-NNNNNN.msgpack a producer's rounds
//
// Producers inside the learner's process are named "local"; a producer
// elsewhere names itself after its host, its pid and a random number, so
// that no two processes on any machines write the same key. Objects
// appear whole or not at all.
const (
	ConfigKey     = "config.json"
	WeightsPrefix = "weights/"
	ShardsPrefix  = "shards/"
	// CurrentKey names the version the learner published last: producers
	// play that one, not whatever file has the largest number (a stale or
	// stray one would override every later version).
	CurrentKey = "weights/current.json"
)

// WeightsKey is where version v of the published weights lives.
func WeightsKey(v int) string { return fmt.Sprintf("%s%08d.msgpack", WeightsPrefix, v) }

// ShardKey is where a producer's round seq lives.
func ShardKey(producer string, seq int) string {
	return fmt.Sprintf("%s%s-%06d.msgpack", ShardsPrefix, producer, seq)
}

// PublishedNet is a published network and its version.
type PublishedNet struct {
	model.NetFile `msgpack:",inline"`
	Version       int `msgpack:"version"`
}

// Publish writes f as version v of the published weights, then names it
// the current version.
func Publish(ctx context.Context, st *runstore.Store, v int, f model.NetFile) error {
	data, err := store.Encode(model.KindWeights, model.FormatVersion, &PublishedNet{NetFile: f, Version: v})
	if err != nil {
		return err
	}
	if err := st.Write(ctx, WeightsKey(v), data); err != nil {
		return err
	}
	current, _ := json.Marshal(map[string]int{"version": v})
	return st.Write(ctx, CurrentKey, current)
}

// CurrentVersion is the version the learner published last, -1 when it
// has not said (nothing published yet, or a learner from before it did).
func CurrentVersion(ctx context.Context, st *runstore.Store) (int, error) {
	data, err := st.Read(ctx, CurrentKey, 1<<10)
	if errors.Is(err, runstore.ErrNotFound) {
		return -1, nil
	}
	if err != nil {
		return -1, err
	}
	var c struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &c); err != nil || c.Version == nil || *c.Version < 0 {
		return -1, fmt.Errorf("%s is not the learner's: %q", CurrentKey, env.Excerpt(string(data), 60))
	}
	return *c.Version, nil
}

// WeightsVersions lists the published versions, ascending.
func WeightsVersions(ctx context.Context, st *runstore.Store) ([]int, error) {
	keys, err := st.List(ctx, WeightsPrefix)
	if err != nil {
		return nil, err
	}
	var vs []int
	for _, k := range keys {
		v, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(k, WeightsPrefix), ".msgpack"))
		if err == nil && WeightsKey(v) == k {
			vs = append(vs, v)
		}
	}
	return vs, nil
}

// ReadWeights reads version v of the published weights.
func ReadWeights(ctx context.Context, st *runstore.Store, v int) (*model.Weights, error) {
	key := WeightsKey(v)
	data, err := st.Read(ctx, key, store.MaxFileSize)
	if err != nil {
		return nil, err
	}
	var p PublishedNet
	if _, err := store.Decode(data, key, model.KindWeights, model.FormatVersion, &p); err != nil {
		return nil, err
	}
	if p.Weights == nil {
		return nil, fmt.Errorf("%s holds no network", key)
	}
	return p.Weights, nil
}

// NewestWeights returns the network the learner published last (by its
// current version, else the largest number), or version -1 when there is
// none yet.
func NewestWeights(ctx context.Context, st *runstore.Store) (int, *model.Weights, error) {
	cur, err := CurrentVersion(ctx, st)
	if err != nil {
		return -1, nil, err
	}
	vs, err := WeightsVersions(ctx, st)
	if err != nil {
		return -1, nil, err
	}
	for i := len(vs) - 1; i >= 0; i-- {
		if cur >= 0 && vs[i] > cur {
			continue // not the learner's: a stray or stale file
		}
		w, err := ReadWeights(ctx, st, vs[i])
		if errors.Is(err, runstore.ErrNotFound) {
			continue // deleted since the listing: an older one will do
		}
		if err != nil {
			return -1, nil, err
		}
		return vs[i], w, nil
	}
	return -1, nil, nil
}
