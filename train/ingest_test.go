package train

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env/registry"
)

// With many producers, a round's limit is shared among them: in key order
// it went to the first producers by name and the others' games waited for
// ever while those kept writing.
func TestFairOrderSharesARoundAmongProducers(t *testing.T) {
	var keys []string
	for _, p := range []string{"a", "b", "c"} {
		n := map[string]int{"a": 40, "b": 3, "c": 1}[p]
		for seq := 1; seq <= n; seq++ {
			keys = append(keys, fmt.Sprintf("shards/%s-%06d.msgpack", p, seq))
		}
	}
	got := fairOrder(keys)
	if len(got) != len(keys) {
		t.Fatalf("%d keys out of %d", len(got), len(keys))
	}
	want := []string{"shards/a-000001.msgpack", "shards/b-000001.msgpack", "shards/c-000001.msgpack",
		"shards/a-000002.msgpack", "shards/b-000002.msgpack", "shards/a-000003.msgpack", "shards/b-000003.msgpack", "shards/a-000004.msgpack"}
	for i, w := range want {
		if got[i] != w {
			t.Fatalf("key %d is %s, want %s (order %v)", i, got[i], w, got[:len(want)])
		}
	}
}

// A new run fixes the game's own number of random opening plies in its
// stored configuration: Slider's measured default, none where it was not
// measured; a number given stays.
func TestRandomPliesFollowTheGame(t *testing.T) {
	for _, c := range []struct {
		game  string
		given int
		want  int
	}{{"slider", -1, 80}, {"connect4", -1, 10}, {"catsdogs", -1, 0}, {"slider", 12, 12}, {"slider", 0, 0}} {
		cfg := tinyConfig()
		cfg.Game = registry.Spec{Name: c.game}
		if c.game == "slider" {
			cfg.Game = cfg.Game.With("size", "4")
		}
		cfg.Search.RandomPlies = c.given
		r, err := Create(filepath.Join(t.TempDir(), "run"), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Config().Search.RandomPlies; got != c.want {
			t.Errorf("%s with random_plies %d: the run stores %d, want %d", c.game, c.given, got, c.want)
		}
		r.Close()
	}
	if DefaultConfig().Search.RandomPlies != -1 {
		t.Errorf("the built-in configuration does not follow the game")
	}
}

// Round lines are spaced (a ten-minute run once logged 1,723): the first
// round and the last are logged, the ones between only after the spacing.
func TestRoundLinesAreSpaced(t *testing.T) {
	cfg := tinyConfig()
	cfg.Games = 24
	r, err := Create(filepath.Join(t.TempDir(), "run"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	r.Log = &log
	r.RoundLinesEvery = time.Hour
	train(t, r)
	lines := strings.Count(log.String(), " round ")
	if lines != 2 || !strings.Contains(log.String(), "round 1:") || !strings.Contains(log.String(), "round 4:") {
		t.Errorf("%d round lines, want the first and the last of 4:\n%s", lines, log.String())
	}
}
