package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/traintest"
)

func TestReportOfARun(t *testing.T) {
	cfg := traintest.TinyConfig()
	cfg.Games = 18
	cfg.GamesPerRound = 6
	cfg.Eval.Ladder = []string{"random", "greedy"}
	dir := traintest.Run(t, cfg)
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
