package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
