package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/traintest"
)

// exportedPlayer trains a tiny 4x4 network and exports it with the command.
func exportedPlayer(t *testing.T) string {
	t.Helper()
	dir := traintest.Run(t, traintest.TinyConfig())
	out := filepath.Join(t.TempDir(), "slider4.player")
	ck := filepath.Join(dir, train.CheckpointFile)
	if _, err := runCmd(t, "", "export", "--checkpoint", ck, "--out", out, "--game", "catsdogs"); err == nil || !strings.Contains(err.Error(), "not catsdogs") {
		t.Errorf("export --game of another game: %v", err)
	}
	if _, err := runCmd(t, "", "report", "--run", dir, "--game", "rlgame"); err == nil || !strings.Contains(err.Error(), "not rlgame") {
		t.Errorf("report --game of another game: %v", err)
	}
	if _, err := runCmd(t, "", "export", "--checkpoint", ck, "--out", out, "--cpuct", "-1"); err == nil || !strings.Contains(err.Error(), "c_puct=-1 (given as cpuct)") {
		t.Errorf("export --cpuct -1: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused export wrote its file")
	}
	msg, err := runCmd(t, "", "export", "--checkpoint", ck, "--out", out, "--sims", "20", "--cpuct", "0.8", "--game", "slider")
	if err != nil {
		t.Fatal(err)
	}
	if pf, err := player.LoadPlayerFile(out); err != nil {
		t.Error(err)
	} else if pf.Search.CPUCT != 0.8 || pf.Search.Sims != 20 {
		t.Errorf("exported search: %+v; want 20 sims at c_puct 0.8", pf.Search)
	}
	if !strings.Contains(msg, "player written") || !strings.Contains(msg, "Elo") {
		t.Errorf("export said: %s", msg)
	}
	return out
}

// An exported player plays a whole game through the engine protocol,
// against a baseline, on both sides.
func TestExportedPlayerThroughTheEngine(t *testing.T) {
	file := exportedPlayer(t)
	engineMatchGame(t, "4", "player:"+file, "alphabeta:depth=2")
	engineMatchGame(t, "4", "greedy", "player:"+file+",sims=10")
	// The engine refuses to switch the exported 4x4 player to another size.
	e := startEngine(t, "--player", "player:"+file, "--size", "4")
	e.fails("boardsize 5", "plays slider size=4")
}

func TestPlayWithHints(t *testing.T) {
	file := exportedPlayer(t)
	out, err := runCmd(t, "moves\nquit\n", "play", "--p1", "human", "--p2", "player:"+file, "--size", "4", "--seed", "2", "--hints")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "hint: value ") || !strings.Contains(out, "top moves ") {
		t.Errorf("no hints shown:\n%s", out)
	}
	if _, err := runCmd(t, "", "play", "--p1", "random", "--p2", "greedy", "--hints"); err == nil {
		t.Error("--hints without a trained player accepted")
	}
	os.Remove(file)
	if _, err := runCmd(t, "", "play", "--p1", "random", "--p2", "player:"+file); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing player file: %v", err)
	}
}

// A player file given to export comes out with the defaults its flags set
// and its own for the rest, its network unchanged.
func TestExportRebudgetsAPlayer(t *testing.T) {
	file := exportedPlayer(t) // 20 simulations at c_puct 0.8
	out := filepath.Join(t.TempDir(), "again.player")
	if _, err := runCmd(t, "", "export", "--checkpoint", file, "--out", out, "--sims", "35", "--game", "connect4"); err == nil || !strings.Contains(err.Error(), "not connect4") {
		t.Errorf("export --game of another game's player: %v", err)
	}
	if _, err := runCmd(t, "", "export", "--checkpoint", file, "--out", out, "--sims", "0"); err == nil || !strings.Contains(err.Error(), "--sims") {
		t.Errorf("export --sims 0: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused export wrote its file")
	}
	// A folder that does not exist is refused, not made.
	nodir := filepath.Join(filepath.Dir(out), "nodir")
	if _, err := runCmd(t, "", "export", "--checkpoint", file, "--out", filepath.Join(nodir, "x.player")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("export into a missing folder: %v", err)
	}
	if _, err := os.Stat(nodir); err == nil {
		t.Error("export made the missing folder")
	}
	msg, err := runCmd(t, "", "export", "--checkpoint", file, "--out", out, "--sims", "35")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, "35 simulations a move") {
		t.Errorf("export said: %s", msg)
	}
	old, err := player.LoadPlayerFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := player.LoadPlayerFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if pf.Search.Sims != 35 || pf.Search.CPUCT != 0.8 {
		t.Errorf("re-exported search: %+v; want 35 sims at the file's c_puct 0.8", pf.Search)
	}
	if pf.Steps != old.Steps || pf.Games != old.Games || pf.Source != old.Source || !reflect.DeepEqual(pf.Weights, old.Weights) {
		t.Errorf("re-export changed the player's network or record: %+v against %+v", pf, old)
	}
	// An output never replaces the command's input, even with --force,
	// nor a file that exists without it (issue 65).
	before, _ := os.ReadFile(out)
	for _, force := range []string{"--force=false", "--force"} {
		if _, err := runCmd(t, "", "export", "--checkpoint", out, "--out", out, "--time", "0.25", force); err == nil || !strings.Contains(err.Error(), "is one of the command's inputs") {
			t.Errorf("export onto its own checkpoint (%s): %v", force, err)
		}
	}
	again := filepath.Join(filepath.Dir(out), "again-timed.player")
	os.WriteFile(again, []byte("mine"), 0o644)
	if _, err := runCmd(t, "", "export", "--checkpoint", out, "--out", again, "--time", "0.25"); err == nil || !strings.Contains(err.Error(), "exists; give --force") {
		t.Errorf("export onto a file that exists: %v", err)
	}
	if after, _ := os.ReadFile(out); string(after) != string(before) {
		t.Error("a refused export changed its checkpoint")
	}
	if _, err := runCmd(t, "", "export", "--checkpoint", out, "--out", again, "--time", "0.25", "--force"); err != nil {
		t.Fatal(err)
	}
	if pf, err = player.LoadPlayerFile(again); err != nil || pf.Search.Sims != 0 || pf.Search.Time != 250*time.Millisecond {
		t.Errorf("re-exported with --time 0.25: %+v, %v", pf.Search, err)
	}
}
