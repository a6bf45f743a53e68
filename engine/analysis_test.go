// Tests of streamed analysis: every analysing player, plies, repetition,
// threads, until stopped.

package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/traintest"
)

// lineReader reads the engine's answers a line at a time, failing the
// test when the engine stops answering.
func lineReader(t *testing.T, rd *bufio.Reader) func() string {
	return func() string {
		t.Helper()
		l, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the engine: %v", err)
		}
		return strings.TrimSuffix(l, "\n")
	}
}

// runPiped runs e on pipes, as a client program would: what is written to
// in reaches it, and its answers come out of the reader.
func runPiped(e *Engine) (in *io.PipeWriter, out *bufio.Reader) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		e.Run(context.Background(), inR, outW)
		outW.Close()
	}()
	return inW, bufio.NewReader(outR)
}

// analyze TOP INTERVAL streams info lines until the budget or the next
// command; stop then answers at once. The latencies of the first info line
// and of stop are logged (figures, not assertions).
func TestStreamedAnalysis(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "5"), "player:../checkpoints/slider-5x5.player")
	inW, rd := runPiped(e)
	line := lineReader(t, rd)
	fmt.Fprintln(inW, "set visits 1000000")
	if l := line(); l != "=" {
		t.Fatalf("set visits: %q", l)
	}
	line()
	t0 := time.Now()
	fmt.Fprintln(inW, "1 analyze 3 0.05")
	if l := line(); l != "=1" {
		t.Fatalf("analyze's first line %q, want =1", l)
	}
	first := line()
	firstAt := time.Since(t0)
	if !strings.HasPrefix(first, "info visits ") || !strings.Contains(first, " move ") || !strings.Contains(first, " pv ") {
		t.Fatalf("an info line: %q", first)
	}
	line() // a second update, so that the search is under way
	t1 := time.Now()
	fmt.Fprintln(inW, "2 stop")
	var last string
	for {
		l := line()
		if l == "" {
			break
		}
		last = l
	}
	if !strings.HasSuffix(last, "done") {
		t.Errorf("the streamed answer's last line %q does not end with done", last)
	}
	if l := line(); l != "=2" {
		t.Errorf("stop answered %q", l)
	}
	stopAt := time.Since(t1)
	line()
	fmt.Fprintln(inW, "set visits 100")
	line()
	line()
	fmt.Fprintln(inW, "3 genmove H")
	if l := line(); !strings.HasPrefix(l, "=3 ") {
		t.Errorf("genmove after a streamed analysis: %q", l)
	}
	inW.Close()
	t.Logf("first info line after %v; stop answered after %v", firstAt.Round(time.Millisecond), stopAt.Round(time.Millisecond))
}

// alphabeta analyses too: its depth, nodes, speed, score and principal
// variation, at once or streamed a depth at a time.
func TestAlphaBetaAnalyses(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), "alphabeta:depth=5")
	got := session(t, e, "analyze")
	if !strings.HasPrefix(got[0], "= depth 5 nodes ") || !strings.Contains(got[0], " pv ") || !strings.Contains(got[0], " 1.0000") {
		t.Errorf("analyze: %q", got[0])
	}
	// Streamed over pipes, the input kept open until the answer ends: the
	// end of the input is a next command that stops the analysis, so a
	// session whose input ends at once cut it short on a loaded machine.
	inW, rd := runPiped(e)
	defer inW.Close()
	line := lineReader(t, rd)
	fmt.Fprintln(inW, "analyze 3 0.01")
	var lines []string
	for l := line(); l != ""; l = line() {
		lines = append(lines, l)
	}
	if len(lines) < 6 || lines[0] != "=" || !strings.HasPrefix(lines[1], "info depth 1 ") || !strings.HasPrefix(lines[5], "info depth 5 ") || !strings.HasSuffix(lines[len(lines)-1], "done") {
		t.Errorf("streamed: %q", lines)
	}
}

// A player without a search refuses to analyse.
func TestRandomDoesNotAnalyse(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), "random")
	got := session(t, e, "analyze", "analyze 3 0.1")
	for i, a := range got {
		if !strings.HasPrefix(a, "?") || !strings.Contains(a, "analyse") {
			t.Errorf("answer %d: %q", i, a)
		}
	}
}

