package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/train"
)

func TestReportOfARun(t *testing.T) {
	cfg := train.DefaultConfig()
	cfg.Game.Size = 4
	cfg.Net.Width, cfg.Net.Depth = 16, 1
	cfg.Search.Sims = 8
	cfg.Workers, cfg.GamesInFlight, cfg.GamesPerRound = 1, 2, 6
	cfg.ReplayWindow, cfg.MinReplay, cfg.BatchSize = 500, 32, 16
	cfg.CheckpointMinutes, cfg.SnapshotMinutes, cfg.Minutes, cfg.Games = 0, 0, 0, 18
	cfg.Eval = train.EvalConfig{Minutes: 1e-9, Games: 2, Sims: 4, Ladder: []string{"random", "greedy"}}
	dir := filepath.Join(t.TempDir(), "run")
	r, err := train.Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A line cut short by a kill is skipped.
	f, _ := os.OpenFile(filepath.Join(dir, train.MetricsFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"round": 9, "ste`)
	f.Close()
	path, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(path)
	for _, want := range []string{"## Totals", "self-play games | 18", "Elo", "| greedy |", "![elo_time](elo_time.png)", "```json"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	for _, img := range []string{"losses.png", "entropy.png", "elo_time.png", "elo_games.png", "winrate.png", "speed.png"} {
		data, err := os.ReadFile(filepath.Join(dir, img))
		if err != nil || len(data) < 1000 || string(data[1:4]) != "PNG" {
			t.Errorf("%s: %d bytes, %v", img, len(data), err)
		}
	}
	out := filepath.Join(t.TempDir(), "cmp.png")
	if err := Compare([]string{dir, dir}, out); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(out); len(data) < 1000 {
		t.Error("no comparison chart")
	}
	if _, err := Write(t.TempDir()); err == nil {
		t.Error("report of an empty folder succeeded")
	}
}
