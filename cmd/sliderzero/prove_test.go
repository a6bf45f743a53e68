package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestProve(t *testing.T) {
	// X to move with three in column a: X wins at once; asked for X only.
	out, err := runCmd(t, "", "prove", "--game", "connect4", "--position", "......./......./......./X....../X.....O/X....OO X")
	if err != nil || !strings.Contains(out, "X: won, by a (") || strings.Contains(out, "O:") {
		t.Fatalf("%v\n%s", err, out)
	}
	// A small budget on the start: unknown.
	out, err = runCmd(t, "", "prove", "--game", "connect4", "--nodes", "1000")
	if err != nil || !strings.Contains(out, "X: unknown (1000 nodes") || !strings.Contains(out, "O: unknown (1000 nodes") {
		t.Fatalf("%v\n%s", err, out)
	}

	// Records: every game won by the rules is proven from some ply.
	dir := t.TempDir()
	recs := filepath.Join(dir, "games.jsonl")
	if out, err := runCmd(t, "", "match", "--game", "connect4", "--a", "random", "--b", "greedy", "--games", "6", "--records", recs); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err = runCmd(t, "", "prove", "--records", recs, "--nodes", "20000")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	games := strings.Count(out, "proven from ply")
	if games == 0 || !strings.Contains(out, "games won by the rules: the result proven a median") {
		t.Fatalf("no game proven:\n%s", out)
	}
	// The same, a game at a time: each game's proof does not depend on
	// which worker took it or what it proved before.
	one, err := runCmd(t, "", "prove", "--records", recs, "--nodes", "20000", "--parallel", "1")
	if err != nil || one != out {
		t.Fatalf("--parallel 1 gives\n%s\n--parallel 2 gave\n%s (%v)", one, out, err)
	}

	// Slider's positions repeat: refused, not answered.
	if out, err := runCmd(t, "", "prove", "--game", "slider", "--size", "4"); err == nil || !strings.Contains(err.Error(), "repeat") {
		t.Fatalf("Slider: %v\n%s", err, out)
	}
	for _, args := range [][]string{
		{"prove", "--table-bits", "40"},
		{"prove", "--nodes", "-1"},
		{"prove", "--parallel", "0"},
		{"prove", "--game", "connect4", "--position", "XXXX"},
		{"prove", "--records", recs, "--position", "x"},
	} {
		if _, err := runCmd(t, "", args...); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}
