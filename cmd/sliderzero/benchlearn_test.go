package main

import (
	"strings"
	"testing"
)

// bench --learn times each network's step with Gorgonia's own graph and
// the fused one, and prints a ratio and a share of the peak for each.
func TestBenchLearn(t *testing.T) {
	out, err := runCmd(t, "", "bench", "--learn", "--seconds", "0.01", "--size", "4")
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"mlp ", "resmlp ", "conv "} {
		rows := 0
		for _, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(line, kind) {
				continue
			}
			rows++
			f := strings.Fields(line)
			if !strings.HasSuffix(f[len(f)-2], "x") {
				t.Errorf("no ratio in %q", line)
			}
		}
		if rows != 5 {
			t.Errorf("%d rows for %s networks, want 5 (Gorgonia's and four fused batches):\n%s", rows, kind, out)
		}
	}
	if !strings.Contains(out, "gorgonia") || !strings.Contains(out, "fused") {
		t.Errorf("output names neither graph:\n%s", out)
	}
}