// Plain UCT analyses: its value and its moves by share of the visits.
func TestUCTAnalyses(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), "mcts:sims=500")
	got := session(t, e, "analyze 2")
	lines := strings.Split(got[0], "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "= value ") || len(strings.Fields(lines[1])) != 2 {
		t.Errorf("analyze: %q", got[0])
	}
	// Streamed: info lines with visits, speed, value, and each move's
	// share, visits, value and principal variation, the last one done
	// (the session's end of input stops the search).
	e = engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), "mcts:sims=10000000")
	got = session(t, e, "analyze 2 0.001")
	lines = strings.Split(got[0], "\n")
	last := lines[len(lines)-1]
	if len(lines) < 2 || lines[0] != "=" || !strings.HasPrefix(last, "info visits ") || !strings.HasSuffix(last, " done") ||
		strings.Count(last, " move ") != 2 || !strings.Contains(last, " pv ") {
		t.Errorf("streamed: %q", got[0])
	}
}

// A network with the plies head tells, in a streamed analysis, the plies
// to the end it expects from the position and after each move; one
// without it says nothing of them.
func TestAnalysisShowsPlies(t *testing.T) {
	for _, counts := range []bool{true, false} {
		cfg := traintest.TinyConfig()
		cfg.Net.MovesLeft = counts
		ck := filepath.Join(traintest.Run(t, cfg), train.CheckpointFile)
		e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), "net:checkpoint="+ck+",sims=10000000")
		inW, rd := runPiped(e)
		fmt.Fprintln(inW, "1 analyze 2 0.01")
		var info string
		for !strings.Contains(info, " move ") {
			l, err := rd.ReadString('\n')
			if err != nil {
				t.Fatalf("reading the engine: %v", err)
			}
			info = l
		}
		fmt.Fprintln(inW, "2 stop")
		inW.Close()
		io.Copy(io.Discard, rd)
		want := 0
		if counts {
			want = 3 // the position's and two moves'
		}
		if n := strings.Count(info, " plies "); n != want {
			t.Errorf("plies head %v: %d plies in %q, want %d", counts, n, info, want)
		}
	}
}

// Every player moves and (where it can) analyses on every game with the
// repetition rule on and off: the rule wraps the state, and no player may
// assume its game's concrete state (this once panicked in Connect Four's
// evaluation).
func TestEveryPlayerWithRepetition(t *testing.T) {
	for _, g := range []struct{ game, side string }{{"connect4", "X"}, {"slider size=4", "H"}, {"catsdogs", "C"}, {"rlgame size=6 pawns=4", "W"}} {
		for _, p := range []string{"random", "greedy", "alphabeta:depth=2", "mcts:sims=30"} {
			for _, rep := range []string{"0", "1"} {
				e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), p)
				got := session(t, e, "game "+g.game, "set repetition "+rep, "genmove "+g.side, "genmove "+otherSide(g.side), "analyze 2")
				for i, a := range got[:4] {
					if !strings.HasPrefix(a, "=") {
						t.Errorf("%s, %s, repetition %s: answer %d %q", g.game, p, rep, i, a)
					}
				}
				analyses := p != "random" && p != "greedy"
				if analyses != strings.HasPrefix(got[4], "=") || !analyses && !strings.Contains(got[4], "does not analyse") {
					t.Errorf("%s, %s, repetition %s: analyze %q", g.game, p, rep, got[4])
				}
			}
		}
	}
}

func otherSide(s string) string {
	return map[string]string{"X": "O", "H": "V", "C": "D", "W": "B"}[s]
}

// "set threads N" reaches a network player's search, and the answers of
// a search on several threads are still legal moves and analyses.
func TestSetThreads(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "connect4"}, "player:../checkpoints/connect4.player,sims=200")
	got := session(t, e, "set threads 3", "genmove X", "analyze 3", "set threads 0", "set threads 1", "genmove O")
	if len(got) != 6 {
		t.Fatalf("answers %q", got)
	}
	for i, want := range []string{"=", "= ", "= ", "? threads", "=", "= "} {
		if !strings.HasPrefix(got[i], want) {
			t.Errorf("answer %d: %q, want it to start %q", i+1, got[i], want)
		}
	}
	if n := e.player.(*player.Net).Params().Threads; n != 1 {
		t.Errorf("after set threads 1: %d threads", n)
	}
	// A player that does not search with a network takes the setting and
	// ignores it.
	e = engineWith(t, registry.Spec{Name: "connect4"}, "alphabeta:depth=2")
	if got := session(t, e, "set threads 4", "genmove X"); !strings.HasPrefix(got[0], "=") || !strings.HasPrefix(got[1], "= ") {
		t.Errorf("alphabeta with threads: %q", got)
	}
}

