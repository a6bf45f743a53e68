package main

import (
	"strings"
	"sync"
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
	"github.com/sliderzero/sliderzero/env/registry"
)

var registerKomi sync.Once

// komiFlagsGame registers a game of this test's own, with settings no
// other game has (envtest.SettingsGame).
func komiFlagsGame() {
	registerKomi.Do(func() { registry.Register(envtest.SettingsGame("komiflags")) })
}

// A game's new setting is a flag of every command, with its help, its
// range checked and refused for the games without it, with no change in
// this package.
func TestAGamesOwnSettingIsAFlag(t *testing.T) {
	komiFlagsGame()
	out, _ := runCmd(t, "", "match", "--help")
	// The default game has neither: each default is said in its game's
	// text, not as the flag's.
	for _, want := range []string{"  --komi int\n", "komiflags: points for the second player, 0 to 10, default 5", "  --variant string\n", `, default plain`} {
		if !strings.Contains(out, want) {
			t.Errorf("match --help lacks %q:\n%s", want, out)
		}
	}
	out, err := runCmd(t, "", "match", "--game", "komiflags", "--komi", "3", "--variant", "x", "--a", "random", "--b", "random", "--games", "2")
	if err != nil || !strings.Contains(out, "komiflags komi=3 variant=x") {
		t.Errorf("a match of komiflags: %v\n%s", err, out)
	}
	out, err = runCmd(t, "", "match", "--game", "komiflags", "--a", "random", "--b", "random", "--games", "2")
	if err != nil || !strings.Contains(out, "komiflags komi=5 variant=plain") {
		t.Errorf("a match of komiflags at its defaults: %v\n%s", err, out)
	}
	for args, want := range map[string]string{
		"--game komiflags --komi 11":    "komiflags komi=11: want a whole number from 0 to 10",
		"--game slider --komi 3":        "--komi does not apply to slider",
		"--game komiflags --size 4":     "--size does not apply to komiflags (its options: --komi, --variant)",
		"--game connect4 --variant x":   "--variant does not apply to connect4",
		"--game komiflags --komi three": `--komi "three": want a whole number`,
	} {
		_, err := runCmd(t, "", append([]string{"match", "--a", "random", "--b", "random", "--games", "2"}, strings.Fields(args)...)...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
	// The engine's game command takes the same settings.
	out, err = runCmd(t, "game komiflags komi=2\nshowboard\ngame komiflags komi=12\nquit\n", "engine", "--player", "random")
	if err != nil || !strings.HasPrefix(out, "=\n\n") || !strings.Contains(out, "? komiflags komi=12: want a whole number from 0 to 10") {
		t.Errorf("the engine: %v\n%s", err, out)
	}
}

// A setting the default game does not have shows no default of its own
// in train's help (Connect Four's features once showed "default 1" to a
// Slider run, which refuses it); each game's default is in its text.
func TestNoDefaultForASettingTheDefaultGameLacks(t *testing.T) {
	out, _ := runCmd(t, "", "train", "--help")
	i := strings.Index(out, "  --features int\n")
	if i < 0 {
		t.Fatalf("train --help has no --features:\n%s", out)
	}
	line, _, _ := strings.Cut(out[i+len("  --features int\n"):], "\n")
	if strings.Contains(line, "(default ") || !strings.Contains(line, "default 1") {
		t.Errorf("--features: %s", line)
	}
}
