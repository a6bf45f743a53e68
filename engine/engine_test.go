package engine

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/player"
)

func newEngine(t testing.TB) *Engine {
	t.Helper()
	game := registry.Spec{Name: "slider"}.With("size", "4")
	e, err := New(Config{Name: "test", Version: "0", Game: game, Player: setupFor(t, game, "alphabeta:depth=2"), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// answers splits the engine's output into responses.
func answers(out string) []string {
	out = strings.TrimSuffix(out, "\n\n")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n\n")
}

func TestOneAnswerPerCommand(t *testing.T) {
	e := newEngine(t)
	var out strings.Builder
	in := "protocol_version\n\n# comment\n1 genmove H\nplay V b1D\n  legal_moves  \r\nquit\nname\n"
	if err := e.Run(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	got := answers(out.String())
	want := []string{"= 2", "=1 ", "? illegal move b1D: V never moves down", "= ", "="}
	if len(got) != len(want) {
		t.Fatalf("answers %q, want %d of them (nothing after quit)", got, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("answer %d = %q, want it to start with %q", i, got[i], want[i])
		}
	}
}

// Whatever arrives, the engine answers each command line once with = or ?,
// never panics, and keeps its state consistent.
func FuzzEngine(f *testing.F) {
	for _, s := range []string{
		"boardsize 4\ngenmove H\nplay V b1U\nresult\n",
		"position H+++/H+B+/HB++/+VVV H\nlegal_moves\nshowboard\n",
		"3 set movetime 0.01\nset visits 7\nknown_command play\n",
		"play H pass\nposition HB++/BB++/++BB/++BV H\nplay H pass\nplay V pass\nresult\n",
		"boardsize 9\nclear_board\n12\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if strings.Contains(in, "quit") {
			return
		}
		e := newEngine(t)
		var out strings.Builder
		if err := e.Run(context.Background(), strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		commands := 0
		for _, l := range strings.Split(in, "\n") {
			l = strings.TrimSpace(strings.TrimSuffix(l, "\r"))
			if l != "" && !strings.HasPrefix(l, "#") {
				commands++
			}
		}
		got := answers(out.String())
		if len(got) != commands {
			t.Fatalf("%d commands, %d answers: %q", commands, len(got), out.String())
		}
		for _, a := range got {
			if a[0] != '=' && a[0] != '?' {
				t.Fatalf("answer %q starts with neither = nor ?", a)
			}
		}
		// The state is still a valid position.
		if _, err := slider.ParsePosition(e.state.String()); err != nil && !e.state.Outcome().Over {
			t.Fatalf("state %s no longer parses: %v", e.state, err)
		}
	})
}

// session runs commands on an engine and returns its answers.
func session(t *testing.T, e *Engine, lines ...string) []string {
	t.Helper()
	var out strings.Builder
	if err := e.Run(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	return answers(out.String())
}

func engineWith(t *testing.T, game registry.Spec, spec string) *Engine {
	t.Helper()
	e, err := New(Config{Name: "test", Version: "0", Game: game, Player: setupFor(t, game, spec), Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Random layouts are drawn from the engine's seed (this once panicked).
func TestRandomLayouts(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "6").With("blocked", "random"), "random")
	layouts := map[string]bool{}
	for i := 0; i < 20; i++ {
		got := session(t, e, "clear_board", "showboard")
		layouts[got[1]] = true
	}
	if len(layouts) < 3 {
		t.Errorf("20 new games gave %d layouts", len(layouts))
	}
}

func TestEveryGameOverTheProtocol(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct{ game, side string }{{"rlgame size=6 pawns=4", "W"}, {"catsdogs", "C"}, {"slider size=5", "H"}} {
		got := session(t, e, "game "+c.game, "genmove "+c.side, "legal_moves", "undo", "showboard", "result")
		for i, a := range got {
			if !strings.HasPrefix(a, "=") {
				t.Errorf("game %s, command %d: %q", c.game, i, a)
			}
		}
		if !strings.HasSuffix(got[4], "\n"+c.side) {
			t.Errorf("game %s: after genmove and undo, %q is not %s to move", c.game, got[4], c.side)
		}
	}
	got := session(t, e, "game chess", "game slider colour=red", "game")
	for i, a := range got {
		if !strings.HasPrefix(a, "?") {
			t.Errorf("bad game command %d accepted: %q", i, a)
		}
	}
}

func TestUndo(t *testing.T) {
	e := newEngine(t)
	got := session(t, e, "showboard", "play H a2R", "play V b1U", "undo", "undo", "showboard", "undo")
	if got[5] != got[0] {
		t.Errorf("after two moves and two undos the board is\n%s\nnot\n%s", got[5], got[0])
	}
	if !strings.HasPrefix(got[6], "? nothing to undo") {
		t.Errorf("undo at the start: %q", got[6])
	}
}

// With the tournament server's repetition rule, a side that would lose
// repeats a position to save a tie. Here H's last piece leaves with its
// next move whatever V does, unless V's c3L repeats the position after its
// first move (c3U): the second occurrence ends the game under limit 1.
func TestRepetitionSavesTheLosingSide(t *testing.T) {
	line := []string{"position +++H/+VV+/+++V/++++ V", "play V c3U", "play H d4D", "play V b3R", "play H d3U"}
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), "alphabeta:depth=4")
	got := session(t, e, append(append([]string{"set repetition 1"}, line...), "genmove V", "result")...)
	if got[len(got)-2] != "= c3L" || got[len(got)-1] != "= tie" {
		t.Errorf("with the rule: %q", got)
	}
	e = engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), "alphabeta:depth=4")
	got = session(t, e, append(line, "genmove V", "genmove H", "result")...)
	if got[len(got)-1] != "= H" {
		t.Errorf("without the rule V cannot escape: %q", got)
	}
	// A winning side keeps its win under the rule: H, to move with its last
	// piece on the exit column, leaves and wins rather than repeat.
	e = engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), "alphabeta:depth=4")
	got = session(t, e, "set repetition 1", "position ++VH/+V++/+++V/++++ H", "genmove H", "result")
	if got[len(got)-1] != "= H" {
		t.Errorf("ahead, under the rule: %q", got)
	}
}

