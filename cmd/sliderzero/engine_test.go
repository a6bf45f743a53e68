package main

import (
	"bufio"
	"github.com/sliderzero/sliderzero/engine"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/match"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// binary is the sliderzero command built once for the tests that run it
// as a subprocess, as other programs will.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sliderzero-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "sliderzero")
	if out, err := exec.Command("go", append(append([]string{"build"}, buildFlags...), "-o", binary, ".")...).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		panic("building sliderzero: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// engineProc is a running "sliderzero engine".
type engineProc struct {
	t   *testing.T
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startEngine(t *testing.T, args ...string) *engineProc {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"engine"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	e := &engineProc{t: t, cmd: cmd, in: in, out: bufio.NewReader(out)}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	return e
}

// send writes a command and reads its response up to the blank line. It
// returns the status line's mark ("=" or "?" with the id) and the result.
func (e *engineProc) send(line string) (mark, result string) {
	e.t.Helper()
	if _, err := io.WriteString(e.in, line+"\n"); err != nil {
		e.t.Fatalf("writing %q: %v", line, err)
	}
	var lines []string
	for {
		l, err := e.out.ReadString('\n')
		if err != nil {
			e.t.Fatalf("reading the answer to %q: %v (so far %q)", line, err, lines)
		}
		l = strings.TrimSuffix(l, "\n")
		if l == "" {
			break
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		e.t.Fatalf("empty answer to %q", line)
	}
	mark, first, _ := strings.Cut(lines[0], " ")
	return mark, strings.Join(append([]string{first}, lines[1:]...), "\n")
}

func (e *engineProc) ok(line string) string {
	e.t.Helper()
	mark, result := e.send(line)
	if !strings.HasPrefix(mark, "=") {
		e.t.Fatalf("%q failed: %s %s", line, mark, result)
	}
	return result
}

// fails checks that a command is refused and that the board and the side
// to move are unchanged by it.
func (e *engineProc) fails(line, wantInMessage string) {
	e.t.Helper()
	before := e.ok("showboard")
	mark, msg := e.send(line)
	if !strings.HasPrefix(mark, "?") {
		e.t.Errorf("%q succeeded: %s", line, msg)
	}
	if !strings.Contains(msg, wantInMessage) {
		e.t.Errorf("%q: message %q lacks %q", line, msg, wantInMessage)
	}
	if after := e.ok("showboard"); after != before {
		e.t.Errorf("%q changed the board:\n%s\nto\n%s", line, before, after)
	}
}

func TestEngineCommands(t *testing.T) {
	e := startEngine(t, "--player", "alphabeta:depth=3")
	if got := e.ok("protocol_version"); got != engine.ProtocolVersion {
		t.Errorf("protocol_version %q", got)
	}
	if got := e.ok("name"); got != "sliderzero" {
		t.Errorf("name %q", got)
	}
	if got := e.ok("version"); got != version {
		t.Errorf("version %q", got)
	}
	list := strings.Split(e.ok("list_commands"), "\n")
	for _, c := range []string{"protocol_version", "name", "version", "list_commands", "known_command", "boardsize",
		"clear_board", "position", "play", "genmove", "legal_moves", "showboard", "result", "set", "quit", "game", "undo", "analyze"} {
		found := false
		for _, l := range list {
			found = found || l == c
		}
		if !found {
			t.Errorf("list_commands lacks %s", c)
		}
		if got := e.ok("known_command " + c); got != "true" {
			t.Errorf("known_command %s = %s", c, got)
		}
	}
	if got := e.ok("known_command fly"); got != "false" {
		t.Errorf("known_command fly = %s", got)
	}
	// Ids are repeated; comments, blank lines, spaces and \r are ignored.
	if mark, res := e.send("# a comment\n\n  7 protocol_version \r"); mark != "=7" || res != engine.ProtocolVersion {
		t.Errorf("with an id: %q %q", mark, res)
	}
	if mark, _ := e.send("8 fly"); mark != "?8" {
		t.Errorf("failure with an id: %q", mark)
	}

	// The example of protocol.md.
	e.ok("boardsize 4")
	if got := e.ok("showboard"); got != "H + + +\nH + + +\nH + + +\n+ V V V\nH" {
		t.Errorf("showboard after boardsize 4:\n%s", got)
	}
	if got := e.ok("legal_moves"); got != "a2R a3R a4R a2D" {
		t.Errorf("legal_moves %q", got)
	}
	if got := e.ok("genmove H"); got == "" {
		t.Error("genmove H returned nothing")
	}
	e.ok("play V " + strings.Fields(e.ok("legal_moves"))[0])
	if got := e.ok("result"); got != "none" {
		t.Errorf("result %q", got)
	}
	e.fails("play V c1U", "it is H's turn")
	e.fails("genmove V", "it is H's turn")

	// Bad input is answered with ? and leaves the state alone.
	e.fails("fly away", "unknown command")
	e.fails("position H+++/H+X+/HB++/+VVV H", "malformed")
	e.fails("position", "usage")
	e.fails("play H z9R", "malformed")
	e.fails("play H a2L", "never moves left")
	e.fails("play H", "usage")
	e.fails("play X a2R", "unknown side")
	e.fails("boardsize 12", "from 3 to 8")
	e.fails("boardsize many", "whole number")
	e.fails("set movetime soon", "movetime")
	e.fails("set visits 0", "visits")
	e.fails("set colour red", "unknown option")
	e.fails("legal_moves now", "usage")

	// position, then a game to its end, then moves after the end.
	e.ok("position +++H/++++/++++/+V++ H")
	if got := e.ok("legal_moves"); got != "d4R d4D" {
		t.Errorf("legal_moves %q", got)
	}
	e.ok("play H d4R")
	if got := e.ok("result"); got != "H" {
		t.Errorf("result %q, want H", got)
	}
	if got := e.ok("legal_moves"); got != "" {
		t.Errorf("legal moves after the end: %q", got)
	}
	e.fails("play V b1U", "over")
	e.fails("genmove V", "over")

	// A forced pass is generated and accepted; a double pass is a tie.
	e.ok("position HB++/BB++/++BB/++BV H")
	if got := e.ok("genmove H"); got != "pass" {
		t.Errorf("walled-in genmove: %q, want pass", got)
	}
	e.ok("play V pass")
	if got := e.ok("result"); got != "tie" {
		t.Errorf("double pass: result %q", got)
	}

	e.ok("clear_board")
	if got := e.ok("showboard"); !strings.HasPrefix(got, "H + + +\n") {
		t.Errorf("clear_board did not give a 4x4 start:\n%s", got)
	}
	e.ok("set movetime 0.05")
	e.ok("set visits 500")
	e.ok("set seed 9")
	e.ok("genmove H")
	if mark, _ := e.send("quit"); mark != "=" {
		t.Errorf("quit: %q", mark)
	}
	if err := e.cmd.Wait(); err != nil {
		t.Errorf("engine exit after quit: %v", err)
	}
}

// Two engine processes, one per side, play a full game with every baseline
// through the protocol alone; a referee engine checks every move.
func TestEngineGamesForEveryBaseline(t *testing.T) {
	specs := []string{"random", "greedy", "alphabeta:depth=3", "mcts:sims=200"}
	for i, specH := range specs {
		specV := specs[(i+1)%len(specs)]
		t.Run(specH+"_vs_"+specV, func(t *testing.T) { engineMatchGame(t, "5", specH, specV) })
	}
}

// engineMatchGame plays one game between two engine processes.
func engineMatchGame(t *testing.T, size, specH, specV string) string {
	t.Helper()
	h := startEngine(t, "--player", specH, "--size", size, "--seed", "3")
	v := startEngine(t, "--player", specV, "--size", size, "--seed", "4")
	ref := startEngine(t, "--player", "random", "--size", size, "--plycap", "100")
	engines := map[string]*engineProc{"H": h, "V": v}
	colour, other := "H", "V"
	for ply := 0; ply < 300; ply++ {
		if ref.ok("result") != "none" {
			break
		}
		move := engines[colour].ok("genmove " + colour)
		ref.ok("play " + colour + " " + move)
		engines[other].ok("play " + colour + " " + move)
		colour, other = other, colour
	}
	res := ref.ok("result")
	if res == "none" {
		t.Fatal("the game did not end within the ply cap")
	}
	for _, e := range []*engineProc{h, v} {
		if got := e.ok("result"); got != res {
			t.Errorf("engines disagree on the result: %s vs %s", got, res)
		}
		if e.ok("showboard") != ref.ok("showboard") {
			t.Error("engines disagree on the board")
		}
	}
	return res
}

func TestEngineRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"engine", "--player", "nobody"},
		{"engine", "--size", "2"},
		{"engine", "--colour", "red"},
		{"engine", "--player", "human"},
		{"play", "--p1", "random", "--p2", "alphabeta:depth=x"},
		{"match", "--games", "0"},
		{"fly"},
	} {
		out, err := exec.Command(binary, args...).CombinedOutput()
		if err == nil {
			t.Errorf("%v succeeded:\n%s", args, out)
			continue
		}
		text := strings.TrimSpace(string(out))
		if strings.Count(text, "\n") > 0 || !strings.HasPrefix(text, "sliderzero: ") {
			t.Errorf("%v: want a one-line error, got:\n%s", args, text)
		}
	}
}

// A trained player brings its game: the engine starts in it without game
// flags, refuses flags that ask for another, and analyses positions.
func TestEngineTakesThePlayersGame(t *testing.T) {
	file := filepath.Join("..", "..", "checkpoints", "slider-5x5.player")
	e := startEngine(t, "--player", "player:"+file+",sims=50")
	if got := e.ok("showboard"); strings.Count(got, "\n") != 5 {
		t.Errorf("the engine did not start on the player's 5x5 board:\n%s", got)
	}
	an := e.ok("analyze 3")
	lines := strings.Split(an, "\n")
	if !strings.HasPrefix(lines[0], "value ") || len(lines) < 2 || len(lines) > 4 {
		t.Errorf("analyze 3:\n%s", an)
	}
	e.ok("genmove H")
	out, err := exec.Command(binary, "engine", "--player", "player:"+file, "--size", "6").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "plays slider") || !strings.Contains(string(out), "--size 6") {
		t.Errorf("a conflicting --size: %v\n%s", err, out)
	}
	// The random layouts need no more than a seed (this once panicked).
	r := startEngine(t, "--blocked", "random", "--size", "6", "--player", "random")
	r.ok("clear_board")
	r.ok("genmove H")
}

