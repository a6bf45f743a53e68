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
