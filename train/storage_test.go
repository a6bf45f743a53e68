// Tests of what a run keeps: samples, shards of another game, metrics
// after a kill, the window, averaged weights, the plies head.

package train

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/runfolder"
)

// With playout cap randomisation only the full searches become samples;
// the fast ones still play the games on.
func TestFastSearchesAreNotSamples(t *testing.T) {
	cfg := tinyConfig()
	cfg.Search.FastProb, cfg.Search.FastSims = 0.75, 2
	r, err := Create(filepath.Join(t.TempDir(), "run"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	train(t, r)
	var plies, samples int
	for _, seq := range localSeqs(r.Dir()) {
		s, err := readShard(r.Dir(), seq)
		if err != nil {
			t.Fatal(err)
		}
		plies += s.Plies
		samples += len(s.Samples)
	}
	if samples == 0 || samples > plies/2 {
		t.Errorf("%d samples from %d plies with three moves in four fast", samples, plies)
	}
	cfg.Search.FastSims = cfg.Search.Sims + 1
	if err := cfg.Check(); err == nil {
		t.Error("fast searches larger than full ones accepted")
	}
}

// A shard of another game in a run's storage is set aside on resume (moved
// under rejected/, with a log line naming both games), and the run goes
// on; so is an old shard (no game recorded) whose positions do not fit.
func TestShardsOfAnotherGameAreSetAside(t *testing.T) {
	small := tinyConfig() // 4x4
	a, err := Create(filepath.Join(t.TempDir(), "small"), small)
	if err != nil {
		t.Fatal(err)
	}
	train(t, a)
	big := tinyConfig()
	big.Game = big.Game.With("size", "5")
	dir := filepath.Join(t.TempDir(), "big")
	b, err := Create(dir, big)
	if err != nil {
		t.Fatal(err)
	}
	train(t, b)
	foreign, err := readShard(a.Dir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	foreign.Seq = 99
	if err := writeShard(dir, foreign); err != nil {
		t.Fatal(err)
	}
	old, _ := replay.EncodeV1(&replay.Shard{Seq: 98, Games: foreign.Games, Plies: foreign.Plies, Samples: foreign.Samples})
	os.WriteFile(localShardPath(dir, 98), old, 0o644)
	back, err := Resume(dir)
	if err != nil {
		t.Fatalf("a 4x4 shard in a 5x5 run stopped it: %v", err)
	}
	back.Close()
	if back.state.Games != b.state.Games || back.state.Round != b.state.Round {
		t.Errorf("foreign shards were counted: %s, before %s", counters(back.state), counters(b.state))
	}
	for _, seq := range []int{98, 99} {
		if _, err := os.Stat(localShardPath(dir, seq)); err == nil {
			t.Errorf("shard %d left among the shards", seq)
		}
		if _, err := os.Stat(filepath.Join(dir, "rejected", fmt.Sprintf("local-%06d.msgpack", seq))); err != nil {
			t.Errorf("shard %d not set aside: %v", seq, err)
		}
	}
}

// A kill after a round's shard and metrics line were written but before
// its training reached a checkpoint: the shard is kept, so its metrics
// line is kept too, with the checkpoint's steps and no losses; a line cut
// short is dropped.
func TestMetricsAgreeWithShardsAfterAKill(t *testing.T) {
	dir, r := runWithALaterShard(t)
	lost := runfolder.Metrics{Round: 3, Steps: r.state.Steps + 50, Games: r.state.Games + 1, PolicyLoss: 1.2, Elo: new(float64)}
	line, _ := json.Marshal(lost)
	f, _ := os.OpenFile(filepath.Join(dir, runfolder.MetricsFile), os.O_APPEND|os.O_WRONLY, 0o644)
	f.Write(append(line, '\n'))
	f.Write([]byte(`{"round":4,"steps":`)) // cut short by the kill
	f.Close()
	back, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	back.Close()
	data, _ := os.ReadFile(filepath.Join(dir, runfolder.MetricsFile))
	var rounds []int
	var last int64
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var m runfolder.Metrics
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("a line that does not parse: %q", l)
		}
		if m.Steps < last {
			t.Errorf("steps go back at round %d: %d after %d", m.Round, m.Steps, last)
		}
		last = m.Steps
		rounds = append(rounds, m.Round)
		if m.Round == 3 && (m.Steps != back.state.Steps || m.PolicyLoss != 0 || m.Elo != nil) {
			t.Errorf("round 3 keeps lost training: %s", l)
		}
	}
	if fmt.Sprint(rounds) != "[1 2 3]" || back.state.Round != 3 {
		t.Errorf("metrics rounds %v, checkpoint round %d", rounds, back.state.Round)
	}
}

// keep_shards deletes the shards the window no longer needs, beyond the
// newest few, and the run's counts still add up; a resumed run goes on.
func TestKeepShards(t *testing.T) {
	cfg := tinyConfig()
	cfg.GamesPerRound, cfg.Games = 2, 24 // twelve small rounds
	cfg.ReplayWindow, cfg.MinReplay, cfg.BatchSize = 100, 32, 16
	cfg.KeepShards = 1
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	train(t, r)
	keys, games, positions, err := ReplayTotals(dir)
	if err != nil {
		t.Fatal(err)
	}
	if seqs := localSeqs(dir); len(keys) >= 12 || len(seqs) != len(keys) || seqs[len(seqs)-1] != 12 {
		t.Errorf("shards left %v: nothing was pruned", seqs)
	}
	if games != r.state.Games || positions != r.state.Positions {
		t.Errorf("shards and pruned.json hold %d games, %d positions; the checkpoint %d, %d", games, positions, r.state.Games, r.state.Positions)
	}
	back, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.window.Len() != min(cfg.ReplayWindow, int(positions)) {
		t.Errorf("resumed window %d", back.window.Len())
	}
	back.SetLimits(0, 0, 30)
	train(t, back)
	if _, g, _, _ := ReplayTotals(dir); g != back.state.Games {
		t.Errorf("after more rounds: %d games on record, checkpoint %d", g, back.state.Games)
	}
}

// With averaging, the checkpoint keeps the moving average of the weights,
// which evaluation, weights.msgpack and players loading the checkpoint
// use; a resumed run continues it exactly.
func TestAveragedWeights(t *testing.T) {
	cfg := tinyConfig()
	cfg.Averaging.Decay = 0.9
	whole, err := Create(filepath.Join(t.TempDir(), "whole"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	train(t, whole)
	avg := whole.state.Averaged
	if avg == nil || sameWeights(avg, whole.state.Weights) == nil {
		t.Fatal("no average kept, or the average is the latest weights")
	}
	for _, file := range []string{CheckpointFile, WeightsFile} {
		f, err := model.LoadNetFile(filepath.Join(whole.Dir(), file))
		if err != nil {
			t.Fatal(err)
		}
		if err := sameWeights(f.Weights, avg); err != nil {
			t.Errorf("%s gives players another network than the average: %v", file, err)
		}
	}
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
	second.SetLimits(0, 0, cfg.Games)
	train(t, second)
	if err := sameWeights(second.state.Averaged, avg); err != nil {
		t.Errorf("the average after a resume: %v", err)
	}
}

// A run with the plies head trains it: the metrics carry its loss, and the
// checkpoint's network, loaded as a player loads it, predicts plies.
func TestPliesHeadTrains(t *testing.T) {
	cfg := tinyConfig()
	cfg.Net.MovesLeft = true
	dir := trainNew(t, cfg)
	m, data := lastMetrics(t, dir)
	if m.PliesLoss <= 0 {
		t.Errorf("no plies loss in %s", data)
	}
	f, err := model.LoadNetFile(filepath.Join(dir, CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Weights.Arch.MovesLeft {
		t.Fatalf("the checkpoint's network is %s", f.Weights.Arch)
	}
	net, err := model.NewNet(f.Weights)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := games.New(cfg.Game)
	in := make([]float32, g.InputShape().Size())
	g.Start(rand.New(rand.NewPCG(1, 1))).Encode(in)
	logits, value, plies := make([]float32, g.ActionSize()), make([]float32, 1), make([]float32, 1)
	net.NewForward().Run(1, in, logits, value, plies)
	if plies[0] <= 0 {
		t.Errorf("the start is %v plies from the end", plies[0])
	}
}

// A run with the three-way value head: its checkpoint and its config
// keep the head, a resumed run trains it on, and its network loads for
// play.
func TestWDLHeadTrains(t *testing.T) {
	cfg := tinyConfig()
	cfg.Net.WDL = true
	cfg.Games = 12
	dir := trainNew(t, cfg)
	r, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Config().Net.WDL || !r.State().Weights.Arch.WDL {
		t.Fatalf("resumed with net.wdl %v and network %s", r.Config().Net.WDL, r.State().Weights.Arch)
	}
	before := r.State().Steps
	r.SetLimits(0, 0, 24)
	train(t, r)
	f, err := model.LoadNetFile(filepath.Join(dir, CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	if f.Steps <= before || !f.Weights.Arch.WDL || f.Weights.Arch.ValueOutputs() != 3 {
		t.Fatalf("the resumed run's checkpoint: step %d (from %d), network %s", f.Steps, before, f.Weights.Arch)
	}
	if _, err := model.NewNet(f.Weights); err != nil {
		t.Errorf("the checkpoint's network does not load for play: %v", err)
	}
}
