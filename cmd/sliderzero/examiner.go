package main

import (
	"context"
	"io"
	"path/filepath"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/evaluate"
)

// tablesDir is where "auto" keeps the tables and sets it makes.
var tablesDir = filepath.Join("checkpoints", "tables")

// newExaminer builds the examiner a run's configuration asks for
// (accuracy.NewExaminer); nil when the run measures no accuracy. Notes go
// to log (nil: nowhere).
func newExaminer(ctx context.Context, cfg train.Config, game env.Game, workers int, log io.Writer) (evaluate.Examiner, error) {
	e := cfg.Eval
	if e.Minutes == 0 || e.AccuracyTable == "" {
		return nil, nil
	}
	return accuracy.NewExaminer(ctx, game, accuracy.ExaminerOptions{Source: e.AccuracyTable, Files: splitSpecs(e.AccuracyTable),
		Positions: e.AccuracyPositions, Seed: cfg.Seed, Workers: workers, Dir: tablesDir, Log: log})
}
