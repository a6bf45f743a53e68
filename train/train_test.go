package train

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train/evaluate"
	"github.com/sliderzero/sliderzero/train/replay"
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
func lastMetrics(t *testing.T, dir string) (Metrics, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	var m Metrics
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
	data, _ := os.ReadFile(filepath.Join(dir, MetricsFile))
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

func TestEvaluationGoesIntoTheMetrics(t *testing.T) {
	cfg := tinyConfig()
	cfg.Games = 6
	cfg.Eval = evaluate.Config{Minutes: 1e-9, Games: 4, Sims: 4, Ladder: []string{"random", "greedy"}}
	dir := trainNew(t, cfg)
	m, data := lastMetrics(t, dir)
	if m.Elo == nil || len(m.EvalScores) != 2 || m.EvalSecs <= 0 {
		t.Errorf("metrics after an evaluation: %s", data)
	}
	for base, seats := range m.EvalSeats {
		if len(seats) != 2 || seats[0].Side != "H" || seats[1].Side != "V" ||
			seats[0].Wins+seats[0].Losses > 2 || seats[1].Wins+seats[1].Losses > 2 {
			t.Errorf("seats against %s: %+v (4 games, 2 a side)", base, seats)
		}
	}
	if len(m.EvalSeats) != 2 {
		t.Errorf("seats for %d baselines, want 2: %s", len(m.EvalSeats), data)
	}
	if *m.EloLo > *m.Elo || *m.Elo > *m.EloHi {
		t.Errorf("Elo %v outside its interval [%v, %v]", *m.Elo, *m.EloLo, *m.EloHi)
	}
}

// Snapshots join the ladder as fixed opponents: each is placed against the
// baselines once, then the network under test plays the latest ones.
func TestSnapshotOpponents(t *testing.T) {
	cfg := tinyConfig()
	cfg.Games = 30 // five rounds
	cfg.SnapshotMinutes = 1e-9
	cfg.Eval = evaluate.Config{Minutes: 1e-9, Games: 2, Sims: 4, Ladder: []string{"random", "greedy"}, SnapshotOpponents: 2}
	dir := trainNew(t, cfg)
	last, _ := lastMetrics(t, dir)
	var snaps []string
	for name := range last.EvalScores {
		if strings.HasPrefix(name, "snapshot-") {
			snaps = append(snaps, name)
		}
	}
	if len(snaps) != 2 || len(last.EvalScores) != 4 || last.Elo == nil {
		t.Fatalf("last evaluation: %v (want random, greedy and two snapshots), Elo %v", last.EvalScores, last.Elo)
	}
	ck, err := (&folder{dir: dir}).readCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	placed := map[string]int{}
	for _, lr := range ck.Ladder {
		placed[lr.A]++
	}
	for _, s := range snaps {
		if placed[s] != 2 {
			t.Errorf("%s placed against %d baselines, want 2 (once each): %v", s, placed[s], ck.Ladder)
		}
	}
}

func TestGating(t *testing.T) {
	cfg := tinyConfig()
	cfg.Games = 12
	cfg.Eval = evaluate.Config{Minutes: 1e-9, Games: 2, Sims: 4, Ladder: []string{"random"}, GateGames: 4, GateScore: 0.5}
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	train(t, r)
	// Self-play plays the best network: the newest published weights.
	st, err := runstore.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, published, err := selfplay.NewestWeights(context.Background(), st)
	if err != nil || sameWeights(published, r.state.Best) != nil {
		t.Errorf("the producers are given another network than the best (%v)", err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, MetricsFile))
	if !strings.Contains(string(data), `"gate_score"`) {
		t.Fatalf("no gating in the metrics:\n%s", data)
	}
	back, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.state.Best == nil || back.state.BestSteps != r.state.BestSteps {
		t.Errorf("best network not restored: steps %d, want %d", back.state.BestSteps, r.state.BestSteps)
	}
	if err := sameWeights(back.state.Best, r.state.Best); err != nil {
		t.Error(err)
	}
}

// The trainer knows no game: every registered game trains, checkpoints
// and resumes through the same code.
func TestTrainsEveryGame(t *testing.T) {
	for _, name := range games.Names() {
		t.Run(name, func(t *testing.T) {
			cfg := tinyConfig()
			cfg.Game = games.Spec{Name: name}
			if name == "rlgame" {
				cfg.Game = cfg.Game.With("size", "6").With("base", "1").With("pawns", "4")
			}
			cfg.Games = 6
			cfg.GamesPerRound = 3
			cfg.MinReplay = 16
			dir := filepath.Join(t.TempDir(), "run")
			r, err := Create(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			train(t, r)
			if r.state.Steps == 0 || r.state.Games != 6 {
				t.Errorf("%s: %s", name, counters(r.state))
			}
			// Each round kept whole games for people to look at: they
			// replay to the result they record.
			recs, err := match.ReadRecords(filepath.Join(dir, ExamplesFile))
			if err != nil || len(recs) != 2*selfplay.ExamplesPerRound {
				t.Fatalf("%s: self-play examples: %v, %d games", name, err, len(recs))
			}
			for _, rec := range recs {
				if _, err := rec.Replay(nil); err != nil || !rec.Outcome.Over {
					t.Errorf("%s: an example game: %v, outcome %+v", name, err, rec.Outcome)
				}
			}
			back, err := Resume(dir)
			if err != nil {
				t.Fatal(err)
			}
			if back.state.Steps != r.state.Steps {
				t.Errorf("%s: resumed at step %d, want %d", name, back.state.Steps, r.state.Steps)
			}
		})
	}
}

// A configuration's game replaces the default game whole: fields it leaves
// out are that game's defaults, not Slider's.
func TestConfigGameReplacesTheDefault(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(path, []byte(`{"game": {"name": "catsdogs"}, "minutes": 3}`), 0o644)
	c, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Game.Equal(games.Spec{Name: "catsdogs"}) || c.Minutes != 3 || c.BatchSize != DefaultConfig().BatchSize {
		t.Errorf("loaded %+v", c)
	}
}

// countingExaminer plays each player once on a fixed position and reports
// how many it was given.
type countingExaminer struct{ calls, players int }

func (x *countingExaminer) Examine(ctx context.Context, newPlayer func(uint64) (player.Player, error)) ([]evaluate.Accuracy, error) {
	x.calls++
	g := slider.MustNew(slider.Config{Size: 4})
	for seed := uint64(0); seed < 3; seed++ {
		p, err := newPlayer(seed)
		if err != nil {
			return nil, err
		}
		if _, err := p.Move(ctx, g.NewState(nil)); err != nil {
			return nil, err
		}
		x.players++
	}
	return []evaluate.Accuracy{{Set: "test", Kept: 2, Total: 3}}, nil
}

func TestExaminerGoesIntoTheMetrics(t *testing.T) {
	cfg := tinyConfig()
	cfg.Games = 6
	cfg.Eval = evaluate.Config{Minutes: 1e-9, Games: 2, Sims: 4, Ladder: []string{"random"}}
	r, err := Create(filepath.Join(t.TempDir(), "run"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	x := &countingExaminer{}
	r.Examiner = x
	train(t, r)
	data, _ := os.ReadFile(filepath.Join(r.Dir(), MetricsFile))
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	var m Metrics
	if err := json.Unmarshal(lines[len(lines)-1], &m); err != nil {
		t.Fatal(err)
	}
	if x.calls == 0 || x.players != 3*x.calls || len(m.Accuracy) != 1 || m.Accuracy[0].Kept != 2 || m.Accuracy[0].Share() < 0.66 {
		t.Errorf("examiner called %d times with %d players; metrics %s", x.calls, x.players, lines[len(lines)-1])
	}
}

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
	lost := Metrics{Round: 3, Steps: r.state.Steps + 50, Games: r.state.Games + 1, PolicyLoss: 1.2, Elo: new(float64)}
	line, _ := json.Marshal(lost)
	f, _ := os.OpenFile(filepath.Join(dir, MetricsFile), os.O_APPEND|os.O_WRONLY, 0o644)
	f.Write(append(line, '\n'))
	f.Write([]byte(`{"round":4,"steps":`)) // cut short by the kill
	f.Close()
	back, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	back.Close()
	data, _ := os.ReadFile(filepath.Join(dir, MetricsFile))
	var rounds []int
	var last int64
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var m Metrics
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
