package train

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// A trainer and two producers in one process, meeting in a folder: the
// trainer takes every shard once, and its counts are the shards' totals.
func TestExternalSelfPlay(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := tinyConfig()
	cfg.Games = 40
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := runstore.Open(ctx, filepath.Join(t.TempDir(), "shared"))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.UseSharedStorage(ctx, st); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	for i := 0; i < 2; i++ {
		p, err := OpenProducer(ctx, st, 1, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		go func() { done <- p.Run(ctx, 0) }()
	}
	if err := r.Train(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	<-done
	<-done
	r.Close()
	var games, positions int64
	keys, _ := st.List(context.Background(), selfplay.ShardsPrefix)
	taken := map[string]bool{}
	for _, sh := range r.state.Taken {
		k := sh.Key
		if taken[k] {
			t.Errorf("%s taken twice", k)
		}
		taken[k] = true
		data, err := st.Read(context.Background(), k, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		s, n, err := replay.Decode(data, k, true)
		if err != nil {
			t.Fatal(err)
		}
		games += int64(s.Games)
		positions += int64(n)
	}
	if games-r.state.DroppedGames != r.state.Games || r.state.Games < 40 || r.state.Steps == 0 || r.state.Published < 2 {
		t.Errorf("shards taken hold %d games (%d dropped); the checkpoint %d games, %d steps, %d versions published",
			games, r.state.DroppedGames, r.state.Games, r.state.Steps, r.state.Published)
	}
	if len(keys) < len(r.state.Taken) {
		t.Errorf("%d shards in storage, %d taken", len(keys), len(r.state.Taken))
	}
}
