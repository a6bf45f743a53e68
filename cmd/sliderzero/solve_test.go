package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSolveAccuracyAndSolverPlayer(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "t4.table")
	out, err := runCmd(t, "", "solve", "--size", "4", "--blocked", "b3", "--out", table, "--verify", "--positions", "200", "--games-per-pair", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"slider 4x4, blocked b3", "verified: all", "position set real-games: 200", "position set random: 200", "wrote " + table} {
		if !strings.Contains(out, want) {
			t.Errorf("solve output lacks %q:\n%s", want, out)
		}
	}
	misses := filepath.Join(dir, "misses.tsv")
	out, err = runCmd(t, "", "accuracy", "--table", table, "--player", "random;solver:table="+table, "--parallel", "2", "--misses", misses)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// --misses lists random's misses (each gave a won or drawn position
	// away: a move of another class) and none of the perfect player's.
	data, err := os.ReadFile(misses)
	if err != nil {
		t.Fatal(err)
	}
	missLines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(missLines) < 50 {
		t.Errorf("%d misses of random in 400 positions", len(missLines))
	}
	for _, l := range missLines {
		f := strings.Split(l, "\t")
		if len(f) != 8 || f[0] != "random" || f[3] == f[6] || (f[1] != "real-games" && f[1] != "random") {
			t.Errorf("miss line %q", l)
			break
		}
	}
	lines := strings.Split(out, "\n")
	perfect := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "solver:") && strings.Contains(l, "100.0%") {
			perfect++
		}
		if strings.HasPrefix(l, "random ") && strings.Contains(l, " 100.0% [") {
			t.Errorf("random kept every value: %s", l)
		}
	}
	if perfect != 2 {
		t.Errorf("the solver player is not perfect on both sets:\n%s", out)
	}
	// Same seed, same figures, whatever the parallelism.
	a, _ := runCmd(t, "", "accuracy", "--table", table, "--player", "alphabeta:depth=2", "--parallel", "1", "--json")
	b, _ := runCmd(t, "", "accuracy", "--table", table, "--player", "alphabeta:depth=2", "--parallel", "3", "--json")
	if a != b || !strings.Contains(a, `"set":"real-games"`) {
		t.Errorf("results depend on --parallel:\n%s\n%s", a, b)
	}
	// The perfect player never loses a match on its board.
	out, err = runCmd(t, "", "match", "--a", "solver:table="+table, "--b", "alphabeta:depth=4", "--size", "4", "--blocked", "b3", "--games", "6")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "total") {
		t.Errorf("match output:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "total") && !strings.HasSuffix(strings.TrimSpace(l), " 0") {
			t.Errorf("the perfect player lost: %s", l)
		}
	}
	// On another layout it refuses to play.
	_, err = runCmd(t, "", "match", "--a", "solver:table="+table, "--b", "random", "--size", "4", "--blocked", "none", "--games", "2")
	if err == nil || !strings.Contains(err.Error(), "the table is for slider 4x4, blocked b3; the game is slider size=4 blocked=none") {
		t.Errorf("a match on another layout: %v", err)
	}
}

func TestSolveRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--size", "4"}, "--out FILE is required"},
		{[]string{"solve", "--size", "4", "--blocked", "random", "--out", filepath.Join(dir, "x")}, "a table covers one layout"},
		{[]string{"solve", "--size", "9", "--out", filepath.Join(dir, "x")}, "--size 9: want a whole number from 3 to 8"},
		{[]string{"solve", "--size", "4", "--blocked", "a2", "--out", filepath.Join(dir, "x")}, "holds a starting piece"},
		{[]string{"accuracy", "--table", filepath.Join(dir, "missing"), "--player", "random"}, "not found"},
		{[]string{"accuracy", "--player", "random"}, "--player and --set FILE (or --table) are required"},
	} {
		_, err := runCmd(t, "", c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error with %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("a refused solve left a file")
	}
	// A file that is not a table.
	bad := filepath.Join(dir, "bad.table")
	os.WriteFile(bad, []byte("not a table"), 0o644)
	if _, err := runCmd(t, "", "accuracy", "--table", bad, "--player", "random"); err == nil || !strings.Contains(err.Error(), "not a sliderzero file") {
		t.Errorf("a file that is no table: %v", err)
	}
}

// A layout is a set of cells wherever it is compared: a table solved with
// c3,b2 plays a match on b2,c3; and in the engine a position's own blocked
// cells are its game's, so the perfect player takes a position of its
// table's layout though the engine started on another.
func TestLayoutsAreSets(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "t4.table")
	if out, err := runCmd(t, "", "solve", "--size", "4", "--blocked", "c3,b2", "--out", table, "--positions", "20", "--games-per-pair", "1"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out, err := runCmd(t, "", "match", "--a", "solver:table="+table, "--b", "random", "--size", "4", "--blocked", "b2,c3", "--games", "2"); err != nil {
		t.Errorf("a match on the table's layout, given in another order: %v\n%s", err, out)
	}
	out, err := runCmd(t, "position +++H/++B+/+B++/+V++ H\ngenmove H\n", "engine", "--player", "solver:table="+table, "--size", "4", "--blocked", "b2,c3")
	if err != nil || !strings.Contains(out, "=") || strings.Contains(out, "?") {
		t.Errorf("the engine on the table's layout: %v\n%s", err, out)
	}
}

