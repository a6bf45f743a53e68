package train

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sliderzero/sliderzero/train/replay"
)

// A run folder written before one pipeline (testdata/legacy-run: two rounds
// of a tiny 4x4 run, its shards in replay/shard-NNNNNN.msgpack) resumes:
// its counts, its window and its shards carry over, and it trains on with
// its old shards counted beside the new ones.
func TestLegacyRunResumes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "legacy")
	if err := os.CopyFS(dir, os.DirFS("testdata/legacy-run")); err != nil {
		t.Fatal(err)
	}
	r, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.state.Games != 12 || r.state.Round != 2 || len(r.state.Taken) != 2 || r.window.Len() != 400 {
		t.Fatalf("resumed a legacy run at %s, %d shards taken, window %d", counters(r.state), len(r.state.Taken), r.window.Len())
	}
	r.SetLimits(0, 0, 24)
	train(t, r)
	keys, games, positions, err := ReplayTotals(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 4 || games != r.state.Games || positions != r.state.Positions || r.state.Round != 4 {
		t.Errorf("shards %v hold %d games, %d positions; the checkpoint %s", keys, games, positions, counters(r.state))
	}
}

// An external run's checkpoint from before one pipeline recorded the
// shards it took as keys and sizes, with the first few pruned: they become
// Taken, less the pruned.
func TestOldExternalRecordMigrates(t *testing.T) {
	dir := t.TempDir()
	r, err := Create(filepath.Join(dir, "run"), tinyConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ck := Checkpoint{Ingested: []string{"shards/a-000001.msgpack", "shards/a-000002.msgpack", "shards/b-000001.msgpack", "shards/a-000003.msgpack"},
		IngestedSize: []int32{10, 20, 0, 30}, PrunedShared: 1}
	if err := r.intake.migrate(context.Background(), &ck); err != nil {
		t.Fatal(err)
	}
	want := []TakenShard{{Key: "shards/a-000002.msgpack", Positions: 20, Used: true}, {Key: "shards/b-000001.msgpack"}, {Key: "shards/a-000003.msgpack", Positions: 30, Used: true}}
	if len(ck.Taken) != len(want) || ck.Ingested != nil {
		t.Fatalf("taken %+v", ck.Taken)
	}
	for i := range want {
		if ck.Taken[i] != want[i] {
			t.Errorf("taken %d: %+v, want %+v", i, ck.Taken[i], want[i])
		}
	}
}

// A damaged shard in the storage is set aside, not fatal, and the rounds go
// on.
func TestDamagedShardIsSetAside(t *testing.T) {
	_, dir, _, s := oneRound(t)
	s.Seq = 2
	data, _ := replay.Encode(s)
	data[len(data)-20] ^= 0xff
	os.WriteFile(localShardPath(dir, 2), data, 0o644)
	back := resumeTo(t, dir, 12)
	if back.state.Games != 12 {
		t.Errorf("after a damaged shard: %s", counters(back.state))
	}
	if _, err := os.Stat(filepath.Join(dir, "rejected", "local-000002.msgpack")); err != nil {
		t.Errorf("the damaged shard was not set aside: %v", err)
	}
}
