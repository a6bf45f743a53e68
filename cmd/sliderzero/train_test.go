package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/evaluate"
	"github.com/sliderzero/sliderzero/train/runfolder"
	"github.com/sliderzero/sliderzero/train/selfplay"
	"github.com/sliderzero/sliderzero/train/traintest"
)

// localSeqs are the round numbers of the shards of the learner's own
// producers among keys.
func localSeqs(keys []string) []int {
	var seqs []int
	for _, k := range keys {
		var seq int
		if _, err := fmt.Sscanf(k, selfplay.ShardsPrefix+selfplay.LocalName+"-%06d.msgpack", &seq); err == nil {
			seqs = append(seqs, seq)
		}
	}
	return seqs
}

func readCheckpoint(t *testing.T, dir string) (train.Checkpoint, error) {
	var ck train.Checkpoint
	_, err := store.Read(filepath.Join(dir, train.CheckpointFile), model.KindCheckpoint, model.FormatVersion, &ck)
	return ck, err
}

// Training killed with SIGKILL at an arbitrary moment resumes from its last
// checkpoint: counters go on from there, and the replay shards hold every
// finished game exactly once.
func TestTrainSurvivesKill(t *testing.T) {
	tmp := t.TempDir()
	cfg := train.DefaultConfig()
	cfg.Game = cfg.Game.With("size", "4")
	cfg.Net.Width, cfg.Net.Depth = 16, 1
	cfg.Search.Sims = 8
	cfg.Workers = 2
	cfg.GamesPerRound = 8
	cfg.ReplayWindow, cfg.MinReplay, cfg.BatchSize = 2000, 64, 32
	cfg.CheckpointMinutes, cfg.SnapshotMinutes = 0, 0
	cfg.Minutes = 10
	cfg.Eval.Minutes = 0
	cfgPath := filepath.Join(tmp, "config.json")
	if err := os.WriteFile(cfgPath, cfg.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "run")
	cmd := exec.Command(binary, "train", "--config", cfgPath, "--run", dir, "--quiet")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		ck, err := readCheckpoint(t, dir)
		if err == nil && ck.Round >= 3 && ck.Steps > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no checkpoint after 3 rounds within a minute (last error %v)", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A second process may not train the same folder.
	out2, err2 := exec.Command(binary, "train", "--resume", dir, "--minutes", "0.01").CombinedOutput()
	if err2 == nil || !strings.Contains(string(out2), fmt.Sprintf("being trained by another process (pid %d)", cmd.Process.Pid)) {
		t.Errorf("a second process on the run: %v\n%s", err2, out2)
	}
	time.Sleep(30 * time.Millisecond) // land somewhere in a later round
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	before, err := readCheckpoint(t, dir)
	if err != nil {
		t.Fatalf("checkpoint after the kill: %v", err)
	}
	out, err := exec.Command(binary, "train", "--resume", dir, "--minutes", "0.01").CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	after, err := readCheckpoint(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if after.Steps <= before.Steps || after.Round <= before.Round || after.Games <= before.Games {
		t.Errorf("no progress after resuming: before step %d round %d, after step %d round %d", before.Steps, before.Round, after.Steps, after.Round)
	}
	keys, games, positions, err := train.ReplayTotals(dir)
	if err != nil {
		t.Fatal(err)
	}
	seqs := localSeqs(keys)
	for i, seq := range seqs {
		if seq != i+1 {
			t.Fatalf("shards %v: want 1..%d without gaps", seqs, len(seqs))
		}
	}
	if len(seqs) != after.Round || games != after.Games || positions != after.Positions {
		t.Errorf("checkpoint counts %d rounds, %d games, %d positions; shards hold %d, %d, %d",
			after.Round, after.Games, after.Positions, len(seqs), games, positions)
	}
	// A kill can leave the temporary file of an unfinished write; resuming
	// clears them.
	for _, pattern := range []string{".*tmp*", "*/.*tmp*"} {
		if left, _ := filepath.Glob(filepath.Join(dir, pattern)); len(left) > 0 {
			t.Errorf("temporary files left after resuming: %v", left)
		}
	}
}

func TestTrainGameFlags(t *testing.T) {
	out, err := runCmd(t, "", "train", "--game", "catsdogs", "--print-config")
	if err != nil {
		t.Fatal(err)
	}
	// Cats & Dogs' self-play budget is chosen from its many moves a
	// position (experiments/cdsims measured 200 best), and the reasons
	// are printed.
	if !strings.Contains(out, `"name": "catsdogs"`) || strings.Contains(out, `"alphabeta"`) || !strings.Contains(out, `"sims": 192,`) || !strings.Contains(out, "search.sims 192:") {
		t.Errorf("config for catsdogs:\n%s", out)
	}
	if _, err := runCmd(t, "", "train", "--resume", t.TempDir(), "--game", "rlgame"); err == nil || !strings.Contains(err.Error(), "do not apply") {
		t.Errorf("--resume with --game: %v", err)
	}
	if _, err := runCmd(t, "", "train", "--game", "chess", "--print-config"); err == nil {
		t.Error("unknown game accepted")
	}
}

// A new game trains through the command with --game alone.
func TestTrainAnotherGameFromTheCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cd")
	cfgPath := filepath.Join(t.TempDir(), "tiny.json")
	cfg := train.DefaultConfig()
	cfg.Net.Width, cfg.Net.Depth = 16, 1
	cfg.Search.Sims = 4
	cfg.Workers, cfg.GamesInFlight, cfg.GamesPerRound = 1, 2, 4
	cfg.ReplayWindow, cfg.MinReplay, cfg.BatchSize = 400, 32, 16
	cfg.CheckpointMinutes, cfg.SnapshotMinutes, cfg.Minutes, cfg.Games = 0, 0, 0, 8
	cfg.Eval.Minutes = 0
	if err := os.WriteFile(cfgPath, cfg.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runCmd(t, "", "train", "--config", cfgPath, "--game", "catsdogs", "--run", dir, "--quiet"); err != nil {
		t.Fatal(err)
	}
	ck, err := readCheckpoint(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if ck.Game.Name != "catsdogs" || ck.Games != 8 || ck.Steps == 0 {
		t.Errorf("checkpoint: game %s, %d games, step %d", ck.Game.Name, ck.Games, ck.Steps)
	}
}

// With accuracy_table "auto", a run on a small Slider board solves the
// board once, measures accuracy at each evaluation, and the report plots it.
func TestTrainMeasuresAccuracy(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg := train.DefaultConfig()
	cfg.Game = cfg.Game.With("size", "4")
	cfg.Net.Width, cfg.Net.Depth = 16, 1
	cfg.Search.Sims = 4
	cfg.Workers, cfg.GamesInFlight, cfg.GamesPerRound = 2, 2, 8
	cfg.ReplayWindow, cfg.MinReplay, cfg.BatchSize = 400, 32, 16
	cfg.CheckpointMinutes, cfg.SnapshotMinutes, cfg.Minutes, cfg.Games = 0, 0, 0, 16
	cfg.Eval = evaluate.Config{Minutes: 1e-9, Games: 2, Sims: 4, Ladder: []string{"random"}, AccuracyTable: "auto", AccuracyPositions: 50}
	if err := os.WriteFile("c.json", cfg.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runCmd(t, "", "train", "--config", "c.json", "--run", "r")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "solving the 4x4 board once") || !strings.Contains(out, "accuracy on real-games positions") {
		t.Errorf("train output:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join("checkpoints", "tables", "slider-4x4.table")); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join("checkpoints", "r", runfolder.MetricsFile))
	if !strings.Contains(string(data), `"set":"real-games","kept":`) || !strings.Contains(string(data), `"set":"random"`) || !strings.Contains(string(data), `"total":50`) {
		t.Errorf("metrics lack accuracy:\n%s", data)
	}
	if _, err := runCmd(t, "", "report", "--run", filepath.Join("checkpoints", "r")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join("checkpoints", "r", "accuracy.png")); err != nil {
		t.Errorf("no accuracy plot: %v", err)
	}
	// A second run finds the table and does not solve again; a table of
	// another size is refused with both sizes named.
	out, err = runCmd(t, "", "train", "--config", "c.json", "--run", "r2")
	if err != nil || strings.Contains(out, "solving") {
		t.Errorf("second run: %v\n%s", err, out)
	}
	cfg.Eval.AccuracyTable = filepath.Join("checkpoints", "tables", "slider-4x4.table")
	cfg.Game = cfg.Game.With("size", "5")
	os.WriteFile("c5.json", cfg.JSON(), 0o644)
	if _, err := runCmd(t, "", "train", "--config", "c5.json", "--run", "r3"); err == nil || !strings.Contains(err.Error(), "the run plays 5x5") {
		t.Errorf("a 4x4 table on a 5x5 run: %v", err)
	}
}

func TestTrainRefusesBadSettingsBeforeTheFirstGame(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--seed", "-7"}, `--seed "-7": want a whole number of at least 0`},
		{[]string{"--workers", "-3"}, "--workers -3"},
		{[]string{"--minutes", "-5"}, "--minutes -5"},
	} {
		_, err := runCmd(t, "", append([]string{"train", "--run", filepath.Join(dir, "x")}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v", c.args, err)
		}
	}
	for name, cfg := range map[string]string{
		"learning rate": `{"learning_rate": [{"step": 0, "rate": -1}]}`,
		"ladder":        `{"eval": {"ladder": ["alphabeta:depht=3"]}}`,
		"network":       `{"net": {"kind": "resmlp", "width": 4096, "depth": 64}}`,
		"sims":          `{"search": {"sims": 1000000000}}`,
		"batch":         `{"batch_size": 1000000000}`,
	} {
		path := filepath.Join(dir, name+".json")
		os.WriteFile(path, []byte(cfg), 0o644)
		if _, err := runCmd(t, "", "train", "--config", path, "--run", filepath.Join(dir, "y")); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "y")); err == nil {
		t.Error("a refused configuration left a run folder")
	}
}

// TestKillSoak kills training with SIGKILL at random moments, again and
// again, with a checkpoint every round; after each kill a short resume
// must find everything consistent: counters never go back, shards are
// numbered without gaps, the checkpoint's counts equal the shards', and
// the metrics hold each round once with steps that never go back.
// SLIDERZERO_KILLS=N sets the number of kills (3 in the short form).
func TestKillSoak(t *testing.T) {
	kills := 3
	if n, err := strconv.Atoi(os.Getenv("SLIDERZERO_KILLS")); err == nil && n > 0 {
		kills = n
	}
	tmp := t.TempDir()
	cfg := train.DefaultConfig()
	cfg.Game = cfg.Game.With("size", "4")
	cfg.Net.Width, cfg.Net.Depth = 16, 1
	cfg.Search.Sims = 8
	cfg.Workers, cfg.GamesPerRound = 2, 8
	cfg.ReplayWindow, cfg.MinReplay, cfg.BatchSize = 2000, 64, 32
	cfg.CheckpointMinutes, cfg.SnapshotMinutes = 0, 0
	cfg.Minutes = 1000
	cfg.Eval.Minutes = 0
	cfgPath := filepath.Join(tmp, "config.json")
	os.WriteFile(cfgPath, cfg.JSON(), 0o644)
	dir := filepath.Join(tmp, "run")
	rng := rand.New(rand.NewPCG(11, 11))
	var last train.Checkpoint
	for k := 0; k < kills; k++ {
		args := []string{"train", "--resume", dir, "--quiet"}
		if k == 0 {
			args = []string{"train", "--config", cfgPath, "--run", dir, "--quiet"}
		}
		cmd := exec.Command(binary, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			// The kills are of a run training: on a loaded machine the
			// first process may take longer than the sleep below to make
			// its folder a run (its first checkpoint).
			waitForFile(t, filepath.Join(dir, train.CheckpointFile), time.Minute)
		}
		time.Sleep(time.Duration(300+rng.IntN(1200)) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		out, err := exec.Command(binary, "train", "--resume", dir, "--minutes", "0.002", "--quiet").CombinedOutput()
		if err != nil {
			t.Fatalf("kill %d: resume: %v\n%s", k+1, err, out)
		}
		ck, err := readCheckpoint(t, dir)
		if err != nil {
			t.Fatalf("kill %d: %v", k+1, err)
		}
		if ck.Steps < last.Steps || ck.Games < last.Games || ck.Round < last.Round {
			t.Errorf("kill %d: counters went back: %d/%d/%d after %d/%d/%d", k+1, ck.Steps, ck.Games, ck.Round, last.Steps, last.Games, last.Round)
		}
		last = ck
		keys, games, positions, err := train.ReplayTotals(dir)
		if err != nil {
			t.Fatal(err)
		}
		// keep_shards may have pruned the oldest.
		seqs := localSeqs(keys)
		for i, seq := range seqs {
			if seq != seqs[0]+i {
				t.Fatalf("kill %d: shards %v have a gap", k+1, seqs)
			}
		}
		if len(seqs) == 0 || seqs[len(seqs)-1] != ck.Round || games != ck.Games || positions != ck.Positions {
			t.Errorf("kill %d: checkpoint %d rounds %d games %d positions; shards up to %v, %d, %d", k+1, ck.Round, ck.Games, ck.Positions, seqs[len(seqs)-1:], games, positions)
		}
		ms, err := runfolder.ReadMetrics(dir)
		if err != nil {
			t.Fatal(err)
		}
		var prev int64
		for i, m := range ms {
			if m.Round != i+1 || m.Steps < prev {
				t.Fatalf("kill %d: metrics line %d is round %d, steps %d after %d", k+1, i+1, m.Round, m.Steps, prev)
			}
			prev = m.Steps
		}
		if len(ms) != ck.Round {
			t.Errorf("kill %d: %d metrics lines for %d rounds", k+1, len(ms), ck.Round)
		}
	}
}

// A run named without a folder lives under checkpoints/ for train, its
// --shared and selfplay alike, so the processes of one run meet by name.
func TestNamedRun(t *testing.T) {
	for in, want := range map[string]string{
		"dist":             filepath.Join("checkpoints", "dist"),
		"checkpoints/dist": "checkpoints/dist",
		"./dist":           "./dist",
		"/srv/runs/dist":   "/srv/runs/dist",
		"s3://bucket/dist": "s3://bucket/dist",
		"file:///tmp/dist": "file:///tmp/dist",
		".":                ".",
		"":                 "",
	} {
		if got := namedRun(in); got != want {
			t.Errorf("namedRun(%q) = %q, want %q", in, got, want)
		}
	}
}

// Presets are the built-in configuration by name: listed in the help,
// printed by --print-config, refused when unknown or beside --config.
func TestTrainPresets(t *testing.T) {
	out, err := runCmd(t, "", "train", "--preset", "hour", "--print-config")
	if err != nil || !strings.Contains(out, `"minutes": 60`) {
		t.Errorf("the hour preset: %v\n%s", err, out)
	}
	if _, err := runCmd(t, "", "train", "--preset", "week"); err == nil || !strings.Contains(err.Error(), "want one of smoke, default, hour") {
		t.Errorf("an unknown preset: %v", err)
	}
	if _, err := runCmd(t, "", "train", "--preset", "smoke", "--config", "x.json"); err == nil || !strings.Contains(err.Error(), "give one") {
		t.Errorf("a preset beside --config: %v", err)
	}
	if help, _ := runCmd(t, "", "train", "--help"); !strings.Contains(help, "smoke (one training minute") {
		t.Errorf("train --help lacks the presets:\n%s", help)
	}
}

// --log-format json writes every round's metrics and every note as one
// JSON object a line, and nothing else; a format it does not know is
// refused before the run is made.
func TestTrainLogFormatJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfgPath := filepath.Join(t.TempDir(), "tiny.json")
	cfg := traintest.TinyConfig()
	if err := os.WriteFile(cfgPath, cfg.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	if err := run(context.Background(), []string{"train", "--config", cfgPath, "--run", dir, "--log-format", "json"}, stdio{strings.NewReader(""), &out, &errOut}); err != nil {
		t.Fatal(err)
	}
	rounds, notes := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(errOut.String()), "\n") {
		if !strings.HasPrefix(line, "{") {
			// Only the command's own lines, before and after the run.
			if !strings.HasPrefix(line, "run ") && !strings.HasPrefix(line, "the run is over") && !strings.HasPrefix(line, "  ") {
				t.Errorf("a text line in the JSON log: %q", line)
			}
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("a line that is not JSON: %q", line)
		}
		switch {
		case v["round"] != nil:
			rounds++
		case v["note"] != nil:
			notes++
		}
	}
	if want := int(cfg.Games) / cfg.GamesPerRound; rounds != want || notes == 0 {
		t.Errorf("%d round lines (want one for each of the %d rounds), %d notes:\n%s", rounds, want, notes, errOut.String())
	}
	if _, err := runCmd(t, "", "train", "--run", filepath.Join(t.TempDir(), "x"), "--log-format", "xml"); err == nil || !strings.Contains(err.Error(), "--log-format") {
		t.Errorf("--log-format xml: %v", err)
	}
}

// waitForFile waits until path exists, failing the test after limit.
func waitForFile(t *testing.T, path string, limit time.Duration) {
	t.Helper()
	for end := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%s did not appear within %v", path, limit)
		}
	}
}
