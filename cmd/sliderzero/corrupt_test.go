package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"testing"

	slidersolve "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/report"
	"github.com/sliderzero/sliderzero/train/runfolder"
	"github.com/sliderzero/sliderzero/train/traintest"
)

// mutations is how many damaged copies of each file kind the sweep reads:
// a short form in CI, SLIDERZERO_CORRUPT=N for the full sweep.
func mutations() int {
	if n, err := strconv.Atoi(os.Getenv("SLIDERZERO_CORRUPT")); err == nil && n > 0 {
		return n
	}
	return 40
}

// mutate damages a file's bytes in one of four ways: a truncation, a bit
// flip, appended bytes, or a zeroed block.
func mutate(rng *rand.Rand, data []byte) ([]byte, string) {
	c := append([]byte(nil), data...)
	switch k := rng.IntN(4); {
	case k == 0 && len(c) > 0:
		n := rng.IntN(len(c))
		return c[:n], fmt.Sprintf("truncated to %d", n)
	case k == 1 && len(c) > 0:
		i := rng.IntN(len(c))
		c[i] ^= 1 << rng.IntN(8)
		return c, fmt.Sprintf("bit flipped at %d", i)
	case k == 2:
		extra := make([]byte, 1+rng.IntN(64))
		for i := range extra {
			extra[i] = byte(rng.IntN(256))
		}
		return append(c, extra...), fmt.Sprintf("%d bytes appended", len(extra))
	default:
		if len(c) == 0 {
			return c, "empty"
		}
		i := rng.IntN(len(c))
		n := min(len(c)-i, 1+rng.IntN(256))
		clear(c[i : i+n])
		return c, fmt.Sprintf("%d bytes zeroed at %d", n, i)
	}
}

// TestCorruptionSweep damages every kind of file the project reads and
// checks that each reader refuses or reads it without a panic and without
// allocating without bound. Refusals must be one line.
func TestCorruptionSweep(t *testing.T) {
	dir := traintest.Run(t, traintest.TinyConfig())
	out := t.TempDir()
	playerFile := filepath.Join(out, "p.player")
	if _, err := player.Export(filepath.Join(dir, train.CheckpointFile), playerFile, mcts.Params{Sims: 4}, nil); err != nil {
		t.Fatal(err)
	}
	records := filepath.Join(out, "games.jsonl")
	if _, err := runCmd(t, "", "match", "--a", "greedy", "--b", "random", "--games", "2", "--size", "4", "--records", records); err != nil {
		t.Fatal(err)
	}
	table := filepath.Join(out, "t.table")
	tab, err := slidersolve.Solve(context.Background(), 3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Write(table); err != nil {
		t.Fatal(err)
	}
	shards, _ := filepath.Glob(filepath.Join(dir, "shards", "local-*.msgpack"))
	kinds := []struct {
		name string
		path string
		read func(path string) error
	}{
		{"player", playerFile, func(p string) error { _, err := player.LoadPlayerFile(p); return err }},
		{"checkpoint", filepath.Join(dir, train.CheckpointFile), func(p string) error { return resumeWith(t, dir, train.CheckpointFile, p) }},
		{"weights", filepath.Join(dir, train.WeightsFile), func(p string) error { _, err := model.LoadNetFile(p); return err }},
		{"shard", shards[0], func(p string) error { return resumeWith(t, dir, filepath.Join("shards", filepath.Base(shards[0])), p) }},
		{"records", records, func(p string) error { _, err := match.ReadRecords(p); return err }},
		{"metrics", filepath.Join(dir, runfolder.MetricsFile), func(p string) error { return reportWith(t, dir, p) }},
		{"config", filepath.Join(dir, runfolder.ConfigFile), func(p string) error { _, err := train.LoadConfig(p); return err }},
		{"solver table", table, func(p string) error { _, err := slidersolve.Read(p); return err }},
	}
	debug.SetMemoryLimit(2 << 30)
	defer debug.SetMemoryLimit(-1)
	rng := rand.New(rand.NewPCG(7, 7))
	n := mutations()
	for _, k := range kinds {
		data, err := os.ReadFile(k.path)
		if err != nil {
			t.Fatal(err)
		}
		if err := k.read(k.path); err != nil {
			t.Fatalf("%s: the undamaged file is refused: %v", k.name, err)
		}
		refused, accepted := 0, 0
		for i := 0; i < n; i++ {
			bad, how := mutate(rng, data)
			p := filepath.Join(out, fmt.Sprintf("%s-%d", k.name, i))
			os.WriteFile(p, bad, 0o644)
			err := func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s %s: panic: %v", k.name, how, r)
					}
				}()
				return k.read(p)
			}()
			if err != nil {
				refused++
				if bytes.ContainsRune([]byte(err.Error()), '\n') {
					t.Errorf("%s %s: a refusal of more than one line: %q", k.name, how, err)
				}
			} else {
				accepted++
			}
			os.Remove(p)
		}
		t.Logf("%-12s %d damaged copies: %d refused, %d read (damage the format cannot see, e.g. in text)", k.name, n, refused, accepted)
	}
}

// resumeWith resumes a copy of the run with one of its files replaced.
func resumeWith(t *testing.T, dir, rel, replacement string) error {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "run")
	if err := os.CopyFS(cp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(replacement)
	os.WriteFile(filepath.Join(cp, rel), data, 0o644)
	r, err := train.Resume(cp)
	if err == nil {
		r.Close()
	}
	return err
}

// reportWith writes the report of a copy of the run with a replaced
// metrics log.
func reportWith(t *testing.T, dir, metrics string) error {
	t.Helper()
	cp := t.TempDir()
	cfg, _ := os.ReadFile(filepath.Join(dir, runfolder.ConfigFile))
	os.WriteFile(filepath.Join(cp, runfolder.ConfigFile), cfg, 0o644)
	data, _ := os.ReadFile(metrics)
	os.WriteFile(filepath.Join(cp, runfolder.MetricsFile), data, 0o644)
	_, err := report.Write(cp)
	return err
}
