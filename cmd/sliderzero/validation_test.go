package main

import (
	"os"
	"strings"
	"testing"
)

// Bad numbers on the command line are refused before any work, with the
// flag named: NaN and infinities (which pass every range check), negative
// counts, nonsense.
func TestBadFlagValuesAreRefused(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--minutes", "NaN", "--run", dir + "/r"}, "--minutes NaN: want a finite number"},
		{[]string{"train", "--minutes", "Inf", "--run", dir + "/r"}, "--minutes +Inf: want a finite number"},
		{[]string{"openings", "--balance", "NaN", "--size", "4"}, "--balance NaN: want a finite number"},
		{[]string{"match", "--a", "random", "--b", "random", "--repetition", "-1"}, `--repetition "-1": want a whole number of at least 0`},
		{[]string{"tournament", "--players", "random;greedy", "--repetition", "-2"}, `--repetition "-2": want a whole number of at least 0`},
		{[]string{"play", "--p1", "random", "--p2", "random", "--repetition", "x"}, `--repetition "x"`},
		{[]string{"match", "--a", "mcts:c=NaN", "--b", "random", "--size", "4"}, `option c="NaN": want a non-negative number`},
		{[]string{"match", "--a", "mcts:c=Inf", "--b", "random", "--size", "4"}, `option c="Inf": want a non-negative number`},
		{[]string{"play", "--plycap", "99999999999", "--p1", "random", "--p2", "random"}, "plycap=99999999999: want a whole number from 1 to"},
		{[]string{"train", "--plycap", "99999999999", "--run", dir + "/r"}, "plycap=99999999999: want a whole number from 1 to"},
		{[]string{"match", "--game", "connect4", "--size", "5", "--a", "random", "--b", "random"}, "--size does not apply to connect4"},
		{[]string{"match", "--a", "nosuch", "--b", "random"}, "unknown player kind"},
		{[]string{"match", "--a", "mcts:sims", "--b", "random"}, `player mcts takes no argument ("sims")`},
		{[]string{"match", "--a", "mcts:simz=3", "--b", "random"}, "player mcts: unknown option simz"},
		{[]string{"matchx"}, "unknown command"},
		{[]string{"match", "--nosuch"}, "unknown flag --nosuch"},
		{[]string{"match", "--gmes", "3"}, "unknown flag --gmes; did you mean --games?"},
		{[]string{"match", "--games", "x"}, `--games "x": want a whole number`},
		{[]string{"train", "--every-round=maybe"}, `--every-round "maybe": want true or false`},
		{[]string{"match", "--seed", "-3"}, `--seed "-3": want a whole number of at least 0`},
		{[]string{"match", "--a", "random", "--size"}, "--size needs a value: want a whole number"},
		{[]string{"match", "--games", "0"}, "--games 0: want at least 1"},
		{[]string{"train", "--minutes", "-1", "--run", dir + "/r"}, "--minutes -1: want a value of at least 0"},
		{[]string{"train", "--preset", "nosuch", "--run", dir + "/r"}, `unknown preset "nosuch"`},
		{[]string{"export", "--checkpoint", "x", "--out", dir + "/x.player", "--format", "onnx"}, `--format "onnx": want player or safetensors`},
		{[]string{"export", "--checkpoint", "x"}, "--checkpoint and --out are required"},
		{[]string{"accuracy", "--player", "random"}, "are required"},
	} {
		out, err := runCmd(t, "", c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q\n%s", strings.Join(c.args, " "), err, c.want, out)
		}
		// A bad command line, not a failure while working.
		if err != nil && exitStatus(err) != 2 {
			t.Errorf("%s: exit status %d, want 2", strings.Join(c.args, " "), exitStatus(err))
		}
	}
	if _, err := os.Stat(dir + "/r"); err == nil {
		t.Error("a refused train command left a run folder")
	}
	// Failures while working are 1: a player file that is not there.
	_, err := runCmd(t, "", "match", "--a", "player:"+dir+"/none.player", "--b", "random")
	if err == nil || exitStatus(err) != 1 {
		t.Errorf("a missing player file: %v, exit status %d, want 1", err, exitStatus(err))
	}
}

// A message quotes what it refuses, cut short: a long bad input does not
// come back whole, on the command line or over the engine protocol.
func TestLongBadInputIsQuotedShort(t *testing.T) {
	long := strings.Repeat("q", 5000)
	_, err := runCmd(t, "", "play", "--p1", long, "--p2", "random")
	if err == nil || len(err.Error()) > 400 || !strings.Contains(err.Error(), "unknown player kind") {
		t.Errorf("a 5000-character player: %d characters: %.200v", len(err.Error()), err)
	}
	out, _ := runCmd(t, "foo"+long+"\ngenmove "+long+"\nposition "+long+"\n", "engine", "--player", "random")
	for _, line := range strings.Split(out, "\n") {
		if len(line) > 320 {
			t.Errorf("an engine answer of %d characters: %.100s", len(line), line)
		}
	}
	if strings.Count(out, "?") < 3 {
		t.Errorf("the engine did not refuse all three:\n%.500s", out)
	}
}

// A binary file given as openings is named as such, not quoted as a bad
// position.
func TestBinaryOpeningsAreRefused(t *testing.T) {
	path := t.TempDir() + "/bin.txt"
	os.WriteFile(path, []byte("\x85\xa5magic\x00\x01\x02\n"), 0o644)
	_, err := runCmd(t, "", "match", "--games", "2", "--a", "random", "--b", "random", "--openings", path)
	if err == nil || !strings.Contains(err.Error(), "is not a text file of positions") {
		t.Errorf("binary openings: %v", err)
	}
}
