package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A set of three positions in Pons' format: won (d and g win at once, e
// wins later, the rest lose), lost, and drawn (c draws, e loses); see
// accuracy/pons's tests for the boards.
const ponsTestSet = "152535717273 15\n1525357172735 -14\n23163416124767223154467471272416755633 0\n"

// bench --pons labels a set once, keeps the labels, and judges players on
// it: the perfect player makes no error, a player that always plays the
// leftmost column errs in the won position only.
func TestBenchPons(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "Test_L1_R1"), []byte(ponsTestSet), 0o644)
	out, err := runCmd(t, "", "bench", "--pons", dir, "--label-only", "--parallel", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Test_L1_R1: labelled 3 positions (2 solved, 1 lost ones without a search)") {
		t.Errorf("output:\n%s", out)
	}
	labels, err := os.ReadFile(filepath.Join(dir, "labels", "Test_L1_R1.labels"))
	if err != nil || !strings.HasSuffix(string(labels), "\n1\t152535717273\t---++-+\n2\t1525357172735\t-------\n3\t23163416124767223154467471272416755633\t..=.-..\n") {
		t.Fatalf("labels (%v):\n%s", err, labels)
	}
	// The labels are read, not solved again.
	out, err = runCmd(t, "", "bench", "--pons", dir, "--sets", "L1_R1", "--player", "solver;alphabeta:depth=1,name=ab1;random", "--seed", "3")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "labelled") {
		t.Errorf("labelled again:\n%s", out)
	}
	for _, want := range []string{
		"AlphaZero.jl's count",
		"Test_L1_R1  beginning, easy    solver        0 of 3   0.0%  [ 0.0, 56.1]",
		"Test_L1_R1  beginning, easy    ab1 ",
		"paired: positions only solver erred on 0, only ab1 0 (sign test p = 1)",
		"paired: positions only solver erred on 0, only random 1 (sign test p = 1)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	// Labels that do not fit the set are refused.
	os.WriteFile(filepath.Join(dir, "Test_L1_R1"), []byte(ponsTestSet+"4453 -2\n"), 0o644)
	if _, err := runCmd(t, "", "bench", "--pons", dir, "--label-only"); err == nil || !strings.Contains(err.Error(), "delete the file to label the set again") {
		t.Errorf("another set's labels: %v", err)
	}
}

func TestBenchPonsRefusals(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "Test_L1_R1"), []byte(ponsTestSet), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--positions", "3"}, "--positions applies to --pons"},
		{[]string{"--label-only"}, "--label-only applies to --pons"},
		{[]string{"--pons", dir}, "--pons needs --player"},
		{[]string{"--pons", dir, "--label-only", "--player", "random"}, "drop --player"},
		{[]string{"--pons", dir, "--player", "random", "--sims", "5"}, "--sims does not apply to --pons"},
		{[]string{"--pons", dir, "--player", "random", "--solver"}, "--solver does not apply to --pons"},
		{[]string{"--pons", dir, "--player", "random", "--parallel", "0"}, "--parallel must be at least 1"},
		{[]string{"--pons", dir, "--player", "random", "--parallel", "100000"}, "--parallel 100000: at most 256"},
		{[]string{"--pons", dir, "--player", "nosuchplayer"}, "--player nosuchplayer"},
		{[]string{"--pons", t.TempDir(), "--label-only"}, "holds no set file"},
		{[]string{"--pons", dir, "--label-only", "--sets", "L1_R1,L2_R1"}, "--sets L2_R1: no such set (there are L1_R1)"},
		{[]string{"--sets", "L1_R1"}, "--sets applies to --pons"},
	} {
		_, err := runCmd(t, "", append([]string{"bench"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "labels")); !os.IsNotExist(err) {
		t.Errorf("a refused command labelled: %v", err)
	}
}
