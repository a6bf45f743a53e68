package main

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train"
)

// Three self-play processes and a trainer meet in a folder, then in a
// bucket of an S3 server on loopback (in the cloud build: go test -tags
// cloud). A worker and the trainer are killed
// with SIGKILL at random moments and started again. Afterwards every shard
// in the storage is whole, none was taken twice, the trainer's counts are
// the totals of the shards it took, and it resumed.
func TestDistributedSelfPlay(t *testing.T) {
	locations := map[string]string{
		"folder": "file://" + filepath.ToSlash(filepath.Join(t.TempDir(), "shared")),
	}
	if loc := s3Bucket(t); loc != "" {
		locations["s3"] = loc
	}
	for name, loc := range locations {
		t.Run(name, func(t *testing.T) { distributed(t, loc) })
	}
}

func distributed(t *testing.T, loc string) {
	rng := rand.New(rand.NewPCG(3, 3))
	tmp := t.TempDir()
	cfg := train.DefaultConfig()
	cfg.Game = cfg.Game.With("size", "4")
	cfg.Net.Width, cfg.Net.Depth = 16, 1
	cfg.Search.Sims = 8
	cfg.GamesPerRound, cfg.GamesInFlight = 6, 3
	cfg.ReplayWindow, cfg.MinReplay, cfg.BatchSize = 2000, 64, 32
	cfg.CheckpointMinutes, cfg.SnapshotMinutes, cfg.Minutes = 0, 0, 1000
	cfg.Eval.Minutes = 0
	// Every shard stays, so that the test can add up all that was taken
	// (pruning is tested in train).
	cfg.KeepShards = 0
	cfgPath := filepath.Join(tmp, "config.json")
	os.WriteFile(cfgPath, cfg.JSON(), 0o644)
	dir := filepath.Join(tmp, "trainer")
	start := func(args ...string) *exec.Cmd {
		c := exec.Command(binary, args...)
		c.Env = os.Environ()
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	kill := func(c *exec.Cmd) {
		c.Process.Kill()
		c.Wait()
	}
	trainer := start("train", "--config", cfgPath, "--run", dir, "--selfplay", "external", "--shared", loc, "--quiet")
	var workers []*exec.Cmd
	for i := 0; i < 3; i++ {
		workers = append(workers, start("selfplay", "--run", loc, "--workers", "1", "--quiet"))
	}
	time.Sleep(time.Duration(1500+rng.IntN(1500)) * time.Millisecond)
	kill(workers[0])
	workers[0] = start("selfplay", "--run", loc, "--workers", "1", "--quiet")
	time.Sleep(time.Duration(500+rng.IntN(1500)) * time.Millisecond)
	kill(trainer)
	before, err := readCheckpoint(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(binary, "train", "--resume", dir, "--minutes", "0.03", "--selfplay", "external", "--shared", loc, "--quiet").CombinedOutput()
	for _, w := range workers {
		kill(w)
	}
	if err != nil {
		t.Fatalf("the resumed trainer: %v\n%s", err, out)
	}
	ck, err := readCheckpoint(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := runstore.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	keys, err := st.List(ctx, "shards/")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		data, err := st.Read(ctx, k, store.MaxFileSize)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.Decode(data, k, "shard", 2, new(struct{})); err != nil {
			t.Errorf("%s is not whole: %v", k, err)
		}
	}
	seen := map[string]bool{}
	var games int64
	for _, sh := range ck.Taken {
		k := sh.Key
		if seen[k] {
			t.Errorf("%s taken twice", k)
		}
		seen[k] = true
		n, err := shardGames(ctx, st, k)
		if err != nil {
			t.Fatal(err)
		}
		games += n
	}
	if games-ck.DroppedGames != ck.Games || ck.Games <= before.Games || ck.Steps <= before.Steps {
		t.Errorf("shards taken: %d games, %d dropped; checkpoint: %d games, %d steps (before the resume: %d games, %d steps)", games, ck.DroppedGames, ck.Games, ck.Steps, before.Games, before.Steps)
	}
	t.Logf("%s: %d shards written, %d taken, %d games, %d dropped as too old, %d weights versions", loc[:2], len(keys), len(ck.Taken), ck.Games, ck.DroppedGames, ck.Published)
}

// shardGames reads the game count of a shard in storage.
func shardGames(ctx context.Context, st *runstore.Store, key string) (int64, error) {
	data, err := st.Read(ctx, key, store.MaxFileSize)
	if err != nil {
		return 0, err
	}
	var f struct {
		Games int64 `msgpack:"games"`
	}
	_, err = store.Decode(data, key, "shard", 2, &f)
	return f.Games, err
}