// A game clock bounds each move and is spent as the engine thinks.
func TestGameTime(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "5"), "mcts:sims=10000000") // the most sims it takes: the clock stops it
	got := session(t, e, "set gametime 2", "genmove H", "legal_moves")
	if !strings.HasPrefix(got[1], "= ") || got[1] == "= " {
		t.Fatalf("genmove under a clock: %q", got)
	}
	if e.left[0] >= 2*time.Second || e.left[0] <= 0 || e.left[1] != 2*time.Second {
		t.Errorf("time left after one move: H %v, V %v", e.left[0], e.left[1])
	}
}

// The engine answers genmove past its game's usual ply cap: the referee,
// not the engine, ends games.
func TestNoPlyCapUnlessAsked(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), "random")
	lines := []string{"position ++++/H+++/++++/+V++ H"}
	for i := 0; i < 40; i++ {
		lines = append(lines, "play H a3U", "play V b1R", "play H a4D", "play V c1L")
	}
	got := session(t, e, append(lines, "genmove H", "result")...)
	for i, a := range got[:len(got)-1] {
		if !strings.HasPrefix(a, "=") {
			t.Fatalf("command %d (ply %d, past 4x4's cap of 64): %q", i, i, a)
		}
	}
	capped := engineWith(t, registry.Spec{Name: "slider"}.With("size", "4").With("plycap", "64"), "random")
	got = session(t, capped, append(lines, "result")...)
	if got[len(got)-1] != "= tie" {
		t.Errorf("with a cap of 64 the game is a tie by then: %q", got[len(got)-1])
	}
}

func TestBadInputIsRefused(t *testing.T) {
	e := newEngine(t)
	long := strings.Repeat("x", MaxLine+10)
	got := session(t, e, "protocol_version 1", "name x", "quit now", "list_commands all", "version 2",
		"set movetime NaN", "set movetime inf", "set movetime 1e300", "set movetime -1", "set visits 99999999999",
		"set gametime abc", "set repetition -1", "analyze 0", "analyze 3 0", long, "protocol_version")
	for i, a := range got[:len(got)-1] {
		if !strings.HasPrefix(a, "?") {
			t.Errorf("bad command %d accepted: %q", i, a)
		}
	}
	for _, want := range []string{"want a number of seconds", "the time is negative", "at most 3600 seconds", "line too long", "want the number of moves", "more than 0"} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("no answer says %q", want)
		}
	}
	if got[len(got)-1] != "= "+ProtocolVersion {
		t.Errorf("the session did not go on after bad input: %q", got[len(got)-1])
	}
}

