package main

import (
	"bytes"
	"strings"
	"testing"
)

// The run's bar gives way to an evaluation's and comes back after it, and
// a log line written among the bars is a line of its own.
func TestProgressNestsAndKeepsLinesApart(t *testing.T) {
	var out bytes.Buffer
	p := &progress{w: &out, tty: true}
	p.Phase("training", "", 1000)
	p.Add(100, "round 3, 1.0 of 10.0 min, 9.0 left")
	p.Phase("evaluation", "games", 4)
	p.Add(2, "")
	if !strings.Contains(out.String(), "evaluation") || !strings.Contains(out.String(), "2/4") {
		t.Fatalf("no evaluation bar:\n%q", out.String())
	}
	p.Done()
	out.Reset()
	p.Add(0, "round 4, 1.3 of 10.0 min, 8.7 left; last evaluation: Elo +120")
	if got := out.String(); !strings.Contains(got, "training: round 4") || !strings.Contains(got, "Elo +120") || !strings.Contains(got, "10%") {
		t.Fatalf("the run's bar after the evaluation:\n%q", got)
	}
	out.Reset()
	p.lines().Write([]byte("2026-11-26T03:00:00Z evaluation: Elo +120\n"))
	got := out.String()
	i := strings.Index(got, "2026-11-26T03:00:00Z")
	if i < 0 || !strings.Contains(got[:i], "\r") || !strings.Contains(got[i:], "training: round 4") {
		t.Fatalf("a log line among the bars: the bar should be cleared before it and drawn after it:\n%q", got)
	}
	p.Done()
	if len(p.phases) != 0 {
		t.Fatalf("%d phases left open", len(p.phases))
	}
	// Off a terminal nothing is drawn, and lines pass through.
	out.Reset()
	q := &progress{w: &out}
	q.Phase("training", "", 1000)
	q.Add(500, "round 9")
	q.lines().Write([]byte("a line\n"))
	q.Done()
	if out.String() != "a line\n" {
		t.Fatalf("off a terminal: %q", out.String())
	}
}
