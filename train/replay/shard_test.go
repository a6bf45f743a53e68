package replay_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// realShard is a round of 32 self-play games of the default game with a
// fresh network.
func realShard(t testing.TB) *replay.Shard {
	t.Helper()
	spec := games.DefaultTraining()
	g, err := games.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(model.NewArch(model.KindMLP, 16, 1, g), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	net, err := model.NewNet(w)
	if err != nil {
		t.Fatal(err)
	}
	search := selfplay.Settings{Params: mcts.Params{Sims: 8, CPUCT: 1.5, NoiseAlpha: 0.3, NoiseFrac: 0.25}, TemperaturePlies: 8}
	job := selfplay.Job{Game: spec, Search: search, GamesInFlight: 8, GamesPerRound: 32}
	s, err := selfplay.PlayRound(context.Background(), g, job, net, 1, func(i int) *rand.Rand { return rand.New(rand.NewPCG(3, uint64(i))) }, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Format 2 is at least ten times smaller per position than format 1 and
// reads back the same samples, with the producer's counts.
func TestCompactShards(t *testing.T) {
	s := realShard(t)
	v2, err := replay.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := replay.EncodeV1(s)
	if err != nil {
		t.Fatal(err)
	}
	n := float64(len(s.Samples))
	t.Logf("%d positions: format 1 %.0f bytes a position, format 2 %.1f (%.0fx smaller)", len(s.Samples), float64(len(v1))/n, float64(len(v2))/n, float64(len(v1))/float64(len(v2)))
	if len(v1) < 10*len(v2) {
		t.Errorf("format 2 is only %.1fx smaller", float64(len(v1))/float64(len(v2)))
	}
	for name, data := range map[string][]byte{"format 1": v1, "format 2": v2} {
		back, count, err := replay.Decode(data, name, false)
		if err != nil {
			t.Fatal(err)
		}
		if count != len(s.Samples) || len(back.Samples) != len(s.Samples) || back.Games != s.Games || back.Plies != s.Plies {
			t.Fatalf("%s: %d samples read back of %d, %d games of %d", name, len(back.Samples), len(s.Samples), back.Games, s.Games)
		}
		for i := range s.Samples {
			x, y := s.Samples[i], back.Samples[i]
			if x.State != y.State || x.Value != y.Value || x.Left != y.Left || x.Left == 0 || fmt.Sprint(x.Input) != fmt.Sprint(y.Input) || fmt.Sprint(x.Policy) != fmt.Sprint(y.Policy) {
				t.Fatalf("%s: sample %d differs", name, i)
			}
		}
	}
	back, _, _ := replay.Decode(v2, "format 2", true)
	if back.Sims != s.Sims || back.Sims == 0 || back.Seconds != s.Seconds || fmt.Sprint(back.Wins) != fmt.Sprint(s.Wins) {
		t.Errorf("the producer's counts: %d sims, %v s, wins %v; read back %d, %v, %v", s.Sims, s.Seconds, s.Wins, back.Sims, back.Seconds, back.Wins)
	}
}

// BenchmarkShardRead compares reading a round's shard in each format,
// against training's cost of the same positions (sample_ratio 2, batch
// 128: a step per 64 new positions).
func BenchmarkShardRead(b *testing.B) {
	s := realShard(b)
	v1, _ := replay.EncodeV1(s)
	v2, _ := replay.Encode(s)
	for _, c := range []struct {
		name string
		data []byte
	}{{"format1", v1}, {"format2", v2}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, _, err := replay.Decode(c.data, c.name, false); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(s.Samples))/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

// FuzzDecodeShard: no bytes panic the shard decoder (both formats, with
// and without the samples) or make it allocate past the input's means;
// whatever it accepts has a policy entry per action in every sample.
func FuzzDecodeShard(f *testing.F) {
	s := realShard(f)
	s.Samples = s.Samples[:4]
	for _, enc := range []func(*replay.Shard) ([]byte, error){replay.Encode, replay.EncodeV1} {
		data, err := enc(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, false)
		f.Add(data[:len(data)-3], true)
	}
	// and the same shard claiming other counts (issue 65)
	data, err := replay.Encode(s)
	if err != nil {
		f.Fatal(err)
	}
	for _, field := range countFields {
		for _, v := range []int64{-1, 0, 1 << 31, 1 << 62, 12_000_000} {
			f.Add(withCount(f, data, field, v), false)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, countsOnly bool) {
		sh, n, err := replay.Decode(data, "fuzz.shard", countsOnly)
		if err != nil {
			return
		}
		checkAccepted(t, sh, n, countsOnly)
	})
}

// countFields are the counts a shard file claims.
var countFields = []string{"games", "plies", "positions", "capped", "sims", "evals"}

// withCount is a shard file's bytes with one count changed, checksum and
// all: what a careless or hostile producer could write.
func withCount(t testing.TB, data []byte, field string, v int64) []byte {
	t.Helper()
	var m map[string]any
	if _, err := store.Decode(data, "shard", replay.KindShard, replay.ShardVersion, &m); err != nil {
		t.Fatal(err)
	}
	m[field] = v
	out, err := store.Encode(replay.KindShard, replay.ShardVersion, m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkAccepted checks what a shard decoder accepted: counts within their
// bounds, as many samples as positions, a policy entry per action.
func checkAccepted(t *testing.T, sh *replay.Shard, n int, countsOnly bool) {
	t.Helper()
	if n < 0 || n > sh.Plies || sh.Games < 0 || sh.Games > sh.Plies || sh.Plies > replay.MaxShardCount || sh.Capped < 0 || sh.Capped > sh.Games || sh.Sims < 0 || sh.Evals < 0 {
		t.Fatalf("accepted with %d positions, %d games, %d plies, %d capped, %d sims, %d evals", n, sh.Games, sh.Plies, sh.Capped, sh.Sims, sh.Evals)
	}
	if !countsOnly && len(sh.Samples) != n {
		t.Fatalf("accepted %d samples as %d positions", len(sh.Samples), n)
	}
	for i, smp := range sh.Samples {
		if len(smp.Actions) != len(smp.Policy) {
			t.Fatalf("sample %d: %d actions, %d policy entries", i, len(smp.Actions), len(smp.Policy))
		}
	}
}

// FuzzShardCounts: a valid shard claiming any counts is refused or read
// whole, within the bounds, and never allocates past them.
func FuzzShardCounts(f *testing.F) {
	s := realShard(f)
	s.Samples = s.Samples[:4]
	data, err := replay.Encode(s)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(int64(s.Games), int64(s.Plies), int64(4), int64(s.Capped), s.Sims, false)
	f.Add(int64(1)<<62, int64(879), int64(879), int64(0), int64(0), false)
	f.Add(int64(1), int64(12_000_000), int64(12_000_000), int64(0), int64(-1), true)
	f.Fuzz(func(t *testing.T, games, plies, positions, capped, sims int64, countsOnly bool) {
		d := data
		for _, c := range []struct {
			field string
			v     int64
		}{{"games", games}, {"plies", plies}, {"positions", positions}, {"capped", capped}, {"sims", sims}} {
			d = withCount(t, d, c.field, c.v)
		}
		sh, n, err := replay.Decode(d, "fuzz.shard", countsOnly)
		if err != nil {
			return
		}
		checkAccepted(t, sh, n, countsOnly)
	})
}