// The repetition rule counts as the course's tournament server did: only
// boards reached by a move on the board, not the start (nor positions
// after a pass or an exit). Back at the start after four moves, the start
// has been seen once by that count, so under limit 1 the game goes on; the
// second return is the tie.
func TestRepetitionCountsAsTheServer(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), "random")
	round := []string{"play H b3D", "play V a1R", "play H b2U", "play V b1L"}
	lines := append([]string{"set repetition 1", "position ++++/+H++/++++/V+++ H"}, round...)
	lines = append(lines, "result", round[0], "result")
	got := session(t, e, lines...)
	for i, a := range got {
		if !strings.HasPrefix(a, "=") {
			t.Fatalf("command %d: %q", i, a)
		}
	}
	if got[6] != "= none" || got[8] != "= tie" {
		t.Errorf("back at the start %q, then on the first board counted twice %q; want none, then tie", got[6], got[8])
	}
	// A pass or an exit reaches no counted board.
	s, _ := slider.ParsePosition("+++H/++++/++++/V+++ H")
	exit, _ := s.ParseAction("d4R")
	shuffle, _ := s.ParseAction("d4D")
	if env.CountsMove(s, exit) || !env.CountsMove(s, shuffle) {
		t.Errorf("an exit counts %v, a move on the board %v", env.CountsMove(s, exit), env.CountsMove(s, shuffle))
	}
}

// With tree reuse the opponent's move was once counted twice under the
// rule (the engine's history held it already): the reply found the game
// tied and had no search to play from.
func TestRepetitionWithTreeReuse(t *testing.T) {
	if _, err := os.Stat("../checkpoints/slider-5x5.player"); err != nil {
		t.Skip("no shipped player")
	}
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "5"), "player:../checkpoints/slider-5x5.player")
	got := session(t, e, "set visits 2", "set repetition 1", "play H a5R", "genmove V", "play H a4R", "genmove V")
	for i, a := range got {
		if !strings.HasPrefix(a, "=") {
			t.Errorf("command %d: %q", i+1, a)
		}
	}
	if got[5] == "=" {
		t.Errorf("no move after the second genmove: %q", got)
	}
}

// The game command and boardsize refuse what the command line's flags
// refuse, with the same words (games.Configure checks both): out of range (0
// is never "the default" when given), a setting the game does not have, a
// blocked cell on the edge.
func TestGameSettingsAreChecked(t *testing.T) {
	e := newEngine(t)
	for cmd, want := range map[string]string{
		"boardsize 0":               "size=0: want a whole number from 3 to 8",
		"game slider size=0":        "size=0: want a whole number from 3 to 8",
		"game rlgame pawns=0":       "pawns=0: want a whole number from 1 to 100",
		"game slider pawns=4":       "slider has no setting pawns",
		"game slider base=2":        "slider has no setting base",
		"game catsdogs blocked=c3":  "catsdogs has no setting blocked",
		"game rlgame first=W":       "rlgame has no setting first",
		"game slider blocked=a1":    "on the edge",
		"game slider size=5 size=6": "given twice",
	} {
		got := session(t, e, cmd)
		if !strings.HasPrefix(got[0], "?") || !strings.Contains(got[0], want) {
			t.Errorf("%s: %q, want an error with %q", cmd, got[0], want)
		}
	}
	if got := session(t, e, "game slider size=6 blocked=c3", "showboard"); !strings.HasPrefix(got[0], "=") || !strings.Contains(got[1], "B") {
		t.Errorf("a good game command: %q", got)
	}
}

// A referee's readiness check, GTP's clock commands, and a position given
// with the moves played from it (the game's history: the ply count and
// the repetition rule see them); a bad move there changes nothing.
func TestProtocolThreeCommands(t *testing.T) {
	e := engineWith(t, registry.Spec{Name: "slider"}.With("size", "4"), "random")
	got := session(t, e,
		"isready",
		"time_settings 60 5 1",
		"time_left H 2.5 0",
		"time_left X 1 0",
		"position H+++/H+++/H+++/+VVV H moves a2R c1U",
		"showboard",
		"position H+++/H+++/H+++/+VVV H moves a2R a2R",
		"showboard",
		"genmove H")
	want := []string{"= ready", "=", "=", "? ", "=", "", "? move 2", "", "= "}
	for i, w := range want {
		if w != "" && !strings.HasPrefix(got[i], w) {
			t.Errorf("answer %d: %q, want %q", i+1, got[i], w)
		}
	}
	if !strings.Contains(got[5], "+ H V +") || got[7] != got[5] {
		t.Errorf("the board after the moves:\n%s\nafter the refused line:\n%s", got[5], got[7])
	}
	if e.State().Ply() != 3 {
		t.Errorf("ply %d after two moves from the position and genmove, want 3", e.State().Ply())
	}
}

// setupFor reads a spec of the built-in kinds for a game, as the command
// does; threads as the spec says, else one.
func setupFor(t testing.TB, game registry.Spec, spec string, added ...player.Kind) *player.Setup {
	t.Helper()
	f, err := player.NewFactory(added...)
	if err != nil {
		t.Fatal(err)
	}
	g, err := games.New(game)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Read(spec, g, player.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
