package train

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/train/auto"
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

// A new run fixes the settings left to the game in its stored
// configuration, chosen from what it measured of the game (auto), with
// the reasons; a number given stays, and is said to be kept.
func TestSettingsFollowTheGame(t *testing.T) {
	for _, c := range []struct {
		game  string
		given int
	}{{"slider", -1}, {"connect4", -1}, {"catsdogs", -1}, {"slider", 12}, {"slider", 0}} {
		cfg := tinyConfig()
		cfg.Game = registry.Spec{Name: c.game}
		if c.game == "slider" {
			cfg.Game = cfg.Game.With("size", "4")
		}
		cfg.Search.RandomPlies = c.given
		g, err := games.New(cfg.Game)
		if err != nil {
			t.Fatal(err)
		}
		st, err := auto.Measure(context.Background(), g, cfg.Seed)
		if err != nil {
			t.Fatal(err)
		}
		want := c.given
		if c.given == -1 {
			want = st.Length.P10
		}
		r, err := Create(filepath.Join(t.TempDir(), "run"), cfg)
		if err != nil {
			t.Fatal(err)
		}
		rc := r.Config()
		if got := rc.Search.RandomPlies; got != want || c.given == -1 && want <= 0 {
			t.Errorf("%s with random_plies %d: the run stores %d, want %d (the random games' shortest tenth)", c.game, c.given, got, want)
		}
		a := rc.Auto
		if a == nil || a.Stats.Games == 0 {
			t.Fatalf("%s: no measurements stored", c.game)
		}
		said := strings.Join(append(append([]string{}, a.Chosen...), a.Kept...), "\n")
		if c.given == -1 && !strings.Contains(said, fmt.Sprintf("search.random_plies %d:", want)) ||
			c.given != -1 && !strings.Contains(said, "search.random_plies: as configured") {
			t.Errorf("%s: the run says %q", c.game, said)
		}
		r.Close()
	}
	d := DefaultConfig()
	if d.Search.RandomPlies != -1 || d.Search.Sims != -1 || d.Search.RandomStarts != -1 || len(d.Eval.Ladder) != 0 {
		t.Errorf("the built-in configuration does not leave its game's settings to the game: %+v", d.Search)
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
