package runfolder

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A metrics log of millions of lines that are not a round's (a 30 MB file
// of "{}" lines once took serve to 9.6 GB) is read in bounded memory: such
// lines are skipped, round lines past MaxRoundLines thinned, and every
// evaluation line and the last line kept.
func TestReadMetricsBoundsMemory(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(strings.Repeat("{}\n", 1_000_000))
	rounds := 3*MaxRoundLines + 7
	for r := 1; r <= rounds; r++ {
		if r%1000 == 0 {
			fmt.Fprintf(&b, `{"round":%d,"elo":%d}`+"\n", r, r)
		} else {
			fmt.Fprintf(&b, `{"round":%d,"steps":%d}`+"\n", r, r)
		}
		if r%5000 == 0 {
			b.WriteString("{\"round\":\n") // a line cut short
		}
	}
	os.WriteFile(filepath.Join(dir, MetricsFile), []byte(b.String()), 0o644)
	ms, err := ReadMetrics(dir)
	if err != nil {
		t.Fatal(err)
	}
	evals, prev := 0, 0
	for _, m := range ms {
		if m.Round <= prev {
			t.Fatalf("round %d after %d: out of order", m.Round, prev)
		}
		prev = m.Round
		if m.Elo != nil {
			evals++
		}
	}
	if evals != rounds/1000 {
		t.Errorf("%d evaluation lines kept, want %d", evals, rounds/1000)
	}
	if len(ms) > MaxRoundLines+evals+1 || len(ms) < MaxRoundLines/2 {
		t.Errorf("%d lines kept of %d rounds, want at most %d", len(ms), rounds, MaxRoundLines+evals+1)
	}
	if ms[len(ms)-1].Round != rounds {
		t.Errorf("last line kept is round %d, want %d", ms[len(ms)-1].Round, rounds)
	}
}

// A line over the bound, or a log of NUL bytes, is skipped like any line
// that is not a round's: the rest of the log is read.
func TestMetricsReadPastOverlongLines(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`{"round": 1, "steps": 5}` + "\n")
	b.WriteString(`{"round": 2, "note": "` + strings.Repeat("x", maxMetricsLine+10) + `"}` + "\n")
	b.WriteString(strings.Repeat("\x00", 200_000) + "\n")
	b.WriteString(`{"round": 3, "steps": 9}` + "\n")
	if err := os.WriteFile(filepath.Join(dir, MetricsFile), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, err := ReadMetrics(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Round != 1 || ms[1].Round != 3 {
		t.Errorf("read %+v, want rounds 1 and 3", ms)
	}
}
