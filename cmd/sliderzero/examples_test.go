package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The example engines of examples/ play whole matches against the
// project's referee without a forfeit: every answer is framed, every move
// legal, on boards of two sizes.
func TestExampleEngines(t *testing.T) {
	goEngine := filepath.Join(t.TempDir(), "engine-go")
	if out, err := exec.Command("go", "build", "-o", goEngine, "../../examples/engine-go").CombinedOutput(); err != nil {
		t.Fatalf("building examples/engine-go: %v\n%s", err, out)
	}
	engines := map[string]string{"go": "engine:cmd=" + goEngine}
	if py, err := exec.LookPath("python3"); err == nil {
		engines["python"] = "engine:cmd=" + py + " ../../examples/engine-python/engine.py"
	} else {
		t.Log("no python3: the Python example is not tried")
	}
	for name, spec := range engines {
		for _, size := range []string{"4", "6"} {
			out, err := runCmd(t, "", "match", "--a", spec, "--b", "random", "--games", "6", "--size", size, "--blocked", "random", "--parallel", "2")
			if err != nil {
				t.Fatalf("%s on %sx%s: %v\n%s", name, size, size, err, out)
			}
			if strings.Contains(out, "losses:") || !strings.Contains(out, "total") {
				t.Errorf("%s on %sx%s lost games other than by the rules:\n%s", name, size, size, out)
			}
		}
	}
}

// An external engine is told the whole game, settings included: our own
// engine, driven as an external program, plays RLGame with a small base
// and few pawns without a forfeit (it used to be told the size only, and
// refused every position).
func TestExternalEngineGetsTheWholeGame(t *testing.T) {
	out, err := runCmd(t, "", "match", "--game", "rlgame", "--size", "6", "--base", "1", "--pawns", "4",
		"--a", "engine:cmd="+binary+" engine --player random", "--b", "random", "--games", "4")
	if err != nil || strings.Contains(out, "losses:") || !strings.Contains(out, "total") {
		t.Errorf("%v\n%s", err, out)
	}
}
