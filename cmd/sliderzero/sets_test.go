package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/evaluate"
	"github.com/sliderzero/sliderzero/train/runfolder"
)

// sets writes Connect Four set files that accuracy reads back, judging
// the perfect player perfect; a run measures accuracy on them at every
// evaluation, with the single-move positions apart.
func TestConnect4SetsAccuracyAndTraining(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, from := range []string{"selfplay", "random"} {
		args := []string{"sets", "--game", "connect4", "--from", from, "--count", "20", "--min-ply", "18", "--mb", "4", "--out", from + ".set"}
		if from == "selfplay" {
			args = append(args, "--players", "greedy;alphabeta:depth=2", "--games-per-pair", "2")
		}
		out, err := runCmd(t, "", args...)
		if err != nil || !strings.Contains(out, "20 critical positions of connect4") {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		set, err := accuracy.ReadSetFile(from + ".set")
		if err != nil || len(set.Entries) != 20 || set.Game != "connect4" {
			t.Fatalf("%s: %v, %+v", from, err, set)
		}
	}
	out, err := runCmd(t, "", "accuracy", "--set", "selfplay.set;random.set", "--player", "solver;random", "--convert", "5")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := strings.Split(out, "\n")
	var solverLines int
	for _, l := range lines {
		if strings.HasPrefix(l, "solver ") {
			solverLines++
			if !strings.Contains(l, "100.0% [") || !strings.Contains(l, "of 20") {
				t.Errorf("the perfect player is not perfect: %s", l)
			}
		}
	}
	if solverLines != 2 {
		t.Errorf("accuracy output:\n%s", out)
	}
	// Each later player's row is paired with the first's on the same
	// positions: the perfect player misses none of them.
	if n := strings.Count(out, "paired: positions only solver missed 0, only this player "); n != 2 {
		t.Errorf("%d paired lines against the perfect player, want 2:\n%s", n, out)
	}
	// --unconverted keeps the games that did not win a won position:
	// as many as the tallies lack, readable as match records.
	out, err = runCmd(t, "", "accuracy", "--set", "random.set", "--player", "random", "--convert", "5", "--json", "--unconverted", "unconverted.jsonl")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var res struct{ Converted accuracy.Tally }
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Converted.Total != 5 {
		t.Fatalf("accuracy --json: %v\n%s", err, out)
	}
	if recs, err := match.ReadRecords("unconverted.jsonl"); err != nil || len(recs) != res.Converted.Total-res.Converted.Kept {
		t.Errorf("%d unconverted games (%v), want %d", len(recs), err, res.Converted.Total-res.Converted.Kept)
	}
	if _, err := runCmd(t, "", "accuracy", "--set", "random.set", "--player", "random", "--unconverted", "u.jsonl"); err == nil || !strings.Contains(err.Error(), "--convert") {
		t.Errorf("--unconverted without --convert: %v", err)
	}
	// Bad sets are refused by name.
	os.WriteFile("bad.set", []byte("# sliderzero position set 1\n# game: connect4\nXX\t1\ta:1\n"), 0o644)
	if _, err := runCmd(t, "", "accuracy", "--set", "bad.set", "--player", "random"); err == nil || !strings.Contains(err.Error(), "bad.set") {
		t.Errorf("a bad set: %v", err)
	}
	if _, err := runCmd(t, "", "sets", "--game", "catsdogs", "--out", "x.set"); err == nil || !strings.Contains(err.Error(), "no exact solver") {
		t.Errorf("a game without a solver: %v", err)
	}
	if _, err := runCmd(t, "", "sets", "--game", "connect4", "--out", "."); err == nil || !strings.Contains(err.Error(), "is a folder, not a file") {
		t.Errorf("--out a folder: %v", err)
	}

	cfg := train.DefaultConfig()
	cfg.Game = registry.Spec{Name: "connect4"}
	cfg.Net.Width, cfg.Net.Depth = 16, 1
	cfg.Search.Sims = 4
	cfg.Workers, cfg.GamesInFlight, cfg.GamesPerRound = 2, 2, 8
	cfg.ReplayWindow, cfg.MinReplay, cfg.BatchSize = 400, 32, 16
	cfg.CheckpointMinutes, cfg.SnapshotMinutes, cfg.Minutes, cfg.Games = 0, 0, 0, 16
	cfg.Eval = evaluate.Config{Minutes: 1e-9, Games: 2, Sims: 4, Ladder: []string{"random", "solver:nodes=200000"}, AccuracyTable: "selfplay.set;random.set"}
	if err := os.WriteFile("c.json", cfg.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = runCmd(t, "", "train", "--config", "c.json", "--run", "r")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "accuracy on real-games positions") || !strings.Contains(out, "single-move positions") {
		t.Errorf("train output:\n%s", out)
	}
	data, _ := os.ReadFile(filepath.Join("checkpoints", "r", runfolder.MetricsFile))
	// The perfect player is a baseline of the ladder.
	if !strings.Contains(string(data), `"solver:nodes=200000":`) {
		t.Errorf("metrics lack the perfect player's games:\n%s", data)
	}
	if !strings.Contains(string(data), `"set":"random","kept":`) || !strings.Contains(string(data), `"single_total":`) {
		t.Errorf("metrics lack accuracy:\n%s", data)
	}

	// "auto" finds the game's shared sets by its rules: a run with the
	// threat planes measures on the sets of the game without them, and
	// builds none (which would take minutes).
	tables := filepath.Join("checkpoints", "tables")
	if err := os.MkdirAll(tables, 0o755); err != nil {
		t.Fatal(err)
	}
	for from, name := range map[string]string{"selfplay.set": "connect4-real-games.set", "random.set": "connect4-random.set"} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tables, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.Game, err = games.SpecFromLine("connect4 features=1"); err != nil {
		t.Fatal(err)
	}
	cfg.Eval.AccuracyTable = "auto"
	if err := os.WriteFile("c2.json", cfg.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = runCmd(t, "", "train", "--config", "c2.json", "--run", "r2")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Contains(out, "building") || !strings.Contains(out, "connect4-real-games.set") || !strings.Contains(out, "accuracy on real-games positions") {
		t.Errorf("train with the threat planes and auto sets:\n%s", out)
	}
}
