//go:build cloud

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/runstore/s3test"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// loggedProc is a command of the test's with its stderr in a file.
type loggedProc struct {
	cmd  *exec.Cmd
	log  string
	done chan struct{}
}

func startLogged(t *testing.T, log string, args ...string) *loggedProc {
	t.Helper()
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := exec.Command(binary, args...)
	c.Stdout, c.Stderr = f, f
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	p := &loggedProc{cmd: c, log: log, done: make(chan struct{})}
	go func() { c.Wait(); close(p.done) }()
	t.Cleanup(func() { c.Process.Kill(); <-p.done })
	return p
}

func (p *loggedProc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *loggedProc) text() string {
	b, _ := os.ReadFile(p.log)
	return string(b)
}

// A trainer and two self-play processes over a bucket of a real S3
// server, SeaweedFS on loopback (skipped without its weed binary: see
// s3test.WeedHint). The server is stopped and started again mid-run:
// every process says it waits for the storage and then that it answers
// again, none exits, and the run goes on (new shards, new weights). At
// the end every shard a producer logged is in the bucket, none was taken
// twice, and the games played add up: taken + dropped as stale + set
// aside + not taken yet.
func TestDistributedRealS3(t *testing.T) {
	w := s3test.StartWeed(t, "dist")
	tmp := t.TempDir()
	cfg := train.DefaultConfig()
	cfg.Game = cfg.Game.With("size", "4")
	cfg.Net.Width, cfg.Net.Depth = 16, 1
	cfg.Search.Sims = 8
	cfg.GamesPerRound, cfg.GamesInFlight = 6, 3
	cfg.ReplayWindow, cfg.MinReplay, cfg.BatchSize = 2000, 64, 32
	cfg.CheckpointMinutes, cfg.SnapshotMinutes, cfg.Minutes = 0, 0, 1000
	cfg.Eval.Minutes, cfg.KeepShards = 0, 0
	cfgPath := filepath.Join(tmp, "config.json")
	os.WriteFile(cfgPath, cfg.JSON(), 0o644)
	dir := filepath.Join(tmp, "trainer")
	trainer := startLogged(t, filepath.Join(tmp, "trainer.log"), "train", "--config", cfgPath, "--run", dir,
		"--selfplay", "external", "--shared", w.URL, "--storage-wait", "2m", "--every-round")
	procs := []*loggedProc{trainer}
	for i := range 2 {
		procs = append(procs, startLogged(t, filepath.Join(tmp, "selfplay"+strconv.Itoa(i)+".log"),
			"selfplay", "--run", w.URL, "--workers", "1", "--storage-wait", "2m"))
	}
	ctx := context.Background()
	st, err := runstore.Open(ctx, w.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	before := waitForShards(t, st, 6, procs)
	w.Stop()
	time.Sleep(3 * time.Second)
	w.Start()
	waitForShards(t, st, before+6, procs)
	for _, p := range procs {
		if p.exited() {
			t.Fatalf("%s exited:\n%s", p.log, p.text())
		}
		if out := p.text(); !strings.Contains(out, "waiting for the storage") || !strings.Contains(out, "answers again after") {
			t.Errorf("%s has no lines of a wait for the storage:\n%s", p.log, out)
		}
	}
	for _, p := range procs[1:] {
		p.cmd.Process.Kill()
		<-p.done
	}
	trainer.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-trainer.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("the trainer did not stop on an interrupt:\n%s", trainer.text())
	}
	checkTotals(t, st, dir, procs[1:])
}

// waitForShards waits (at most 40 s) until the bucket holds n shards and
// returns how many it holds.
func waitForShards(t *testing.T, st *runstore.Store, n int, procs []*loggedProc) int {
	t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for {
		keys, err := st.List(context.Background(), selfplay.ShardsPrefix)
		if err == nil && len(keys) >= n {
			return len(keys)
		}
		if time.Now().After(deadline) {
			for _, p := range procs {
				t.Logf("%s:\n%s", p.log, p.text())
			}
			t.Fatalf("%d shards after 40 s (%v), waiting for %d", len(keys), err, n)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var loggedShard = regexp.MustCompile(`(shards/\S+\.msgpack): (\d+) games`)

// checkTotals adds up a run's games: those the producers logged are in
// the bucket, and the bucket's are taken (used or dropped), set aside or
// not taken yet, each once.
func checkTotals(t *testing.T, st *runstore.Store, dir string, producers []*loggedProc) {
	t.Helper()
	ctx := context.Background()
	ck, err := readCheckpoint(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := st.List(ctx, selfplay.ShardsPrefix)
	if err != nil {
		t.Fatal(err)
	}
	played := map[string]int64{}
	var games int64
	for _, k := range keys {
		n, err := shardGames(ctx, st, k)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		played[k], games = n, games+n
	}
	for _, p := range producers {
		for _, m := range loggedShard.FindAllStringSubmatch(p.text(), -1) {
			if n, _ := strconv.ParseInt(m[2], 10, 64); played[m[1]] != n {
				t.Errorf("%s logged %s with %d games; the bucket has %d", p.log, m[1], n, played[m[1]])
			}
		}
	}
	taken := map[string]bool{}
	var used, dropped, aside int64
	for _, s := range ck.Taken {
		if taken[s.Key] {
			t.Errorf("%s taken twice", s.Key)
		}
		taken[s.Key] = true
		switch n := played[s.Key]; {
		case s.Used:
			used += n
		case s.Games > 0:
			dropped += n
		default:
			aside++
		}
	}
	var pending int64
	for k, n := range played {
		if !taken[k] {
			pending += n
		}
	}
	if used != ck.Games || dropped != ck.DroppedGames || used+dropped+pending != games || aside != 0 {
		t.Errorf("games played %d; taken %d (checkpoint: %d), dropped %d (checkpoint: %d), set aside %d shards, not taken yet %d",
			games, used, ck.Games, dropped, ck.DroppedGames, aside, pending)
	}
	t.Logf("%d shards, %d games played: %d taken, %d dropped as stale, %d not taken yet; %d weights versions, %d steps",
		len(keys), games, used, dropped, pending, ck.Published, ck.Steps)
}
