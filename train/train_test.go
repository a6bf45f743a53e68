package train

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/runfolder"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// localShardPath is where this process's producers wrote round seq.
func localShardPath(dir string, seq int) string {
	return filepath.Join(dir, selfplay.ShardKey(selfplay.LocalName, seq))
}

// readShard reads round seq of this process's producers.
func readShard(dir string, seq int) (*replay.Shard, error) {
	data, err := os.ReadFile(localShardPath(dir, seq))
	if err != nil {
		return nil, err
	}
	s, _, err := replay.Decode(data, localShardPath(dir, seq), false)
	return s, err
}

// writeShard writes a shard where this process's producers write round
// s.Seq.
func writeShard(dir string, s *replay.Shard) error {
	data, err := replay.Encode(s)
	if err != nil {
		return err
	}
	return store.WriteAtomic(localShardPath(dir, s.Seq), data)
}

// localSeqs lists the rounds of this process's producers in a run's
// storage.
func localSeqs(dir string) []int {
	names, _ := filepath.Glob(filepath.Join(dir, selfplay.ShardsPrefix, selfplay.LocalName+"-*.msgpack"))
	var seqs []int
	for _, n := range names {
		var seq int
		fmt.Sscanf(filepath.Base(n), selfplay.LocalName+"-%06d.msgpack", &seq)
		seqs = append(seqs, seq)
	}
	return seqs
}

// tinyConfig trains a small network on Slider 4x4 in a few seconds.
func tinyConfig() Config {
	c := DefaultConfig()
	c.Game = c.Game.With("size", "4")
	c.Net.Width, c.Net.Depth = 16, 1
	c.Search.Sims = 8
	c.Workers = 1
	c.GamesInFlight = 3
	c.GamesPerRound = 6
	c.ReplayWindow = 400
	c.MinReplay = 32
	c.BatchSize = 16
	c.CheckpointMinutes = 0
	c.SnapshotMinutes = 0
	c.Minutes = 0
	c.Games = 24 // four rounds
	c.Eval.Minutes = 0
	return c
}

// train trains r to its limits and closes it, releasing its folder.
func train(t *testing.T, r *Run) {
	t.Helper()
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Close()
}

// trainNew trains a new run of cfg to its limits and returns its folder.
func trainNew(t *testing.T, cfg Config) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	train(t, r)
	return dir
}

// lastMetrics is a run's last metrics line, parsed and as written.
func lastMetrics(t *testing.T, dir string) (runfolder.Metrics, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, runfolder.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	var m runfolder.Metrics
	if err := json.Unmarshal(lines[len(lines)-1], &m); err != nil {
		t.Fatal(err)
	}
	return m, lines[len(lines)-1]
}

func sameWeights(a, b *model.Weights) error {
	for i := range a.Tensors {
		for j, v := range a.Tensors[i].Data {
			if b.Tensors[i].Data[j] != v {
				return fmt.Errorf("%s[%d]: %v vs %v", a.Tensors[i].Name, j, v, b.Tensors[i].Data[j])
			}
		}
	}
	return nil
}

func TestSameSeedSameRun(t *testing.T) {
	for _, overlap := range []bool{false, true} {
		t.Run(fmt.Sprintf("overlap=%v", overlap), func(t *testing.T) { sameSeedSameRun(t, overlap) })
	}
}

func sameSeedSameRun(t *testing.T, overlap bool) {
	cfg := tinyConfig()
	cfg.Games = 12
	cfg.OverlapTraining = overlap
	var runs []*Run
	for i := 0; i < 2; i++ {
		r, err := Create(filepath.Join(t.TempDir(), "run"), cfg)
		if err != nil {
			t.Fatal(err)
		}
		train(t, r)
		runs = append(runs, r)
	}
	for seq := 1; seq <= 2; seq++ {
		a, err := readShard(runs[0].Dir(), seq)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := readShard(runs[1].Dir(), seq)
		if len(a.Samples) != len(b.Samples) || a.Samples[len(a.Samples)-1].State != b.Samples[len(b.Samples)-1].State {
			t.Fatalf("shard %d differs between runs with the same seed", seq)
		}
	}
	if runs[0].state.Steps == 0 {
		t.Fatal("no training step was taken")
	}
	if err := sameWeights(runs[0].learner.trainer.Weights(), runs[1].learner.trainer.Weights()); err != nil {
		t.Error(err)
	}
}

// Stopping after two rounds and resuming gives exactly the run that never
// stopped: same counters, same shards, same weights to the bit.
func TestResumeContinuesExactly(t *testing.T) {
	for _, overlap := range []bool{false, true} {
		t.Run(fmt.Sprintf("overlap=%v", overlap), func(t *testing.T) { resumeContinuesExactly(t, overlap) })
	}
}