// Another program speaking the protocol plays matches; one that dies,
// answers garbage or stays silent loses each game with the reason on
// record, and the match goes on.
func TestExternalEngines(t *testing.T) {
	dir := t.TempDir()
	records := filepath.Join(dir, "games.jsonl")
	ext := "engine:cmd=" + binary + " engine --player alphabeta:depth=2,name=ext"
	out, err := runCmd(t, "", "match", "--a", ext, "--b", "random", "--games", "4", "--size", "4", "--records", records, "--parallel", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "A = ext") {
		t.Errorf("the short name is not shown:\n%s", out)
	}
	recs, err := match.ReadRecords(records)
	if err != nil || len(recs) != 4 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for _, r := range recs {
		if r.End.Forfeit() {
			t.Errorf("a working engine forfeited: %s %s", r.End, r.Detail)
		}
	}
	scripts := map[string]string{
		"garbage.sh": "#!/bin/sh\nwhile read l; do echo garbage; echo; done\n",
		"silent.sh":  "#!/bin/sh\nwhile read l; do :; done\n",
		"dies.sh":    "#!/bin/sh\nread l; exit 3\n",
		// Printing without end once took match to 1.87 GB.
		"flood.sh":    "#!/bin/sh\nread l; yes flood\n",
		"longline.sh": "#!/bin/sh\nread l; head -c 3000000 /dev/zero | tr '\\0' x; echo; echo\n",
	}
	for name, body := range scripts {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ script, end string }{
		{"garbage.sh", string(match.EndIllegal)}, {"silent.sh", string(match.EndTime)}, {"dies.sh", string(match.EndCrash)},
		{"flood.sh", string(match.EndIllegal)}, {"longline.sh", string(match.EndIllegal)},
	} {
		rec := filepath.Join(dir, c.script+".jsonl")
		out, err := runCmd(t, "", "match", "--a", "engine:cmd="+filepath.Join(dir, c.script)+",timeout=0.5", "--b", "random",
			"--games", "2", "--size", "4", "--records", rec)
		if err != nil {
			t.Fatalf("%s: the match failed: %v\n%s", c.script, err, out)
		}
		recs, err := match.ReadRecords(rec)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if string(r.End) != c.end || r.Outcome.Winner == env.Side((r.Number-1)%2) {
				t.Errorf("%s: game %d ended by %q (%s), winner %v", c.script, r.Number, r.End, r.Detail, r.Outcome.Winner)
			}
		}
	}
}
