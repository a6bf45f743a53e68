package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	if err != nil {
		t.Fatalf("an interrupt is not a failure: %v", err)
	}
	if !strings.Contains(errOut.String(), "interrupted before training began") {
		t.Errorf("output: %s", errOut.String())
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
