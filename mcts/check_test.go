// Check's ranges: every setting at each end of its range is accepted, and
// just past it refused with the setting named.

package mcts

import (
	"strings"
	"testing"
	"time"
)

func TestCheckRanges(t *testing.T) {
	ok := func(p Params) Params {
		if p.Sims == 0 && p.Time == 0 {
			p.Sims = 10
		}
		return p
	}
	for _, c := range []struct {
		in, out Params
		what    string
	}{
		{Params{Sims: MaxSims}, Params{Sims: MaxSims + 1}, "sims"},
		{Params{Sims: 0, Time: time.Second}, Params{Sims: -1, Time: time.Second}, "sims"},
		{Params{Sims: 1}, Params{Sims: 0, Time: 0}, "budget"},
		{Params{Time: time.Millisecond}, Params{Sims: 10, Time: -time.Millisecond}, "time"},
		{Params{CPUCT: 100}, Params{CPUCT: 100.01}, "c_puct"},
		{Params{CPUCT: 0}, Params{CPUCT: -0.01}, "c_puct"},
		{Params{FPUReduction: 2}, Params{FPUReduction: 2.01}, "fpu_reduction"},
		{Params{FPUReduction: 0}, Params{FPUReduction: -0.01}, "fpu_reduction"},
		{Params{NoiseFrac: 0.99, NoiseAlpha: 0.3}, Params{NoiseFrac: 1, NoiseAlpha: 0.3}, "noise_frac"},
		{Params{NoiseFrac: 0, NoiseAlpha: 0}, Params{NoiseFrac: 0.25, NoiseAlpha: 0}, "noise_alpha"},
		{Params{GumbelM: 1024}, Params{GumbelM: 1025}, "gumbel_m"},
		{Params{Gumbel: true, GumbelM: 2}, Params{Gumbel: true, GumbelM: 1}, "gumbel_m must be at least 2"},
		{Params{Gumbel: false, GumbelM: 1}, Params{GumbelM: -1}, "gumbel_m"},
		{Params{GumbelVisitInit: 0, GumbelValueScale: 0}, Params{GumbelValueScale: -0.1}, "gumbel_value_scale"},
		{Params{MaxNodes: 0}, Params{MaxNodes: -1}, "max_nodes"},
		{Params{MovesLeftEffect: 1}, Params{MovesLeftEffect: 1.01}, "moves_left_effect"},
		{Params{MovesLeftSlope: 1}, Params{MovesLeftSlope: 1.01}, "moves_left_slope"},
		{Params{MovesLeftThreshold: 0.99}, Params{MovesLeftThreshold: 1}, "moves_left_threshold"},
		{Params{Threads: MaxThreads}, Params{Threads: MaxThreads + 1}, "threads"},
	} {
		if err := ok(c.in).Check(); err != nil {
			t.Errorf("%+v refused: %v", ok(c.in), err)
		}
		err := c.out.Check()
		if c.out.Sims == 0 && c.out.Time == 0 && c.what != "budget" {
			err = ok(c.out).Check()
		}
		if err == nil || !strings.Contains(err.Error(), c.what) {
			t.Errorf("%+v: got %v, want an error naming %q", c.out, err, c.what)
		}
	}
}
