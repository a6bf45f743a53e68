package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// intake takes the producers' shards from the run's storage into the
// window: one path, whether the producers are goroutines of this process,
// other processes or other machines. It lists the shards not yet taken,
// reads them, sets aside those that do not fit the run, drops those played
// with weights too old, and prunes the storage under keep_shards.
type intake struct {
	store  *runstore.Store
	dir    string // the run folder, for pruned.json
	spec   registry.Spec
	game   env.Game
	cfg    Config
	window *replay.Window
	taken  map[string]bool
	logf   func(format string, args ...any)
}

// maxShardsPerRound bounds what one round takes, so that rounds, and the
// time between published weights, stay short however many producers write.
const maxShardsPerRound = 32

// rejectedPrefix is where shards that do not fit the run are set aside.
const rejectedPrefix = "rejected/"

// legacyShardsPrefix is where runs before one pipeline kept their shards
// (replay/shard-NNNNNN.msgpack, with replay/pruned.json).
const legacyShardsPrefix = "replay/"

func newIntake(st *runstore.Store, dir string, cfg Config, g env.Game, window *replay.Window, logf func(string, ...any)) *intake {
	return &intake{store: st, dir: dir, spec: cfg.Game, game: g, cfg: cfg, window: window, taken: map[string]bool{}, logf: logf}
}

// remember marks the checkpoint's shards as taken.
func (in *intake) remember(ck *Checkpoint) {
	clear(in.taken)
	for _, t := range ck.Taken {
		in.taken[t.Key] = true
	}
}

// pending lists the shards not yet taken, in key order, at most limit
// (0: all).
func (in *intake) pending(ctx context.Context, limit int) ([]string, error) {
	keys, err := in.store.List(ctx, selfplay.ShardsPrefix)
	if err != nil {
		return nil, err
	}
	var fresh []string
	for _, k := range keys {
		if !in.taken[k] {
			fresh = append(fresh, k)
		}
	}
	fresh = fairOrder(fresh)
	if limit > 0 && len(fresh) > limit {
		fresh = fresh[:limit]
	}
	return fresh, nil
}

// fairOrder interleaves shard keys (sorted) by producer: each producer's
// oldest, then each one's next, and so on, producers by name. In key order
// a round's limit went to the first producers by name, and the others'
// games waited for ever while those kept writing.
func fairOrder(keys []string) []string {
	var producers []string
	queues := map[string][]string{}
	for _, k := range keys {
		base := path.Base(k)
		p := base
		if i := strings.LastIndexByte(base, '-'); i > 0 {
			p = base[:i]
		}
		if _, ok := queues[p]; !ok {
			producers = append(producers, p)
		}
		queues[p] = append(queues[p], k)
	}
	out := make([]string, 0, len(keys))
	for len(out) < len(keys) {
		for _, p := range producers {
			if q := queues[p]; len(q) > 0 {
				out = append(out, q[0])
				queues[p] = q[1:]
			}
		}
	}
	return out
}

// take reads the shards under keys into the window and the checkpoint's
// counts. A shard gone since the listing is skipped; one that cannot be
// read, or holds another game's positions, is set aside (moved under
// rejected/) with a log line; one played with weights more than
// max_weights_lag versions old is dropped. None of these stops the run.
func (in *intake) take(ctx context.Context, ck *Checkpoint, keys []string) (intakeStats, error) {
	var st intakeStats
	for _, key := range keys {
		data, err := in.store.Read(ctx, key, replay.MaxShardFileSize)
		if errors.Is(err, runstore.ErrNotFound) {
			continue
		}
		if err != nil && !errors.Is(err, runstore.ErrUnfit) {
			return st, err
		}
		var s *replay.Shard
		if err == nil {
			s, _, err = replay.Decode(data, key, false)
		}
		if err == nil {
			err = s.CheckGame(key, in.spec, in.game)
		}
		if err != nil {
			in.setAside(ctx, key, err)
			st.SetAside++
			in.record(ck, TakenShard{Key: key})
			continue
		}
		t := TakenShard{Key: key, Games: int32(s.Games), Positions: int32(len(s.Samples))}
		// Versions are counted from the learner's newest. This process's
		// producers are never behind; their shards written after the last
		// checkpoint, by networks a stop lost, are finished games and are
		// kept. Another producer's shard that claims a version far newer
		// than the newest is not trusted to be recent.
		lag := ck.Published - 1 - s.WeightsVersion
		if s.Producer != selfplay.LocalName && (lag > in.cfg.maxLag() || lag < -in.cfg.maxLag()) {
			ck.DroppedGames += int64(s.Games)
			st.Dropped += s.Games
			in.record(ck, t)
			continue
		}
		t.Used = true
		in.record(ck, t)
		in.window.Add(s.Samples)
		ck.Games += int64(s.Games)
		ck.Positions += int64(len(s.Samples))
		st.add(s)
	}
	return st, nil
}

