package train

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/envtest"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/store"
)

// Every game's inputs survive packing exactly, whatever their planes hold
// (pieces as bits, RLGame's ply fraction as a constant, anything else as
// floats).
func TestPackRoundTrip(t *testing.T) {
	for _, spec := range []games.Spec{{Name: "slider", Size: 5, Blocked: "random", First: "random"}, {Name: "rlgame"}, {Name: "catsdogs"}} {
		g, err := games.New(spec)
		if err != nil {
			t.Fatal(err)
		}
		shape := g.InputShape()
		x := make([]float32, shape.Size())
		back := make([]float32, shape.Size())
		for _, s := range envtest.RandomPositions(g, rand.New(rand.NewPCG(1, 2)), 200) {
			s.Encode(x)
			b := packInput(x, shape)
			if err := unpackInput(b, shape, back); err != nil {
				t.Fatal(err)
			}
			for i := range x {
				if x[i] != back[i] {
					t.Fatalf("%s: %s: input %d is %v, read back %v", spec.Name, s, i, x[i], back[i])
				}
			}
		}
	}
	// A plane of arbitrary floats, and damaged packings.
	shape := env.Shape{C: 2, H: 2, W: 2}
	x := []float32{0.5, -1, 3, 0.25, 1, 0, 1, 1}
	b := packInput(x, shape)
	back := make([]float32, 8)
	if err := unpackInput(b, shape, back); err != nil || fmt.Sprint(back) != fmt.Sprint(x) {
		t.Errorf("floats: %v, %v", back, err)
	}
	for _, bad := range [][]byte{b[:len(b)-1], append(append([]byte(nil), b...), 0), {7}} {
		if err := unpackInput(bad, shape, back); err == nil {
			t.Errorf("damaged packing %v accepted", bad)
		}
	}
}

// tinyShard is a real round of self-play on the default game.
func tinyShard(t testing.TB) *Shard {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Net.Width, cfg.Net.Depth = 16, 1
	cfg.Search.Sims = 8
	cfg.Workers, cfg.GamesPerRound, cfg.Eval.Minutes = 1, 32, 0
	cfg.CheckpointMinutes, cfg.SnapshotMinutes, cfg.Games = 0, 0, 32
	cfg.ReplayWindow, cfg.MinReplay, cfg.BatchSize = 100000, 64, 32
	r, err := Create(filepath.Join(t.TempDir(), "run"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, _, err := r.selfPlayPhase(t.Context(), 1, r.selfPlayNet())
	if err != nil {
		t.Fatal(err)
	}
	s.Game = cfg.Game
	return s
}

// Format 2 is at least ten times smaller per position than format 1 and
// reads back the same samples.
func TestCompactShards(t *testing.T) {
	s := tinyShard(t)
	dir := t.TempDir()
	v2 := filepath.Join(dir, "v2")
	if err := writeShard(v2, s); err != nil {
		t.Fatal(err)
	}
	v1 := filepath.Join(dir, "v1")
	if err := store.Write(v1, kindShard, 1, shardFile{Seq: s.Seq, Games: s.Games, Plies: s.Plies, Samples: s.Samples}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.Stat(v1)
	b, _ := os.Stat(v2)
	n := float64(len(s.Samples))
	t.Logf("%d positions: format 1 %.0f bytes a position, format 2 %.1f (%.0fx smaller)", len(s.Samples), float64(a.Size())/n, float64(b.Size())/n, float64(a.Size())/float64(b.Size()))
	if a.Size() < 10*b.Size() {
		t.Errorf("format 2 is only %.1fx smaller", float64(a.Size())/float64(b.Size()))
	}
	for _, path := range []string{v1, v2} {
		back, count, err := loadShard(path, false)
		if err != nil {
			t.Fatal(err)
		}
		if count != len(s.Samples) || len(back.Samples) != len(s.Samples) {
			t.Fatalf("%s: %d samples read back of %d", path, len(back.Samples), len(s.Samples))
		}
		for i := range s.Samples {
			x, y := s.Samples[i], back.Samples[i]
			if x.State != y.State || x.Value != y.Value || fmt.Sprint(x.Input) != fmt.Sprint(y.Input) || fmt.Sprint(x.Policy) != fmt.Sprint(y.Policy) {
				t.Fatalf("%s: sample %d differs", path, i)
			}
		}
	}
}

// BenchmarkShardRead compares reading a round's shard in each format,
// against training's cost of the same positions (sample_ratio 2, batch
// 128: a step per 64 new positions).
func BenchmarkShardRead(b *testing.B) {
	s := tinyShard(b)
	dir := b.TempDir()
	v1, v2 := filepath.Join(dir, "v1"), filepath.Join(dir, "v2")
	store.Write(v1, kindShard, 1, shardFile{Seq: s.Seq, Games: s.Games, Plies: s.Plies, Samples: s.Samples})
	writeShard(v2, s)
	for _, c := range []struct{ name, path string }{{"format1", v1}, {"format2", v2}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, _, err := loadShard(c.path, false); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(s.Samples))/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
