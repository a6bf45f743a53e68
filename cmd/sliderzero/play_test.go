package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/match"
)

func runCmd(t *testing.T, input string, args ...string) (string, error) {
	t.Helper()
	var out, errOut strings.Builder
	err := run(context.Background(), args, stdio{strings.NewReader(input), &out, &errOut})
	return out.String() + errOut.String(), err
}

func TestPlayBetweenBaselines(t *testing.T) {
	out, err := runCmd(t, "", "play", "--p1", "greedy", "--p2", "random", "--size", "4", "--seed", "5")
	if err != nil {
		t.Fatal(err)
	}
	// The board is drawn after every move, and the result is printed.
	if n := strings.Count(out, "   a b c d\n"); n < 3 {
		t.Errorf("the board was drawn %d times:\n%s", n, out)
	}
	last := strings.TrimSpace(out[strings.LastIndex(strings.TrimSpace(out), "\n"):])
	if !strings.Contains(last, "wins after") && !strings.HasPrefix(last, "tie") {
		t.Errorf("no result line at the end; last line %q", last)
	}
	again, _ := runCmd(t, "", "play", "--p1", "greedy", "--p2", "random", "--size", "4", "--seed", "5")
	if again != out {
		t.Error("the same seed gave a different game")
	}
}

func TestPlayHumanIsAskedAgain(t *testing.T) {
	out, err := runCmd(t, "a2L\nmoves\nb7R\nquit\n", "play", "--p1", "human", "--p2", "random", "--size", "5", "--seed", "1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"illegal move a2L: H never moves left; try again.", "legal moves: a2R a3R a4R a5R a2D",
		"b7 is off the 5x5 board", "game abandoned"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// Every command explains itself. A game whose setting is named like a
// command's own flag (--games, --seed) makes that command panic here: the
// test that tells a new game's author to rename the setting.
func TestHelp(t *testing.T) {
	for cmd := range subcommands() {
		out, err := runCmd(t, "", cmd, "--help")
		if err != nil || !strings.Contains(out, "Usage: sliderzero "+cmd) {
			t.Errorf("%s --help: %v\n%s", cmd, err, out)
		}
	}
	for _, cmd := range []string{"play", "engine", "match"} {
		if out, _ := runCmd(t, "", cmd, "--help"); !strings.Contains(out, "-seed") {
			t.Errorf("%s --help lacks --seed:\n%s", cmd, out)
		}
	}
	out, err := runCmd(t, "", "help")
	if err != nil || !strings.Contains(out, "Commands:") {
		t.Errorf("help: %v\n%s", err, out)
	}
}

func TestMatchReportsAScore(t *testing.T) {
	out, err := runCmd(t, "", "match", "--a", "greedy", "--b", "random", "--games", "6", "--size", "4", "--blocked", "random", "--parallel", "3")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"A as H", "A as V", "total", "score of A: ", "seed "} {
		if !strings.Contains(out, want) {
			t.Errorf("match output lacks %q:\n%s", want, out)
		}
	}
	// Random layouts without --seed are new each run; the printed seed
	// plays them again, whatever the parallelism.
	var seed string
	fmt.Sscanf(out[strings.Index(out, "seed "):], "seed %s", &seed)
	out, _ = runCmd(t, "", "match", "--a", "greedy", "--b", "random", "--games", "6", "--size", "4", "--blocked", "random", "--parallel", "3", "--seed", seed)
	serial, _ := runCmd(t, "", "match", "--a", "greedy", "--b", "random", "--games", "6", "--size", "4", "--blocked", "random", "--parallel", "1", "--seed", seed)
	if strip(serial) != strip(out) {
		t.Errorf("results depend on --parallel:\n%s\n%s", out, serial)
	}
}

// strip drops the progress lines, whose order depends on scheduling.
func strip(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasSuffix(l, " games") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func TestMatchRecordsAndReplay(t *testing.T) {
	path := t.TempDir() + "/games.jsonl"
	out, err := runCmd(t, "", "match", "--a", "greedy", "--b", "random", "--games", "4", "--size", "4", "--records", path, "--sprt", "0,100")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Elo [", "likelihood of superiority", "games saved to"} {
		if !strings.Contains(out, want) {
			t.Errorf("match output lacks %q:\n%s", want, out)
		}
	}
	out, err = runCmd(t, "", "replay", "--records", path, "--number", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "game 2 of") || !strings.Contains(out, "ply 1:") || !strings.Contains(out, "after") {
		t.Errorf("replay output:\n%s", out)
	}
	if _, err := runCmd(t, "", "replay", "--records", path, "--number", "9"); err == nil || !strings.Contains(err.Error(), "holds games 1 to 4") {
		t.Errorf("replay of a missing game: %v", err)
	}
}

func TestTournament(t *testing.T) {
	out, err := runCmd(t, "", "tournament", "--players", "random,greedy,alphabeta:depth=2", "--games", "6", "--size", "4")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"random", "(anchor)", "95% interval", "score of the row player"} {
		if !strings.Contains(out, want) {
			t.Errorf("tournament output lacks %q:\n%s", want, out)
		}
	}
}

// Off a terminal (here /dev/null, a character device) replay prints the
// whole game without waiting.
func TestReplayOffATerminalPrintsTheWholeGame(t *testing.T) {
	path := t.TempDir() + "/games.jsonl"
	if _, err := runCmd(t, "", "match", "--a", "greedy", "--b", "random", "--games", "2", "--size", "4", "--records", path); err != nil {
		t.Fatal(err)
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	cmd := exec.Command(binary, "replay", "--records", path, "--number", "1")
	cmd.Stdin = null
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "wins after") && !strings.Contains(string(out), "tie") {
		t.Errorf("replay stopped before the result:\n%s", out)
	}
	if strings.Contains(string(out), "[Enter") {
		t.Errorf("replay waited for Enter off a terminal:\n%s", out)
	}
}

func TestCommandLineMistakes(t *testing.T) {
	if _, err := runCmd(t, ""); !errors.Is(err, errUsage) {
		t.Errorf("a bare sliderzero: %v, want the usage error (exit 2)", err)
	}
	if _, err := runCmd(t, "", "mach"); err == nil || !strings.Contains(err.Error(), "did you mean match?") {
		t.Errorf("a misspelt command: %v", err)
	}
	if _, err := runCmd(t, "", "match", "--sed", "3"); err == nil || !strings.Contains(err.Error(), "did you mean --seed?") {
		t.Errorf("a misspelt flag: %v", err)
	}
	// Letters swapped are one slip.
	if _, err := runCmd(t, "", "trian"); err == nil || !strings.Contains(err.Error(), "did you mean train?") {
		t.Errorf("a command with letters swapped: %v", err)
	}
	if _, err := runCmd(t, "", "match", "--gmaes", "3"); err == nil || !strings.Contains(err.Error(), "did you mean --games?") {
		t.Errorf("a flag with letters swapped: %v", err)
	}
	if _, err := runCmd(t, "", "play", "--game", "rlgame", "--first", "B"); err == nil || !strings.Contains(err.Error(), "--first does not apply to rlgame") {
		t.Errorf("a Slider flag on RLGame: %v", err)
	}
	if _, err := runCmd(t, "", "play", "--game", "connect4", "--size", "5"); err == nil || !strings.Contains(err.Error(), "--size does not apply to connect4 (its options: --features)") {
		t.Errorf("a setting for a game without it: %v", err)
	}
	out, _ := runCmd(t, "", "train", "--help")
	if !strings.Contains(out, "  --first string\n") || !strings.Contains(out, `(default "random")`) || strings.Contains(out, "(default -1)") {
		t.Errorf("train --help:\n%s", out)
	}
}

func TestRecordsAreNotOverwritten(t *testing.T) {
	path := t.TempDir() + "/games.jsonl"
	args := []string{"match", "--a", "greedy", "--b", "random", "--games", "2", "--size", "4", "--records", path}
	if _, err := runCmd(t, "", args...); err != nil {
		t.Fatal(err)
	}
	if _, err := runCmd(t, "", args...); err == nil || !strings.Contains(err.Error(), "give --append") {
		t.Errorf("a second match onto the same file: %v", err)
	}
	if _, err := runCmd(t, "", append(args, "--append")...); err != nil {
		t.Fatal(err)
	}
	recs, err := match.ReadRecords(path)
	if err != nil || len(recs) != 4 {
		t.Fatalf("%d records after appending, %v", len(recs), err)
	}
	r := recs[0]
	if r.End != match.EndRules && r.End != match.EndPlyCap || r.Number != 1 || r.Date.IsZero() || len(r.Seconds) != len(r.Moves) {
		t.Errorf("record lacks its end, number, date or times: %+v", r)
	}
}

func TestOpeningsAndSPRT(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/open.txt"
	out, err := runCmd(t, "", "openings", "--size", "4", "--count", "4", "--plies", "3", "--judge", "mcts:sims=200", "--out", file)
	if err != nil || !strings.Contains(out, "4 openings written") {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err = runCmd(t, "", "match", "--a", "alphabeta:depth=3", "--b", "random", "--games", "8", "--size", "4",
		"--openings", file, "--sprt", "elo0=0,elo1=200,alpha=0.1,beta=0.1", "--records", dir+"/g.jsonl")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// Off a terminal, progress comes as timestamped lines with the LLR.
	if !strings.Contains(out, "Z 8/8 games: score") && !strings.Contains(out, "SPRT: ") {
		t.Errorf("no progress line:\n%s", out)
	}
	if !strings.Contains(out, "LLR") || !strings.Contains(out, "pairs of games by A's score") {
		t.Errorf("output lacks the LLR or the pairs:\n%s", out)
	}
	recs, err := match.ReadRecords(dir + "/g.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	opens, _ := os.ReadFile(file)
	for i, r := range recs {
		if !strings.Contains(string(opens), r.Start) || (i%2 == 1 && r.Start != recs[i-1].Start) {
			t.Errorf("game %d started from %s", i+1, r.Start)
		}
	}
	if _, err := runCmd(t, "", "match", "--sprt", "elo0=5,elo1=0"); err == nil || !strings.Contains(err.Error(), "elo0 must be below elo1") {
		t.Errorf("a bad SPRT: %v", err)
	}
}

// A bad openings file is named with its line, quoting only a short prefix
// of a long line; a finished game is not an opening.
func TestBadOpenings(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, "long.txt")
	os.WriteFile(long, []byte("# comment\n"+strings.Repeat("x", 20<<20)+"\n"), 0o644)
	finished := filepath.Join(dir, "finished.txt")
	os.WriteFile(finished, []byte("+++++/+++++/+++++/+++++/+VVVV H\n"), 0o644)
	for file, want := range map[string]string{long: "line 2", finished: "is a finished game"} {
		_, err := runCmd(t, "", "match", "--a", "random", "--b", "random", "--games", "2", "--openings", file)
		if err == nil || !strings.Contains(err.Error(), want) || len(err.Error()) > 400 {
			t.Errorf("%s: %.400v", filepath.Base(file), err)
		}
	}
}

// A person at the terminal can ask for the rules, take a move back (with
// the reply), see where the last move went, and keep the game.
func TestPlayUndoHelpAndRecords(t *testing.T) {
	path := t.TempDir() + "/mine.jsonl"
	input := "help\nundo\nd\nundo\n" + strings.Repeat("a\nb\nc\nd\ne\nf\ng\n", 8)
	out, err := runCmd(t, input, "play", "--game", "connect4", "--p2", "random", "--seed", "5", "--records", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Four of your own in a line", "nothing to undo", "2 plies taken back", "X plays d (to d1)", "game added to"} {
		if !strings.Contains(out, want) {
			t.Errorf("play's output lacks %q:\n%s", want, out)
		}
	}
	recs, err := match.ReadRecords(path)
	if err != nil || len(recs) != 1 || recs[0].Moves[0] != "a" || recs[0].Spec.Name != "connect4" {
		t.Fatalf("records: %v, %+v", err, recs)
	}
	// The game kept is the one played after the undo: its first moves are
	// replayable from the start.
	if _, err := recs[0].Replay(nil); err != nil {
		t.Errorf("the kept game does not replay: %v", err)
	}
}

// play takes a trained player's game from its file, as engine does; game
// flags that contradict it are refused.
func TestPlayTakesThePlayersGame(t *testing.T) {
	file := filepath.Join("..", "..", "checkpoints", "slider-6x6.player")
	if _, err := os.Stat(file); err != nil {
		t.Skip("no shipped 6x6 player")
	}
	out, err := runCmd(t, "quit\n", "play", "--p2", "player:"+file)
	if err != nil || !strings.Contains(out, "slider size=6") {
		t.Errorf("play against the 6x6 player: %v\n%s", err, out)
	}
	if _, err := runCmd(t, "quit\n", "play", "--p2", "player:"+file, "--size", "5"); err == nil || !strings.Contains(err.Error(), "asks for another game") {
		t.Errorf("--size 5 against the 6x6 player: %v", err)
	}
}

// tournament takes match's --movetime and --repetition.
func TestTournamentTakesMatchFlags(t *testing.T) {
	out, err := runCmd(t, "", "tournament", "--players", "random;greedy", "--games", "2", "--size", "4", "--movetime", "0.01", "--repetition", "3")
	if err != nil || !strings.Contains(out, "greedy:time=0.01") {
		t.Errorf("%v\n%s", err, out)
	}
	if _, err := runCmd(t, "", "tournament", "--players", "random;greedy", "--movetime", "soon"); err == nil || !strings.Contains(err.Error(), "--movetime") {
		t.Errorf("a bad --movetime: %v", err)
	}
}
