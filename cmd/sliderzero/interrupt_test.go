package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/train"
)

// An interrupt while a new run's accuracy table is being solved (before
// any training) once left a stub run folder; now the table comes first
// and nothing of the run is written.
func TestTrainInterruptedBeforeTrainingLeavesNoRun(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "cfg.json")
	// A layout with no table yet: "auto" must solve one first.
	os.WriteFile(cfg, []byte(`{"game": {"name": "slider", "size": 5, "blocked": "c2"}, "eval": {"minutes": 1, "accuracy_table": "auto"}}`), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut strings.Builder
	runDir := filepath.Join(dir, "run")
	err := run(ctx, []string{"train", "--config", cfg, "--run", runDir}, stdio{strings.NewReader(""), &out, &errOut})
	// Interrupted, a command exits with status 1 (issue 65: train exited
	// 0, where a script went on as if it had trained).
	if err == nil || exitStatus(err) != 1 || !strings.Contains(err.Error(), "interrupted before training began") {
		t.Errorf("error %v, want the interrupt said, status 1", err)
	}
	if _, err := os.Stat(runDir); !os.IsNotExist(err) {
		t.Errorf("the run folder was made: %v", err)
	}
}

// An interrupted tournament keeps, rates and saves the games it finished,
// and says it was cut short.
func TestInterruptedTournamentKeepsItsGames(t *testing.T) {
	dir := t.TempDir()
	records := filepath.Join(dir, "t.jsonl")
	// The first pair's games take milliseconds, the last pair's seconds.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var out, errOut strings.Builder
	err := run(ctx, []string{"tournament", "--size", "4", "--players", "random;greedy;mcts:time=0.5", "--games", "40", "--records", records},
		stdio{strings.NewReader(""), &out, &errOut})
	if err == nil || !strings.Contains(err.Error(), "interrupted after") {
		t.Fatalf("error %v, want an interruption", err)
	}
	data, rerr := os.ReadFile(records)
	n := strings.Count(string(data), "\n")
	if rerr != nil || n < 40 || n >= 120 {
		t.Fatalf("%d games saved (%v), want the first pair's 40 and fewer than all", n, rerr)
	}
	if !strings.Contains(out.String(), "interrupted: ") || !strings.Contains(out.String(), "greedy") {
		t.Errorf("output:\n%s", out.String())
	}
}

// Training stopped by SIGTERM keeps its checkpoint, says how to go on and
// fails (status 1), as every interrupted command does (issue 65: it
// exited 0, and a script went on as if it had trained to its limit).
func TestTrainStoppedBySIGTERMFails(t *testing.T) {
	tmp := t.TempDir()
	cfg := train.DefaultConfig()
	cfg.Game = cfg.Game.With("size", "4")
	cfg.Net.Width, cfg.Net.Depth = 16, 1
	cfg.Search.Sims = 8
	cfg.Workers, cfg.GamesPerRound = 1, 8
	cfg.ReplayWindow, cfg.MinReplay, cfg.BatchSize = 2000, 64, 32
	cfg.CheckpointMinutes, cfg.SnapshotMinutes = 0, 0
	cfg.Minutes, cfg.Eval.Minutes = 10, 0
	cfgPath := filepath.Join(tmp, "config.json")
	os.WriteFile(cfgPath, cfg.JSON(), 0o644)
	dir := filepath.Join(tmp, "run")
	cmd := exec.Command(binary, "train", "--config", cfgPath, "--run", dir, "--quiet")
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if ck, err := readCheckpoint(t, dir); err == nil && ck.Round >= 1 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no checkpoint within a minute")
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(errOut.String(), "train interrupted; continue with: sliderzero train --resume") {
		t.Errorf("stopped by SIGTERM: %v\n%s", err, errOut.String())
	}
	if _, err := readCheckpoint(t, dir); err != nil {
		t.Errorf("no checkpoint after SIGTERM: %v", err)
	}
}
