// What a run's rounds clean up, and how they report.

package train

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/train/runfolder"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// A producer killed in the middle of a write leaves a temporary file in
// the shards; a long run removes the stale ones as it goes (every hundred
// rounds), not only when it is opened.
func TestRoundsRemoveStaleTemporaries(t *testing.T) {
	cfg := tinyConfig()
	cfg.GamesPerRound, cfg.GamesInFlight, cfg.Games = 1, 1, 100
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, filepath.FromSlash(selfplay.ShardsPrefix), "killed-000001.msgpack.tmp")
	os.MkdirAll(filepath.Dir(tmp), 0o755)
	if err := os.WriteFile(tmp, []byte("half a shard"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(tmp, old, old)
	train(t, r)
	if r.state.Round < 100 {
		t.Fatalf("the run made %d rounds, not the hundred this test needs", r.state.Round)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("a stale temporary survived %d rounds: %v", r.state.Round, err)
	}
}

// Every metrics line has its wins as an object, {} for a round that took
// no games, never null; over the lines they add up to the run's games. A
// round that trained says how fast.
func TestMetricsLinesAreWhole(t *testing.T) {
	cfg := tinyConfig()
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	train(t, r)
	data, _ := os.ReadFile(filepath.Join(dir, runfolder.MetricsFile))
	total := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		var wins map[string]int
		if err := json.Unmarshal(m["wins"], &wins); err != nil || wins == nil {
			t.Errorf("wins %q in %s", m["wins"], line)
		}
		for _, n := range wins {
			total += n
		}
		if _, trained := m["policy_loss"]; trained && len(m["samples_per_second"]) == 0 {
			t.Errorf("a round that trained gives no samples a second: %s", line)
		}
	}
	if total != int(r.state.Games) {
		t.Errorf("the rounds' wins add up to %d games, the run played %d", total, r.state.Games)
	}
}

// The clock counts minutes from the checkpoint's seconds.
func TestClock(t *testing.T) {
	ck := &Checkpoint{Elapsed: 90}
	if got := clock(ck, Config{Minutes: 10}); got != "1.5 of 10.0 min, 8.5 left" {
		t.Errorf("clock %q", got)
	}
	if got := clock(ck, Config{}); got != "1.5 min" {
		t.Errorf("clock without a time limit %q", got)
	}
}