func (in *intake) record(ck *Checkpoint, t TakenShard) {
	ck.Taken = append(ck.Taken, t)
	in.taken[t.Key] = true
}

// setAside moves a shard that does not fit the run under rejected/, so
// that it is looked at by a person and not read again.
func (in *intake) setAside(ctx context.Context, key string, why error) {
	to := rejectedPrefix + strings.TrimPrefix(key, selfplay.ShardsPrefix)
	in.logf("setting %s aside as %s: %v", key, to, env.Excerpt(why.Error(), 300))
	if err := in.store.Move(ctx, key, to); err != nil && !errors.Is(err, runstore.ErrNotFound) {
		in.logf("could not set %s aside (it stays, not read again this run): %v", key, err)
	}
}

// rebuild fills the window from the shards the checkpoint says were used,
// newest first; shards gone from the storage are skipped.
func (in *intake) rebuild(ctx context.Context, ck *Checkpoint) error {
	var shards []*replay.Shard
	need := in.cfg.ReplayWindow
	for i := len(ck.Taken) - 1; i >= 0 && need > 0; i-- {
		t := ck.Taken[i]
		if !t.Used {
			continue
		}
		data, err := in.store.Read(ctx, t.Key, replay.MaxShardFileSize)
		if errors.Is(err, runstore.ErrNotFound) {
			continue
		}
		if err != nil && !errors.Is(err, runstore.ErrUnfit) {
			return err
		}
		var s *replay.Shard
		if err == nil {
			s, _, err = replay.Decode(data, t.Key, false)
		}
		if err == nil {
			err = s.CheckGame(t.Key, in.spec, in.game)
		}
		if err != nil {
			// A shard damaged since it was taken: the window is rebuilt
			// without it rather than the run refusing to resume.
			in.setAside(ctx, t.Key, err)
			continue
		}
		shards = append(shards, s)
		need -= len(s.Samples)
	}
	slices.Reverse(shards)
	for _, s := range shards {
		in.window.Add(s.Samples)
	}
	return nil
}

// prunedFile records the shards a run deleted under keep_shards: their
// totals, so that the run's counts still add up, and the keys of the last
// deletion, written before it, so that a stop in the middle of one is
// finished at the next start.
const prunedFile = "pruned.json"

type prunedRecord struct {
	Shards    int      `json:"shards"`
	Games     int64    `json:"games"`
	Positions int64    `json:"positions"`
	Last      []string `json:"last,omitempty"`
}

