// Which shards the learner trusts: another producer's shard played with
// weights too far behind the newest is dropped (its games counted as
// dropped); this process's own shards are finished games of networks a
// stop lost and are kept whatever their version; a damaged shard is set
// aside and counted.

package train

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// oneRound trains a tiny run for one round of six games and returns its
// configuration, folder, run (closed) and the round's shard.
func oneRound(t *testing.T) (Config, string, *Run, *replay.Shard) {
	t.Helper()
	cfg := tinyConfig()
	cfg.Games = 6
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	train(t, r)
	s, err := readShard(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, dir, r, s
}

// resumeTo resumes the run in dir and trains it to games games.
func resumeTo(t *testing.T, dir string, games int64) *Run {
	t.Helper()
	back, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	back.SetLimits(0, 0, games)
	train(t, back)
	return back
}

func TestStaleShardsOfOtherProducersAreDropped(t *testing.T) {
	cfg, dir, r, s := oneRound(t)
	stale := r.state.Published - 1 - cfg.maxLag() - 1
	// Another producer's round, too far behind.
	other := *s
	other.Producer, other.WeightsVersion = "other", stale
	data, _ := replay.Encode(&other)
	if err := os.WriteFile(filepath.Join(dir, selfplay.ShardKey("other", 1)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	// This process's next round, as far behind.
	own := *s
	own.Seq, own.WeightsVersion = 2, stale
	data, _ = replay.Encode(&own)
	os.WriteFile(localShardPath(dir, 2), data, 0o644)
	back := resumeTo(t, dir, 12)
	used := map[string]bool{}
	for _, k := range back.state.Taken {
		used[k.Key] = k.Used
	}
	if u, taken := used[selfplay.ShardKey("other", 1)]; !taken || u {
		t.Errorf("the other producer's stale shard: taken %v, used %v; want taken and dropped", taken, u)
	}
	if !used[selfplay.ShardKey(selfplay.LocalName, 2)] {
		t.Errorf("this process's own shard was dropped for its version")
	}
	if back.state.DroppedGames != int64(other.Games) {
		t.Errorf("%d games dropped, want the stale shard's %d", back.state.DroppedGames, other.Games)
	}
}

// A shard that cannot be read is set aside (moved under rejected/) and
// counted; the good one beside it is taken.
func TestSetAsideShardsAreCounted(t *testing.T) {
	cfg, dir, r, s := oneRound(t)
	ctx := context.Background()
	st, err := runstore.Open(ctx, filepath.Join(t.TempDir(), "shared"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	good, _ := replay.Encode(s)
	bad := append([]byte(nil), good...)
	bad[len(bad)-20] ^= 0xff
	st.Write(ctx, selfplay.ShardKey("a", 1), good)
	st.Write(ctx, selfplay.ShardKey("b", 1), bad)
	ck := Checkpoint{Published: 1}
	in := newIntake(st, dir, cfg, r.game, replay.NewWindow(cfg.ReplayWindow), func(string, ...any) {})
	keys, err := in.pending(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := in.take(ctx, &ck, keys)
	if err != nil {
		t.Fatal(err)
	}
	if got.Shards != 1 || got.SetAside != 1 || got.Games != s.Games {
		t.Errorf("took %d shards (%d games), set aside %d; want 1 (%d games) and 1", got.Shards, got.Games, got.SetAside, s.Games)
	}
}
