package train

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// BenchmarkIngest measures the intake's ceiling: positions a second the
// learner takes (lists, reads, decodes, checks and adds to its window)
// from a folder and (in the cloud build, go test -tags cloud) from an S3
// bucket on loopback, with no producer
// beside it. The shards are copies of one round of the default game
// (64 games, 5x5) under different keys.
func BenchmarkIngest(b *testing.B) {
	cfg := DefaultConfig()
	g, _ := games.New(cfg.Game)
	dir := filepath.Join(b.TempDir(), "run")
	r, err := Create(dir, cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	v, net, err := r.local.Weights(ctx, 0)
	if err != nil {
		b.Fatal(err)
	}
	shard, err := r.local.Round(ctx, 1, v, net)
	if err != nil {
		b.Fatal(err)
	}
	data, _ := replay.Encode(shard)
	b.Logf("a shard: %d games, %d positions, %d bytes", shard.Games, len(shard.Samples), len(data))

	locations := append([]struct{ name, loc string }{{"folder", filepath.Join(b.TempDir(), "shared")}}, benchBuckets(b)...)
	const shards = 16
	for _, l := range locations {
		b.Run(l.name, func(b *testing.B) {
			st, err := runstore.Open(ctx, l.loc)
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			for i := 0; i < shards; i++ {
				if err := st.Write(ctx, selfplay.ShardKey(fmt.Sprintf("p%02d", i), 1), data); err != nil {
					b.Fatal(err)
				}
			}
			positions := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ck := Checkpoint{Published: 1}
				in := newIntake(st, dir, cfg, g, replay.NewWindow(cfg.ReplayWindow), func(string, ...any) {})
				keys, err := in.pending(ctx, 0)
				if err != nil {
					b.Fatal(err)
				}
				got, err := in.take(ctx, &ck, keys)
				if err != nil || got.Shards != shards {
					b.Fatalf("took %d shards: %v", got.Shards, err)
				}
				positions += got.Positions
			}
			b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
