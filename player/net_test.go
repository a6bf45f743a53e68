package player_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/traintest"
)

// trainedRun trains a tiny Slider 4x4 network for two rounds.
func trainedRun(t *testing.T) string {
	t.Helper()
	return traintest.Run(t, traintest.TinyConfig())
}

func TestNetPlayer(t *testing.T) {
	dir := trainedRun(t)
	g := slider.MustNew(slider.Config{Size: 4})
	for _, file := range []string{train.CheckpointFile, train.WeightsFile} {
		for _, spec := range []string{
			"net:checkpoint=" + filepath.Join(dir, file) + ",sims=20",
			"net:" + filepath.Join(dir, file) + ",sims=20,gumbel=true",
			"net:" + filepath.Join(dir, file) + ",time=5ms",
		} {
			p, err := player.New(spec, g, player.Options{Seed: 1})
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			r, _ := player.New("random", g, player.Options{Seed: 2})
			rec, err := match.Play(context.Background(), g.Start(nil), [2]player.Player{p, r}, match.Options{})
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			if !rec.Outcome.Over || len(rec.Moves) < 4 {
				t.Errorf("%s: game of %d moves, %+v", spec, len(rec.Moves), rec.Outcome)
			}
		}
	}
}

func TestNetPlayerRefusals(t *testing.T) {
	dir := trainedRun(t)
	ck := filepath.Join(dir, train.CheckpointFile)
	g5 := slider.MustNew(slider.Config{Size: 5})
	if _, err := player.New("net:"+ck, g5, player.Options{}); err == nil || !strings.Contains(err.Error(), "trained for") {
		t.Errorf("4x4 network on a 5x5 game: %v", err)
	}
	g4 := slider.MustNew(slider.Config{Size: 4})
	if _, err := player.New("net:"+filepath.Join(dir, "nothing.msgpack"), g4, player.Options{}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing file: %v", err)
	}
	data, _ := os.ReadFile(ck)
	bad := filepath.Join(dir, "bad.msgpack")
	os.WriteFile(bad, data[:len(data)/3], 0o644)
	if _, err := player.New("net:"+bad, g4, player.Options{}); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("truncated file: %v", err)
	}
	for _, spec := range []string{"net", "net:" + ck + ",gumbel=maybe", "net:" + ck + ",movesleft=no!", "net:" + ck + ",checkpoint=" + ck, "net:" + ck + ",sims=0"} {
		if _, err := player.New(spec, g4, player.Options{}); err == nil {
			t.Errorf("%s accepted", spec)
		}
	}
}

// The moves-left utility's settings reach the search, and values out of
// range are refused with the setting named.
func TestNetPlayerMovesLeftOptions(t *testing.T) {
	dir := trainedRun(t)
	ck := filepath.Join(dir, train.CheckpointFile)
	g := slider.MustNew(slider.Config{Size: 4})
	p, err := player.New("net:"+ck+",movesleft_slope=0.01,movesleft_effect=0.2,movesleft_threshold=0.1", g, player.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := p.(*player.Net).Params()
	if got.MovesLeftSlope != 0.01 || got.MovesLeftEffect != 0.2 || got.MovesLeftThreshold != 0.1 {
		t.Errorf("slope, effect, threshold = %v, %v, %v; want 0.01, 0.2, 0.1", got.MovesLeftSlope, got.MovesLeftEffect, got.MovesLeftThreshold)
	}
	for spec, want := range map[string]string{
		",movesleft_effect=2":     "moves_left_effect",
		",movesleft_threshold=1":  "moves_left_threshold",
		",movesleft_slope=-1":     "movesleft_slope",
		",movesleft_slope=plenty": "movesleft_slope",
	} {
		if _, err := player.New("net:"+ck+spec, g, player.Options{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming %s", spec, err, want)
		}
	}
}
