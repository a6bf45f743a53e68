package train

import (
	"math"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/registry"
)

func TestAnnealLowersTheRateOverTheRunsEnd(t *testing.T) {
	c := DefaultConfig()
	c.LearningRate = []LRStep{{0, 1e-3}}
	c.Minutes, c.Steps, c.Games = 0, 1000, 0
	c.Anneal = AnnealConfig{Start: 0.5, Final: 0.1}
	at := func(steps int64) float64 { return c.rate(&Checkpoint{Steps: steps}) }
	for _, tc := range []struct {
		steps int64
		want  float64
	}{
		{0, 1e-3}, {500, 1e-3}, {750, 0.55e-3}, {1000, 1e-4}, {5000, 1e-4},
	} {
		if got := at(tc.steps); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("rate at step %d = %g, want %g", tc.steps, got, tc.want)
		}
	}
	for s := int64(500); s < 1000; s += 10 {
		if at(s+10) > at(s) {
			t.Fatalf("the rate rises from step %d to %d", s, s+10)
		}
	}
	// The nearest limit decides: half the minutes gone is half the run
	// even when few steps are.
	c.Minutes = 10
	if got := c.rate(&Checkpoint{Steps: 10, Elapsed: 450}); math.Abs(got-0.55e-3) > 1e-12 {
		t.Errorf("rate at 3/4 of the minutes = %g, want 5.5e-4", got)
	}
	// With no limit there is no end to anneal towards.
	c.Minutes, c.Steps = 0, 0
	if got := at(1 << 40); got != 1e-3 {
		t.Errorf("rate of an unlimited run = %g, want 1e-3", got)
	}
	c.Anneal = AnnealConfig{}
	c.Steps = 1000
	if got := at(1000); got != 1e-3 {
		t.Errorf("rate with the anneal off = %g, want 1e-3", got)
	}
}

func TestAnnealSettingsAreChecked(t *testing.T) {
	for _, a := range []AnnealConfig{{Start: 1, Final: 0.1}, {Start: -0.1, Final: 0.1}, {Start: 0.5, Final: 1.5}, {Start: 0.5, Final: -1}} {
		c := DefaultConfig()
		c.Anneal = a
		if err := c.Check(); err == nil || !strings.Contains(err.Error(), "lr_anneal") {
			t.Errorf("anneal %+v: %v", a, err)
		}
	}
}

// Random starts need a game that draws random positions.
func TestRandomStartsNeedTheGamesDraw(t *testing.T) {
	c := DefaultConfig()
	c.Search.RandomStarts = 0.5
	if err := c.Check(); err != nil {
		t.Errorf("random starts on Slider: %v", err)
	}
	c.Game = registry.Spec{Name: "connect4"}
	if err := c.Check(); err == nil || !strings.Contains(err.Error(), "random_starts") {
		t.Errorf("random starts on Connect Four: %v", err)
	}
	c.Search.RandomStarts = 1.5
	if err := c.Search.Check(); err == nil {
		t.Error("a share of 1.5 is accepted")
	}
}