func readPruned(path string) (prunedRecord, error) {
	var p prunedRecord
	data, err := store.ReadFile(path, 1<<24)
	if errors.Is(err, store.ErrNotFound) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// prune deletes the shards older than the window needs, but for the
// keep_shards newest of those.
func (in *intake) prune(ctx context.Context, ck *Checkpoint) error {
	keep := in.cfg.KeepShards
	if keep <= 0 {
		return nil
	}
	need, first := int64(in.cfg.ReplayWindow), len(ck.Taken)
	for first > 0 && need > 0 {
		first--
		if ck.Taken[first].Used {
			need -= int64(ck.Taken[first].Positions)
		}
	}
	cut := first - keep
	if cut <= 0 {
		return nil
	}
	path := filepath.Join(in.dir, prunedFile)
	p, err := readPruned(path)
	if err != nil {
		return err
	}
	p.Last = p.Last[:0]
	for _, t := range ck.Taken[:cut] {
		p.Shards++
		p.Games += int64(t.Games)
		p.Positions += int64(t.Positions)
		p.Last = append(p.Last, t.Key)
	}
	data, _ := json.Marshal(p)
	if err := store.WriteAtomic(path, data); err != nil {
		return err
	}
	return in.finishPrune(ctx, ck, p.Last)
}

// finishPrune deletes the shards of a deletion recorded in pruned.json and
// forgets them.
func (in *intake) finishPrune(ctx context.Context, ck *Checkpoint, keys []string) error {
	gone := map[string]bool{}
	for _, k := range keys {
		if err := in.store.Delete(ctx, k); err != nil {
			return err
		}
		gone[k] = true
	}
	ck.Taken = slices.DeleteFunc(ck.Taken, func(t TakenShard) bool { return gone[t.Key] })
	in.remember(ck)
	return nil
}

// resumePrune finishes a deletion that a stop interrupted.
func (in *intake) resumePrune(ctx context.Context, ck *Checkpoint) error {
	p, err := readPruned(filepath.Join(in.dir, prunedFile))
	if err != nil || len(p.Last) == 0 {
		return err
	}
	return in.finishPrune(ctx, ck, p.Last)
}

// migrate turns the record of shards of a checkpoint written before one
// pipeline into Taken: an external run's Ingested keys, or a run's own
// replay/shard-NNNNNN.msgpack files up to its round (later ones are
// pending, and taken as any other).
func (in *intake) migrate(ctx context.Context, ck *Checkpoint) error {
	if len(ck.Ingested) > 0 {
		for i, k := range ck.Ingested {
			if i < ck.PrunedShared {
				continue // deleted already
			}
			var n int32
			if i < len(ck.IngestedSize) {
				n = ck.IngestedSize[i]
			}
			ck.Taken = append(ck.Taken, TakenShard{Key: k, Positions: n, Used: n > 0})
		}
		ck.Ingested, ck.IngestedSize, ck.PrunedShared = nil, nil, 0
		return nil
	}
	if len(ck.Taken) > 0 {
		return nil
	}
	keys, err := in.store.List(ctx, legacyShardsPrefix)
	if err != nil {
		return err
	}
	var later []string
	for _, k := range keys {
		var seq int
		if _, err := fmt.Sscanf(strings.TrimPrefix(k, legacyShardsPrefix), "shard-%06d.msgpack", &seq); err != nil {
			continue
		}
		if seq > ck.Round {
			later = append(later, k)
			continue
		}
		data, err := in.store.Read(ctx, k, replay.MaxShardFileSize)
		if err != nil {
			return err
		}
		s, n, err := replay.Decode(data, k, true)
		if err != nil {
			return err
		}
		ck.Taken = append(ck.Taken, TakenShard{Key: k, Games: int32(s.Games), Positions: int32(n), Used: true})
	}
	in.remember(ck)
	if len(later) == 0 {
		return nil
	}
	st, err := in.take(ctx, ck, later)
	if err == nil && st.Shards > 0 {
		ck.Round += st.Shards
		in.logf("kept %d shards written after the checkpoint: %d games", st.Shards, st.Games)
	}
	return err
}

// ReplayTotals lists the shards in a run folder's storage (keys, sorted)
// and counts the games and positions of every shard the run wrote there,
// those deleted under keep_shards included (by pruned.json). With
// producers elsewhere the shards are not in the folder.
func ReplayTotals(dir string) (keys []string, games, positions int64, err error) {
	p, err := readPruned(filepath.Join(dir, prunedFile))
	if err != nil {
		return nil, 0, 0, err
	}
	old, err := readPruned(filepath.Join(dir, legacyShardsPrefix, prunedFile))
	if err != nil {
		return nil, 0, 0, err
	}
	games, positions = p.Games+old.Games, p.Positions+old.Positions
	deleted := map[string]bool{}
	for _, k := range p.Last {
		deleted[k] = true
	}
	for _, prefix := range []string{selfplay.ShardsPrefix, legacyShardsPrefix} {
		entries, err := os.ReadDir(filepath.Join(dir, prefix))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, 0, 0, err
		}
		for _, e := range entries {
			key := prefix + e.Name()
			if !strings.HasSuffix(key, ".msgpack") || strings.HasPrefix(e.Name(), ".") || deleted[key] {
				continue
			}
			data, err := store.ReadFile(filepath.Join(dir, key), replay.MaxShardFileSize)
			if err != nil {
				return nil, 0, 0, err
			}
			s, n, err := replay.Decode(data, key, true)
			if err != nil {
				return nil, 0, 0, err
			}
			keys = append(keys, key)
			games += int64(s.Games)
			positions += int64(n)
		}
	}
	sort.Strings(keys)
	return keys, games, positions, nil
}
