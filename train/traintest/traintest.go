// Package traintest makes small trained runs for the tests of packages
// that need a real checkpoint.
package traintest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/evaluate"
)

// TinyConfig trains a 16-unit network on the default game at size 4 for two rounds of
// eight games, in well under a second, with one evaluation at the end
// against random.
func TinyConfig() train.Config {
	c := train.DefaultConfig()
	c.Game = c.Game.With("size", "4")
	c.Net.Width, c.Net.Depth = 16, 1
	c.Search.Sims = 8
	c.Workers, c.GamesInFlight, c.GamesPerRound = 1, 2, 8
	c.ReplayWindow, c.MinReplay, c.BatchSize = 500, 32, 16
	c.CheckpointMinutes, c.SnapshotMinutes, c.Minutes, c.Games = 0, 0, 0, 16
	c.Eval = evaluate.Config{Minutes: 1e-9, Games: 2, Sims: 4, Ladder: []string{"random"}}
	return c
}

// Run trains cfg in a new folder under t's temporary directory and returns
// the folder.
func Run(t testing.TB, cfg train.Config) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	r, err := train.Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir
}