func resumeContinuesExactly(t *testing.T, overlap bool) {
	cfg := tinyConfig()
	cfg.OverlapTraining = overlap
	whole, err := Create(filepath.Join(t.TempDir(), "whole"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	train(t, whole)

	dir := filepath.Join(t.TempDir(), "split")
	half := cfg
	half.Games = 12
	first, err := Create(dir, half)
	if err != nil {
		t.Fatal(err)
	}
	train(t, first)
	second, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	if second.state.Steps != first.state.Steps || second.state.Games != 12 || second.window.Len() != first.window.Len() {
		t.Fatalf("resumed at step %d, %d games, replay %d; stopped at step %d, replay %d",
			second.state.Steps, second.state.Games, second.window.Len(), first.state.Steps, first.window.Len())
	}
	second.SetLimits(0, 0, cfg.Games)
	train(t, second)
	w, s := whole.state, second.state
	if w.Steps != s.Steps || w.Games != s.Games || w.Positions != s.Positions || w.Round != s.Round || w.SamplesTrained != s.SamplesTrained {
		t.Fatalf("counters differ: whole %+v, resumed %+v", counters(w), counters(s))
	}
	if err := sameWeights(whole.learner.trainer.Weights(), second.learner.trainer.Weights()); err != nil {
		t.Errorf("weights differ after resuming: %v", err)
	}
	seqs := localSeqs(dir)
	if fmt.Sprint(seqs) != "[1 2 3 4]" {
		t.Errorf("shards %v, want 1 to 4 once each", seqs)
	}
	// The metrics log has one line per round.
	data, _ := os.ReadFile(filepath.Join(dir, runfolder.MetricsFile))
	if n := strings.Count(string(data), "\n"); n != 4 {
		t.Errorf("%d metrics lines, want 4", n)
	}
}

func counters(c Checkpoint) string {
	return fmt.Sprintf("steps=%d games=%d positions=%d round=%d trained=%d", c.Steps, c.Games, c.Positions, c.Round, c.SamplesTrained)
}

// runWithALaterShard trains a tiny run for two rounds, then writes a third
// round's shard as a kill after self-play and before the next checkpoint
// would leave it.
func runWithALaterShard(t *testing.T) (string, *Run) {
	t.Helper()
	cfg := tinyConfig()
	cfg.Games = 12
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	train(t, r)
	extra := &replay.Shard{Seq: 3, Game: cfg.Game, Games: 1, Plies: 2, Samples: []replay.Sample{r.window.Oldest(0), r.window.Oldest(1)},
		Producer: selfplay.LocalName, WeightsVersion: r.state.Published - 1}
	if err := writeShard(dir, extra); err != nil {
		t.Fatal(err)
	}
	return dir, r
}

// A shard written after the last checkpoint (a kill between self-play and
// the next checkpoint) is kept and counted once.
func TestResumeKeepsShardsAfterTheCheckpoint(t *testing.T) {
	dir, r := runWithALaterShard(t)
	back, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.state.Round != 3 || back.state.Games != 13 || back.state.Positions != r.state.Positions+2 {
		t.Errorf("after resuming: %s", counters(back.state))
	}
	// The round the stop cut off has its metrics line (self-play's
	// figures), the last of the log.
	back.Close()
	data, _ := os.ReadFile(filepath.Join(dir, runfolder.MetricsFile))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"round":3,`) {
		t.Errorf("the metrics log ends %s, want round 3's line", last)
	}
}

func TestRefusals(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Resume(dir); err == nil || !strings.Contains(err.Error(), "no run") {
		t.Errorf("resume of an empty folder: %v", err)
	}
	r, err := Create(dir, tinyConfig())
	if err != nil {
		t.Fatal(err)
	}
	// While the run is open, nothing else may train its folder.
	if _, err := Resume(dir); err == nil || !strings.Contains(err.Error(), "already open for training") {
		t.Errorf("resume of an open run: %v", err)
	}
	r.Close()
	if _, err := Create(dir, tinyConfig()); err == nil || !strings.Contains(err.Error(), "already holds a run") {
		t.Errorf("second create: %v", err)
	}
	path := filepath.Join(dir, CheckpointFile)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)/2], 0o644)
	if _, err := Resume(dir); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("truncated checkpoint: %v", err)
	}
	bad := tinyConfig()
	bad.BatchSize = 0
	if _, err := Create(filepath.Join(t.TempDir(), "x"), bad); err == nil || !strings.Contains(err.Error(), "batch_size") {
		t.Errorf("bad config: %v", err)
	}
	cfgPath := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(cfgPath, []byte(`{"batch_sise": 3}`), 0o644)
	if _, err := LoadConfig(cfgPath); err == nil || !strings.Contains(err.Error(), "batch_sise") {
		t.Errorf("misspelt field: %v", err)
	}
}