// solve --game connect4 scores its input's positions a line at a time
// (solver.ScoreLines, whose test checks the answers): a bad line is
// answered, reported on standard error and makes the exit status 1 once
// the rest is answered; --weak, --in, --time and --out reach it, and
// --out is written whole.
func TestSolveConnect4Positions(t *testing.T) {
	out, err := runCmd(t, "# a comment\n44444453\n12x\n", "solve", "--game", "connect4", "--table-mb", "16")
	if err == nil || !strings.Contains(err.Error(), "1 of 2 lines were not positions") {
		t.Errorf("error %v, want 1 bad line of 2", err)
	}
	for _, w := range []string{"44444453\t2\t-2 -2 2 - -2 1 -1\n", "12x\terror\tmove 3: malformed move", "line 3: move 3:", "solved 1 position (exact scores; 1 bad lines)"} {
		if !strings.Contains(out, w) {
			t.Errorf("the output lacks %q:\n%s", w, out)
		}
	}

	dir := t.TempDir()
	res := filepath.Join(dir, "scores.txt")
	in := filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("4444445333331221\n4\n"), 0o644)
	if _, err := runCmd(t, "", "solve", "--game", "connect4", "--weak", "--in", in, "--out", res, "--time", "1s", "--table-mb", "16"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(res)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if len(lines) != 2 || lines[0] != "4444445333331221\t1\t0 0 0 - 1 1 0" {
		t.Fatalf("weak results:\n%s", got)
	}
	if f := strings.Split(lines[1], "\t"); len(f) != 4 || f[0] != "4" || !strings.Contains(f[1], "..") || f[3] != "timeout" {
		t.Errorf("a position cut by --time: %q", lines[1])
	}

	// Flags of the other game are refused, and so is a game without a
	// solver here.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--game", "connect4", "--size", "5"}, "--size applies to --game slider"},
		{[]string{"solve", "--time", "1s", "--out", filepath.Join(dir, "t")}, "--time applies to --game connect4"},
		{[]string{"solve", "--game", "connect4", "--in", filepath.Join(dir, "missing")}, "--in"},
		{[]string{"solve", "--game", "chess"}, "chess"},
		// (the list of solved games, whichever more a build has)
		{[]string{"solve", "--game", "catsdogs"}, "solve solves slider (into a table), connect4 (positions)"},
		{[]string{"solve", "--game", "hex", "--size", "12"}, "from 3 to 11"},
	} {
		if _, err := runCmd(t, "", c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error with %q", c.args, err, c.want)
		}
	}
}

// A board with fewer critical positions than --positions asks (3x3 has
// 702 random ones) is solved with what it has: this once drew forever.
func TestSolveSmallBoardEnds(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t3.table")
	got, err := runCmd(t, "", "solve", "--size", "3", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "position set random: 702 critical positions") {
		t.Errorf("output:\n%s", got)
	}
}

// solve --help's example row is what solve prints for it (issue 65: the
// old row for 4453 was not). The example is a position that solves in
// about two seconds, where 4453 took half a minute of a user's wait and of
// the test suite's.
func TestSolveHelpExampleIsWhatSolvePrints(t *testing.T) {
	var row string
	for _, l := range strings.Split(solveAbout, "\n") {
		if f := strings.Split(strings.TrimSpace(l), "\t"); len(f) == 3 && f[0] == "44444453" {
			row = strings.TrimSpace(l)
		}
	}
	if row == "" {
		t.Fatal("solve --help has no example row for 44444453")
	}
	out, err := runCmd(t, "44444453\n", "solve", "--game", "connect4")
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(out, "\n"); first != row {
		t.Errorf("solve prints %q; its help says %q", first, row)
	}
}

// An interrupted solve --game connect4 keeps the lines it answered, the
// cut position with the bounds proven so far, in --out, says so, and
// fails (issue 65: it printed only "context canceled" and lost them);
// --out replaces no file without --force, nor its own --in.
func TestSolveConnect4InterruptedKeepsItsLines(t *testing.T) {
	dir := t.TempDir()
	res, in := filepath.Join(dir, "scores.txt"), filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("4444445333331221\n4\n44444453\n"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var out, errOut strings.Builder
	err := run(ctx, []string{"solve", "--game", "connect4", "--in", in, "--out", res, "--table-mb", "16"}, stdio{strings.NewReader(""), &out, &errOut})
	if err == nil || exitStatus(err) != 1 || !strings.Contains(err.Error(), "solve interrupted after 2 positions") {
		t.Fatalf("error %v, want the interrupt said, status 1", err)
	}
	got, _ := os.ReadFile(res)
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if len(lines) != 2 || lines[0] != "4444445333331221\t12\t0 0 0 - 5 12 0" || !strings.HasPrefix(lines[1], "4\t") || !strings.HasSuffix(lines[1], "\tinterrupted") {
		t.Errorf("--out after the interrupt:\n%s", got)
	}
	for _, args := range [][]string{{"--out", res}, {"--out", in, "--force"}} {
		if _, err := runCmd(t, "", append([]string{"solve", "--game", "connect4", "--in", in, "--table-mb", "16"}, args...)...); err == nil || !strings.Contains(err.Error(), "--out") {
			t.Errorf("solve %v: %v, want --out refused", args, err)
		}
	}
	if again, _ := os.ReadFile(res); string(again) != string(got) {
		t.Error("a refused solve changed its --out")
	}
}
