package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/train/runfolder"
	"github.com/sliderzero/sliderzero/train/traintest"
	"gonum.org/v1/plot"
)

func TestReportOfARun(t *testing.T) {
	cfg := traintest.TinyConfig()
	cfg.Games = 18
	cfg.GamesPerRound = 6
	cfg.Eval.Ladder = []string{"random", "greedy"}
	dir := traintest.Run(t, cfg)
	// A line cut short by a kill is skipped.
	f, _ := os.OpenFile(filepath.Join(dir, runfolder.MetricsFile), os.O_APPEND|os.O_WRONLY, 0)
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
	out := t.TempDir()
	files, err := Compare([]string{dir, dir}, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0] != filepath.Join(out, "compare-elo.png") {
		t.Errorf("comparison wrote %v", files)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "compare-elo.png")); len(data) < 1000 {
		t.Error("no comparison chart")
	}
	if _, err := Write(t.TempDir()); err == nil {
		t.Error("report of an empty folder succeeded")
	}
}

// A metrics log written by hand or cut short, with an Elo but no interval,
// and accuracy lines, is reported without a crash.
func TestReportOfSparseMetrics(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, runfolder.ConfigFile), []byte("{}\n"), 0o644)
	lines := `{"round":1,"elo":100}
{"round":2,"elapsed_seconds":60,"elo":120,"accuracy":[{"set":"real-games","kept":80,"total":100,"lo":0.71,"hi":0.87}]}
`
	os.WriteFile(filepath.Join(dir, runfolder.MetricsFile), []byte(lines), 0o644)
	if _, err := Write(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "accuracy.png")); err != nil {
		t.Errorf("no accuracy chart: %v", err)
	}
	files, err := Compare([]string{dir}, t.TempDir())
	if err != nil || len(files) != 2 {
		t.Errorf("compare: %v, %v", files, err)
	}
}

// The charts' axes end on round numbers, their ticks are round numbers
// and written as short as they are.
func TestRoundTicks(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     string
	}{{0, 9.7, "0 2 4 6 8 10"}, {-741, -22.8, "-800 -600 -400 -200 0"}, {750, 1320, "600 800 1000 1200 1400"}, {87.3, 95.2, "86 88 90 92 94 96"}} {
		a := plot.Axis{Min: c.min, Max: c.max}
		roundAxis(&a)
		var labels []string
		for _, tk := range (roundTicks{}).Ticks(a.Min, a.Max) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.want {
			t.Errorf("ticks of [%g, %g]: %q, want %q", c.min, c.max, got, c.want)
		}
	}
}
