package selfplay

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/store"
)

func netFile(t *testing.T, spec registry.Spec) model.NetFile {
	t.Helper()
	g, err := games.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(model.NewArch(model.KindMLP, 8, 1, g), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return model.NetFile{Game: spec, Weights: w}
}

// A producer trusts only the learner's current version: a stray file with
// a larger number is not played, a network of another game or a damaged
// file is skipped with a log line, and none of these stops it.
func TestProducersTrustOnlyTheLearner(t *testing.T) {
	ctx := context.Background()
	st, err := runstore.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	five := registry.Spec{Name: "slider"}.With("size", "5")
	if err := Publish(ctx, st, 0, netFile(t, five)); err != nil {
		t.Fatal(err)
	}
	stray, _ := store.Encode(model.KindWeights, model.FormatVersion, &PublishedNet{NetFile: netFile(t, registry.Spec{Name: "slider"}.With("size", "4")), Version: 99999999})
	st.Write(ctx, WeightsKey(99999999), stray)
	if v, _, err := NewestWeights(ctx, st); v != 0 || err != nil {
		t.Errorf("with a stray version 99999999: the newest is %d (%v), want the learner's 0", v, err)
	}
	job := Job{Game: five, Search: Settings{Params: mcts.Params{Sims: 4}}, GamesInFlight: 2, GamesPerRound: 2}
	for name, bad := range map[string]func(){
		"another game's network": func() { Publish(ctx, st, 1, netFile(t, registry.Spec{Name: "slider"}.With("size", "4"))) },
		"a damaged file": func() {
			st.Write(ctx, WeightsKey(2), []byte("garbage"))
			st.Write(ctx, CurrentKey, []byte(`{"version":2}`))
		},
	} {
		bad()
		p, err := NewProducer(st, "p", job, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		p.Log = &log
		tctx, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
		err = p.Run(tctx, 1)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(log.String(), "skipping the published weights") {
			t.Errorf("%s: the producer ended with %v; log:\n%s", name, err, log.String())
		}
		if keys, _ := st.List(ctx, ShardsPrefix); len(keys) > 0 {
			t.Errorf("%s: the producer played %v", name, keys)
		}
	}
}