// analyze TOP INTERVAL infinite goes on past the player's budget until
// the next command; players that do not stream are refused, and so is any
// word but infinite.
func TestAnalysisUntilStopped(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "5"), "player:../checkpoints/slider-5x5.player,sims=50,threads=2")
	inW, rd := runPiped(e)
	line := lineReader(t, rd)
	fmt.Fprintln(inW, "1 analyze 3 0.02 infinite")
	if l := line(); l != "=1" {
		t.Fatalf("analyze's first line %q, want =1", l)
	}
	visits := 0
	for visits <= 5000 {
		l := line()
		if !strings.HasPrefix(l, "info visits ") {
			t.Fatalf("an info line: %q", l)
		}
		if strings.HasSuffix(l, "done") {
			t.Fatalf("the search ended by itself at %q", l)
		}
		fmt.Sscanf(l, "info visits %d", &visits)
	}
	fmt.Fprintln(inW, "2 stop")
	for line() != "" {
	}
	if l := line(); l != "=2" {
		t.Errorf("stop answered %q", l)
	}
	inW.Close()

	for _, c := range []struct{ spec, cmd, want string }{
		{"player:../checkpoints/slider-5x5.player", "analyze 3 0.1 forever", "want infinite"},
		{"greedy", "analyze 3 0.1 infinite", "does not stream"},
	} {
		e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "5"), c.spec)
		if got := session(t, e, c.cmd); len(got) != 1 || !strings.Contains(got[0], c.want) {
			t.Errorf("%s with %s: %q, want an error naming %q", c.cmd, c.spec, got, c.want)
		}
	}
}

// every kind of searching player analyses until stopped: past its own
// budget (mcts 50 simulations, alphabeta depth 2).
func TestEveryStreamerAnalysesUntilStopped(t *testing.T) {
	for _, c := range []struct {
		spec string
		past func(info string) bool
	}{
		{"mcts:sims=50", func(l string) bool {
			var v int
			fmt.Sscanf(l, "info visits %d", &v)
			return v > 500
		}},
		{"alphabeta:depth=2", func(l string) bool { return strings.HasPrefix(l, "info depth 4 ") }},
	} {
		e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "5"), c.spec)
		inW, rd := runPiped(e)
		fmt.Fprintln(inW, "analyze 3 0.01 infinite")
		if l, _ := rd.ReadString('\n'); l != "=\n" {
			t.Fatalf("%s: first line %q", c.spec, l)
		}
		for {
			l, err := rd.ReadString('\n')
			if err != nil || strings.HasSuffix(strings.TrimSpace(l), "done") {
				t.Fatalf("%s: the analysis ended by itself: %q %v", c.spec, l, err)
			}
			if c.past(l) {
				break
			}
		}
		fmt.Fprintln(inW, "stop")
		for l, _ := rd.ReadString('\n'); l != "\n"; l, _ = rd.ReadString('\n') {
		}
		if l, _ := rd.ReadString('\n'); l != "=\n" {
			t.Errorf("%s: stop answered %q", c.spec, l)
		}
		inW.Close()
	}
}

// A streamed analysis that is not infinite ends at the player's budget:
// its movetime as well as its visits, with a last line marked done.
func TestStreamedAnalysisKeepsTheMovetime(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "5"), "player:../checkpoints/slider-5x5.player")
	inW, rd := runPiped(e)
	defer inW.Close()
	line := lineReader(t, rd)
	fmt.Fprintln(inW, "set movetime 0.2")
	line()
	line()
	fmt.Fprintln(inW, "1 analyze 2 0.05")
	if l := line(); l != "=1" {
		t.Fatalf("analyze's first line %q, want =1", l)
	}
	var last string
	for l := line(); l != ""; l = line() {
		last = l
	}
	// Unbounded, the search runs until its tree is full (seconds and
	// millions of visits); bounded, it stops after about 0.2 s.
	var visits int
	fmt.Sscanf(last, "info visits %d", &visits)
	if !strings.HasSuffix(last, " done") || strings.Contains(last, "stopped") || visits == 0 || visits >= 400_000 {
		t.Errorf("the last line %q: want the search's own end after 0.2 s", last)
	}
}
